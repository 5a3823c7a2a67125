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

``Statements`` does the same for the writes: a model's one-row INSERT and its UPDATE of chosen
fields, written once per process and filled with each row's values. ``Writes`` sends several
of them as one statement (one round trip to PostgreSQL instead of one each).
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from django.db import DatabaseError, connections, router
from django.db.models import Field, Model, QuerySet
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)
# A statement's SQL and the fields whose values fill its parameters, in order.
_Sql: TypeAlias = "tuple[str, list[Field[Any, Any]]]"


@dataclass(frozen=True)
class _Compiled(Generic[M]):
    queryset: QuerySet[M]
    compiler: SQLCompiler
    sql: str
    params: tuple[Any, ...]
    position: int
    # What turns each column's value into the model's (Django works it out per run: 60
    # columns' worth of look-ups on the match lock's query), per connection.
    converters: weakref.WeakKeyDictionary[Any, Any] = field(
        default_factory=weakref.WeakKeyDictionary)


def _compiled(queryset: QuerySet[M], stand_in: object,
              field: Field[Any, Any] | None) -> _Compiled[M]:
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    # The stand-in as the driver takes it (SQLite takes a UUID as its hex digits, say).
    wanted = (stand_in if field is None
              else field.get_db_prep_value(stand_in, compiler.connection))
    positions = [index for index, param in enumerate(params) if param == wanted]
    if len(positions) != 1:
        raise ValueError(f"The stand-in appears {len(positions)} times among the compiled "
                         "parameters; a prepared query takes exactly one.")
    return _Compiled(queryset=queryset, compiler=compiler, sql=sql, params=tuple(params),
                     position=positions[0])


class Prepared(Generic[M]):
    """``build(value)`` is the query for ``value``; ``rows(value, key=...)`` runs it. ``key``
    names whatever else the query's SQL depends on (a registered expression, say): each key is
    compiled once. ``field``: the field the value is compared with, whose driver form the
    stand-in takes among the compiled parameters (it differs from one database to another)."""

    def __init__(self, build: Callable[[Any], QuerySet[M]], stand_in: object,
                 field: Field[Any, Any] | None = None) -> None:
        self._build = build
        self._stand_in = stand_in
        self._field = field
        self._by_key: dict[Hashable, _Compiled[M]] = {}

    def rows(self, value: object, *, key: Hashable = None) -> list[M]:
        """The query's rows for ``value`` (as the driver takes it), as model instances."""
        compiled = self._by_key.get(key)
        if compiled is None:
            compiled = self._by_key[key] = _compiled(self._build(self._stand_in),
                                                     self._stand_in, self._field)
        params = list(compiled.params)
        params[compiled.position] = value
        answer = (compiled.sql, tuple(params))
        compiler = copy.copy(compiled.compiler)
        # Each thread has its own connection: the compiled one may belong to another thread.
        connection = compiler.connection = connections[compiled.queryset.db]
        converters = compiled.converters.get(connection)
        if converters is None:
            selected = [column[0] for column in compiler.select[:compiler.col_count]]
            converters = compiled.converters[connection] = compiler.get_converters(selected)
        compiler.as_sql = lambda *args, **kwargs: answer  # type: ignore[method-assign]
        compiler.get_converters = (  # type: ignore[method-assign]
            lambda *args, **kwargs: converters)
        queryset = compiled.queryset.all()
        queryset.query.get_compiler = (  # type: ignore[method-assign]
            lambda *args, **kwargs: compiler)
        return list(queryset)

    def forget(self) -> None:
        """Compile again on the next run (after a change to what the query is built from)."""
        self._by_key.clear()


