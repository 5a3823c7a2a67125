"""Nimalia's terrains, animals and objective colours, each told by a letter (terrains also by a
pattern) as well as by colour."""

from __future__ import annotations

from games.kit.render.palette import DARK_INK, LIGHT_INK, Swatch, by_name, pattern
from games.kit.render.svg import el, line

# Terrains: a fill, a pattern over it and a letter in the square's corner.
TERRAINS: dict[str, Swatch] = by_name(
    Swatch("lake", "lake", "#7fb8e6", "L", DARK_INK, "pat-lake"),
    Swatch("savannah", "savannah", "#f2d16b", "S", DARK_INK, "pat-savannah"),
    Swatch("ice", "ice", "#eef4f8", "I", DARK_INK, "pat-ice"),
    Swatch("forest", "forest", "#7bbf6a", "F", DARK_INK, "pat-forest"),
)

# Animals: an abbreviation of two letters, unique among the nine, and the name for people.
ANIMALS: dict[str, tuple[str, str]] = {
    "flamingo": ("Fl", "flamingo"),
    "crocodile": ("Cr", "crocodile"),
    "lion": ("Li", "lion"),
    "giraffe": ("Gi", "giraffe"),
    "polar_bear": ("PB", "polar bear"),
    "penguin": ("Pe", "penguin"),
    "gorilla": ("Go", "gorilla"),
    "panda": ("Pa", "panda"),
    "otter": ("Ot", "otter"),
}

OBJECTIVE_COLOURS: dict[str, Swatch] = by_name(
    Swatch("yellow", "yellow", "#f0e442", "Y", DARK_INK),
    Swatch("blue", "blue", "#4a90d9", "B", DARK_INK),
    Swatch("green", "green", "#2e9e44", "G", LIGHT_INK),
    Swatch("red", "red", "#d7301f", "R", LIGHT_INK),
)

_MARK: dict[str, object] = {"stroke": "#000000", "stroke_opacity": 0.22, "stroke_width": 1.2,
                            "fill": "none"}

# The terrains' patterns: waves (lake), dots (savannah), a diagonal hatch (ice), upright strokes
# (forest). Each survives greyscale printing.
PATTERN_DEFS: tuple[str, ...] = (
    pattern("pat-lake", 12, el("path", d="M0 6 q3 -3 6 0 t6 0", **_MARK)),
    pattern("pat-savannah", 8, el("circle", cx=4, cy=4, r=1.1, fill="#000000",
                                  fill_opacity=0.25)),
    pattern("pat-ice", 10, line(0, 10, 10, 0, **_MARK)),
    pattern("pat-forest", 8, line(4, 1, 4, 7, **_MARK)),
)
