"""The referee's pages, mounted at /referee/."""

from django.urls import path

from tournaments.views import referee as views
from tournaments.views import table_conversation

urlpatterns = [
    path("", views.referee_queue, name="referee_queue"),
    path("<int:pk>/", views.referee_review, name="referee_review"),
    path("<int:pk>/decide/", views.referee_decide, name="referee_decide"),
    path("<int:pk>/status/", views.recompute_status, name="recompute_status"),
    path("<int:pk>/reopen/", table_conversation.referee_reopen, name="referee_reopen"),
]
