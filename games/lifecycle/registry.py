"""The entry of the account's registries: one kind of data a player owns, by name, and the
function of the (locked) account that deletes it (``erasure.STEPS``: how many rows went) or
reads it out (``export.SECTIONS``: its JSON-ready data)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from accounts.models import User


@dataclass(frozen=True)
class PerKind:
    name: str
    run: Callable[[User], Any]
