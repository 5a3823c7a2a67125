"""A move's answer is the match as a fresh read shows it: the view and legal moves built from
the state the move produced are those built from the snapshot it was saved as."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_each_answer_is_what_the_mover_reads_next(nibble):
    for _ in range(12):
        answer = nibble.play_one()
        mover = nibble.a if answer["match"]["your_seat"] == 0 else nibble.b
        assert answer["match"] == nibble.detail(mover)
        if answer["match"]["status"] != "active":
            break
