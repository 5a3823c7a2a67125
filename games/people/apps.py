from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "games.people"
    label = "people"
    verbose_name = "Chat and reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The tasks run eagerly in-process (tests) only where the process knows them.
        import games.people.tasks  # noqa: F401
