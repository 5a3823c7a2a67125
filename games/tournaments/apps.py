from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The tasks run eagerly in-process (tests) only where the process knows them.
        import games.tournaments.tasks  # noqa: F401
        from games.services.match_end import match_end_register
        from games.tournaments.services.results import pairing_result_record

        # A tournament match's result reaches its pairing in the transaction that ends it.
        match_end_register(pairing_result_record)
