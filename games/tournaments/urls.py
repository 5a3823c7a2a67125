from django.urls import path

from games.tournaments import api

app_name = "tournaments"

urlpatterns = [
    path("tournaments", api.TournamentListCreateApi.as_view(), name="list"),
    path("tournaments/<uuid:tournament_id>", api.TournamentDetailApi.as_view(), name="detail"),
    path("tournaments/<uuid:tournament_id>/join", api.TournamentJoinApi.as_view(), name="join"),
    path("tournaments/<uuid:tournament_id>/leave", api.TournamentLeaveApi.as_view(),
         name="leave"),
    path("tournaments/<uuid:tournament_id>/withdraw", api.TournamentWithdrawApi.as_view(),
         name="withdraw"),
    path("tournaments/<uuid:tournament_id>/challenges", api.TournamentChallengeApi.as_view(),
         name="challenge"),
    path("players/<str:username>/tournaments", api.PlayerTournamentsApi.as_view(),
         name="player-tournaments"),
]
