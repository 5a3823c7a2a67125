"""The bare move floor's only URL: the project's move path, under ``/bare``."""

from django.urls import path

from games.benchmarks.bare.views import BareMoveApi

urlpatterns = [
    path("bare/matches/<uuid:match_id>/moves", BareMoveApi.as_view(), name="bare-move"),
]
