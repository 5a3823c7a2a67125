"""People in matches: match chat, players' reports and the moderators' answers to them.

Follows, friends, blocks and who may invite whom are the account's own (``accounts.follows``,
``accounts.blocks``, ``accounts.invitations``); this app reads them. The modules: ``models``
the rows, ``chat`` saying a line (limits, links, duplicates), ``lines`` which lines a viewer
gets, ``notices`` the throttled chat feed entries, ``live`` the chat's long-poll and stream,
``reports`` filing a report, ``moderation`` the staff's answers, ``sweeps`` how long lines and
reports are kept, ``api`` the HTTP endpoints, ``admin`` the moderators' queue.
"""
