"""Notifications for players who are not looking: Web Push and email.

The per-user feed (``games.models.UserEvent``, written by ``games.services.notifications``)
is the source: after the transaction that wrote new entries commits, one Celery task
(``games.notify_deliver``) decides per entry, person and channel what to send, and records each
decision as a ``Delivery`` keyed by (feed entry, channel), so nothing is ever sent twice.
A notification says what the player's own feed entry says and nothing more.

The modules: ``delivery`` decides and sends an entry's notification, ``sending`` pushes or
mails one delivery, ``records`` claims and finishes the delivery rows, ``entries`` reads the
entries told (a finished match with its rating change), ``limits`` holds the "your turn" limit
and the player having looked, ``sweeps`` the sweep of lost and stuck deliveries, ``digest`` the
daily mail digest, ``devices`` the push subscriptions, ``preferences`` a person's settings,
address and unsubscribing; ``kinds`` the words, ``push`` and ``mail`` the two channels' wire.
"""
