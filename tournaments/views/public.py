"""The public list of tournaments.

One tournament's page, with its ratings, is `tournaments.views.tournament`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clubsite.views.paging import configure_table
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
            "headers": _headers(request, table),
            "page_query": query.urlencode() + "&" if query else "",
            "page_range": _page_range(table.page.number, table.paginator.num_pages)
            if table.page
            else [],
            "tournament_prefix": reverse("tournament_detail", args=[0])[:-2],
            "club_prefix": reverse("club_detail", args=["x"])[:-2],
            "nav_active": "tournaments",
        },
    )


def _headers(request: HttpRequest, table: TournamentTable) -> list[dict[str, str]]:
    """Column headers with their sort links (what django-tables2's template would draw)."""
    headers = []
    for column in table.columns:
        css = "num" if column.name == "players" else ""
        url = ""
        if column.orderable:
            query = request.GET.copy()
            query.pop("page", None)
            query["sort"] = column.order_by_alias.next
            url = "?" + query.urlencode()
            if column.is_ordered:
                css += " desc" if column.order_by_alias.is_descending else " asc"
        headers.append({"label": str(column.header), "url": url, "css": css.strip()})
    return headers


def _page_range(page_number: int, pages: int) -> list[int | None]:
    """1 … 4 5 [6] 7 8 … 40: the first, the last, and two either side (None = a gap)."""
    shown = sorted({1, pages, *range(max(1, page_number - 2), min(pages, page_number + 2) + 1)})
    out: list[int | None] = []
    for p in shown:
        if out and p - (out[-1] or 0) > 1:
            out.append(None)
        out.append(p)
    return out
