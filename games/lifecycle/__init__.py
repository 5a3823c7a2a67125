"""The account's life seen from the games: closing an account (leaving its matches), deleting
it once due (every kind of data the server holds about the player, step by step), exporting a
player's data, and the password reset mail.

The account's own rows and rules are ``accounts``' (``accounts.closing``, ``accounts.services``);
this package adds what touches matches, ratings and notifications, which ``accounts`` may not
import. Deletion and export are each a registry of per-kind steps (``erasure.STEPS``,
``export.SECTIONS``): a new kind of data a player owns adds one line to each.
"""
