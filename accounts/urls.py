from django.urls import path

from accounts import apis

app_name = "accounts"

urlpatterns = [
    path("auth/register", apis.RegisterApi.as_view(), name="register"),
    path("auth/token", apis.TokenApi.as_view(), name="token"),
]
