"""Nimalia as a picture: every reserve's visible squares, the viewer's own hand and pending card,
the four objectives, the round and the scores after each round.

Drawn from ``NimaliaEngine.view`` only (games/nimalia/RULES.md, "View keys"). Other seats' hands and
pending placements are not in a seat's view, so they cannot be drawn; the finished view's
``hands``, ``deck`` and ``placements`` are not drawn either. A square shows its terrain as a fill,
a pattern and a corner letter, its animal as a two-letter abbreviation, and an otter's river as
a diagonal. The only data used besides the view is the public catalogue of the 60 cards, to draw
the viewer's own pending card, which the view names by id.
"""

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
from games.kit.render.palette import lookup, patterned
from games.kit.render.svg import centred, document, group, line, rect, text
from games.nimalia.cards import CARD_OFFSETS, ROTATED
from games.nimalia.palette import ANIMALS, OBJECTIVE_COLOURS, PATTERN_DEFS, TERRAINS

MARGIN = 24
GRID = 6                # a reserve never grows beyond 6 x 6
GRID_PX = 198           # the reserve frame's side
PANEL_W = 222
PANEL_H = 76 + GRID_PX + 24
PANELS_Y = 78
HAND_CELL = 32
RIVER = "#1b4f8a"
EDGE = "#222222"


def render(view: Mapping[str, Any], names: Names | None = None) -> str:
    players = max(as_int(view.get("players"), 1), 1)
    reserves = [r for r in view.get("reserves") or [] if isinstance(r, Mapping)]
    you = view.get("you") if isinstance(view.get("you"), int) else None
    status = _status(view, names)
    width = MARGIN * 2 + max(players, 3) * (PANEL_W + 12)

    body = heading(MARGIN, 32, _title_words(view), f"{status} \u00b7 "
                                                     f"{viewer_words(view, names)}")
    for seat, reserve in enumerate(reserves):
        pending = view.get("pending") if seat == you else None
        body += _reserve(MARGIN + seat * (PANEL_W + 12), PANELS_Y, seat, reserve, view,
                         pending, names)
    y: float = PANELS_Y + PANEL_H + 34
    shapes, y = _hand(MARGIN, y, view, names)
    body += shapes
    shapes, y = _objectives(MARGIN, y + 10, view)
    body += shapes
    shapes, y = _scores(MARGIN, y + 10, view, players, names)
    body += shapes
    shapes, y = _legend(MARGIN, y + 10)
    body += shapes

    desc = " ".join([
        f"{_title_words(view)}. {status}.",
        "Terrain letters: " + ", ".join(s.legend for s in TERRAINS.values()) + ".",
        "Animals: " + ", ".join(f"{abbr} = {label}" for abbr, label in ANIMALS.values())
        + ". A river is drawn as a diagonal on an otter square.",
        *(_reserve_words(seat, reserve, names) for seat, reserve in enumerate(reserves)),
        _hand_words(view),
        "Objectives: " + "; ".join(_objective_words(o) for o in _objective_list(view)) + ".",
        _score_words(view, names),
    ])
    return document(width=width, height=y + 16, title=f"Nimalia: {status}", desc=desc,
                    body=body, defs=PATTERN_DEFS)


# --------------------------------------------------------------------------- words


def _title_words(view: Mapping[str, Any]) -> str:
    return (f"Nimalia \u00b7 round {as_int(view.get('round'))} of "
            f"{as_int(view.get('rounds'))} \u00b7 draft turn {as_int(view.get('turn'))} of "
            f"{as_int(view.get('turns_per_round'), 3)}")


def _status(view: Mapping[str, Any], names: Names | None) -> str:
    outcome = view.get("outcome")
    if isinstance(outcome, Mapping):
        words = outcome_words(outcome, names)
        if outcome.get("title"):
            words += f", title {outcome['title']}"
        return words
    if view.get("phase") == "scoring":
        return f"Round {as_int(view.get('round'))} is being scored"
    waiting = [s for s in view.get("waiting_for") or [] if isinstance(s, int)]
    return f"Waiting for {seats_words(waiting, names)} to place" if waiting \
        else "Nobody to act"


