from django.urls import path

from games.notify import api

app_name = "notify"

urlpatterns = [
    path("push/public-key", api.PushPublicKeyApi.as_view(), name="push-public-key"),
    path("push-subscriptions/renew", api.PushSubscriptionRenewApi.as_view(),
         name="push-subscription-renew"),
    path("me/push-subscriptions", api.PushSubscriptionListApi.as_view(),
         name="push-subscriptions"),
    path("me/push-subscriptions/<int:subscription_id>", api.PushSubscriptionDetailApi.as_view(),
         name="push-subscription"),
    path("me/notifications", api.NotificationSettingsApi.as_view(), name="settings"),
    path("me/email", api.EmailApi.as_view(), name="email"),
    path("me/email/verification", api.EmailVerificationApi.as_view(), name="email-verification"),
    path("me/email/verify", api.EmailVerifyApi.as_view(), name="email-verify"),
    path("notifications/unsubscribe", api.UnsubscribeApi.as_view(), name="unsubscribe"),
]
