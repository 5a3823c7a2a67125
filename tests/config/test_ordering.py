"""The order of a list as a key of several fields (config.ordering): a null counts as greater
than every value, and a key that cannot be null is ordered without a NULLS clause, so an index
on it serves the order as it is."""

from __future__ import annotations

import pytest

from config.ordering import SortKey, keyset_beyond, keyset_order
from games.models import Match

pytestmark = pytest.mark.django_db


def _sql(*terms) -> str:
    return str(Match.objects.order_by(*terms).values("id").query).split("ORDER BY")[1]


def test_a_key_that_cannot_be_null_has_no_nulls_clause():
    assert "NULLS" not in _sql(*keyset_order([SortKey("created_at", descending=True),
                                              SortKey("id")]))


@pytest.mark.parametrize("descending, reverse, nulls", [
    (False, False, "ASC NULLS LAST"), (False, True, "DESC NULLS FIRST"),
    (True, False, "DESC NULLS FIRST"), (True, True, "ASC NULLS LAST"),
])
def test_a_null_is_greater_than_every_value_both_ways(descending, reverse, nulls):
    key = SortKey("deadline", descending=descending, nullable=True)
    assert f'"deadline" {nulls}' in _sql(key.order(reverse))


def test_nothing_comes_after_a_null_going_up_and_every_value_going_down():
    keys = [SortKey("deadline", nullable=True), SortKey("id")]
    up = str(Match.objects.filter(keyset_beyond(keys, [None, "0" * 32], False)).query)
    assert '"deadline" IS NULL AND' in up and '"id" >' in up and "NOT" not in up
    down = str(Match.objects.filter(keyset_beyond(keys, [None, "0" * 32], True)).query)
    assert '"deadline" IS NOT NULL' in down
