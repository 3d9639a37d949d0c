"""The public list of tournaments.

One tournament's page, with its ratings, is `tournaments.views.tournament`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from clubsite.models import GameKind
from clubsite.numbers import MAX_ID, int_or_none
from clubsite.views.paging import (
    CountedApartPaginator,
    configure_table,
    page_range,
    sort_headers,
)
from clubsite.views.url_prefix import url_prefix
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views.filters import TournamentFilter
from tournaments.views.list_rows import tournament_rows_html
from tournaments.views.tables import TournamentTable


def tournament_list(request: HttpRequest) -> HttpResponse:
    # Past page 1, or sorted other than newest first, the page is found on the tournaments'
    # keys first (the rows it skips or sorts need no organiser, host or text columns), then
    # read whole; sorted by anything but players, without their players' counts. Page 1
    # newest first is read whole at once: its index gives the fifty rows in order.
    page = int_or_none(request.GET.get("page"), minimum=1, maximum=MAX_ID) or 1
    sort = request.GET.get("sort", "")
    by_players = sort.lstrip("-") == "players"
    by_keys = page > 1 or bool(sort)
    if by_keys and not by_players:
        tournaments = selectors.tournament_public_keys()
    else:
        tournaments = selectors.tournament_public_list()
    filterset = TournamentFilter(request.GET, queryset=tournaments)
    found = filterset.qs.select_related(None).only("id") if by_keys else filterset.qs
    table = TournamentTable(found)
    # Counted on the keys, filtered alike: the rows' joins would only slow the count.
    counted = filterset.filter_queryset(selectors.tournament_public_keys())
    configure_table(request, table, per_page=50, paginator_class=CountedApartPaginator,
                    counted=counted)  # fmt: skip
    records = list(table.page.object_list.data) if table.page else []
    if by_keys:
        records = selectors.tournaments_in_order([t.pk for t in records])
    # Each row's labels looked up here: `get_game_display` builds the choices anew per call.
    games, statuses = dict(GameKind.choices), dict(Tournament.Status.choices)
    rows = [(t, games.get(t.game, t.game), statuses.get(t.status, t.status)) for t in records]
    query = request.GET.copy()
    query.pop("page", None)
    # The filter form drawn once per language and filter (crispy forms took a quarter of
    # page 1's time): see the template's cache tag.
    filter_query = sorted((k, v) for k, v in query.lists() if k != "sort")
    return render(
        request,
        "tournaments/tournament_list.html",
        {
            "filter": filterset,
            "form_key": f"{get_language()}|{filter_query}",
            "table": table,
            "rows_html": tournament_rows_html(
                rows,
                tournament_prefix=url_prefix("tournament_detail"),
                club_prefix=url_prefix("club_detail"),
            ),
            "headers": sort_headers(request, table, numeric=("players",)),
            "page_query": query.urlencode() + "&" if query else "",
            "page_range": page_range(table.page.number, table.paginator.num_pages)
            if table.page
            else [],
            "nav_active": "tournaments",
        },
    )
