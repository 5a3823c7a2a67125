from django.urls import path

from games.people import api

app_name = "people"

urlpatterns = [
    path("matches/<uuid:match_id>/chat", api.ChatApi.as_view(), name="chat"),
    path("matches/<uuid:match_id>/chat/mute", api.ChatMuteApi.as_view(), name="chat-mute"),
    path("matches/<uuid:match_id>/chat/events", api.chat_events, name="chat-events"),
    path("matches/<uuid:match_id>/chat/stream", api.chat_stream, name="chat-stream"),
    path("reports", api.ReportApi.as_view(), name="reports"),
]
