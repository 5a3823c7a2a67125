"""Nim as a picture: one row of objects per heap, the objects each seat has taken, whose turn
it is and how the match ended. Drawn from ``NimEngine.view`` only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.kit.render.common import (
    INK,
    MARK,
    MUTED,
    Names,
    as_int,
    heading,
    outcome_words,
    seat_label,
    seats_words,
    viewer_words,
)
from games.kit.render.svg import circle, document, group, text

MARGIN = 24
ROW = 40
OBJECT_R = 14
LABEL_W = 110
TOP = 90
OBJECT_FILL = "#e69f00"
TAKEN_FILL = "#eeeeee"


def _ints(value: object) -> list[int]:
    return [as_int(n) for n in value] if isinstance(value, list) else []


def render(view: Mapping[str, Any], names: Names | None = None) -> str:
    heaps = _ints(view.get("heaps"))
    start = _ints(view.get("start")) or heaps
    taken = _ints(view.get("taken"))
    left = set(_ints(view.get("left")))
    to_move = _ints(view.get("to_move"))
    outcome = view.get("outcome")
    if isinstance(outcome, Mapping):
        turn_line = outcome_words(outcome, names)
    else:
        turn_line = f"To move: {seats_words(to_move, names)}"
    limit = view.get("max_take")
    rule = f"take 1 to {limit} from one heap" if isinstance(limit, int) else \
        "take any number from one heap"

    widest = max([*start, 1])
    width = MARGIN * 2 + LABEL_W + widest * 2 * (OBJECT_R + 4) + 40
    body = heading(MARGIN, 32, f"Nim \u00b7 turn {as_int(view.get('turn'))} \u00b7 "
                               f"{as_int(view.get('objects_left'))} objects left",
                   f"{turn_line} \u00b7 {viewer_words(view, names)}")
    y = TOP
    for number, (size, dealt) in enumerate(zip(heaps, start, strict=False)):
        shapes = [text(MARGIN, y + 5, f"Heap {number}: {size}", size=14, fill=INK)]
        for k in range(dealt):
            cx = MARGIN + LABEL_W + k * 2 * (OBJECT_R + 4) + OBJECT_R
            there = k < size
            shapes.append(circle(cx, y, OBJECT_R, fill=OBJECT_FILL if there else TAKEN_FILL,
                                 stroke=INK if there else MUTED, stroke_width=1.5))
        body.append(group(shapes, label=f"Heap {number}: {size} of {dealt} objects left"))
        y += ROW
    y += 10
    body.append(text(MARGIN, y, f"Rule: {rule}; whoever takes the last object wins.", size=13,
                     fill=MUTED))
    y += 30
    for seat, count in enumerate(taken):
        status = " (left)" if seat in left else ""
        if seat in to_move:
            body.append(text(MARGIN, y, MARK, size=13, fill=INK))
        body.append(text(MARGIN + 24, y, f"{seat_label(seat, names)}{status}: {count} taken",
                         size=14, fill=INK))
        y += 26
    height = y + MARGIN

    desc = " ".join([
        f"Nim, turn {as_int(view.get('turn'))}, {as_int(view.get('objects_left'))} objects "
        f"left in {len(heaps)} heaps.",
        turn_line + ".",
        "Heaps: " + ", ".join(f"heap {i} holds {n} of {s}"
                              for i, (n, s) in enumerate(zip(heaps, start, strict=False)))
        + ".",
        f"Rule: {rule}.",
        "Taken: " + ", ".join(f"{seat_label(seat, names)} {count}"
                              for seat, count in enumerate(taken)) + ".",
    ])
    return document(width=width, height=height, title=f"Nim: {turn_line}", desc=desc,
                    body=body)
