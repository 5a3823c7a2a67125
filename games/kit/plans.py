"""Plans: a seat's replies, decided ahead, to the moves the other seat may make.

A plan is a tree. Each branch is keyed (``on``) by a move of the other seat as the planner will
see it (:meth:`~games.kit.protocol.Engine.plan_key`: Nibble's take itself, a Nimble flip with
the card it showed), holds the planner's ``reply`` (a sequence of its moves, possibly empty) and
the branches that follow (``then``). The JSON form is a list of branches::

    [{"on": <key>, "reply": [<move>, ...], "then": [<branch>, ...]}, ...]

A *line* is a path from the root to a leaf; its moves are the keys and replies along it.

During the planner's own turn the lines start with its own next moves instead: the root is a
list of *openings* (:class:`Opening`), each the planner's moves still to make by hand
(``mine``, at least one), then the branches that follow once it waits, as above::

    [{"mine": [<move>, ...], "then": [<branch>, ...]}, ...]

A root is made of branches or of openings, never both; only the root may hold openings.

What a tree means
-----------------

- A plan is held while the planner *waits*: it may not act and the other seat must. The root's
  branches are the other seat's possible next moves.
- The other seat's moves advance the plan one branch each, whether its turn is one move (Nibble)
  or several actions (a Nimble turn: each flip, placement, return, recycle and ``end_turn`` is a
  key of its own). After a key, the branch's reply is played at once, move after move; it must
  be empty while the other seat is still to act, and it takes the planner up to the point where
  the other seat must act again. The tree alternates per move of the other seat, and a reply is
  a sequence of the planner's moves.
- A reply may end with a move that reveals something (:meth:`~games.kit.protocol.Engine.
  move_reveals`, a Nimble flip), but nothing may follow that move in the reply, and its branch
  has no ``then``: the plan cannot know the position it leads to. A branch whose reply leaves
  the planner able to act, or ends the match, has no ``then`` either: the plan ends there and
  the planner goes on by hand.
- After the other seat's move, the first (and only: keys are distinct among siblings) branch
  with that key is taken: its reply is played and the plan becomes its ``then``, the lines that
  still match. No branch with that key: the plan is cleared, and the planner is told the key it
  did not cover (:class:`NotCovered`). A reply the engine refuses in the real position (only a
  hidden card can make that happen) drops the plan without playing any of it
  (:class:`ReplyRefused`); it never blocks the match.
- A plan made while the planner waits holds no move for it to make by hand: a branch after
  which the planner may act has no ``then``, so the plan is spent by the time the planner could
  move by hand. A plan made during the planner's own turn (openings) is the other way round:
  the planner's moves by hand advance it. A move by hand keeps the openings whose ``mine``
  starts with that move, that move taken off (:class:`HandMove`); an opening whose moves are
  all made becomes its ``then``, the plan of a planner that waits. Any other move by hand
  clears the plan. The plan's own replies are played through :func:`plan_after`'s
  :class:`Reply` and are not hand moves.
- No opening holds a move that reveals something (a Nimble flip): the position after it is not
  known, so nothing of the line could be checked, and a line that ends with it would plan
  nothing.

Saving a plan (:func:`plan_checked`)
------------------------------------

Every key must be a move the other seat could make, as the planner could see it, and every
reply must be legal in the position it would be played in; an opening's moves must be legal
now and in turn, and its branches are checked in the position after them. Both are decided
from the planner's information set only (its view now and the events it was shown): for each
key the engine builds a position the planner cannot tell from the real one in which the other
seat's move shows that key (:meth:`~games.kit.protocol.Engine.plan_candidate`), and refuses a
key the planner can already rule out. Accepting or refusing a plan therefore reveals nothing of
what the planner may not know. Limits: at most :data:`MAX_LINES` lines of at most
:data:`MAX_LINE_MOVES` moves, and at most :data:`MAX_NODES` branches, openings and their moves
in all; a key or a move's JSON is at most :data:`MAX_ITEM_CHARS` characters. Saving no branches
deletes the plan. The service refuses a
plan made for another version of the match (:class:`PlanStale`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.protocol import (
    JSON,
    AnyEngine,
    EngineError,
    IllegalMove,
    Seat,
    State,
    Transition,
    apply_checked,
    events_for,
)

MAX_LINES = 30
MAX_LINE_MOVES = 30
MAX_NODES = 1000
MAX_ITEM_CHARS = 1000

Path = tuple[int | str, ...]


# --------------------------------------------------------------------------- errors


class PlanError(EngineError):
    """A plan the server will not keep.

    ``extra["path"]`` locates the branch or move at fault (indices and field names from the
    root, as a list)."""

    code = "plan_error"


class PlanMalformed(PlanError):
    """Not a plan: wrong shape, unknown field, or two sibling branches with one key."""

    code = "plan_malformed"


class PlanTooLarge(PlanError):
    """The plan is beyond a limit: `extra.limit` names it and `extra.maximum` gives it.

    The limits: ``lines``, ``line_moves``, ``nodes``, ``item_chars``."""

    code = "plan_too_large"


class PlanIllegalKey(PlanError):
    """A key the other seat cannot produce there, as far as the planner can tell."""

    code = "plan_illegal_key"


class PlanIllegalReply(PlanError):
    """A move of the planner (a reply, or an opening's own move) is not legal where it would
    be played (`extra.cause`, `extra.rule`).

    The engine refuses it in the position it would be played in, or it is placed after a move
    that reveals something; ``extra["cause"]`` is the engine's error code (or
    ``after_reveal``) and ``extra["rule"]`` its rule, if any."""

    code = "plan_illegal_reply"


class PlanUnreachable(PlanError):
    """Branches follow a point where the plan cannot go on (`extra.reason`).

    ``extra["reason"]`` is ``match_over``, ``planner_to_act`` or ``revealed`` (also: an
    opening holds a move that turns up something hidden)."""

    code = "plan_unreachable"


class PlansUnavailable(PlanError):
    """Plans do not apply to this match or seat.

    A race, three players, a game without them, a finished match, a match created without
    plans."""

    code = "plans_unavailable"


class PlanNotWaiting(PlanError):
    """A plan of branches is saved only while the planner waits for the other seat's move."""

    code = "plan_not_waiting"


