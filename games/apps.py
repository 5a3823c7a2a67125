from django.apps import AppConfig
from rest_framework import status

# The engines' error codes and the HTTP status each is answered with.
ENGINE_ERROR_STATUS = {
    "malformed_move": status.HTTP_400_BAD_REQUEST,
    "invalid_config": status.HTTP_400_BAD_REQUEST,
    "not_your_turn": status.HTTP_409_CONFLICT,
    "game_over": status.HTTP_409_CONFLICT,
    "illegal_move": status.HTTP_422_UNPROCESSABLE_ENTITY,
    # Plans (games.kit.plans).
    "plan_malformed": status.HTTP_400_BAD_REQUEST,
    "plan_too_large": status.HTTP_400_BAD_REQUEST,
    "plan_illegal_key": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "plan_illegal_reply": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "plan_unreachable": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "plans_unavailable": status.HTTP_409_CONFLICT,
    "plan_not_waiting": status.HTTP_409_CONFLICT,
    "plan_not_your_turn": status.HTTP_409_CONFLICT,
    "plan_stale": status.HTTP_409_CONFLICT,
}


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Register the built-in games before any request, task or command looks one up.
        import games.catalog  # noqa: F401

        # Register the Celery tasks. The services enqueue them by name; a process that runs
        # tasks eagerly (the tests) runs a task in-process only if it knows it.
        import games.tasks  # noqa: F401
        from config.exceptions import register_error_status
        from games.kit.protocol import EngineError
        from games.rules_text import engine_message

        # An engine error raised through a view is answered with the error envelope, its
        # message in the caller's language (games.rules_text).
        register_error_status(EngineError, ENGINE_ERROR_STATUS, message=engine_message)
