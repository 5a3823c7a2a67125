"""Nibble as a picture: the 9x9 board, the colour table, both collections and whose turn it is.

Drawn from ``NibbleEngine.view`` only (games/nibble/RULES.md, "The view"). Every disc carries its
colour's letter; the legend says which letter is which colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from games.kit.render.svg import centred, circle, document, group, line, rect, text
from games.nibble.palette import NIBBLE_COLOURS, nibble_colour

SIZE = 9
CELL = 44
DISC_R = 18
MARGIN = 24
BOARD_X = MARGIN + 20  # room for the row numbers
BOARD_Y = 96           # below the heading and the column numbers
PANEL_X = BOARD_X + SIZE * CELL + 36
SWATCH = 34            # width of one colour column in the right-hand panel
NAME_W = 150           # width of the seat-name column of the collections table
WIDTH = PANEL_X + NAME_W + SIZE * SWATCH + 64 + MARGIN
HEIGHT = BOARD_Y + SIZE * CELL + 64


def render(view: Mapping[str, Any], names: Names | None = None) -> str:
    board = _board(view.get("board"))
    order = [c for c in view.get("color_order") or range(SIZE) if isinstance(c, int)]
    collections = [list(counts) for counts in view.get("collections") or []]
    majorities = list(view.get("majorities") or [])
    to_move = [s for s in view.get("to_move") or [] if isinstance(s, int)]
    outcome = view.get("outcome")
    turn_line = _turn_line(view, to_move, outcome, names)

    body = heading(MARGIN, 32, f"Nibble \u00b7 turn {as_int(view.get('turn'))} \u00b7 "
                               f"{as_int(view.get('discs_left'))} discs left",
                   f"{turn_line} \u00b7 {viewer_words(view, names)}")
    body += _board_shapes(board)
    y = BOARD_Y
    body += _colour_table(order, y)
    y += 92
    body += _collections(collections, majorities, order, to_move, outcome, names, y)
    y += 40 + 30 * max(len(collections), 2) + 50
    body += _legend(y)

    desc = " ".join([
        f"Nibble board, turn {as_int(view.get('turn'))}, "
        f"{as_int(view.get('discs_left'))} discs left.",
        turn_line + ".",
        "Each disc shows its colour's letter: "
        + ", ".join(swatch.legend for swatch in NIBBLE_COLOURS) + ".",
        "Colour table, left to right: "
        + " ".join(nibble_colour(c).letter for c in order) + ".",
        *(_collection_words(seat, counts, majorities, names)
          for seat, counts in enumerate(collections)),
        "Board rows from the top, '.' for an empty cell:",
        " / ".join(" ".join("." if cell is None else nibble_colour(cell).letter
                            for cell in row) for row in board) + ".",
    ])
    return document(width=WIDTH, height=HEIGHT, title=f"Nibble: {turn_line}", desc=desc,
                    body=body)


def _board(rows: object) -> list[list[int | None]]:
    board: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    if isinstance(rows, Sequence):
        for r, row in enumerate(list(rows)[:SIZE]):
            if isinstance(row, Sequence):
                for c, cell in enumerate(list(row)[:SIZE]):
                    board[r][c] = cell if isinstance(cell, int) else None
    return board


def _turn_line(view: Mapping[str, Any], to_move: list[int], outcome: object,
               names: Names | None) -> str:
    if isinstance(outcome, Mapping):
        return outcome_words(outcome, names)
    line_ = f"{seats_words(to_move, names)} to move" if to_move else "Nobody to move"
    if view.get("decided"):
        line_ += " (the result is settled)"
    return line_


def _board_shapes(board: list[list[int | None]]) -> list[str]:
    shapes = [rect(BOARD_X - 6, BOARD_Y - 6, SIZE * CELL + 12, SIZE * CELL + 12, rx=10,
                   fill="#e9e4d8", stroke="#b9b09a")]
    for i in range(SIZE):
        shapes.append(centred(BOARD_X + i * CELL + CELL / 2, BOARD_Y - 18, i, size=11,
                              fill=MUTED))
        shapes.append(centred(BOARD_X - 18, BOARD_Y + i * CELL + CELL / 2, i, size=11,
                              fill=MUTED))
    for r, row in enumerate(board):
        for c, cell in enumerate(row):
            cx, cy = BOARD_X + c * CELL + CELL / 2, BOARD_Y + r * CELL + CELL / 2
            if cell is None:
                shapes.append(circle(cx, cy, 3, fill="#b9b09a"))
                continue
            swatch = nibble_colour(cell)
            shapes.append(group([
                circle(cx, cy, DISC_R, fill=swatch.fill, stroke="#333333", stroke_width=1.2),
                centred(cx, cy, swatch.letter, size=17, weight="bold", fill=swatch.ink),
            ], label=f"[{r}, {c}] {swatch.label}", class_="disc"))
    return shapes


def _colour_table(order: list[int], y: float) -> list[str]:
    shapes = [text(PANEL_X, y, "Colour table (adjacent colours count for three sevens)",
                   size=13, weight="bold", fill=INK)]
    for k, colour in enumerate(order):
        swatch = nibble_colour(colour)
        cx = PANEL_X + k * SWATCH + SWATCH / 2
        shapes.append(group([
            circle(cx, y + 34, 14, fill=swatch.fill, stroke="#333333"),
            centred(cx, y + 34, swatch.letter, size=14, weight="bold", fill=swatch.ink),
            centred(cx, y + 62, k + 1, size=10, fill=MUTED),
        ], label=f"table position {k + 1}: {swatch.label}"))
    return shapes


def _collections(collections: list[list[Any]], majorities: list[Any], order: list[int],
                 to_move: list[int], outcome: object, names: Names | None,
                 y: float) -> list[str]:
    winners = set(outcome.get("winners", [])) if isinstance(outcome, Mapping) else set()
    left = PANEL_X + NAME_W
    shapes = [text(PANEL_X, y, "Collections (5 or more of a colour is a majority, in bold)",
                   size=13, weight="bold", fill=INK)]
    for k, colour in enumerate(order):
        swatch = nibble_colour(colour)
        cx = left + k * SWATCH + SWATCH / 2
        shapes.append(circle(cx, y + 22, 11, fill=swatch.fill, stroke="#333333"))
        shapes.append(centred(cx, y + 22, swatch.letter, size=11, weight="bold",
                              fill=swatch.ink))
    shapes.append(centred(left + SIZE * SWATCH + 30, y + 22, "maj.", size=11, fill=MUTED))
    for seat, counts in enumerate(collections):
        row_y = y + 52 + seat * 30
        marker = MARK + " " if seat in to_move else ("\u2605 " if seat in winners else "")
        shapes.append(text(PANEL_X, row_y, marker + seat_label(seat, names), size=13,
                           weight="bold" if seat in to_move else None, fill=INK))
        for k, colour in enumerate(order):
            count = as_int(counts[colour]) if 0 <= colour < len(counts) else 0
            cx = left + k * SWATCH + SWATCH / 2
            if count >= 5:
                shapes.append(rect(cx - 13, row_y - 15, 26, 20, rx=4, fill="none",
                                   stroke=INK, stroke_width=1.5))
            shapes.append(centred(cx, row_y - 5, count, size=13,
                                  weight="bold" if count >= 5 else None,
                                  fill=INK if count else MUTED))
        majority = majorities[seat] if seat < len(majorities) else 0
        shapes.append(centred(left + SIZE * SWATCH + 30, row_y - 5, as_int(majority), size=13,
                              weight="bold", fill=INK))
    bottom = y + 40 + 30 * max(len(collections), 2)
    shapes.append(line(PANEL_X, bottom, left + SIZE * SWATCH + 50, bottom, stroke="#d0c8b8"))
    if winners:
        shapes.append(text(PANEL_X, bottom + 18, "\u2605 winner", size=11, fill=MUTED))
    elif to_move:
        shapes.append(text(PANEL_X, bottom + 18, f"{MARK} to move", size=11, fill=MUTED))
    return shapes


def _legend(y: float) -> list[str]:
    shapes = [text(PANEL_X, y, "Letters", size=13, weight="bold", fill=INK)]
    for k, swatch in enumerate(NIBBLE_COLOURS):
        col, row = divmod(k, 5)
        x, row_y = PANEL_X + col * 170, y + 24 + row * 24
        shapes.append(circle(x + 10, row_y - 5, 9, fill=swatch.fill, stroke="#333333"))
        shapes.append(centred(x + 10, row_y - 5, swatch.letter, size=10, weight="bold",
                              fill=swatch.ink))
        shapes.append(text(x + 26, row_y, swatch.legend, size=12, fill=INK))
    return shapes


def _collection_words(seat: int, counts: list[Any], majorities: list[Any],
                      names: Names | None) -> str:
    held = ", ".join(f"{nibble_colour(colour).label} {as_int(n)}"
                     for colour, n in enumerate(counts) if as_int(n))
    majority = as_int(majorities[seat]) if seat < len(majorities) else 0
    return (f"{seat_label(seat, names)} holds {held or 'no discs'} "
            f"({majority} majorities).")
