"""Colours of the three games, each with a letter (and for terrains a pattern too), so nothing in a
picture is told apart by colour alone. The fills lean on the Okabe-Ito palette where a game's
colour name allows it; the letter is what a colour-blind player reads."""

from __future__ import annotations

from dataclasses import dataclass

from games.kit.render.svg import el, line, rect


@dataclass(frozen=True)
class Swatch:
    name: str      # the game's own name ("light_blue")
    label: str     # for people ("light blue")
    fill: str
    letter: str    # drawn on every piece of this colour
    ink: str       # text colour readable on ``fill``
    pattern: str | None = None  # id of a <pattern> in PATTERN_DEFS drawn over ``fill``

    @property
    def legend(self) -> str:
        return f"{self.letter} = {self.label}"


DARK_INK = "#111111"
LIGHT_INK = "#ffffff"
UNKNOWN = Swatch("unknown", "unknown", "#cccccc", "?", DARK_INK)

# Nibble colour ids 0-8 in the order BGA uses (games/nibble/RULES.md). Black is K, as in print;
# grey is A (grAy) so that no two letters clash with green, red or blue.
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
    if isinstance(colour_id, int) and not isinstance(colour_id, bool) \
            and 0 <= colour_id < len(NIBBLE_COLOURS):
        return NIBBLE_COLOURS[colour_id]
    return UNKNOWN


# Nimble's six card colours (the rulebook warns that some are easy to confuse).
NIMBLE_COLOURS: dict[str, Swatch] = {swatch.name: swatch for swatch in (
    Swatch("red", "red", "#d7301f", "R", LIGHT_INK),
    Swatch("orange", "orange", "#f28e2b", "O", DARK_INK),
    Swatch("beige", "beige", "#e8d8b0", "B", DARK_INK),
    Swatch("light_blue", "light blue", "#8ecae6", "L", DARK_INK),
    Swatch("green", "green", "#2e9e44", "G", LIGHT_INK),
    Swatch("purple", "purple", "#7b3294", "P", LIGHT_INK),
)}

# Nimalia terrains: a fill, a pattern over it and a letter in the square's corner.
TERRAINS: dict[str, Swatch] = {swatch.name: swatch for swatch in (
    Swatch("lake", "lake", "#7fb8e6", "L", DARK_INK, "pat-lake"),
    Swatch("savannah", "savannah", "#f2d16b", "S", DARK_INK, "pat-savannah"),
    Swatch("ice", "ice", "#eef4f8", "I", DARK_INK, "pat-ice"),
    Swatch("forest", "forest", "#7bbf6a", "F", DARK_INK, "pat-forest"),
)}

# Nimalia animals: an abbreviation of two letters, unique among the nine.
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

# Nimalia objective colours.
OBJECTIVE_COLOURS: dict[str, Swatch] = {swatch.name: swatch for swatch in (
    Swatch("yellow", "yellow", "#f0e442", "Y", DARK_INK),
    Swatch("blue", "blue", "#4a90d9", "B", DARK_INK),
    Swatch("green", "green", "#2e9e44", "G", LIGHT_INK),
    Swatch("red", "red", "#d7301f", "R", LIGHT_INK),
)}


def lookup(table: dict[str, Swatch], name: object) -> Swatch:
    return table.get(name, UNKNOWN) if isinstance(name, str) else UNKNOWN


def _pattern(pattern_id: str, size: int, *marks: str) -> str:
    return el("pattern", list(marks), id=pattern_id, width=size, height=size,
              patternUnits="userSpaceOnUse")


_MARK = {"stroke": "#000000", "stroke_opacity": 0.22, "stroke_width": 1.2, "fill": "none"}

# Terrain patterns: waves (lake), dots (savannah), a diagonal hatch (ice), upright strokes
# (forest). Each survives greyscale printing.
PATTERN_DEFS: tuple[str, ...] = (
    _pattern("pat-lake", 12, el("path", d="M0 6 q3 -3 6 0 t6 0", **_MARK)),
    _pattern("pat-savannah", 8, el("circle", cx=4, cy=4, r=1.1, fill="#000000",
                                   fill_opacity=0.25)),
    _pattern("pat-ice", 10, line(0, 10, 10, 0, **_MARK)),
    _pattern("pat-forest", 8, line(4, 1, 4, 7, **_MARK)),
)


def patterned(x: float, y: float, width: float, height: float, swatch: Swatch,
              **values: object) -> list[str]:
    """A rectangle in the swatch's fill with its pattern drawn over it."""
    shapes = [rect(x, y, width, height, fill=swatch.fill, **values)]
    if swatch.pattern:
        shapes.append(rect(x, y, width, height, fill=f"url(#{swatch.pattern})"))
    return shapes
