from django.urls import path

from games.lifecycle import api

app_name = "lifecycle"

urlpatterns = [
    path("auth/password/forgot", api.PasswordForgotApi.as_view(), name="password-forgot"),
    path("auth/password/reset", api.PasswordResetApi.as_view(), name="password-reset"),
    path("me/account", api.AccountApi.as_view(), name="account"),
    path("me/account/close", api.AccountCloseApi.as_view(), name="account-close"),
    path("me/exports", api.ExportListApi.as_view(), name="exports"),
    path("me/exports/<uuid:export_id>", api.ExportDetailApi.as_view(), name="export"),
    path("me/exports/<uuid:export_id>/archive", api.ExportArchiveApi.as_view(),
         name="export-archive"),
]
