"""Swatches: a colour that always comes with a letter (and optionally a pattern), so nothing in
a picture is told apart by colour alone. Each game keeps its own colour tables beside its
renderer; the fills lean on the Okabe-Ito palette where a game's colour name allows it, and the
letter is what a colour-blind player reads."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.kit.render.svg import el, rect


@dataclass(frozen=True)
class Swatch:
    name: str      # the game's own name ("light_blue")
    label: str     # for people ("light blue")
    fill: str
    letter: str    # drawn on every piece of this colour
    ink: str       # text colour readable on ``fill``
    pattern: str | None = None  # id of a <pattern> in the picture's defs drawn over ``fill``

    @property
    def legend(self) -> str:
        return f"{self.letter} = {self.label}"


DARK_INK = "#111111"
LIGHT_INK = "#ffffff"
UNKNOWN = Swatch("unknown", "unknown", "#cccccc", "?", DARK_INK)


def by_name(*swatches: Swatch) -> dict[str, Swatch]:
    """A colour table keyed by each swatch's name, in the order given."""
    return {swatch.name: swatch for swatch in swatches}


def lookup(table: Mapping[str, Swatch], name: object) -> Swatch:
    """The swatch called ``name``; :data:`UNKNOWN` for anything else."""
    return table.get(name, UNKNOWN) if isinstance(name, str) else UNKNOWN


def pattern(pattern_id: str, size: int, *marks: str) -> str:
    """A square ``<pattern>`` tile of ``size`` user units drawing ``marks``, for a picture's
    defs; a swatch names it by ``pattern_id``."""
    return el("pattern", list(marks), id=pattern_id, width=size, height=size,
              patternUnits="userSpaceOnUse")


def patterned(x: float, y: float, width: float, height: float, swatch: Swatch,
              **values: object) -> list[str]:
    """A rectangle in the swatch's fill with its pattern drawn over it."""
    shapes = [rect(x, y, width, height, fill=swatch.fill, **values)]
    if swatch.pattern:
        shapes.append(rect(x, y, width, height, fill=f"url(#{swatch.pattern})"))
    return shapes