class PlanNotYourTurn(PlanError):
    """A plan of openings is saved only during the planner's own turn."""

    code = "plan_not_your_turn"


class PlanStale(PlanError):
    """The plan was made for another version of the match than its current one.

    Raised by the service, which knows the version."""

    code = "plan_stale"


# --------------------------------------------------------------------------- the tree


@dataclass(frozen=True)
class Branch:
    """The other seat's move seen as ``on``, the planner's ``reply`` (moves as JSON), and the
    branches that follow."""

    on: Any
    reply: tuple[Any, ...] = ()
    then: tuple[Branch, ...] = ()


@dataclass(frozen=True)
class Opening:
    """A line begun during the planner's own turn: its moves still to make by hand (``mine``,
    as JSON, at least one), then the branches that follow once it waits."""

    mine: tuple[Any, ...]
    then: tuple[Branch, ...] = ()


# A plan of a planner that waits: the other seat's possible moves, each with the reply.
Plan = tuple[Branch, ...]
# A plan of a planner whose turn it is: its own next moves, each line with what follows.
Openings = tuple[Opening, ...]
AnyPlan = Plan | Openings


def is_opening(plan: AnyPlan) -> bool:
    """Whether ``plan`` is made of openings (a plan for the planner's own turn)."""
    return bool(plan) and isinstance(plan[0], Opening)


def parse_plan(data: Any) -> AnyPlan:
    """The plan a JSON value describes, its shape and limits checked (not its moves: see
    :func:`plan_checked`). Raises :class:`PlanMalformed` or :class:`PlanTooLarge`."""
    budget = [MAX_NODES]
    plan: AnyPlan
    if isinstance(data, list) and any(isinstance(item, Mapping) and "mine" in item
                                      for item in data):
        plan = tuple(_parse_opening(item, (i,), budget) for i, item in enumerate(data))
    else:
        plan = _parse_level(data, (), 0, budget)
    if count_lines(plan) > MAX_LINES:
        raise PlanTooLarge("The plan has too many lines.", path=[], limit="lines",
                           maximum=MAX_LINES)
    return plan


def _parse_level(data: Any, path: Path, moves_above: int, budget: list[int]) -> Plan:
    if not isinstance(data, list):
        raise PlanMalformed("A plan is a list of branches.", path=list(path))
    return tuple(_parse_branch(item, (*path, i), moves_above, budget)
                 for i, item in enumerate(data))


