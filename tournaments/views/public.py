"""The public list of tournaments.

One tournament's page, with its ratings, is `tournaments.views.tournament`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clubsite.views.paging import configure_table, page_range, sort_headers
from tournaments import selectors
from tournaments.views.filters import TournamentFilter
from tournaments.views.tables import TournamentTable


def tournament_list(request: HttpRequest) -> HttpResponse:
    filterset = TournamentFilter(request.GET, queryset=selectors.tournament_public_list())
    table = TournamentTable(filterset.qs)
    configure_table(request, table, per_page=50)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/tournament_list.html",
        {
            "filter": filterset,
            "table": table,
            "records": list(table.page.object_list.data) if table.page else [],
            "headers": sort_headers(request, table, numeric=("players",)),
            "page_query": query.urlencode() + "&" if query else "",
            "page_range": page_range(table.page.number, table.paginator.num_pages)
            if table.page
            else [],
            "tournament_prefix": reverse("tournament_detail", args=[0])[:-2],
            "club_prefix": reverse("club_detail", args=["x"])[:-2],
            "nav_active": "tournaments",
        },
    )