def _square_words(square: Mapping[str, Any]) -> str:
    animal = ANIMALS.get(str(square.get("animal")), ("?", str(square.get("animal"))))[1]
    words = f"{animal} on {lookup(TERRAINS, square.get('terrain')).label}"
    if square.get("river"):
        words += f" with river {square['river']}"
    return words


def _reserve_words(seat: int, reserve: Mapping[str, Any], names: Names | None) -> str:
    rows: dict[int, list[str]] = {}
    for square in _squares(reserve):
        rows.setdefault(square["row"], []).append(
            f"column {square['col']} {_square_words(square)}")
    listing = "; ".join(f"row {r}: " + ", ".join(rows[r]) for r in sorted(rows))
    return (f"{seat_label(seat, names)} reserve, {as_int(reserve.get('cards_placed'))} cards "
            f"placed, {as_int(reserve.get('covered_squares'))} squares covered"
            + (f": {listing}." if listing else ", empty."))


def _hand_words(view: Mapping[str, Any]) -> str:
    if "hand" not in view:
        return "Hands are hidden in this view."
    cards = [c for c in view.get("hand") or [] if isinstance(c, Mapping)]
    words = "Your hand: " + ("; ".join(
        f"card {as_int(card.get('id'))}: "
        + ", ".join(_square_words(s) for s in card.get("squares") or [] if isinstance(s, Mapping))
        for card in cards) or "empty") + "."
    pending = view.get("pending")
    if isinstance(pending, Mapping):
        words += (f" Your pending placement: card {as_int(pending.get('card'))} at row "
                  f"{as_int(pending.get('row'))}, column {as_int(pending.get('col'))}, turned "
                  f"{as_int(pending.get('rotation'))} degrees.")
    return words


