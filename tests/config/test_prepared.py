"""config.prepared: a query built and compiled once answers as the ORM would, for any value,
in any thread, and refuses a query whose value is not one parameter."""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from django.db import connection
from django.db.models import Count, Q, Value
from django.db.models.sql.compiler import SQLCompiler

from accounts.models import User
from config.prepared import Prepared
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _named(name: str):
    return (User.objects.filter(username=name).annotate(length=Count("pk"), tag=Value("x"))
            .order_by("pk"))


def _fields(user: User) -> dict:
    return {key: value for key, value in vars(user).items() if key != "_state"}


def test_the_rows_are_the_orms_for_every_value():
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    prepared = Prepared(_named, stand_in="\0stand-in")
    for user in (ada, bo):
        (row,) = prepared.rows(user.username)
        (plain,) = _named(user.username)
        assert _fields(row) == _fields(plain)
        assert row.length == 1 and row.tag == "x"
    assert prepared.rows("nobody") == []


def test_it_compiles_once_per_key():
    UserFactory(username="ada")
    prepared = Prepared(_named, stand_in="\0stand-in")
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiles:
        for _ in range(3):
            prepared.rows("ada")
            prepared.rows("bo", key="other")
    assert compiles.call_count == 2
    prepared.forget()
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiles:
        prepared.rows("ada")
    assert compiles.call_count == 1


@pytest.mark.django_db(transaction=True)
def test_another_thread_runs_it_on_its_own_connection():
    UserFactory(username="ada")
    prepared = Prepared(_named, stand_in="\0stand-in")
    assert len(prepared.rows("ada")) == 1  # compiled on this thread's connection
    found: list = []

    def elsewhere() -> None:
        try:
            found.append(len(prepared.rows("ada")))
        finally:
            connection.close()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert found == [1]


@pytest.mark.parametrize("build", [
    lambda name: User.objects.filter(Q(username=name) | Q(first_name=name)),  # twice
    lambda name: User.objects.all(),  # never
])
def test_a_value_that_is_not_exactly_one_parameter_is_refused(build):
    with pytest.raises(ValueError, match="exactly one"):
        Prepared(build, stand_in="\0stand-in").rows("ada")


def test_the_converters_are_worked_out_once_per_connection():
    UserFactory(username="ada")
    prepared = Prepared(_named, stand_in="\0stand-in")
    with mock.patch.object(SQLCompiler, "get_converters", autospec=True,
                           side_effect=SQLCompiler.get_converters) as works_out:
        for _ in range(3):
            (row,) = prepared.rows("ada")
            assert row.username == "ada" and row.length == 1
    assert works_out.call_count == 1
