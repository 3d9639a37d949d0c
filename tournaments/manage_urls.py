"""The club admin's pages, mounted at /manage/."""

from django.urls import path

from tournaments import manage_views as views

urlpatterns = [
    path("", views.manage_tournaments, name="manage_tournaments"),
    path("new/", views.manage_tournament_create, name="manage_tournament_create"),
    path("time-control/", views.manage_time_control, name="manage_time_control"),
    path("import/", views.manage_import, name="manage_import"),
    path("import/confirm/", views.manage_import_confirm, name="manage_import_confirm"),
    path("<int:pk>/", views.manage_tournament, name="manage_tournament"),
    path("<int:pk>/edit/", views.manage_tournament_edit, name="manage_tournament_edit"),
    path("<int:pk>/players/", views.manage_participants, name="manage_participants"),
    path("<int:pk>/rounds/<int:number>/", views.manage_round, name="manage_round"),
    path("<int:pk>/submit/", views.manage_submit, name="manage_submit"),
    path("<int:pk>/reopen/", views.manage_reopen, name="manage_reopen"),
]
