"""A client author's check: play a complete match of every game against a bot (level 2 in the
Nimble race, level 1 otherwise) through a client generated from docs/openapi.yaml by
openapi-python-client, using only its typed models (no raw dicts), and type-checked with
``mypy --strict``.

    make clients          # generates var/clients/python/boardpost_client, type-checks, plays
    python clients/python/play.py http://127.0.0.1:8000   # against a running server

Every scenario registers a fresh account, creates the match, then reads the match detail and,
whenever the caller must act, builds a legal move from the typed ``legal_moves`` and sends it
with ``expected_version``, until the match is over.
"""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from uuid import UUID

from boardpost_client import AuthenticatedClient
from boardpost_client.api.auth import auth_register
from boardpost_client.api.matches import (
    matches_create,
    matches_detail,
    matches_events,
    matches_moves_submit,
)
from boardpost_client.models import (
    Error,
    MatchCalledOff,
    MoveInputRequest,
    MoveResult,
    NibbleConfig,
    NibbleMatchCreateRequest,
    NibbleMatchCreateRequestGame,
    NibbleMatchDetail,
    NibbleMove,
    NimaliaConfig,
    NimaliaMatchCreateRequest,
    NimaliaMatchCreateRequestGame,
    NimaliaMatchDetail,
    NimaliaOutcome,
    NimaliaPlace,
    NimaliaPlaceRotation,
    NimbleConfig,
    NimbleConfigMode,
    NimbleHandAction,
    NimbleHandActionAction,
    NimbleMatchCreateRequest,
    NimbleMatchCreateRequestGame,
    NimbleMatchDetail,
    NimblePlace,
    NimbleViewMode,
    RegisterRequest,
    SeatInputKindEnum,
    SeatInputRequest,
    StatusEnum,
    Token,
)

Detail = NibbleMatchDetail | NimbleMatchDetail | NimaliaMatchDetail
CreateRequest = NibbleMatchCreateRequest | NimbleMatchCreateRequest | NimaliaMatchCreateRequest
Move = NibbleMove | NimblePlace | NimbleHandAction | NimaliaPlace

MAX_STEPS = 3000
WAIT_SECONDS = 60.0


class PlayError(RuntimeError):
    """The server answered something a well-behaved client cannot go on from."""


@dataclass(frozen=True)
class Scenario:
    name: str
    request: Callable[[], CreateRequest]


def _seats(bot: bool, level: int = 1) -> list[SeatInputRequest]:
    seats = [SeatInputRequest(kind=SeatInputKindEnum.ME)]
    if bot:
        seats.append(SeatInputRequest(kind=SeatInputKindEnum.BOT, level=level))
    return seats


SCENARIOS = [
    Scenario("nibble", lambda: NibbleMatchCreateRequest(
        game=NibbleMatchCreateRequestGame.NIBBLE, seats=_seats(True), rated=False,
        config=NibbleConfig(first_seat=0))),
    Scenario("nimble turns", lambda: NimbleMatchCreateRequest(
        game=NimbleMatchCreateRequestGame.NIMBLE, seats=_seats(True), rated=False,
        config=NimbleConfig(mode=NimbleConfigMode.TURNS))),
    Scenario("nimble race", lambda: NimbleMatchCreateRequest(
        game=NimbleMatchCreateRequestGame.NIMBLE, seats=_seats(True, level=2), rated=False,
        config=NimbleConfig(mode=NimbleConfigMode.RACE))),
    Scenario("nimalia 2 players", lambda: NimaliaMatchCreateRequest(
        game=NimaliaMatchCreateRequestGame.NIMALIA, seats=_seats(True), rated=False,
        config=NimaliaConfig())),
    Scenario("nimalia solo", lambda: NimaliaMatchCreateRequest(
        game=NimaliaMatchCreateRequestGame.NIMALIA, seats=_seats(False), players=1,
        rated=False, config=NimaliaConfig())),
]


# --------------------------------------------------------------------------- moves


def nibble_move(detail: NibbleMatchDetail) -> Move:
    """One takeable disc of the lowest colour id: always a legal take."""
    if detail.legal_moves is None:
        raise PlayError("Nibble: my turn without legal moves")
    takeable = detail.legal_moves.takeable.additional_properties
    colour = min(takeable, key=int)
    return NibbleMove(take=[takeable[colour][0]])


NIMBLE_PREFERENCE = [NimbleHandActionAction.FLIP, NimbleHandActionAction.RECYCLE,
                     NimbleHandActionAction.END_TURN, NimbleHandActionAction.RETURN]


def nimble_move(detail: NimbleMatchDetail) -> Move:
    """Place whenever a stack takes the discard's top, else flip, recycle or end the turn."""
    moves = detail.legal_moves or []
    for move in moves:
        if isinstance(move, NimblePlace):
            return move
    actions = {move.action: move for move in moves if isinstance(move, NimbleHandAction)}
    for action in NIMBLE_PREFERENCE:
        if action in actions:
            return actions[action]
    raise PlayError("Nimble: my turn without legal moves")


def nimalia_move(detail: NimaliaMatchDetail) -> Move:
    """The first hand card, unturned, at the first legal anchor."""
    legal = detail.legal_moves
    if legal is None or legal.undo or not legal.cards or not legal.anchors:
        raise PlayError("Nimalia: my turn without a placement")
    row, col = legal.anchors[0]
    return NimaliaPlace(card=legal.cards[0], row=row, col=col,
                        rotation=NimaliaPlaceRotation(legal.rotations[0]))


