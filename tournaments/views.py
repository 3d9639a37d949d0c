"""Public tournament pages: the list and one tournament with its crosstable."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from tournaments import selectors
from tournaments.filters import TournamentFilter
from tournaments.tables import TournamentTable


def tournament_list(request: HttpRequest) -> HttpResponse:
    filterset = TournamentFilter(request.GET, queryset=selectors.tournament_public_list())
    table = TournamentTable(filterset.qs)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "tournaments/tournament_list.html",
        {"filter": filterset, "table": table, "nav_active": "tournaments"},
    )


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = selectors.tournament_get(pk)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    if not selectors.tournament_visible(request.user, tournament):
        raise Http404
    table = selectors.crosstable(tournament)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {"tournament": tournament, "crosstable": table, "nav_active": "tournaments"},
    )
