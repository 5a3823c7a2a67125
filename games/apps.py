from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Register the built-in games before any request, task or command looks one up.
        import games.catalog  # noqa: F401