def _objective_list(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [o for o in view.get("objectives") or [] if isinstance(o, Mapping)]


def _objective_rounds(view: Mapping[str, Any], objective_id: object) -> list[int]:
    return [as_int(entry.get("round")) for entry in view.get("round_card") or []
            if isinstance(entry, Mapping) and objective_id in (entry.get("objectives") or [])]


def _objective_words(objective: Mapping[str, Any]) -> str:
    colour = lookup(OBJECTIVE_COLOURS, objective.get("colour"))
    return (f"{colour.label} ({colour.letter}) {as_int(objective.get('id'))} "
            f"{objective.get('name', '')}: {objective.get('text', '')}")


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _score_words(view: Mapping[str, Any], names: Names | None) -> str:
    scores = _mapping(view.get("scores"))
    totals = list(scores.get("totals") or [])
    return "Totals: " + ", ".join(f"{seat_label(seat, names)} {as_int(total)}"
                                  for seat, total in enumerate(totals)) + "."


# --------------------------------------------------------------------------- reserves


def _squares(reserve: Mapping[str, Any]) -> list[dict[str, Any]]:
    squares = []
    for square in reserve.get("squares") or []:
        if isinstance(square, Mapping) and isinstance(square.get("row"), int) \
                and isinstance(square.get("col"), int):
            squares.append(dict(square))
    return squares


def _pending_squares(pending: object) -> list[dict[str, Any]]:
    """The viewer's own pending card as squares, from the public card catalogue."""
    if not isinstance(pending, Mapping):
        return []
    card, rotation = pending.get("card"), pending.get("rotation")
    row, col = pending.get("row"), pending.get("col")
    if not (isinstance(card, int) and isinstance(rotation, int) and isinstance(row, int)
            and isinstance(col, int)):
        return []
    faces = ROTATED.get((card, rotation))
    if faces is None:
        return []
    return [{"row": row + dr, "col": col + dc, "animal": face.animal, "terrain": face.terrain,
             "river": face.river or None, "card": card}
            for face, (dr, dc) in zip(faces, CARD_OFFSETS, strict=True)]


def _reserve(x: float, y: float, seat: int, reserve: Mapping[str, Any],
             view: Mapping[str, Any], pending: object, names: Names | None) -> list[str]:
    squares = _squares(reserve)
    ghost = _pending_squares(pending)
    cells = [(s["row"], s["col"]) for s in squares + ghost]
    top = min((r for r, _ in cells), default=0)
    left = min((c for _, c in cells), default=0)
    extent = max([GRID] + [r - top + 1 for r, _ in cells] + [c - left + 1 for _, c in cells])
    cell = GRID_PX / extent

    waiting = seat in (view.get("waiting_for") or [])
    placed = list(view.get("placed") or [])
    hand_sizes = list(view.get("hand_sizes") or [])
    forfeited = seat in (view.get("forfeited") or [])
    state_words = []
    if forfeited:
        state_words.append("left (a bot plays on)")
    if seat < len(placed) and placed[seat] and view.get("phase") == "placing":
        state_words.append("has placed")
    elif waiting:
        state_words.append(f"{MARK} to place")
    if seat < len(hand_sizes):
        state_words.append(f"hand {as_int(hand_sizes[seat])}")

    gx, gy = x + (PANEL_W - GRID_PX) / 2, y + 70
    shapes = [
        rect(x, y, PANEL_W, PANEL_H, rx=10, fill="#ffffff",
             stroke=INK if waiting else "#c8c0b0", stroke_width=2.5 if waiting else 1),
        text(x + 10, y + 22, (MARK + " " if waiting else "") + seat_label(seat, names),
             size=14, weight="bold", fill=INK),
        text(x + 10, y + 40, f"{as_int(reserve.get('cards_placed'))} cards placed \u00b7 "
                             f"{as_int(reserve.get('covered_squares'))} squares covered",
             size=11, fill=MUTED),
        text(x + 10, y + 56, " \u00b7 ".join(state_words), size=11, fill=INK),
        rect(gx, gy, GRID_PX, GRID_PX, fill="#f4f1ea", stroke="#c8c0b0",
             stroke_dasharray="3 3"),
    ]
    for k in range(1, extent):
        shapes.append(line(gx + k * cell, gy, gx + k * cell, gy + GRID_PX, stroke="#e2dccf"))
        shapes.append(line(gx, gy + k * cell, gx + GRID_PX, gy + k * cell, stroke="#e2dccf"))
    at = {(s["row"], s["col"]): s for s in squares}
    for square in squares:
        shapes += _square(gx + (square["col"] - left) * cell, gy + (square["row"] - top) * cell,
                          cell, square)
    shapes += _card_edges(at, gx, gy, top, left, cell)
    if ghost:
        body = []
        for square in ghost:
            body += _square(gx + (square["col"] - left) * cell,
                            gy + (square["row"] - top) * cell, cell, square)
        row0, col0 = ghost[0]["row"], ghost[0]["col"]
        px, py = gx + (col0 - left) * cell, gy + (row0 - top) * cell
        shapes.append(group([
            group(body, opacity=0.75),
            rect(px, py, 2 * cell, 2 * cell, fill="none", stroke=EDGE, stroke_width=3,
                 stroke_dasharray="6 4"),
            text(gx, gy + GRID_PX + 16, f"dashed: your pending card {ghost[0]['card']}",
                 size=10, fill=MUTED),
        ], label=f"your pending card {ghost[0]['card']} (not revealed yet)",
            class_="pending"))
    return [group(shapes, label=_reserve_words(seat, reserve, names), class_="reserve")]


def _square(x: float, y: float, size: float, square: Mapping[str, Any]) -> list[str]:
    terrain = lookup(TERRAINS, square.get("terrain"))
    abbr = ANIMALS.get(str(square.get("animal")), ("?", "?"))[0]
    shapes = patterned(x, y, size, size, terrain, stroke="#8a8a8a", stroke_width=0.6)
    river = square.get("river")
    if river == "/":
        shapes.append(line(x + 2, y + size - 2, x + size - 2, y + 2, stroke=RIVER,
                           stroke_width=4, stroke_linecap="round", stroke_opacity=0.85))
    elif river == "\\":
        shapes.append(line(x + 2, y + 2, x + size - 2, y + size - 2, stroke=RIVER,
                           stroke_width=4, stroke_linecap="round", stroke_opacity=0.85))
    halo = {"stroke": "#ffffff", "stroke_width": 3, "paint_order": "stroke"}
    shapes.append(centred(x + size / 2, y + size / 2 + 1, abbr, size=round(size * 0.38),
                          weight="bold", fill=INK, **halo))
    shapes.append(text(x + 2.5, y + size * 0.3, terrain.letter, size=round(size * 0.27),
                       fill=MUTED))
    return shapes


def _card_edges(at: Mapping[tuple[int, int], Mapping[str, Any]], gx: float, gy: float,
                top: int, left: int, cell: float) -> list[str]:
    """Thick lines where one card's visible squares meet another card's or the reserve's
    edge, so a reader sees which squares came from which card."""
    edges = []
    style = {"stroke": EDGE, "stroke_width": 2, "stroke_linecap": "square"}
    for (row, col), square in sorted(at.items()):
        x, y = gx + (col - left) * cell, gy + (row - top) * cell
        card = square.get("card")
        right, below = at.get((row, col + 1)), at.get((row + 1, col))
        if right is None or right.get("card") != card:
            edges.append(line(x + cell, y, x + cell, y + cell, **style))
        if below is None or below.get("card") != card:
            edges.append(line(x, y + cell, x + cell, y + cell, **style))
        if (row, col - 1) not in at:
            edges.append(line(x, y, x, y + cell, **style))
        if (row - 1, col) not in at:
            edges.append(line(x, y, x + cell, y, **style))
    return edges


# --------------------------------------------------------------------------- below the reserves


def _hand(x: float, y: float, view: Mapping[str, Any],
          names: Names | None) -> tuple[list[str], float]:
    you = view.get("you")
    if "hand" not in view or not isinstance(you, int):
        return [text(x, y, "Hands are hidden: this is a spectator view.", size=13,
                     fill=MUTED)], y + 12
    shapes = [text(x, y, f"Your hand ({seat_label(you, names)})", size=14, weight="bold",
                   fill=INK)]
    pass_to = view.get("pass_to")
    if isinstance(pass_to, int) and view.get("phase") == "placing":
        shapes.append(text(x + 260, y, f"after this turn it goes {view.get('pass_direction')} "
                                       f"to {seat_label(pass_to, names)}", size=12,
                           fill=MUTED))
    cards = [c for c in view.get("hand") or [] if isinstance(c, Mapping)]
    if not cards:
        shapes.append(text(x, y + 24, "(no cards)", size=12, fill=MUTED))
        return shapes, y + 36
    for k, card in enumerate(cards):
        cx, cy = x + k * (2 * HAND_CELL + 40), y + 14
        faces = [s for s in card.get("squares") or [] if isinstance(s, Mapping)]
        body = []
        for face, (dr, dc) in zip(faces, CARD_OFFSETS, strict=False):
            body += _square(cx + dc * HAND_CELL, cy + dr * HAND_CELL, HAND_CELL, face)
        body.append(rect(cx, cy, 2 * HAND_CELL, 2 * HAND_CELL, fill="none", stroke=EDGE,
                         stroke_width=2))
        card_id = as_int(card.get("id"))
        body.append(centred(cx + HAND_CELL, cy + 2 * HAND_CELL + 12, f"card {card_id}",
                            size=11, fill=INK))
        shapes.append(group(body, label=f"card {card_id} in your hand", class_="hand-card",
                            data_card=card_id))
    return shapes, y + 14 + 2 * HAND_CELL + 24


def _objectives(x: float, y: float, view: Mapping[str, Any]) -> tuple[list[str], float]:
    shapes = [text(x, y + 14, "Objectives", size=14, weight="bold", fill=INK)]
    y += 24
    for objective in _objective_list(view):
        colour = lookup(OBJECTIVE_COLOURS, objective.get("colour"))
        rounds = _objective_rounds(view, objective.get("id"))
        when = ("scored in round" + ("s " if len(rounds) != 1 else " ")
                + ", ".join(map(str, rounds))) if rounds else "not scored"
        shapes.append(group([
            rect(x, y, 22, 22, rx=4, fill=colour.fill, stroke="#333333"),
            centred(x + 11, y + 11, colour.letter, size=13, weight="bold", fill=colour.ink),
            text(x + 30, y + 10, f"{as_int(objective.get('id'))}. {objective.get('name', '')} "
                                 f"({colour.label}, level {objective.get('level', '?')}, "
                                 f"{when})", size=12, weight="bold", fill=INK),
            text(x + 30, y + 25, objective.get("text", ""), size=11, fill=MUTED),
        ], label=_objective_words(objective), class_="objective"))
        y += 34
    return shapes, y


def _scores(x: float, y: float, view: Mapping[str, Any], players: int,
            names: Names | None) -> tuple[list[str], float]:
    scores = _mapping(view.get("scores"))
    by_round = {as_int(r.get("round")): list(r.get("totals") or [])
                for r in scores.get("rounds") or [] if isinstance(r, Mapping)}
    totals = list(scores.get("totals") or [])
    rounds = as_int(view.get("rounds"), 5)
    current = as_int(view.get("round"))
    name_w, col_w = 190, 62
    shapes = [text(x, y + 14, "Scores (running total after each round)", size=14,
                   weight="bold", fill=INK)]
    y += 38
    for n in range(1, rounds + 1):
        label = f"R{n}" + (" (now)" if n == current and view.get("phase") != "finished"
                           else "")
        shapes.append(centred(x + name_w + (n - 1) * col_w + col_w / 2, y, label, size=11,
                              weight="bold" if n == current else None, fill=MUTED))
    shapes.append(centred(x + name_w + rounds * col_w + col_w / 2, y, "total", size=11,
                          weight="bold", fill=INK))
    for seat in range(players):
        row_y = y + 22 + seat * 22
        shapes.append(text(x, row_y + 4, seat_label(seat, names), size=12, fill=INK))
        for n in range(1, rounds + 1):
            after = by_round.get(n)
            value = as_int(after[seat]) if after is not None and seat < len(after) else None
            shapes.append(centred(x + name_w + (n - 1) * col_w + col_w / 2, row_y,
                                  "\u2013" if value is None else value, size=12, fill=INK))
        total = as_int(totals[seat]) if seat < len(totals) else 0
        shapes.append(centred(x + name_w + rounds * col_w + col_w / 2, row_y, total, size=12,
                              weight="bold", fill=INK))
    return shapes, y + 22 * players + 14


def _legend(x: float, y: float) -> tuple[list[str], float]:
    shapes = [text(x, y + 14, "Terrains and animals", size=14, weight="bold", fill=INK)]
    y += 26
    for k, terrain in enumerate(TERRAINS.values()):
        tx = x + k * 130
        shapes += patterned(tx, y, 22, 22, terrain, stroke="#8a8a8a")
        shapes.append(text(tx + 2, y + 8, terrain.letter, size=7, fill=MUTED))
        shapes.append(text(tx + 30, y + 16, terrain.legend, size=12, fill=INK))
    y += 38
    animals = list(ANIMALS.values())
    for k, (abbr, label) in enumerate(animals):
        col, row = k % 5, k // 5
        shapes.append(text(x + col * 130, y + row * 20, f"{abbr} = {label}", size=12,
                           fill=INK))
    y += 20 * ((len(animals) + 4) // 5) + 6
    shapes.append(line(x + 3, y + 2, x + 19, y - 14, stroke=RIVER, stroke_width=4,
                       stroke_linecap="round"))
    shapes.append(text(x + 30, y, "river (otter squares)", size=12, fill=INK))
    return shapes, y + 8
