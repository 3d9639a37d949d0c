"""The public site's pages. Each app's views are mounted here."""

from django.urls import include, path, re_path

from clubsite.views import account as views
from clubsite.views import claims as claim_views
from clubsite.views import keeping as keeping_views
from clubsite.views import members as member_views
from clubsite.views import public as site_views
from ratings.views import api
from ratings.views import baseline as baseline_views
from ratings.views import downloads as download_views
from ratings.views import public as rating_views
from ratings.views import search as search_views
from ratings.views import system_help as system_help_views
from tournaments.views import public as tournament_views
from tournaments.views import tournament as rated_tournament_views

urlpatterns = [
    path("", site_views.home, name="home"),
    path("ratings/", rating_views.rating_lists, name="rating_lists"),
    path("search/", search_views.site_search, name="site_search"),
    path("ratings/<slug:slug>/", rating_views.rating_list, name="rating_list"),
    path("ratings/<slug:slug>/csv/", rating_views.rating_list_csv, name="rating_list_csv"),
    path("ratings/<slug:slug>/baseline/", baseline_views.list_baseline, name="list_baseline"),
    re_path(
        r"^ratings/(?P<slug>[-\w]+)/file/(?P<fmt>egd|fide)/$",
        download_views.rating_list_file,
        name="rating_list_file",
    ),
    re_path(
        r"^ratings/(?P<slug>[-\w]+)/(?P<date>\d{4}-\d{2}-\d{2})/file/(?P<fmt>egd|fide)/$",
        download_views.rating_snapshot_file,
        name="rating_snapshot_file",
    ),
    re_path(
        r"^ratings/(?P<slug>[-\w]+)/(?P<date>\d{4}-\d{2}-\d{2})/$",
        rating_views.rating_snapshot,
        name="rating_snapshot",
    ),
    path("rating-systems/", system_help_views.rating_systems, name="rating_systems"),
    path("rating-systems/<slug:code>/", system_help_views.rating_system, name="rating_system"),
    path("players/<int:pk>/", rating_views.player_detail, name="player_detail"),
    path(
        "players/<int:pk>/breakdown/<int:row>/",
        rating_views.player_breakdown,
        name="player_breakdown",
    ),
    path("players/<int:pk>/history/", member_views.member_history, name="member_history"),
    path("players/<int:pk>/merge/", member_views.member_merge, name="member_merge"),
    path("merges/<int:pk>/undo/", member_views.member_merge_undo, name="member_merge_undo"),
    path("members/proposals/", keeping_views.proposal_inbox, name="proposal_inbox"),
    path("members/proposals/<int:pk>/", keeping_views.proposal_decide, name="proposal_decide"),
    path("me/", views.my_profile, name="my_profile"),
    path("players/<int:pk>/this-is-me/", claim_views.member_claim, name="member_claim"),
    path("me/requests/", claim_views.member_claims, name="member_claims"),
    path("tournaments/", tournament_views.tournament_list, name="tournament_list"),
    path(
        "tournaments/<int:pk>/", rated_tournament_views.tournament_detail, name="tournament_detail"
    ),
    path("clubs/<slug:slug>/", site_views.club_detail, name="club_detail"),
    path("calculator/", site_views.calculator, name="calculator"),
    path("api/", api.api_index, name="api_index"),
    path("api/lists/", api.api_rating_lists, name="api_rating_lists"),
    path("api/lists/<slug:slug>/", api.api_rating_list, name="api_rating_list"),
    path("api/players/<int:pk>/", api.api_player, name="api_player"),
    path("api/tournaments/<int:pk>/", api.api_tournament, name="api_tournament"),
    path("manage/", include("tournaments.views.manage.urls")),
    path("manage/", include("tournaments.views.manage.list_urls")),
    path("referee/", include("tournaments.views.referee_urls")),
]
