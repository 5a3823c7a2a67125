"""Token authentication remembers recent tokens briefly; revocation still takes effect."""

import pytest

from accounts.authentication import CachedTokenAuthentication

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    CachedTokenAuthentication.forget()
    yield
    CachedTokenAuthentication.forget()


def test_a_remembered_token_needs_no_query(client_for, alice, django_assert_num_queries):
    client = client_for(alice)
    assert client.get("/api/games").status_code == 200
    with django_assert_num_queries(0):
        assert client.get("/api/games").status_code == 200


def test_revoking_forgets_the_token_at_once(client_for, alice):
    client = client_for(alice)
    assert client.get("/api/me").status_code == 200
    assert client.delete("/api/auth/token").status_code == 204
    assert client.get("/api/me").status_code == 401


def test_a_deactivated_account_is_refused_once_the_memory_expires(client_for, alice, settings):
    settings.TOKEN_CACHE_SECONDS = 0
    client = client_for(alice)
    assert client.get("/api/me").status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client.get("/api/me").status_code == 401
