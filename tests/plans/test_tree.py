"""A plan's JSON: its shape, its limits, and counting its lines."""

from __future__ import annotations

import pytest

from games.kit.plans import (
    MAX_ITEM_CHARS,
    MAX_LINE_MOVES,
    MAX_LINES,
    MAX_NODES,
    Branch,
    PlanMalformed,
    PlanTooLarge,
    count_lines,
    count_nodes,
    dump_plan,
    line_moves,
    parse_plan,
)


def _chain(length: int) -> list:
    """One line of ``length`` keys, each with an empty reply."""
    plan: list = []
    for _ in range(length):
        plan = [{"on": {"k": 1}, "then": plan}]
    return plan


def test_parse_and_dump_round_trip_with_every_field_written() -> None:
    data = [{"on": {"take": [[0, 0]]}, "reply": [{"take": [[8, 8]]}],
             "then": [{"on": "a"}, {"on": "b", "reply": [1, 2]}]}]
    plan = parse_plan(data)
    assert plan == (Branch({"take": [[0, 0]]}, ({"take": [[8, 8]]},),
                           (Branch("a"), Branch("b", (1, 2)))),)
    assert dump_plan(plan) == [{"on": {"take": [[0, 0]]}, "reply": [{"take": [[8, 8]]}],
                                "then": [{"on": "a", "reply": [], "then": []},
                                         {"on": "b", "reply": [1, 2], "then": []}]}]
    assert parse_plan(dump_plan(plan)) == plan
    assert (count_lines(plan), count_nodes(plan), line_moves(plan)) == (2, 6, 5)
    assert parse_plan([]) == () and count_lines(()) == 0 and line_moves(()) == 0


@pytest.mark.parametrize(("data", "path"), [
    ({"on": 1}, []),
    ([1], [0]),
    ([{"reply": []}], [0]),
    ([{"on": 1, "else": []}], [0]),
    ([{"on": 1, "reply": {}}], [0, "reply"]),
    ([{"on": 1, "then": [{"on": 2, "then": {}}]}], [0, "then", 0, "then"]),
    ([{"on": float("nan")}], [0, "on"]),
    ([{"on": 1, "reply": [object()]}], [0, "reply", 0]),
])
def test_a_malformed_plan_is_refused_with_the_path_to_its_fault(data, path) -> None:
    with pytest.raises(PlanMalformed) as refused:
        parse_plan(data)
    assert refused.value.code == "plan_malformed"
    assert refused.value.extra["path"] == path


def test_the_limits_answer_plan_too_large() -> None:
    assert line_moves(parse_plan(_chain(MAX_LINE_MOVES))) == MAX_LINE_MOVES
    with pytest.raises(PlanTooLarge) as refused:
        parse_plan(_chain(MAX_LINE_MOVES + 1))
    assert refused.value.extra["limit"] == "line_moves"
    assert refused.value.extra["maximum"] == MAX_LINE_MOVES

    assert count_lines(parse_plan([{"on": k} for k in range(MAX_LINES)])) == MAX_LINES
    with pytest.raises(PlanTooLarge) as refused:
        parse_plan([{"on": k} for k in range(MAX_LINES + 1)])
    assert refused.value.extra["limit"] == "lines"

    with pytest.raises(PlanTooLarge) as refused:
        parse_plan([{"on": k} for k in range(MAX_NODES + 1)])
    assert refused.value.extra["limit"] == "nodes"

    with pytest.raises(PlanTooLarge) as refused:
        parse_plan([{"on": "x" * MAX_ITEM_CHARS}])
    assert refused.value.extra == {"path": [0, "on"], "limit": "item_chars",
                                   "maximum": MAX_ITEM_CHARS}
    with pytest.raises(PlanTooLarge) as refused:
        parse_plan([{"on": 1, "reply": [1] * MAX_LINE_MOVES}])
    assert refused.value.extra["limit"] == "line_moves"
