from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "games.notify"
    label = "notify"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The tasks run eagerly in-process (tests) only where the process knows them.
        import games.notify.tasks  # noqa: F401
        from games.notify.preferences import user_reminder_offsets, user_time_zone
        from games.notify.reach import user_reachable
        from games.selectors.clocks import zone_register
        from games.services.reachability import reachability_register
        from games.services.reminder_offsets import reminder_offsets_register

        # The services ask whether a seat's player could be told anything at all.
        reachability_register(user_reachable)
        # The clocks pause weekends in each player's own time zone, the one kept here.
        zone_register(user_time_zone)
        # Each player is reminded before a deadline at the offsets they chose here.
        reminder_offsets_register(user_reminder_offsets)
