"""The club admin's pages that involve rating lists, mounted at /manage/ too."""

from django.urls import path

from tournaments.views.manage import importing as import_views
from tournaments.views.manage import lists as submission_views

urlpatterns = [
    path("new/", submission_views.manage_tournament_create, name="manage_tournament_create"),
    path("import/", import_views.manage_import, name="manage_import"),
    path("import/confirm/", import_views.manage_import_confirm, name="manage_import_confirm"),
    path("<int:pk>/", submission_views.manage_tournament, name="manage_tournament"),
    path("<int:pk>/edit/", submission_views.manage_tournament_edit, name="manage_tournament_edit"),
]