def _parse_branch(data: Any, path: Path, moves_above: int, budget: list[int]) -> Branch:
    if not isinstance(data, Mapping):
        raise PlanMalformed("A branch is a JSON object.", path=list(path))
    unknown = sorted(set(data) - {"on", "reply", "then"})
    if unknown or "on" not in data:
        raise PlanMalformed("A branch has an \"on\" and may have a \"reply\" and a \"then\".",
                            path=list(path), field=unknown[0] if unknown else "on")
    reply = data.get("reply", [])
    if not isinstance(reply, list):
        raise PlanMalformed("A reply is a list of moves.", path=[*path, "reply"])
    _spend(budget, 1 + len(reply), path)
    moves = moves_above + 1 + len(reply)
    if moves > MAX_LINE_MOVES:
        raise PlanTooLarge("A line of the plan has too many moves.", path=list(path),
                           limit="line_moves", maximum=MAX_LINE_MOVES)
    on = _item(data["on"], (*path, "on"))
    replies = tuple(_item(move, (*path, "reply", j)) for j, move in enumerate(reply))
    then = _parse_level(data.get("then", []), (*path, "then"), moves, budget)
    return Branch(on, replies, then)


def _parse_opening(data: Any, path: Path, budget: list[int]) -> Opening:
    if not isinstance(data, Mapping):
        raise PlanMalformed("A branch is a JSON object.", path=list(path))
    unknown = sorted(set(data) - {"mine", "then"})
    if unknown or "mine" not in data:
        raise PlanMalformed("An opening has a \"mine\" and may have a \"then\".",
                            path=list(path), field=unknown[0] if unknown else "mine")
    mine = data["mine"]
    if not isinstance(mine, list) or not mine:
        raise PlanMalformed("An opening's \"mine\" is a list of one move or more.",
                            path=[*path, "mine"])
    _spend(budget, 1 + len(mine), path)
    if len(mine) > MAX_LINE_MOVES:
        raise PlanTooLarge("A line of the plan has too many moves.", path=list(path),
                           limit="line_moves", maximum=MAX_LINE_MOVES)
    moves = tuple(_item(move, (*path, "mine", j)) for j, move in enumerate(mine))
    then = _parse_level(data.get("then", []), (*path, "then"), len(mine), budget)
    return Opening(moves, then)


def _spend(budget: list[int], nodes: int, path: Path) -> None:
    budget[0] -= nodes
    if budget[0] < 0:
        raise PlanTooLarge("The plan has too many branches and moves.", path=list(path),
                           limit="nodes", maximum=MAX_NODES)


def _item(value: Any, path: Path) -> Any:
    """A key or a move: any JSON value, of bounded size, copied."""
    try:
        text = json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise PlanMalformed("A key or a move must be plain JSON.", path=list(path)) from None
    if len(text) > MAX_ITEM_CHARS:
        raise PlanTooLarge("A key or a move of the plan is too long.", path=list(path),
                           limit="item_chars", maximum=MAX_ITEM_CHARS)
    return json.loads(text)


def dump_plan(plan: AnyPlan) -> list[JSON]:
    """The JSON form of a plan (every field written)."""
    return [{"mine": list(node.mine), "then": dump_plan(node.then)}
            if isinstance(node, Opening) else
            {"on": node.on, "reply": list(node.reply), "then": dump_plan(node.then)}
            for node in plan]


def _own_moves(node: Branch | Opening) -> int:
    """The moves a branch (its key and reply) or an opening (its moves) adds to its line."""
    return len(node.mine) if isinstance(node, Opening) else 1 + len(node.reply)


def count_lines(plan: AnyPlan) -> int:
    """The lines of a plan: its leaves (an empty plan has none)."""
    return sum(count_lines(node.then) if node.then else 1 for node in plan)


def count_nodes(plan: AnyPlan) -> int:
    """Branches, openings and their moves (reply or own), in all."""
    return sum((1 + len(node.mine) if isinstance(node, Opening) else 1 + len(node.reply))
               + count_nodes(node.then) for node in plan)


def line_moves(plan: AnyPlan) -> int:
    """The moves (keys, replies, own moves) of the plan's longest line."""
    return max((_own_moves(node) + line_moves(node.then) for node in plan), default=0)


