from django.urls import path

from games.api import boards as board_svg
from games.api import events as longpoll
from games.api import learn, plans, players, vacations
from games.api import matches as apis

app_name = "games"

urlpatterns = [
    path("games", apis.GameListApi.as_view(), name="games"),
    path("games/<str:slug>/rules", learn.GameRulesApi.as_view(), name="game-rules"),
    path("games/<str:slug>/tutorial", learn.GameTutorialApi.as_view(), name="game-tutorial"),
    path("games/<str:slug>/pictures/<str:name>.svg", learn.GamePictureApi.as_view(),
         name="game-picture"),
    path("bots", apis.BotListApi.as_view(), name="bots"),
    path("matches", apis.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<uuid:match_id>", apis.MatchDetailApi.as_view(), name="match"),
    path("matches/<uuid:match_id>/join", apis.MatchJoinApi.as_view(), name="join"),
    path("matches/<uuid:match_id>/decline", apis.MatchDeclineApi.as_view(), name="decline"),
    path("matches/<uuid:match_id>/seen", apis.MatchSeenApi.as_view(), name="seen"),
    path("matches/<uuid:match_id>/moves", apis.MatchMoveApi.as_view(), name="moves"),
    path("matches/<uuid:match_id>/plan", plans.MatchPlanApi.as_view(), name="plan"),
    path("matches/<uuid:match_id>/events", longpoll.match_events, name="match-events"),
    path("matches/<uuid:match_id>/stream", longpoll.match_stream, name="match-stream"),
    path("matches/<uuid:match_id>/moves/preview", apis.MatchMovePreviewApi.as_view(),
         name="preview"),
    path("matches/<uuid:match_id>/resign", apis.MatchResignApi.as_view(), name="resign"),
    path("matches/<uuid:match_id>/abort", apis.MatchAbortApi.as_view(), name="abort"),
    path("matches/<uuid:match_id>/rematch", apis.MatchRematchApi.as_view(), name="rematch"),
    path("matches/<uuid:match_id>/board.svg", board_svg.MatchBoardSvgApi.as_view(),
         name="board-svg"),
    path("me/inbox", apis.InboxApi.as_view(), name="inbox"),
    path("me/events", longpoll.user_events, name="user-events"),
    path("me/stream", longpoll.user_stream, name="user-stream"),
    path("me/invitations", apis.InvitationListApi.as_view(), name="invitations"),
    path("me", players.MeApi.as_view(), name="me"),
    path("me/settings", players.MeSettingsApi.as_view(), name="me-settings"),
    path("me/vacation", vacations.VacationApi.as_view(), name="vacation"),
    path("players/<str:username>", players.PlayerDetailApi.as_view(), name="player"),
    path("players/<str:username>/ratings/<str:game>/history",
         players.RatingHistoryApi.as_view(), name="rating-history"),
    path("leaderboards/<str:game>", players.LeaderboardApi.as_view(), name="leaderboard"),
]
