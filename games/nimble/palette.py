"""Nimble's six card colours, each with a letter for colour-blind players (the rulebook warns
that some are easy to confuse)."""

from __future__ import annotations

from games.kit.render.palette import DARK_INK, LIGHT_INK, Swatch, by_name

NIMBLE_COLOURS: dict[str, Swatch] = by_name(
    Swatch("red", "red", "#d7301f", "R", LIGHT_INK),
    Swatch("orange", "orange", "#f28e2b", "O", DARK_INK),
    Swatch("beige", "beige", "#e8d8b0", "B", DARK_INK),
    Swatch("light_blue", "light blue", "#8ecae6", "L", DARK_INK),
    Swatch("green", "green", "#2e9e44", "G", LIGHT_INK),
    Swatch("purple", "purple", "#7b3294", "P", LIGHT_INK),
)
