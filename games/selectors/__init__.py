"""Every read of matches, seats, moves and feeds that the HTTP layer and the services use."""

from games.selectors.matches import (
    PUBLIC_STATUSES,
    TAKEOVER_LEVEL,
    bot_list,
    game_engine,
    game_list,
    invitations_for,
    match_access,
    match_detail,
    match_events,
    match_inbox,
    match_list,
    match_loaded,
    match_move_log,
    match_moves_for_user,
    match_reread,
    match_seats,
    match_summary,
    match_visible,
    matches_awaiting,
    seat_bot_level,
    seat_of,
    seat_summary,
    seats_prefetch,
    user_must_act,
)

__all__ = ["PUBLIC_STATUSES", "TAKEOVER_LEVEL", "bot_list", "game_engine", "game_list",
           "invitations_for", "match_access", "match_detail", "match_events", "match_inbox",
           "match_list", "match_loaded", "match_move_log", "match_moves_for_user", "match_reread",
           "match_seats", "match_summary", "match_visible", "matches_awaiting", "seat_bot_level",
           "seat_of", "seat_summary", "seats_prefetch", "user_must_act"]
