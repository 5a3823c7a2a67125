"""The contract every engine keeps, run over every registered engine, player count and many seeds.

A random playout drives each engine through the protocol; at every step it checks that the
engine's answers are consistent with each other and with the platform's expectations. Every
value of every choice option gets a few playouts of its own, so modes that change the hooks'
answers (a Nimble race runs in real time) are covered too.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.catalog import engines
from games.kit.plans import plans_allowed, same_key, waited_for
from games.kit.protocol import (
    Engine,
    EngineBase,
    GameOver,
    NotYourTurn,
    Outcome,
    Transition,
    apply_checked,
    events_for,
    is_realtime,
    seats_to_act,
)

SEEDS = [f"contract-seed-{n}-SENTINEL" for n in range(20)]
MAX_STEPS = 4000


def _cases():
    for slug, engine in sorted(engines().items()):
        for players in range(engine.min_players, engine.max_players + 1):
            for seed in SEEDS:
                yield pytest.param(engine, players, seed, id=f"{slug}-{players}p-{seed[14:16]}")


def _variant_cases():
    """Every non-default value of every choice option, for every player count, a few seeds."""
    for slug, engine in sorted(engines().items()):
        for option in engine.options:
            if option.kind != "choice":
                continue
            for value in option.choices:
                if value == option.default:
                    continue
                for players in range(engine.min_players, engine.max_players + 1):
                    for seed in SEEDS[:3]:
                        yield pytest.param(engine, {option.name: value}, players, seed,
                                           id=f"{slug}-{option.name}={value}-{players}p-"
                                              f"{seed[14:16]}")


def _text(engine: Engine, state) -> str:
    return json.dumps(engine.dump(state), sort_keys=True)


def _json_roundtrip(engine: Engine, state):
    data = engine.dump(state)
    text = json.dumps(data, sort_keys=True)
    reloaded = engine.load(json.loads(text))
    assert reloaded == state
    assert json.dumps(engine.dump(reloaded), sort_keys=True) == text
    return text


def _check_views(engine: Engine, state, players: int, seed: str) -> None:
    for viewer in [None, *range(players)]:
        view = engine.view(state, viewer)
        text = json.dumps(view)
        if engine.outcome(state) is None:
            assert seed not in text, "the seed must never leave the engine while the match runs"


def _check_hooks(engine: Engine, state, players: int) -> None:
    """The hooks the server schedules turns, deadlines and bots by agree with ``actors``."""
    actors = engine.actors(state)
    must_act = engine.must_act(state)
    assert isinstance(must_act, frozenset)
    assert must_act <= actors <= frozenset(range(players))
    assert seats_to_act(engine, state) == must_act
    if actors:
        assert must_act, "a match where someone may act waits for someone"
    realtime = engine.is_realtime(state)
    assert isinstance(realtime, bool)
    assert is_realtime(engine, state) is realtime


def _check_stalemate(engine: Engine, state) -> None:
    """A real-time match nobody touches ends by ``end_stalemate``, which leaves its input alone."""
    before = copy.deepcopy(engine.dump(state))
    transition = engine.end_stalemate(state)
    assert isinstance(transition, Transition)
    assert engine.dump(state) == before, "end_stalemate must not mutate its input"
    assert engine.outcome(transition.state) is not None
    assert engine.actors(transition.state) == frozenset()
    _json_roundtrip(engine, transition.state)
    for event in transition.events:
        json.dumps(event)


def _step(engine: Engine, state, rng: random.Random, players: int, text: str):
    """One step of a random playout: a system step when due, else a random actor's move.
    ``text`` is the state's JSON (sorted keys), to show that nothing changed it."""
    _check_hooks(engine, state, players)
    actors = engine.actors(state)
    if not actors:
        transition = engine.system_step(state)
        assert isinstance(transition, Transition), "no actors and no outcome: a system step is due"
        return transition, None
    seat = rng.choice(sorted(actors))
    moves = list(engine.legal_moves(state, seat))
    assert moves, f"actor {seat} has no legal move"
    move = rng.choice(moves)
    # An idle seat may not act.
    for other in range(players):
        if other not in actors:
            with pytest.raises(NotYourTurn):
                apply_checked(engine, state, other, move)
    engine.validate(state, seat, move)
    parsed = engine.parse_move(json.loads(json.dumps(engine.dump_move(move))))
    assert parsed == move, "dump_move/parse_move must round-trip"
    transition = apply_checked(engine, state, seat, move)
    assert _text(engine, state) == text, "apply must not mutate its input"
    for event in transition.events:
        assert isinstance(event.get("type"), str)
        json.dumps(event)
    return transition, (seat, move)


