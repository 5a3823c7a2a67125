from django.urls import path

from accounts import apis, people_apis

app_name = "accounts"

urlpatterns = [
    path("auth/register", apis.RegisterApi.as_view(), name="register"),
    path("auth/guest", apis.GuestApi.as_view(), name="guest"),
    path("auth/guest/convert", apis.GuestConvertApi.as_view(), name="guest-convert"),
    path("auth/token", apis.TokenApi.as_view(), name="token"),
    path("auth/tokens", apis.TokenListApi.as_view(), name="tokens"),
    path("auth/tokens/current", apis.CurrentTokenApi.as_view(), name="token-current"),
    path("auth/tokens/<int:token_id>", apis.TokenDetailApi.as_view(), name="token-detail"),
    path("me/password", apis.PasswordChangeApi.as_view(), name="password"),
    path("me/following", people_apis.FollowingApi.as_view(), name="following"),
    path("me/following/<str:username>", people_apis.FollowApi.as_view(), name="follow"),
    path("me/followers", people_apis.FollowersApi.as_view(), name="followers"),
    path("me/friends", people_apis.FriendsApi.as_view(), name="friends"),
    path("me/blocks", people_apis.BlockListApi.as_view(), name="blocks"),
    path("me/blocks/<str:username>", people_apis.BlockApi.as_view(), name="block"),
]
