"""Words every renderer shares: who a seat is, whose turn it is, how the match ended."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.render.svg import INK as INK  # re-exported: the renderers' ink
from games.kit.render.svg import text

Names = Sequence[str | None]

MUTED = "#5a5a5a"
MARK = "\u25b6"  # the "to act" arrow, so whose turn it is never rests on colour alone


def seat_label(seat: int, names: Names | None = None) -> str:
    """``alice (seat 1)`` when the seat's player is known, else ``seat 1``: seats are numbered
    from 1 in the pictures, as on the match page and in the move log (seat index + 1)."""
    name = names[seat] if names is not None and 0 <= seat < len(names) else None
    return f"{name} (seat {seat + 1})" if name else f"seat {seat + 1}"


def seats_words(seats: Sequence[int], names: Names | None = None) -> str:
    return ", ".join(seat_label(seat, names) for seat in seats) or "nobody"


def viewer_words(view: Mapping[str, Any], names: Names | None = None) -> str:
    you = view.get("you")
    return f"Seen by {seat_label(you, names)}" if isinstance(you, int) else "Spectator view"


def reason_words(reason: object) -> str:
    return str(reason or "").replace("_", " ")


def outcome_words(outcome: Mapping[str, Any], names: Names | None = None) -> str:
    """``Finished (deadlock): alice (seat 0) wins`` or, for shared first places, ``... win``."""
    winners = [w for w in outcome.get("winners", []) if isinstance(w, int)]
    reason = reason_words(outcome.get("reason"))
    head = f"Finished ({reason})" if reason else "Finished"
    if not winners:
        return head
    verb = "wins" if len(winners) == 1 else "win"
    return f"{head}: {seats_words(winners, names)} {verb}"


def heading(x: float, y: float, title: str, subtitle: str) -> list[str]:
    """The two lines at the top of every picture."""
    return [text(x, y, title, size=20, weight="bold", fill=INK),
            text(x, y + 22, subtitle, size=14, fill=MUTED)]


def as_int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default
