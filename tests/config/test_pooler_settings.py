"""DATABASE_POOLER=pgbouncer: the one switch that makes the database settings fit PgBouncer in
transaction mode (no server-side cursors, no server-side prepared statements), on every
PostgreSQL entry, with the process's own pool kept; anything else it names is refused."""

from __future__ import annotations

import pytest

from config.database import PROJECT_POSTGRESQL, PoolerError, database_settings

URL = "postgres://boardpost@127.0.0.1:6432/boardpost"


class FakeEnv:
    """``environ.Env`` reading a dict instead of the process's environment."""

    def __init__(self, values: dict[str, str]) -> None:
        import environ

        self._env = environ.Env()
        self._values = values

    def __getattr__(self, name: str):
        method = getattr(self._env, name)

        def read(var: str, *args, **kwargs):
            saved = self._env.ENVIRON
            self._env.ENVIRON = self._values
            try:
                return method(var, *args, **kwargs)
            finally:
                self._env.ENVIRON = saved

        return read

    def __call__(self, var: str, *args, **kwargs):
        return self.str(var, *args, **kwargs)


def settings_for(pool: bool = True, **values: str) -> dict:
    return database_settings(FakeEnv({"DATABASE_URL": URL, **values}), URL, pool=pool)


@pytest.mark.parametrize("pool", [True, False])
def test_pgbouncer_turns_off_server_side_cursors_and_prepared_statements(pool):
    config = settings_for(pool=pool, DATABASE_POOLER="pgbouncer")
    assert config["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert config["OPTIONS"]["prepare_threshold"] is None
    # The process keeps its own pool of (cheap) connections to PgBouncer.
    assert ("pool" in config["OPTIONS"]) is pool
    assert config["ENGINE"] == PROJECT_POSTGRESQL


def test_a_threshold_in_the_url_is_overruled_behind_pgbouncer():
    config = settings_for(DATABASE_POOLER="PgBouncer",
                          DATABASE_URL=f"{URL}?prepare_threshold=5")
    assert config["OPTIONS"]["prepare_threshold"] is None


@pytest.mark.parametrize("value", ["", "none", "off"])
def test_without_a_pooler_nothing_changes(value):
    config = settings_for(DATABASE_POOLER=value)
    assert "DISABLE_SERVER_SIDE_CURSORS" not in config
    assert config["OPTIONS"]["prepare_threshold"] == 5


def test_sqlite_ignores_the_pooler():
    url = "sqlite:////tmp/boardpost-pooler-test.sqlite3"
    config = database_settings(FakeEnv({"DATABASE_URL": url, "DATABASE_POOLER": "pgbouncer"}),
                               url, pool=True)
    assert "DISABLE_SERVER_SIDE_CURSORS" not in config


def test_an_unknown_pooler_is_refused():
    with pytest.raises(PoolerError, match="pgpool"):
        settings_for(DATABASE_POOLER="pgpool")
