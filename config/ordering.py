"""The order of a list as a key of several fields, for keyset ("seek") pagination: rows in the
order of their keys, the last of which is unique, so every row has a position of its own and
a page continues exactly after the row that ended the one before, however many rows share a
value (a deadline, a game) and wherever the nulls are.

A key may be null, and a null counts as greater than every value (a deadline that never
comes, an end that has not come yet): last in an ascending order ("soonest deadline first" ends
with the matches that have none), first in a descending one ("latest end first" starts with the
matches still running). That is PostgreSQL's own order of nulls, so an index on the key serves
the order as it is. Pure Django ORM: the pagination class built on it is
``config.api.KeysetPagination``."""

from __future__ import annotations

import json
import operator
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import F, Q, QuerySet
from django.db.models.expressions import OrderBy


@dataclass(frozen=True)
class SortKey:
    """One key of a list's order: a field or an annotation of the queryset, its direction,
    and whether it can be null (a null counts as greater than every value)."""

    name: str
    descending: bool = False
    nullable: bool = False

    def order(self, reverse: bool = False) -> OrderBy:
        """The ORDER BY term; ``reverse``: read backwards (the page before a position)."""
        column = F(self.name)
        if self.descending != reverse:
            return column.desc(nulls_first=True) if self.nullable else column.desc()
        return column.asc(nulls_last=True) if self.nullable else column.asc()

    def beyond(self, value: Any, reverse: bool) -> Q | None:
        """Rows whose key comes after ``value`` in the reading order (backwards when
        ``reverse``); None when no row can."""
        if self.descending != reverse:  # from the greatest down, the nulls first
            if value is None:
                return Q(**{f"{self.name}__isnull": False})
            return Q(**{f"{self.name}__lt": value})
        if value is None:  # up to the greatest, the nulls last: nothing after a null
            return None
        further = Q(**{f"{self.name}__gt": value})
        return further | Q(**{f"{self.name}__isnull": True}) if self.nullable else further

    def equal(self, value: Any) -> Q:
        return Q(**{f"{self.name}__isnull": True}) if value is None else Q(**{self.name: value})


def keyset_order(keys: Sequence[SortKey], reverse: bool = False) -> list[OrderBy]:
    """The ORDER BY of ``keys`` (all of them reversed when ``reverse``)."""
    return [key.order(reverse) for key in keys]


def keyset_beyond(keys: Sequence[SortKey], values: Sequence[Any], reverse: bool) -> Q:
    """Rows after the position ``values`` in the order of ``keys`` (before it when
    ``reverse``): the first key further on, or an equal first key and the second further on,
    and so on."""
    disjuncts = []
    same = Q()
    for key, value in zip(keys, values, strict=True):
        further = key.beyond(value, reverse)
        if further is not None:
            disjuncts.append(same & further)
        same &= key.equal(value)
    if not disjuncts:
        return Q(pk__in=[])
    return reduce(operator.or_, disjuncts)


def _encoded(value: Any) -> str | int | None:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if value is None or isinstance(value, str | int) and not isinstance(value, bool):
        return value
    raise TypeError(f"no position for a sort key of type {type(value).__name__}")


def position_of(row: Any, keys: Sequence[SortKey]) -> str:
    """The position of ``row`` (a model instance) in the order of ``keys``: each key's name
    and value, as compact JSON."""
    values = {key.name: _encoded(getattr(row, key.name)) for key in keys}
    return json.dumps(values, separators=(",", ":"), ensure_ascii=True)


def position_values(position: str, keys: Sequence[SortKey], queryset: QuerySet) -> list[Any]:
    """The values of a position ``position_of`` wrote for ``keys``, each as its field takes
    it; ValueError for anything it could not have written: not the names of ``keys`` (a
    position in another order), values of the wrong type, a null for a key that cannot be
    null, a value that does not read back the same."""
    try:
        raw = json.loads(position)
    except json.JSONDecodeError:
        raise ValueError("not a position") from None
    if not isinstance(raw, dict) or set(raw) != {key.name for key in keys}:
        raise ValueError("not a position")
    return [_value(key, raw[key.name], queryset) for key in keys]


def _value(key: SortKey, item: Any, queryset: QuerySet) -> Any:
    if item is None and key.nullable:
        return None
    if isinstance(item, bool) or not isinstance(item, str | int):
        raise ValueError("not a position")
    try:
        value = queryset.query.resolve_ref(key.name).output_field.to_python(item)
    except (ValidationError, TypeError, ValueError):
        raise ValueError("not a position") from None
    if _encoded(value) != item or isinstance(value, datetime) and value.tzinfo is None:
        raise ValueError("not a position")
    return value
