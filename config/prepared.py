"""ORM queries built and compiled once per process, then run with a new value each time.

Building a queryset and compiling it to SQL can cost more CPU than PostgreSQL takes to run it:
the query that locks a match with its seats, their players and what the recording path needs
of them cost about 1.2 ms of CPU to build and compile, against 0.2 ms to send and fetch, on
every move. A ``Prepared`` query is built once per process (and per key: whatever else its SQL
depends on) with a stand-in for its one varying value; each run puts the real value in the
stand-in's place in the compiled parameters and lets Django make the model instances from the
rows as usual (``select_related``, annotations, field converters).

Only for a query whose SQL text never depends on the value: the value must appear exactly once
among the compiled parameters (checked when the query is compiled), and the caller passes it
as the database driver takes it (``Field.get_db_prep_value``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Compiled(Generic[M]):
    queryset: QuerySet[M]
    compiler: SQLCompiler
    sql: str
    params: tuple[Any, ...]
    position: int


def _compiled(queryset: QuerySet[M], stand_in: object) -> _Compiled[M]:
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    positions = [index for index, param in enumerate(params) if param == stand_in]
    if len(positions) != 1:
        raise ValueError(f"The stand-in appears {len(positions)} times among the compiled "
                         "parameters; a prepared query takes exactly one.")
    return _Compiled(queryset=queryset, compiler=compiler, sql=sql, params=tuple(params),
                     position=positions[0])


class Prepared(Generic[M]):
    """``build(value)`` is the query for ``value``; ``rows(value, key=...)`` runs it. ``key``
    names whatever else the query's SQL depends on (a registered expression, say): each key is
    compiled once."""

    def __init__(self, build: Callable[[Any], QuerySet[M]], stand_in: object) -> None:
        self._build = build
        self._stand_in = stand_in
        self._by_key: dict[Hashable, _Compiled[M]] = {}

    def rows(self, value: object, *, key: Hashable = None) -> list[M]:
        """The query's rows for ``value`` (as the driver takes it), as model instances."""
        compiled = self._by_key.get(key)
        if compiled is None:
            compiled = self._by_key[key] = _compiled(self._build(self._stand_in),
                                                     self._stand_in)
        params = list(compiled.params)
        params[compiled.position] = value
        answer = (compiled.sql, tuple(params))
        compiler = copy.copy(compiled.compiler)
        # Each thread has its own connection: the compiled one may belong to another thread.
        compiler.connection = connections[compiled.queryset.db]
        compiler.as_sql = lambda *args, **kwargs: answer  # type: ignore[method-assign]
        queryset = compiled.queryset.all()
        queryset.query.get_compiler = (  # type: ignore[method-assign]
            lambda *args, **kwargs: compiler)
        return list(queryset)

    def forget(self) -> None:
        """Compile again on the next run (after a change to what the query is built from)."""
        self._by_key.clear()
