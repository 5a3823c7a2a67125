from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "games.notify"
    label = "notify"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The tasks run eagerly in-process (tests) only where the process knows them.
        import games.notify.tasks  # noqa: F401