class Statements:
    """A model's INSERT of one row and UPDATE of chosen fields, their SQL written once per
    process (per set of fields), each run with the values as ``Model.save`` prepares them.

    ``Model.save`` builds a query, compiles it and goes through the save machinery on every
    call; on the move path that cost 0.2-0.3 ms of CPU a statement (a move appends a row, saves
    the match and writes a feed entry), against 0.1 ms to send it and read the answer. These do
    what ``save`` does for a model with no signal receivers and no ``save`` of its own that
    matters here: each field's ``pre_save`` (``auto_now``, ``auto_now_add``), then its
    ``get_db_prep_save`` (JSON, dates) for the driver, on the model's write database.
    """

    def __init__(self, model: type[Model]) -> None:
        self._model = model
        # By the fields and the number of rows.
        self._inserts: dict[tuple[tuple[str, ...], int], _Sql] = {}
        self._updates: dict[tuple[str, ...], _Sql] = {}
        self._key_types: dict[str, str] = {}

    def insert(self, instance: M, fields: tuple[str, ...]) -> M:
        """Insert ``instance`` with ``fields`` (the rest take their database defaults) and
        set its primary key; the instance is then saved, as after ``Model.save``."""
        return self.insert_many([instance], fields)[0]

    def insert_many(self, instances: list[M], fields: tuple[str, ...]) -> list[M]:
        """Insert ``instances`` in one statement (as ``insert`` does each); their primary keys
        are set in order."""
        if not instances:
            return []
        write = self._insert_write(instances, fields)
        with connections[write.alias].cursor() as cursor:
            write.run(cursor)
        return instances

    def update(self, instance: Model, fields: tuple[str, ...]) -> None:
        """Write ``fields`` of the saved ``instance`` to its row, as ``save(update_fields=...)``
        does (a row that is gone raises ``DatabaseError``)."""
        write = self._update_write(instance, fields)
        with connections[write.alias].cursor() as cursor:
            write.run(cursor)

    def _insert_write(self, instances: list[M], fields: tuple[str, ...]) -> _Write:
        alias = router.db_for_write(self._model, instance=instances[0])
        connection = connections[alias]
        key = (fields, len(instances))
        sql, columns = self._inserts.get(key) or self._insert_sql(key, connection)
        values = [field.get_db_prep_save(field.pre_save(instance, True), connection)
                  for instance in instances for field in columns]

        def done(keys: list[Any]) -> None:
            for instance, pk in zip(instances, keys, strict=True):
                instance.pk = pk
                instance._state.adding = False
                instance._state.db = alias

        return _Write(alias=alias, shape=(self._model, "insert", key), sql=sql, values=values,
                      returning=self._key_type(connection), done=done)

    def _update_write(self, instance: Model, fields: tuple[str, ...]) -> _Write:
        alias = instance._state.db or router.db_for_write(self._model, instance=instance)
        connection = connections[alias]
        sql, columns = self._updates.get(fields) or self._update_sql(fields, connection)
        values = [field.get_db_prep_save(field.pre_save(instance, False), connection)
                  for field in columns]
        values.append(self._model._meta.pk.get_db_prep_value(instance.pk, connection))

        def done(rows: list[Any]) -> None:
            if len(rows) != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")

        return _Write(alias=alias, shape=(self._model, "update", fields), sql=sql,
                      values=values, returning=None, done=done)

    def _key_type(self, connection: Any) -> str:
        """The database type of the model's primary key (what its inserts answer)."""
        key_type = self._key_types.get(connection.vendor)
        if key_type is None:
            key_type = self._key_types[connection.vendor] = \
                self._model._meta.pk.rel_db_type(connection)
        return key_type

    def _columns(self, fields: tuple[str, ...]) -> list[Field[Any, Any]]:
        columns = []
        for name in fields:
            field = self._model._meta.get_field(name)
            if not isinstance(field, Field) or not field.concrete:
                raise ValueError(f"{name} is not a column of {self._model.__name__}.")
            columns.append(field)
        return columns

    def _insert_sql(self, key: tuple[tuple[str, ...], int], connection: Any) -> _Sql:
        (fields, rows), meta = key, self._model._meta
        columns = self._columns(fields)
        quote = connection.ops.quote_name
        row = f"({', '.join(['%s'] * len(columns))})"
        sql = (f"INSERT INTO {quote(meta.db_table)} "
               f"({', '.join(quote(field.column) for field in columns)}) "
               f"VALUES {', '.join([row] * rows)} RETURNING {quote(meta.pk.column)}")
        self._inserts[key] = (sql, columns)
        return sql, columns

    def _update_sql(self, fields: tuple[str, ...], connection: Any) -> _Sql:
        meta, columns = self._model._meta, self._columns(fields)
        quote = connection.ops.quote_name
        sql = (f"UPDATE {quote(meta.db_table)} "
               f"SET {', '.join(f'{quote(field.column)} = %s' for field in columns)} "
               f"WHERE {quote(meta.pk.column)} = %s")
        self._updates[fields] = (sql, columns)
        return sql, columns


