"""Whether a player has somewhere to be told something: a push device or a verified address.

Over-inclusive on purpose (a device while push is unconfigured, a mail kind switched off): the
services use it only to spare the notification task when nobody could be told anything. It is
registered with them when the app starts (``games.notify.apps``)."""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models import BooleanField
from django.db.models.expressions import RawSQL

from games.notify.models import NotificationSettings, PushSubscription


@cache
def user_reachable(user_column: str) -> RawSQL:
    """The condition, on a row whose column ``user_column`` (quoted SQL, e.g.
    ``"games_seat"."user_id"``) holds a user id, that the user has a push device or a verified
    address: two indexed EXISTS subqueries on this app's own tables. Written as SQL and built
    once per column, as compiling two ORM subqueries on every move costs about as much as the
    lock itself."""
    quote = connection.ops.quote_name
    devices = quote(PushSubscription._meta.db_table)
    settings = quote(NotificationSettings._meta.db_table)
    return RawSQL(
        f"(EXISTS (SELECT 1 FROM {devices} d WHERE d.user_id = {user_column})"
        f" OR EXISTS (SELECT 1 FROM {settings} n WHERE n.user_id = {user_column}"
        " AND n.verified_email <> ''))", (), output_field=BooleanField())
