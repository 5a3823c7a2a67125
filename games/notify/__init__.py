"""Notifications for players who are not looking: Web Push and email.

The per-user feed (``games.models.UserEvent``, written by ``games.services.notifications``)
is the source: after the transaction that wrote new entries commits, one Celery task
(``games.notify_deliver``) decides per entry, person and channel what to send, and records each
decision as a ``Delivery`` keyed by (feed entry, channel), so nothing is ever sent twice.
A notification says what the player's own feed entry says and nothing more.
"""
