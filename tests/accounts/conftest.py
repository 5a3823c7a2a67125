"""The real mail and push receivers of the notification tests, for the account's mails (password
reset, data export ready) and devices."""

from tests.notify.conftest import push_service, smtp, vapid  # noqa: F401
