from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "games.web"
    label = "web"
    verbose_name = "Web client"
