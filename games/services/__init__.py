"""Every write to a match and its neighbours; the only modules that write match rows.

``locking.match_lock`` is the one way to lock a match; ``_recording`` (private to this package)
is the one path that records its transitions; ``scheduling`` enqueues, by task name and after
commit, what becomes due. The modules below hold the services, by what they change.
"""

from games.services.bots import (
    bot_account_ensure,
    bot_accounts_ensure,
    bot_levels,
    bot_username,
    match_bot_move_play,
    match_bot_race_tick,
)
from games.services.clocks import player_time_zone_change
from games.services.deadlines import deadlines_sweep, match_deadline_expire
from games.services.due import due_work_sweep
from games.services.leaving import match_abort, match_resign
from games.services.locking import LockedMatch, match_lock
from games.services.matches import (
    SeatSpec,
    match_create,
    match_decline,
    match_join,
    match_rematch,
)
from games.services.moves import (
    MoveResult,
    match_move_preview,
    match_move_submit,
    move_fingerprint,
    request_fingerprint,
)
from games.services.plans import PlanView, plan_delete, plan_get, plan_save
from games.services.ratings import match_rate
from games.services.reminders import (
    match_reminders_send,
    player_reminders_recount,
    reminders_sweep,
)
from games.services.system import match_system_step_run
from games.services.vacations import (
    auto_vacation_set,
    vacation_end,
    vacation_run_out,
    vacation_start,
    vacation_warn,
    vacations_sweep,
)

__all__ = ["LockedMatch", "MoveResult", "SeatSpec", "auto_vacation_set", "bot_account_ensure",
           "bot_accounts_ensure", "bot_levels", "bot_username", "deadlines_sweep", "due_work_sweep",
           "match_abort", "match_bot_move_play", "match_bot_race_tick", "match_create",
           "match_deadline_expire", "match_decline", "match_join", "match_lock",
           "match_move_preview", "match_move_submit", "match_rate", "match_rematch",
           "match_reminders_send", "match_resign", "match_system_step_run", "move_fingerprint",
           "PlanView", "plan_delete", "plan_get", "plan_save",
           "player_reminders_recount", "player_time_zone_change", "reminders_sweep",
           "request_fingerprint", "vacation_end", "vacation_run_out", "vacation_start",
           "vacation_warn", "vacations_sweep"]