@dataclass
class RaceWatch:
    """Race mode: a player who has seen every card they hold since the stacks last changed will
    find nothing new to place by going on, so the client waits for another player instead of
    cycling through its cards (the other player, a bot, acts every few seconds)."""

    placed: int = -1  # cards on the stacks when the client last looked
    idle: int = 0  # the client's hand actions since then

    def must_wait(self, detail: NimbleMatchDetail) -> bool:
        view = detail.view
        if view is None or view.mode != NimbleViewMode.RACE or not isinstance(view.you, int):
            return False
        placed = sum(stack.height for stack in view.stacks)
        if placed != self.placed:
            self.placed, self.idle = placed, 0
        # Flipping the whole Set, recycling and flipping again shows every card once.
        return self.idle > view.seats[view.you].cards_left + 1


def choose(detail: Detail) -> Move:
    if isinstance(detail, NibbleMatchDetail):
        return nibble_move(detail)
    if isinstance(detail, NimbleMatchDetail):
        return nimble_move(detail)
    return nimalia_move(detail)


# --------------------------------------------------------------------------- playing


def register(base_url: str) -> AuthenticatedClient:
    anonymous = AuthenticatedClient(base_url=base_url, token="", prefix="")
    name = f"client_{secrets.token_hex(6)}"
    answer = auth_register.sync(client=anonymous, body=RegisterRequest(
        username=name, password=secrets.token_urlsafe(18)))
    if not isinstance(answer, Token):
        raise PlayError(f"register: {answer!r}")
    return AuthenticatedClient(base_url=base_url, token=answer.token, prefix="Token",
                               timeout=None)


def throttled(answer: object) -> bool:
    """Whether the answer asks to slow down; if so, waits as long as it says."""
    if not isinstance(answer, Error) or answer.code != "throttled":
        return False
    wait = answer.extra.additional_properties.get("retry_after", 1)
    time.sleep(float(wait) if isinstance(wait, int | float) else 1.0)
    return True


def detail_of(client: AuthenticatedClient, match_id: UUID) -> Detail:
    while True:
        answer = matches_detail.sync(match_id, client=client)
        if not throttled(answer):
            break
    if answer is None or isinstance(answer, Error):
        raise PlayError(f"match detail: {answer!r}")
    return answer


def wait_for_news(client: AuthenticatedClient, match_id: UUID, version: int) -> None:
    """Long-poll until the match moves past ``version`` (or a few seconds pass)."""
    answer = matches_events.sync(match_id, client=client, after=version, wait=5)
    if throttled(answer) or answer is None:
        return
    if isinstance(answer, Error):
        raise PlayError(f"events: {answer!r}")


def play(client: AuthenticatedClient, scenario: Scenario) -> str:
    """Play one match to its end; returns how it ended. A move's answer carries the match as
    it stands after the move, so the client reads the match again only after waiting."""
    created = matches_create.sync(client=client, body=scenario.request())
    if created is None or isinstance(created, Error):
        raise PlayError(f"{scenario.name}: create: {created!r}")
    detail: Detail = created
    moves, waited_since, race = 0, time.monotonic(), RaceWatch()
    for _ in range(MAX_STEPS):
        if detail.status != StatusEnum.ACTIVE:
            return describe(scenario, detail, moves)
        waiting = isinstance(detail, NimbleMatchDetail) and race.must_wait(detail)
        if waiting or not detail.is_your_turn:
            if time.monotonic() - waited_since > WAIT_SECONDS:
                raise PlayError(f"{scenario.name}: the bot or the server never moved")
            wait_for_news(client, detail.id, detail.version)
            version, detail = detail.version, detail_of(client, detail.id)
            if detail.version != version:
                waited_since = time.monotonic()
            continue
        move = choose(detail)
        answer = matches_moves_submit.sync(detail.id, client=client, body=MoveInputRequest(
            move=move, expected_version=detail.version))
        if isinstance(answer, MoveResult):
            detail, moves, waited_since = answer.match, moves + 1, time.monotonic()
            race.idle += isinstance(move, NimbleHandAction)
        elif throttled(answer) or isinstance(answer, Error) and answer.code in (
                "stale_version", "not_your_turn", "game_over"):
            detail = detail_of(client, detail.id)  # a race: the bot moved first
        else:
            raise PlayError(f"{scenario.name}: move: {answer!r}")
    raise PlayError(f"{scenario.name}: not over after {MAX_STEPS} steps")


def describe(scenario: Scenario, detail: Detail, moves: int) -> str:
    outcome = detail.outcome
    if detail.status != StatusEnum.FINISHED or outcome is None:
        raise PlayError(f"{scenario.name}: ended {detail.status}")
    if isinstance(outcome, MatchCalledOff):
        raise PlayError(f"{scenario.name}: called off ({outcome.reason})")
    result = f"{scenario.name}: {moves} moves, {outcome.reason}, ranks {outcome.ranks}"
    if isinstance(detail, NimaliaMatchDetail) and detail.players == 1:
        solo = detail.outcome
        if not isinstance(solo, NimaliaOutcome) or not isinstance(solo.title, str):
            raise PlayError("nimalia solo: the outcome has no title")
        result += f", title {solo.title}"
    return result


def play_all(base_url: str) -> list[str]:
    client = register(base_url)
    return [play(client, scenario) for scenario in SCENARIOS]


def main(argv: list[str]) -> int:
    base_url = argv[1] if len(argv) > 1 else "http://127.0.0.1:8000"
    client = register(base_url)
    for scenario in SCENARIOS:
        print(play(client, scenario), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
