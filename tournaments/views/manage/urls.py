"""The club admin's pages, mounted at /manage/ (with `tournaments.views.manage.list_urls`)."""

from django.urls import path

from tournaments.views import table_conversation
from tournaments.views.manage import tournaments as views

urlpatterns = [
    path("", views.manage_tournaments, name="manage_tournaments"),
    path("time-control/", views.manage_time_control, name="manage_time_control"),
    path("<int:pk>/players/", views.manage_participants, name="manage_participants"),
    path("<int:pk>/rounds/<int:number>/", views.manage_round, name="manage_round"),
    path("<int:pk>/submit/", views.manage_submit, name="manage_submit"),
    path("<int:pk>/reopen/", views.manage_reopen, name="manage_reopen"),
    path("<int:pk>/withdraw/", table_conversation.manage_withdraw, name="manage_withdraw"),
    path("<int:pk>/note/", table_conversation.table_note, name="table_note"),
]
