"""Nibble's nine disc colours, each with a letter for colour-blind players."""

from __future__ import annotations

from games.kit.render.palette import DARK_INK, LIGHT_INK, UNKNOWN, Swatch

# Colour ids 0-8 in the order BGA uses (RULES.md). Black is K, as in print; grey is A (grAy) so
# that no two letters clash with green, red or blue.
NIBBLE_COLOURS: tuple[Swatch, ...] = (
    Swatch("green", "green", "#009e73", "G", LIGHT_INK),
    Swatch("purple", "purple", "#7b3294", "P", LIGHT_INK),
    Swatch("red", "red", "#d7301f", "R", LIGHT_INK),
    Swatch("yellow", "yellow", "#f0e442", "Y", DARK_INK),
    Swatch("orange", "orange", "#f28e2b", "O", DARK_INK),
    Swatch("blue", "blue", "#1f5fbf", "B", LIGHT_INK),
    Swatch("white", "white", "#ffffff", "W", DARK_INK),
    Swatch("gray", "grey", "#9a9a9a", "A", DARK_INK),
    Swatch("black", "black", "#1a1a1a", "K", LIGHT_INK),
)


def nibble_colour(colour_id: object) -> Swatch:
    """The swatch of a colour id; the unknown swatch for anything that is not one."""
    if isinstance(colour_id, int) and not isinstance(colour_id, bool) \
            and 0 <= colour_id < len(NIBBLE_COLOURS):
        return NIBBLE_COLOURS[colour_id]
    return UNKNOWN
