"""Helpers for drawing a match: each game's renderer (``GameSpec.render``) turns one viewer's
view into an SVG document.

A renderer gets the engine's ``view`` for one viewer (and optionally the seats' player names,
which the match summary shows anyway) and nothing else: never the stored state. Whatever the
view hides (another seat's Nimalia hand, the order of a Nimble Set, the seed while the match
runs) therefore cannot reach the picture. Every colour is also told by a letter (and Nimalia's
terrains by a pattern), for colour-blind players.
"""

MEDIA_TYPE = "image/svg+xml"
# Bump when the pictures change, so clients holding an old picture's ETag get the new one.
REVISION = 1
