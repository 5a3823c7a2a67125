"""Every write to a match and its neighbours; the only modules that write match rows."""

from games.services.matches import (
    SeatSpec,
    match_abort,
    match_abort_locked,
    match_create,
    match_decline,
    match_join,
    match_move_preview,
    match_move_submit,
    match_resign,
    match_system_step_run,
    seat_forfeit,
    transition_record,
)

__all__ = ["SeatSpec", "match_abort", "match_abort_locked", "match_create", "match_decline",
           "match_join", "match_move_preview", "match_move_submit", "match_resign",
           "match_system_step_run", "seat_forfeit", "transition_record"]
