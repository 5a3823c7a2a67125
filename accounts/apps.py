from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Declares the sign-in lockout's error code (django-axes calls its answer by name).
        import accounts.signin  # noqa: F401
