"""Nimble as a picture: the three target stacks, every seat's piles, whose turn and its budget.

Drawn from ``NimbleEngine.view`` only (games/nimble/RULES.md, "What a view shows"): counts and
top cards.
The finished view's ``revealed`` piles are not drawn, so a past or final picture shows what the
table showed. Every card carries the letter of its frame colour (in the corners of the frame)
and of its circle colour (in the circle): the rulebook itself warns about telling them apart.
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
from games.kit.render.palette import lookup
from games.kit.render.svg import centred, circle, document, group, rect, text
from games.nimble.palette import NIMBLE_COLOURS

MARGIN = 24
STACK_W, STACK_H = 96, 134
SEAT_W, SEAT_H = 236, 176
TOP_W, TOP_H = 76, 106
STACKS_Y = 110


def render(view: Mapping[str, Any], names: Names | None = None) -> str:
    seats = [s for s in view.get("seats") or [] if isinstance(s, Mapping)]
    stacks = [s for s in view.get("stacks") or [] if isinstance(s, Mapping)]
    to_move = [s for s in view.get("to_move") or [] if isinstance(s, int)]
    outcome = view.get("outcome")
    status = _status(view, to_move, outcome, names)
    width = MARGIN * 2 + max(len(seats), 3) * (SEAT_W + 12)
    legend_y = STACKS_Y + STACK_H + 56 + SEAT_H + 36
    height = legend_y + 64

    body = heading(MARGIN, 32, f"Nimble \u00b7 {_mode_words(view)}",
                   f"{status} \u00b7 {viewer_words(view, names)}")
    body.append(text(MARGIN, STACKS_Y - 22, "Target stacks (place a card whose frame matches "
                     "the top card's circle)", size=13, weight="bold", fill=INK))
    stacks_left = (width - 3 * (STACK_W + 40) + 40) / 2
    for index, stack in enumerate(stacks):
        x = stacks_left + index * (STACK_W + 40)
        height_ = as_int(stack.get("height"))
        top = stack.get("top")
        body.append(group([
            *_card(x, STACKS_Y, STACK_W, STACK_H, top),
            centred(x + STACK_W / 2, STACKS_Y + STACK_H + 16,
                    f"stack {index + 1} \u00b7 {height_} card{'s' if height_ != 1 else ''}",
                    size=12, fill=INK),
        ], label=f"Stack {index + 1}: {_face_words(top)}, {height_} cards", class_="stack"))
    seats_y = STACKS_Y + STACK_H + 56
    for index, seat in enumerate(seats):
        body += _seat(MARGIN + index * (SEAT_W + 12), seats_y, seat, to_move, outcome, names)
    body += _legend(legend_y)

    desc = " ".join([
        f"Nimble, {_mode_words(view)}. {status}.",
        "Cards show a frame colour and a circle colour; letters: "
        + ", ".join(swatch.legend for swatch in NIMBLE_COLOURS.values()) + ".",
        *(f"Stack {i + 1}: top {_face_words(s.get('top'))}, {as_int(s.get('height'))} cards."
          for i, s in enumerate(stacks)),
        *(_seat_words(seat, names) for seat in seats),
    ])
    return document(width=width, height=height, title=f"Nimble: {status}", desc=desc,
                    body=body)


def _mode_words(view: Mapping[str, Any]) -> str:
    if view.get("mode") == "race":
        return "race (everyone acts at once)"
    words = "turns"
    if "round" in view:
        words += f", round {as_int(view.get('round'))}"
    options = view.get("options")
    if isinstance(options, Mapping) and isinstance(options.get("budget"), int):
        words += f", budget {options['budget']} per turn"
    return words


def _status(view: Mapping[str, Any], to_move: list[int], outcome: object,
            names: Names | None) -> str:
    if isinstance(outcome, Mapping):
        return outcome_words(outcome, names)
    if not to_move:
        return "Nobody can act now"
    if view.get("mode") == "race":
        return f"{seats_words(to_move, names)} may act"
    status = f"{seats_words(to_move, names)} to act"
    budget = view.get("budget_left")
    if isinstance(budget, int):
        status += f", {budget} hand action{'s' if budget != 1 else ''} left"
    return status


def _face_words(face: object) -> str:
    if not isinstance(face, Mapping):
        return "empty"
    frame, ring = lookup(NIMBLE_COLOURS, face.get("frame")), lookup(NIMBLE_COLOURS,
                                                                   face.get("circle"))
    owner = f" (Set {face['set']})" if isinstance(face.get("set"), int) else ""
    return f"{frame.label} frame ({frame.letter}), {ring.label} circle ({ring.letter}){owner}"


def _card(x: float, y: float, w: float, h: float, face: object) -> list[str]:
    """A face-up card, or a dashed outline for an empty pile."""
    if not isinstance(face, Mapping):
        return [rect(x, y, w, h, rx=8, fill="none", stroke="#9a9a9a", stroke_dasharray="5 4"),
                centred(x + w / 2, y + h / 2, "empty", size=11, fill=MUTED)]
    frame = lookup(NIMBLE_COLOURS, face.get("frame"))
    ring = lookup(NIMBLE_COLOURS, face.get("circle"))
    band = round(w * 0.2)
    radius = min(w - 2 * band, h - 2 * band) * 0.42
    letter = max(9, band - 4)
    return [
        rect(x, y, w, h, rx=8, fill=frame.fill, stroke="#333333", stroke_width=1.2),
        rect(x + band, y + band, w - 2 * band, h - 2 * band, rx=4, fill="#fdfcf8",
             stroke="#333333", stroke_width=0.8),
        centred(x + band / 2, y + band / 2, frame.letter, size=letter, weight="bold",
                fill=frame.ink),
        centred(x + w - band / 2, y + h - band / 2, frame.letter, size=letter, weight="bold",
                fill=frame.ink),
        circle(x + w / 2, y + h / 2, radius, fill=ring.fill, stroke="#333333",
               stroke_width=1.2),
        centred(x + w / 2, y + h / 2, ring.letter, size=round(radius * 1.1), weight="bold",
                fill=ring.ink),
    ]


def _seat(x: float, y: float, seat: Mapping[str, Any], to_move: list[int], outcome: object,
          names: Names | None) -> list[str]:
    index = as_int(seat.get("seat"))
    acting = index in to_move
    winners = outcome.get("winners", []) if isinstance(outcome, Mapping) else []
    marker = MARK + " " if acting else ("\u2605 " if index in winners else "")
    shapes = [
        rect(x, y, SEAT_W, SEAT_H, rx=10, fill="#ffffff",
             stroke=INK if acting else "#c8c0b0", stroke_width=2.5 if acting else 1),
        text(x + 12, y + 24, marker + seat_label(index, names), size=14, weight="bold",
             fill=INK),
        text(x + 12, y + 48, f"Set: {as_int(seat.get('set_count'))} face down", size=12,
             fill=INK),
        text(x + 12, y + 68, f"Discard: {as_int(seat.get('discard_count'))}", size=12, fill=INK),
        text(x + 12, y + 88, f"Cards left: {as_int(seat.get('cards_left'))}", size=12,
             weight="bold", fill=INK),
    ]
    if seat.get("forfeited"):
        shapes.append(text(x + 12, y + 108, "left the match", size=12, fill="#b00020"))
    elif acting:
        shapes.append(text(x + 12, y + 108, f"{MARK} to act", size=12, fill=INK))
    shapes.append(text(x + SEAT_W - 12 - TOP_W, y + 48, "discard top", size=10, fill=MUTED))
    shapes += _card(x + SEAT_W - 12 - TOP_W, y + 56, TOP_W, TOP_H, seat.get("discard_top"))
    return [group(shapes, label=_seat_words(seat, names), class_="seat")]


def _seat_words(seat: Mapping[str, Any], names: Names | None) -> str:
    index = as_int(seat.get("seat"))
    words = (f"{seat_label(index, names)}: Set {as_int(seat.get('set_count'))} cards, "
             f"discard {as_int(seat.get('discard_count'))} cards, top "
             f"{_face_words(seat.get('discard_top'))}, "
             f"{as_int(seat.get('cards_left'))} cards left")
    if seat.get("forfeited"):
        words += ", left the match"
    return words + "."


def _legend(y: float) -> list[str]:
    shapes = [text(MARGIN, y, "Letters (frame letters sit in the corners, the circle letter in "
                   "the middle)", size=13, weight="bold", fill=INK)]
    for k, swatch in enumerate(NIMBLE_COLOURS.values()):
        x = MARGIN + k * 130
        shapes.append(rect(x, y + 12, 20, 20, rx=4, fill=swatch.fill, stroke="#333333"))
        shapes.append(centred(x + 10, y + 22, swatch.letter, size=12, weight="bold",
                              fill=swatch.ink))
        shapes.append(text(x + 26, y + 27, swatch.label, size=12, fill=INK))
    return shapes
