"""Write the golden playthrough files (format: :mod:`tests.engines.playthroughs.replay`).

    .venv/bin/python -m tests.engines.playthroughs.make                 every game
    .venv/bin/python -m tests.engines.playthroughs.make nimble          one game
    .venv/bin/python -m tests.engines.playthroughs.make --keep-moves    refresh, same moves

Each file comes from a :class:`Scenario`: a seeded match played with the pure engine by the
game's registered bots (``games.catalog.game(slug).choose_move``), with forfeits or take-backs
where the scenario asks for them. A scenario that must reach a particular ending (a deadlock, a
tie on points) tries the seeds ``<name>-0``, ``<name>-1``, ... and keeps the first match that
does, so the files follow from this module and the engines alone. ``--keep-moves`` replays the
steps already in the files instead of playing again, and rewrites only what they lead to
(digests, events, views, the final state); the Nibble files, whose moves predate this module,
are always refreshed that way.

Regenerate only when an engine change is intended, and review the diff: the files are the
regression net of ``tests/engines/test_playthroughs.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.catalog import game
from games.kit.protocol import JSON, Seat, events_for, seats_to_act, seeded_rng
from tests.engines.playthroughs.replay import (
    HERE,
    all_views,
    apply_step,
    canonical,
    digest,
    encode_views,
    step_kind,
)

SEED_TRIES = 500
MAX_STEPS = 5_000


# --------------------------------------------------------------------------- recording


class Table:
    """One match being recorded: the engine state, what each seat has been shown (for bots
    that remember), and the steps so far."""

    def __init__(self, slug: str, players: int, config: Mapping[str, Any], seed: str) -> None:
        self.spec = game(slug)
        self.engine = self.spec.engine
        self.slug, self.players, self.config, self.seed = slug, players, dict(config), seed
        self.state = self.engine.initial_state(num_players=players, config=config, seed=seed)
        self.initial = canonical(self.engine.dump(self.state))
        self.steps: list[JSON] = []
        self.events: list[list[JSON]] = []
        self.states: list[Any] = []
        self.with_events: set[int] = set()  # steps stored with their events
        self.with_views: set[int] = set()  # steps stored with every viewer's view
        self.histories: dict[Seat, list[JSON]] = {seat: [] for seat in range(players)}

    # ----------------------------------------------------------------- reading

    @property
    def over(self) -> bool:
        return self.engine.outcome(self.state) is not None

    @property
    def moves(self) -> int:
        """Move steps so far (forfeits and system steps excluded)."""
        return sum(1 for step in self.steps if step_kind(step) == "move")

    def system_due(self) -> bool:
        return self.engine.system_step(self.state) is not None

    def waiting_for(self) -> list[Seat]:
        return sorted(seats_to_act(self.engine, self.state))

    def has_pending(self, seat: Seat) -> bool:
        """The seat may act but the match does not wait for it: it may take its move back."""
        return (seat in self.engine.actors(self.state)
                and seat not in seats_to_act(self.engine, self.state))

    def next_seat(self) -> Seat:
        """The seat whose move comes next: the one seat to act, or, when several may act at
        once (a race, a draft turn), one of them drawn from the seed (arrival order)."""
        seats = self.waiting_for()
        if len(seats) == 1:
            return seats[0]
        return seeded_rng(self.seed, "arrival", len(self.steps)).choice(seats)

    def bot(self, seat: Seat, level: int, label: str = "") -> JSON:
        """The move the seat's bot of ``level`` chooses from its own view and history."""
        rng = seeded_rng(self.seed, "bot", len(self.steps), seat, label)
        return self.spec.choose_move(level, self.engine.view(self.state, seat), seat, rng,
                                     history=self.histories[seat])

    # ----------------------------------------------------------------- acting

    def play(self, step: JSON, *, events: bool = False, views: bool = False) -> None:
        if len(self.steps) >= MAX_STEPS:
            raise RuntimeError(f"{self.slug} {self.seed}: no end after {MAX_STEPS} steps")
        transition = apply_step(self.engine, self.state, step)
        self.state = transition.state
        for seat, history in self.histories.items():
            history.extend(events_for(transition.events, seat))
        index = len(self.steps)
        self.steps.append(dict(step))
        self.events.append(canonical(list(transition.events)))
        self.states.append(self.state)
        if events or step_kind(step) != "move":
            self.with_events.add(index)
        if views:
            self.with_views.add(index)

    def move(self, seat: Seat, data: JSON, **store: bool) -> None:
        self.play({"seat": seat, "move": canonical(data)}, **store)

    def forfeit(self, seat: Seat, **store: bool) -> None:
        self.play({"forfeit": seat}, **store)

    def system_steps(self) -> None:
        """Run the system steps that are due, as the server does."""
        while not self.over and self.system_due():
            self.play({"system": True})

    # ----------------------------------------------------------------- the file

    def document(self, about: str) -> JSON:
        if not self.over:
            raise RuntimeError(f"{self.slug} {self.seed}: the match is not over")
        engine = self.engine
        last = len(self.steps) - 1
        # Views after the first move and halfway through, besides the scenario's own choices.
        first_move = next(i for i, step in enumerate(self.steps) if step_kind(step) == "move")
        shown_views = self.with_views | {first_move, last // 2}
        steps = []
        for index, step in enumerate(self.steps):
            dumped = canonical(engine.dump(self.states[index]))
            record = {**step, "digest": digest(self.events[index], dumped)}
            if index in self.with_events or index in shown_views or index == last:
                record["events"] = self.events[index]
            if index in shown_views and index != last:
                record["views"] = encode_views(all_views(engine, self.states[index],
                                                         self.players))
            steps.append(record)
        outcome = engine.outcome(self.state)
        assert outcome is not None
        return {
            "game": self.slug,
            "about": about,
            "players": self.players,
            "seed": self.seed,
            "config": self.config,
            "initial": self.initial,
            "steps": steps,
            "outcome": canonical(outcome.as_dict()),
            "final_state": canonical(engine.dump(self.state)),
            "final_views": encode_views(all_views(engine, self.state, self.players)),
        }


# --------------------------------------------------------------------------- ways to play


Player = Callable[[Table], None]


def bots(*levels: int, forfeit: tuple[int, Seat | None] | None = None,
         take_backs: Sequence[int] = ()) -> Player:
    """Every seat played by its bot (``levels[seat]``), system steps run when due.

    ``forfeit=(n, seat)``: after ``n`` moves the seat forfeits (``None``: the seat whose turn it
    is). ``take_backs``: after each of these numbers of moves, the seat that has just placed
    takes its placement back (``{"undo": true}``; if that placement closed the draft turn, the
    next placement that leaves it open does) and places again with a random legal move. These
    steps are stored with their events, and around the first take-back with every view.
    """

    def play(table: Table) -> None:
        pending_forfeit = forfeit
        owed = sorted(take_backs)  # a placement that closes the turn defers to the next one
        while True:
            table.system_steps()
            if table.over:
                if owed:
                    raise RuntimeError(f"{table.seed}: the match ended before the take-backs "
                                       f"due after {owed} moves")
                return
            if pending_forfeit is not None and table.moves >= pending_forfeit[0]:
                seat = pending_forfeit[1]
                table.forfeit(table.next_seat() if seat is None else seat, views=True)
                pending_forfeit = None
                continue
            seat = table.next_seat()
            move = table.bot(seat, levels[seat])
            if owed and table.moves >= owed[0]:
                # Every viewer's view is stored around the first take-back only.
                first = len(owed) == len(take_backs)
                table.move(seat, move, events=True, views=first)
                if table.has_pending(seat):
                    table.move(seat, {"undo": True}, events=True, views=first)
                    table.move(seat, table.bot(seat, 1, "again"), events=True)
                    owed.pop(0)
            else:
                table.move(seat, move)

    return play


def recorded(path: Path) -> Player:
    """The steps of an existing file, replayed as they are."""
    doc = json.loads(path.read_text())

    def play(table: Table) -> None:
        for step in doc["steps"]:
            kept = {key: value for key, value in step.items()
                    if key in ("seat", "move", "forfeit", "system")}
            table.play(kept, events="events" in step, views="views" in step)

    return play


# --------------------------------------------------------------------------- scenarios


Wanted = Callable[[Table], bool]


def ends_with(reason: str) -> Wanted:
    return lambda table: table.engine.outcome(table.state).reason == reason


def tie_broken(table: Table) -> bool:
    """Two seats end level on points and the tie-break gives them different places."""
    outcome = table.engine.outcome(table.state)
    return outcome.reason == "finished" and any(
        outcome.scores[a] == outcome.scores[b] and outcome.ranks[a] != outcome.ranks[b]
        for a in range(table.players) for b in range(a))


@dataclass(frozen=True)
class Scenario:
    game: str
    name: str
    about: str
    players: int
    config: Mapping[str, Any] = field(default_factory=dict)
    play: Player | None = None  # None: keep the steps already in the file
    wanted: Wanted = lambda table: True

    @property
    def path(self) -> Path:
        return HERE / self.game / f"{self.name}.json"


SCENARIOS: tuple[Scenario, ...] = (
    # Nibble: the moves of these files predate the generator and are kept as recorded.
    Scenario("nibble", "nine-of-a-colour", "A seat collects nine discs of one colour.", 2),
    Scenario("nibble", "three-adjacent-sevens",
             "A seat collects three sevens of adjacent colours in the colour order.", 2),
    Scenario("nibble", "empty-board-majority",
             "The board is emptied and the majority of majorities decides.", 2),
    Scenario("nibble", "early-finish-decided",
             "Early finish with a fixed colour order and first seat: the match stops once "
             "the winner is decided.", 2,
             {"early_finish": True, "first_seat": 1, "color_order": [8, 7, 6, 5, 4, 3, 2, 1, 0]}),
    # Nimble.
    Scenario("nimble", "two-players-turns",
             "Two players in turn mode, the remembering bot (level 3) against the greedy one; "
             "a seat wins on reaching one card left.", 2, {}, bots(3, 2),
             ends_with("finished")),
    Scenario("nimble", "three-players-ramp",
             "Three players in turn mode with the round-1 ramp (budgets 1, 2, 3).", 3, {},
             bots(2, 1, 2), ends_with("finished")),
    Scenario("nimble", "four-players-forfeit",
             "Four players in turn mode, budget 2 and no ramp; the seat to move forfeits, the "
             "turn passes on and the three others play on.", 4, {"budget": 2, "ramp": False},
             bots(2, 2, 2, 2, forfeit=(40, None)), ends_with("finished")),
    Scenario("nimble", "race",
             "Three players racing (mode race): everyone acts at once, in a seeded arrival "
             "order.", 3, {"mode": "race"}, bots(2, 2, 1), ends_with("finished")),
    Scenario("nimble", "stalemate",
             "Two random players, budget 4 (stall cap 10), finishing at zero cards: whole rounds "
             "pass without a placement until the stall cap ends the match.", 2,
             {"budget": 4, "two_player_finish_at": 0}, bots(1, 1), ends_with("stalemate")),
    Scenario("nimble", "deadlock",
             "Two greedy players until no card held can ever match a stack top again.", 2, {},
             bots(2, 2), ends_with("deadlock")),
    # Nimalia.
    Scenario("nimalia", "solo",
             "The solo variant: five rounds, two of every three cards discarded, a title at "
             "the end.", 1, {}, bots(2)),
    Scenario("nimalia", "two-players-take-backs",
             "Two players, the first-game objectives; a seat takes a pending placement back "
             "and places again, in three turns.", 2, {"objectives": "first_game"},
             bots(2, 1, take_backs=(0, 9, 20))),
    Scenario("nimalia", "three-players-four-rounds-forfeit",
             "Three players, four rounds, ties broken by the fewest covered squares; a seat "
             "forfeits in round 2, its bot keeps placing and it ranks last.", 3,
             {"rounds": 4, "tie_break": "fewest_covered_squares"},
             bots(2, 1, 2, forfeit=(10, 1))),
    Scenario("nimalia", "four-players-tie",
             "Four players, the hard objectives; two seats end level on points and the "
             "tie-break (most of one species) separates them.", 4,
             {"objectives": "hard"}, bots(2, 1, 2, 1), tie_broken),
)


def record(scenario: Scenario, *, keep_moves: bool) -> JSON:
    """The file of one scenario: its own steps replayed, or the first seed that gives the match
    it wants."""
    if scenario.play is None or keep_moves:
        if not scenario.path.exists():
            raise SystemExit(f"{scenario.path} is missing; its steps cannot be kept.")
        seed = json.loads(scenario.path.read_text())["seed"]
        table = Table(scenario.game, scenario.players, scenario.config, seed)
        recorded(scenario.path)(table)
        return table.document(scenario.about)
    for number in range(SEED_TRIES):
        seed = f"{scenario.game}-{scenario.name}-{number}"
        table = Table(scenario.game, scenario.players, scenario.config, seed)
        scenario.play(table)
        if scenario.wanted(table):
            return table.document(scenario.about)
    raise SystemExit(f"{scenario.game}/{scenario.name}: no seed of {SEED_TRIES} gives the "
                     "wanted match; change the scenario.")


# --------------------------------------------------------------------------- writing

# How deep each top-level key is laid out over several lines; below that, one line.
LAYOUT = {"initial": 1, "steps": 1, "final_state": 1, "final_views": 2}


def layout(value: Any, depth: int, indent: int = 0) -> str:
    if depth < 0 or not isinstance(value, dict | list) or not value:
        return json.dumps(value, ensure_ascii=False)
    pad, end = "  " * (indent + 1), "  " * indent
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(key)}: {layout(item, depth - 1, indent + 1)}"
                 for key, item in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{end}}}"
    items = [pad + layout(item, depth - 1, indent + 1) for item in value]
    return "[\n" + ",\n".join(items) + f"\n{end}]"


def write(doc: Mapping[str, Any], path: Path) -> None:
    lines = [f"  {json.dumps(key)}: {layout(value, LAYOUT.get(key, 0) - 1, 1)}"
             for key, value in doc.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game slugs (default: every game)")
    parser.add_argument("--keep-moves", action="store_true",
                        help="replay the steps in the files instead of playing again")
    args = parser.parse_args(argv)
    chosen = [s for s in SCENARIOS if not args.games or s.game in args.games]
    if not chosen:
        raise SystemExit(f"No scenarios for {args.games}.")
    for scenario in chosen:
        doc = record(scenario, keep_moves=args.keep_moves)
        write(doc, scenario.path)
        size = scenario.path.stat().st_size
        print(f"{scenario.path.relative_to(HERE)}: seed {doc['seed']}, {len(doc['steps'])} "
              f"steps, {doc['outcome']['reason']}, {size / 1024:.1f} KB", file=sys.stderr)
    kept = {s.path for s in SCENARIOS}
    for path in HERE.glob("*/*.json"):
        if path not in kept:
            print(f"{path.relative_to(HERE)} belongs to no scenario", file=sys.stderr)


if __name__ == "__main__":
    main()
