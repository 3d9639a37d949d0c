"""The public list of tournaments.

One tournament's page, with its ratings, is `tournaments.views.tournament`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubsite.views.paging import configure_table
from tournaments import selectors
from tournaments.views.filters import TournamentFilter
from tournaments.views.tables import TournamentTable


def tournament_list(request: HttpRequest) -> HttpResponse:
    filterset = TournamentFilter(request.GET, queryset=selectors.tournament_public_list())
    table = TournamentTable(filterset.qs)
    configure_table(request, table, per_page=50)
    return render(
        request,
        "tournaments/tournament_list.html",
        {"filter": filterset, "table": table, "nav_active": "tournaments"},
    )
