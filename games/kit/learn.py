"""What a game offers a newcomer, as pure data: presets of options, options in players' words,
example positions for its rules page and a short scripted first match (a tutorial).

A game package declares these next to its engine (``games/<game>/learn.py``) and hands them to
its :class:`games.kit.registry.GameSpec`; the server serves them to every client (``GET
/api/games``, ``/api/games/{slug}/rules``, ``/pictures/{name}.svg``, ``/tutorial``). Example
positions and tutorial steps are played by the game's own engine from a fixed seed, so they are
always positions the engine can reach, drawn by the game's own renderer.

Every text here is English and marked with :func:`gettext_noop`, so the server's message
catalogues hold its translations; the game packages stay free of Django, and the server puts
the texts in the caller's language where it answers (``translate`` below, Django's ``gettext``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.kit.protocol import JSON, AnyEngine, Seat, apply_checked

# translate(text) -> the text in the caller's language (the server passes Django's gettext).
Translate = Callable[[str], str]


def gettext_noop(text: str) -> str:
    """``text`` as it is. Marks a text for the message catalogues: ``makemessages`` (GNU
    xgettext) collects every string given to a function of this name."""
    return text


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Preset:
    """A named set of options for a match, for example "First game" or "Quick".

    ``config`` is a partial config (left-out options keep their defaults); ``players`` the
    player count it is meant for, or ``None`` for any the game takes."""

    key: str
    name: str
    description: str
    config: Mapping[str, Any] = field(default_factory=dict)
    players: int | None = None

    def as_dict(self, translate: Translate = _same) -> Any:
        """``{"key", "name", "description", "config", "players"}`` (the API's Preset), its
        name and description through ``translate``."""
        return {"key": self.key, "name": translate(self.name),
                "description": translate(self.description),
                "config": dict(self.config), "players": self.players}


@dataclass(frozen=True)
class OptionWords:
    """One option in players' words: a short label, a help sentence and a label per value
    (keyed by the value's JSON text, for example ``"true"`` or ``"\\"race\\""``)."""

    label: str
    help: str
    values: Mapping[str, str] = field(default_factory=dict)

    def as_dict(self, translate: Translate = _same) -> JSON:
        """``{"label", "help", "value_labels"}``, the words through ``translate`` (the values
        stay as they are)."""
        return {"label": translate(self.label), "help": translate(self.help),
                "value_labels": [{"value": key, "label": translate(text)}
                                 for key, text in self.values.items()]}


@dataclass(frozen=True)
class Example:
    """A picture for the rules page: the moves played (``(seat, move)``, system steps as
    ``(None, None)``) from a fixed seed, drawn from ``seat``'s view."""

    name: str
    caption: str
    moves: tuple[tuple[Seat | None, JSON | None], ...] = ()
    seat: Seat | None = 0


@dataclass(frozen=True)
class TutorialStep:
    """One step of a tutorial: ``text`` says what to do and why; the learner plays ``move``;
    ``done`` explains what happened; ``replies`` are the other seats' moves after it
    (``(None, None)`` for a system step such as a Nimalia round's scoring)."""

    text: str
    move: JSON
    done: str
    replies: tuple[tuple[Seat | None, JSON | None], ...] = ()


@dataclass(frozen=True)
class Tutorial:
    """A short scripted first match from a fixed seed, played by ``seat``.

    ``narrow(legal_moves, move)`` cuts the seat's legal moves down to the suggested move in the
    game's own shape, so a board client marks only that move."""

    seed: str
    players: int
    intro: str
    steps: tuple[TutorialStep, ...]
    end: str
    narrow: Callable[[Any, JSON], Any]
    config: Mapping[str, Any] = field(default_factory=dict)
    seat: Seat = 0
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Learning:
    """Everything of one game for newcomers (see the module's docstring)."""

    presets: tuple[Preset, ...] = ()
    option_words: Mapping[str, OptionWords] = field(default_factory=dict)
    examples: tuple[Example, ...] = ()
    example_seed: str = "rules"
    example_players: int = 2
    example_config: Mapping[str, Any] = field(default_factory=dict)
    tutorial: Tutorial | None = None


def _play(engine: AnyEngine, state: Any, seat: Seat | None, move: JSON | None) -> Any:
    if seat is None:
        transition = engine.system_step(state)
        if transition is None:
            raise ValueError("No system step is due.")
        return transition.state
    return apply_checked(engine, state, seat, engine.parse_move(move)).state


def example_view(engine: AnyEngine, learning: Learning, example: Example) -> JSON:
    """The view of ``example`` as its seat sees it (legal moves left out)."""
    state = engine.initial_state(num_players=learning.example_players,
                                 config=learning.example_config, seed=learning.example_seed)
    for seat, move in example.moves:
        state = _play(engine, state, seat, move)
    view = engine.view(state, example.seat)
    view.pop("legal_moves", None)
    return view


def tutorial_script(engine: AnyEngine, tutorial: Tutorial,
                    translate: Translate = _same) -> JSON:
    """The tutorial played through by the engine: per step the position before the move (the
    learner's view, its legal moves cut down to the suggested one), the move and the words
    (through ``translate``, as are the seats' names)."""
    state = engine.initial_state(num_players=tutorial.players, config=tutorial.config,
                                 seed=tutorial.seed)
    steps: list[JSON] = []
    for step in tutorial.steps:
        view = engine.view(state, tutorial.seat)
        legal = view.pop("legal_moves", None)
        move = engine.dump_move(engine.parse_move(step.move))
        steps.append({"text": translate(step.text), "done": translate(step.done),
                      "move": move, "view": view,
                      "legal_moves": tutorial.narrow(legal, move)})
        state = _play(engine, state, tutorial.seat, step.move)
        for seat, reply in step.replies:
            state = _play(engine, state, seat, reply)
    final = engine.view(state, tutorial.seat)
    final.pop("legal_moves", None)
    return {"seat": tutorial.seat, "players": tutorial.players,
            "names": [translate(name) for name in tutorial.names],
            "intro": translate(tutorial.intro), "steps": steps, "end": translate(tutorial.end),
            "final_view": final}


def option_dicts(options: Sequence[JSON], words: Mapping[str, OptionWords],
                 translate: Translate = _same) -> list[JSON]:
    """The engine's option dicts with each option's words added (``label``, ``help``,
    ``value_labels``) and its ``description``, all through ``translate``; an option without
    words gets its name as label and no help."""
    result = []
    for option in options:
        said = words.get(option["name"])
        extra = said.as_dict(translate) if said else {
            "label": str(option["name"]).replace("_", " ").capitalize(), "help": "",
            "value_labels": []}
        result.append({**option, "description": translate(option["description"]), **extra})
    return result