def _playout(engine: Engine, players: int, seed: str, forfeit_at: int | None = None,
             config: dict | None = None):
    rng = random.Random(seed)
    state = engine.initial_state(num_players=players, config=config or {}, seed=seed)
    trail = [_json_roundtrip(engine, state)]
    for step in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            break
        if forfeit_at is not None and step == forfeit_at:
            seat = rng.randrange(players)
            state = engine.forfeit(state, seat).state
            trail.append(_json_roundtrip(engine, state))
            continue
        transition, _ = _step(engine, state, rng, players, trail[-1])
        state = transition.state
        trail.append(_json_roundtrip(engine, state))
        if step % 7 == 0:
            _check_views(engine, state, players, seed)
            if engine.outcome(state) is None and engine.is_realtime(state):
                _check_stalemate(engine, state)
    _check_hooks(engine, state, players)
    return state, trail


@pytest.mark.parametrize(("engine", "players", "seed"), list(_cases()))
def test_random_playout_keeps_the_contract(engine: Engine, players: int, seed: str) -> None:
    state, trail = _playout(engine, players, seed)
    _check_views(engine, state, players, seed)
    outcome = engine.outcome(state)
    if outcome is not None:
        assert isinstance(outcome, Outcome)
        assert len(outcome.ranks) == players and len(outcome.scores) == players
        assert min(outcome.ranks) == 1
        assert engine.actors(state) == frozenset()
        assert engine.system_step(state) is None
        for seat in range(players):
            with pytest.raises(GameOver):
                apply_checked(engine, state, seat, object())
    # Determinism: the same seed and the same random choices give the same trail.
    assert _replayed_trail(engine, players, seed) == trail


def _replayed_trail(engine: Engine, players: int, seed: str) -> list[str]:
    """The states of ``_playout``'s match played again with the same random choices, its
    checks left out (the first playout made them): the JSON of each state."""
    rng = random.Random(seed)
    state = engine.initial_state(num_players=players, config={}, seed=seed)
    trail = [_text(engine, state)]
    for _ in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            break
        actors = engine.actors(state)
        if not actors:
            state = engine.system_step(state).state
        else:
            seat = rng.choice(sorted(actors))
            move = rng.choice(list(engine.legal_moves(state, seat)))
            state = apply_checked(engine, state, seat, move).state
        trail.append(_text(engine, state))
    return trail


@pytest.mark.parametrize(("engine", "config", "players", "seed"), list(_variant_cases()))
def test_every_option_choice_keeps_the_contract(engine: Engine, config: dict, players: int,
                                                seed: str) -> None:
    state, trail = _playout(engine, players, seed, config=config)
    _check_views(engine, state, players, seed)
    again, trail_again = _playout(engine, players, seed, config=config)
    assert trail_again == trail


