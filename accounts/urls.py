from django.urls import path

from accounts import apis

app_name = "accounts"

urlpatterns = [
    path("auth/register", apis.RegisterApi.as_view(), name="register"),
    path("auth/token", apis.TokenApi.as_view(), name="token"),
    path("me", apis.MeApi.as_view(), name="me"),
    path("players/<str:username>", apis.PlayerDetailApi.as_view(), name="player"),
    path("players/<str:username>/ratings/<str:game>/history", apis.RatingHistoryApi.as_view(),
         name="rating-history"),
    path("leaderboards/<str:game>", apis.LeaderboardApi.as_view(), name="leaderboard"),
]