@dataclass(frozen=True)
class _Write:
    """One statement of ``Statements``, ready to run: its database, what its SQL depends on
    (``shape``), the SQL and its values, the database type of the rows it answers (an
    insert's primary keys) or None (an update answers only a count), and what follows
    (``done``: the keys in order, or one item per row updated)."""

    alias: str
    shape: Hashable
    sql: str
    values: list[Any]
    returning: str | None
    done: Callable[[list[Any]], None]

    def run(self, cursor: Any) -> None:
        """Run it alone on ``cursor``."""
        cursor.execute(self.sql, self.values)
        self.done([pk for (pk,) in cursor.fetchall()] if self.returning is not None
                  else [None] * cursor.rowcount)

    @property
    def part(self) -> str:
        """Its SQL as a part of a ``WITH``, answering a row for each row it wrote."""
        return self.sql if self.returning is not None else f"{self.sql} RETURNING 1"

    @property
    def answer_type(self) -> str:
        return self.returning or "integer"


class Writes:
    """Inserts and updates of ``Statements`` sent together: ``write()`` runs them as ONE
    statement on PostgreSQL (each a data-modifying ``WITH`` part, their rows answered
    together), one round trip where each would take its own; elsewhere (SQLite) one after
    the other. Each ends as it would alone: primary keys set in order, an update that found
    no row a ``DatabaseError``.

    The parts of one statement see the database as it was before it and not each other's
    rows, so only writes that do not depend on one another go together (a log entry, the
    match row it moves on, the feed entries it brings), all in one transaction: a foreign key
    between them is checked at commit, as Django declares them on PostgreSQL."""

    # The statement's SQL by the shapes of its parts, written once per process.
    _sql: dict[tuple[Hashable, ...], str] = {}

    def __init__(self) -> None:
        self._writes: list[_Write] = []

    def insert(self, statements: Statements, instances: list[M],
               fields: tuple[str, ...]) -> None:
        """Insert ``instances`` with ``fields`` (``Statements.insert_many``) on ``write()``."""
        if instances:
            self._writes.append(statements._insert_write(instances, fields))

    def update(self, statements: Statements, instance: Model, fields: tuple[str, ...]) -> None:
        """Write ``fields`` of ``instance`` (``Statements.update``) on ``write()``."""
        self._writes.append(statements._update_write(instance, fields))

    def write(self) -> None:
        """Send what was collected and finish each part; nothing is left to send after."""
        writes, self._writes = self._writes, []
        if not writes:
            return
        alias = writes[0].alias
        connection = connections[alias]
        if (len(writes) == 1 or connection.vendor != "postgresql"
                or any(write.alias != alias for write in writes)):
            for write in writes:
                with connections[write.alias].cursor() as cursor:
                    write.run(cursor)
            return
        shape = tuple(write.shape for write in writes)
        sql = self._sql.get(shape)
        if sql is None:
            sql = self._sql[shape] = _together(writes)
        values = [value for write in writes for value in write.values]
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            rows = cursor.fetchall()
        answers: list[list[Any]] = [[] for _ in writes]
        for row in rows:
            answers[row[0]].append(row[1 + row[0]])
        for write, answer in zip(writes, answers, strict=True):
            write.done(answer)


def _together(writes: list[_Write]) -> str:
    """One statement of several that each answer one column: each a ``WITH`` part, and a row
    for each row each part answers, the part's position first, then one column per part, its
    own answer in its own column, the others NULL of that column's type. The branches of a
    ``UNION ALL`` come one after another, so each part's rows keep the order its
    ``RETURNING`` gave them."""
    with_parts = ", ".join(f"w{n} AS ({write.part})" for n, write in enumerate(writes))
    answers = " UNION ALL ".join(
        "SELECT " + ", ".join([str(n), *(f"w{n}.*" if column == n else f"NULL::{other.answer_type}"
                                          for column, other in enumerate(writes))])
        + f" FROM w{n}"
        for n in range(len(writes)))
    return f"WITH {with_parts} {answers}"