@pytest.mark.parametrize(("engine", "players", "seed"), list(_cases())[::5])
def test_forfeits_end_the_match_or_let_play_go_on(engine: Engine, players: int, seed: str) -> None:
    rng = random.Random(seed + "forfeit")
    state, _ = _playout(engine, players, seed, forfeit_at=rng.randrange(0, 12))
    state = engine.initial_state(num_players=players, config={}, seed=seed)
    left = []
    while engine.outcome(state) is None and len(left) < players:
        seat = next(s for s in range(players) if s not in left)
        state = engine.forfeit(state, seat).state
        left.append(seat)
        _json_roundtrip(engine, state)
    outcome = engine.outcome(state)
    assert outcome is not None, "forfeiting all but one seat must end the match"
    # Those who left rank below those who stayed, the first to leave last.
    stayed = [s for s in range(players) if s not in left]
    for seat in stayed:
        assert all(outcome.ranks[seat] < outcome.ranks[gone] for gone in left)
    for earlier, later in zip(left, left[1:], strict=False):
        assert outcome.ranks[earlier] > outcome.ranks[later]


@pytest.mark.parametrize("engine", list(engines().values()), ids=list(engines()))
def test_engine_describes_itself(engine: Engine) -> None:
    assert engine.slug in engines()
    assert 1 <= engine.min_players <= engine.max_players <= 4
    assert isinstance(engine.private_moves, bool)
    for option in engine.options:
        json.dumps(option.as_dict())


@pytest.mark.parametrize(("engine", "players", "seed"), list(_cases())[::4])
def test_plan_hooks_keep_the_contract(engine: Engine, players: int, seed: str) -> None:
    """Plans never apply to a finished or real-time match; where they apply, the key of each
    move of the other seat is JSON, and the engine's candidate for that key, in the position
    before the move, shows the same key."""
    rng = random.Random(seed + "plans")
    state = engine.initial_state(num_players=players, config={}, seed=seed)
    log: list = []
    for _ in range(200):
        for seat in range(players):
            applies = engine.plans_apply(state, seat)
            assert isinstance(applies, bool)
            assert plans_allowed(engine, state, seat) == (
                applies and engine.outcome(state) is None and not engine.is_realtime(state))
        if engine.outcome(state) is not None:
            break
        actors = sorted(engine.actors(state))
        if not actors:
            state = engine.system_step(state).state
            continue
        mover = rng.choice(actors)
        move = rng.choice(list(engine.legal_moves(state, mover)))
        transition = apply_checked(engine, state, mover, move)
        for viewer in range(players):
            if viewer == mover:
                continue
            key = engine.plan_key(state, mover, move, transition, viewer)
            assert json.loads(json.dumps(key)) == key
            if plans_allowed(engine, state, viewer) and waited_for(engine, state, viewer):
                found = engine.plan_candidate(state, mover, key, viewer,
                                              history=events_for(log, viewer))
                assert found is not None, "a key the other seat just showed is possible"
                candidate, position = found
                shown = apply_checked(engine, position, mover, candidate)
                assert same_key(engine.plan_key(position, mover, candidate, shown, viewer), key)
        log.extend(transition.events)
        state = transition.state
    race = [option for option in engine.options if option.name == "mode"]
    for value in (race[0].choices if race else ()):
        other = engine.initial_state(num_players=players, config={"mode": value}, seed=seed)
        if engine.is_realtime(other):
            assert not any(plans_allowed(engine, other, seat) for seat in range(players))


def test_engine_base_gives_the_hooks_their_defaults() -> None:
    class Countdown(EngineBase[int, int]):
        """Just enough of a game to ask the defaults about: seats 0 and 1 act until 0."""

        slug = "countdown"

        def actors(self, state: int) -> frozenset[int]:
            return frozenset({0, 1}) if state > 0 else frozenset()

    engine = Countdown()
    assert engine.must_act(3) == engine.actors(3) == frozenset({0, 1})
    assert engine.must_act(0) == frozenset()
    assert engine.is_realtime(3) is False
    assert engine.system_step(3) is None
    assert engine.private_moves is False
    assert engine.plans_apply(3, 0) is False
    with pytest.raises(NotImplementedError, match="countdown"):
        engine.end_stalemate(3)


def test_private_events_reach_only_their_seat() -> None:
    events = [{"type": "a"}, {"type": "b", "private_to": 1}]
    assert events_for(events, 0) == [{"type": "a"}]
    assert events_for(events, 1) == events
    assert events_for(events, None) == [{"type": "a"}]