def same_key(a: Any, b: Any) -> bool:
    """Whether two keys are the same JSON (``1``, ``1.0`` and ``true`` differ)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# --------------------------------------------------------------------------- saving


def plans_allowed(engine: AnyEngine, state: State, seat: Seat) -> bool:
    """Whether ``seat`` may hold a plan now: the match runs, not in real time, and the game
    says plans apply (:meth:`~games.kit.protocol.Engine.plans_apply`)."""
    return (engine.outcome(state) is None and not engine.is_realtime(state)
            and engine.plans_apply(state, seat))


def waited_for(engine: AnyEngine, state: State, planner: Seat) -> Seat | None:
    """The other seat the planner waits for, or ``None`` when it does not wait (it may act, a
    system step is due, or several seats must act)."""
    if planner in engine.actors(state):
        return None
    must = engine.must_act(state)
    if len(must) != 1:
        return None
    (other,) = must
    return other


def plays_now(engine: AnyEngine, state: State, planner: Seat) -> bool:
    """Whether it is the planner's own turn, and nobody else's: its plan is then openings."""
    return engine.must_act(state) == frozenset((planner,)) and planner in engine.actors(state)


def plan_checked(engine: AnyEngine, state: State, planner: Seat, plan: AnyPlan, *,
                 history: Sequence[JSON]) -> AnyPlan:
    """The plan as the server keeps it, every key and move in the engine's own form, once
    every key is one the other seat could make and every move of the planner is legal where
    it would be played, as far as the planner can tell (``history``: the events it was shown,
    in order). Branches are for a planner that waits, openings for one whose turn it is.
    Raises a :class:`PlanError`; an empty plan is accepted as it is (it deletes the plan)."""
    if not plans_allowed(engine, state, planner):
        raise PlansUnavailable("Plans do not apply to this match.", path=[])
    if not plan:
        return ()
    if is_opening(plan):
        if not plays_now(engine, state, planner):
            raise PlanNotYourTurn("A plan that starts with your own move is saved during "
                                  "your turn.", path=[])
        return _checked_openings(engine, state, planner, list(history), plan)
    other = waited_for(engine, state, planner)
    if other is None:
        raise PlanNotWaiting("During your turn a plan starts with your own move.", path=[])
    return _checked_level(_Check(engine, planner, other), state, list(history),
                          _branches(plan), ())


def _branches(plan: AnyPlan) -> Plan:
    """The branches of a plan that is not made of openings."""
    return tuple(node for node in plan if isinstance(node, Branch))


def _checked_openings(engine: AnyEngine, state: State, planner: Seat, history: list[JSON],
                      plan: AnyPlan) -> Openings:
    checked: list[Opening] = []
    for i, node in enumerate(plan):
        if not isinstance(node, Opening):
            raise PlanMalformed("A plan's root holds branches or openings, not both.",
                                path=[i], field="mine")
        done = _checked_opening(engine, state, planner, list(history), node, (i,))
        if any(same_key(done.mine, sibling.mine) for sibling in checked):
            raise PlanMalformed("Two openings of the plan have the same moves.",
                                path=[i, "mine"])
        checked.append(done)
    return tuple(checked)


def _checked_opening(engine: AnyEngine, state: State, planner: Seat, history: list[JSON],
                     opening: Opening, path: Path) -> Opening:
    """The opening in the engine's form: each of its moves legal in turn and revealing
    nothing, then its branches checked where the planner waits after them."""
    dumped: list[Any] = []
    for j, data in enumerate(opening.mine):
        where = [*path, "mine", j]
        try:
            move = engine.parse_move(data)
            transition = apply_checked(engine, state, planner, move)
        except EngineError as error:
            raise _refused(error, where) from None
        if engine.move_reveals(state, planner, move):
            raise PlanUnreachable("A plan cannot start with a move that turns up something "
                                  "hidden.", path=where, reason="revealed")
        dumped.append(engine.dump_move(move))
        history.extend(events_for(transition.events, planner))
        state = transition.state
    then: Plan = ()
    if opening.then:
        other = waited_for(engine, state, planner)
        if other is None:
            reason = "match_over" if engine.outcome(state) is not None else "planner_to_act"
            raise PlanUnreachable("The plan cannot go on after these moves.",
                                  path=[*path, "then"], reason=reason)
        then = _checked_level(_Check(engine, planner, other), state, history, opening.then,
                              (*path, "then"))
    return Opening(tuple(dumped), then)


@dataclass(frozen=True)
class _Check:
    engine: AnyEngine
    planner: Seat
    other: Seat


def _checked_level(check: _Check, state: State, history: list[JSON], plan: Plan,
                   path: Path) -> Plan:
    checked: list[Branch] = []
    for i, branch in enumerate(plan):
        done = _checked_branch(check, state, history, branch, (*path, i))
        if any(same_key(done.on, sibling.on) for sibling in checked):
            raise PlanMalformed("Two branches of the plan have the same key.",
                                path=[*path, i, "on"])
        checked.append(done)
    return tuple(checked)


def _checked_branch(check: _Check, state: State, history: list[JSON], branch: Branch,
                    path: Path) -> Branch:
    engine = check.engine
    found = engine.plan_candidate(state, check.other, branch.on, check.planner,
                                  history=history)
    if found is None:
        raise PlanIllegalKey("The other player cannot make this move there.",
                             path=[*path, "on"])
    move, position = found
    transition = apply_checked(engine, position, check.other, move)
    key = engine.plan_key(position, check.other, move, transition, check.planner)
    seen = [*history, *events_for(transition.events, check.planner)]
    reply, after, revealed = _checked_reply(check, transition.state, seen, branch.reply, path)
    then: Plan = ()
    if branch.then:
        reason = _unreachable(check, after, revealed)
        if reason is not None:
            raise PlanUnreachable("The plan cannot go on after this reply.",
                                  path=[*path, "then"], reason=reason)
        then = _checked_level(check, after, seen, branch.then, (*path, "then"))
    return Branch(key, reply, then)


def _checked_reply(check: _Check, state: State, history: list[JSON], reply: tuple[Any, ...],
                   path: Path) -> tuple[tuple[Any, ...], State, bool]:
    """The reply in the engine's form, the position after it, and whether its last move
    reveals something; ``history`` is extended with what the planner is shown."""
    engine = check.engine
    dumped: list[Any] = []
    revealed = False
    for j, data in enumerate(reply):
        where = [*path, "reply", j]
        if revealed:
            raise PlanIllegalReply("Nothing may follow a move that turns up something hidden.",
                                   path=where, cause="after_reveal")
        try:
            move = engine.parse_move(data)
            transition = apply_checked(engine, state, check.planner, move)
        except EngineError as error:
            raise _refused(error, where) from None
        revealed = engine.move_reveals(state, check.planner, move)
        dumped.append(engine.dump_move(move))
        history.extend(events_for(transition.events, check.planner))
        state = transition.state
    return tuple(dumped), state, revealed


def _refused(error: EngineError, where: list[Any]) -> PlanIllegalReply:
    rule = {"rule": error.rule} if isinstance(error, IllegalMove) else {}
    return PlanIllegalReply("A reply of the plan is not legal where it would be played.",
                            path=where, cause=error.code, **rule)


def _unreachable(check: _Check, state: State, revealed: bool) -> str | None:
    """Why the plan cannot go on from ``state``, or ``None`` when the planner waits there."""
    if revealed:
        return "revealed"
    if check.engine.outcome(state) is not None:
        return "match_over"
    if waited_for(check.engine, state, check.planner) != check.other:
        return "planner_to_act"
    return None


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True)
class Reply:
    """The other seat's move matched ``key``: play ``moves`` (JSON, in order; none when the
    other seat is still to act) for the planner, then keep ``then`` (empty: the plan is done)."""

    key: Any
    moves: tuple[Any, ...]
    then: Plan


@dataclass(frozen=True)
class NotCovered:
    """No branch has ``key``: the plan is cleared, and the planner is told which move it did
    not cover."""

    key: Any


@dataclass(frozen=True)
class ReplyRefused:
    """The matching branch's reply move ``index`` is refused in the real position with
    ``error``: the plan is dropped, nothing of the reply is played, the planner is told."""

    key: Any
    index: int
    error: EngineError


@dataclass(frozen=True)
class HandMove:
    """The planner moved by hand: the plan becomes ``then``, the openings that started with
    that move, pruned (or the branches of the one whose moves are all made); empty: the plan
    is cleared."""

    then: AnyPlan = ()


PlanStep = Reply | NotCovered | ReplyRefused | HandMove


def plan_after(engine: AnyEngine, state_before: State, mover: Seat, move: Any,
               transition: Transition[Any], planner: Seat, plan: AnyPlan) -> PlanStep:
    """What the planner's plan does once ``mover`` has played ``move`` in ``state_before``
    with the result ``transition``: the reply to play and the pruned plan, what is left after
    the planner's own move, or why the plan ends. The whole reply is tried in the real
    position first, so a refused reply plays nothing."""
    if mover == planner:
        return HandMove(openings_after(plan, engine.dump_move(move)))
    key = engine.plan_key(state_before, mover, move, transition, planner)
    branch = next((b for b in _branches(plan) if same_key(b.on, key)), None)
    if branch is None:
        return NotCovered(key)
    state = transition.state
    for index, data in enumerate(branch.reply):
        try:
            state = apply_checked(engine, state, planner, engine.parse_move(data)).state
        except EngineError as error:
            return ReplyRefused(key, index, error)
    return Reply(key, branch.reply, branch.then)


def openings_after(plan: AnyPlan, move: JSON) -> AnyPlan:
    """What is left of ``plan`` once the planner has made ``move`` (in the engine's form) by
    hand: the openings that start with it, that move taken off; the branches of an opening
    whose moves are now all made; nothing for a plan of branches or a move no opening has."""
    left: list[Opening] = []
    for node in plan:
        if not isinstance(node, Opening) or not same_key(node.mine[0], move):
            continue
        if len(node.mine) == 1:
            if node.then:
                return node.then
            continue
        left.append(Opening(node.mine[1:], node.then))
    return tuple(left)
