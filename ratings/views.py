"""Public rating pages: the lists, a list (live or a published snapshot), a player's profile."""

from __future__ import annotations

import csv
import datetime as dt

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django_tables2 import RequestConfig

from ratings import selectors
from ratings.filters import RatingEntryFilter
from ratings.models import PublishedList, RatingList
from ratings.systems.registry import SYSTEMS
from ratings.tables import RatingEntryTable, SnapshotTable, csv_header, csv_row

PER_PAGE_CHOICES = (25, 50, 100, 200)
DEFAULT_PER_PAGE = 50


def _per_page(request: HttpRequest) -> int:
    try:
        value = int(request.GET.get("per_page", DEFAULT_PER_PAGE))
    except ValueError:
        return DEFAULT_PER_PAGE
    return value if value in PER_PAGE_CHOICES else DEFAULT_PER_PAGE


def _list_or_404(slug: str) -> RatingList:
    return get_object_or_404(RatingList, slug=slug)


def _system_title(rating_list: RatingList) -> str:
    system = SYSTEMS.get(rating_list.system)
    return system.title if system else rating_list.system


def rating_lists(request: HttpRequest) -> HttpResponse:
    lists = selectors.rating_list_all()
    return render(request, "ratings/rating_lists.html", {"lists": lists, "nav_active": "ratings"})


def _filtered_table(
    request: HttpRequest, rating_list: RatingList, *, paginate: bool = True
) -> tuple[RatingEntryFilter, RatingEntryTable]:
    filterset = RatingEntryFilter(
        request.GET,
        queryset=selectors.rating_entries(rating_list),
        rating_list=rating_list,
        countries=selectors.rating_list_countries(rating_list),
        clubs=selectors.rating_list_clubs(rating_list),
    )
    table = RatingEntryTable(selectors.with_rank(filterset.qs), system=rating_list.system)
    config = {"per_page": _per_page(request)} if paginate else False
    RequestConfig(request, paginate=config).configure(table)
    return filterset, table


def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    the_list = _list_or_404(slug)
    filterset, table = _filtered_table(request, the_list)
    query = request.GET.copy()
    query.pop("page", None)
    page_query = request.GET.copy()
    page_query["page"] = table.page.number if table.page else 1
    return render(
        request,
        "ratings/rating_list.html",
        {
            "rating_list": the_list,
            "system_title": _system_title(the_list),
            "filter": filterset,
            "table": table,
            "snapshots": selectors.snapshots_of(the_list)[:24],
            "csv_all_query": query.urlencode(),
            "csv_page_query": page_query.urlencode(),
            "per_page_choices": PER_PAGE_CHOICES,
            "per_page": _per_page(request),
            "nav_active": "ratings",
        },
    )


def rating_list_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The rows the page shows (same filter, order and page); with `all=1`, every matching row."""
    the_list = _list_or_404(slug)
    every_row = request.GET.get("all") == "1"
    _filterset, table = _filtered_table(request, the_list, paginate=not every_row)
    records = table.data if every_row else table.page.object_list.data
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(the_list.slug)}-{dt.date.today().isoformat()}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(csv_header(table))
    for record in records:
        writer.writerow(csv_row(table, record))
    return response


def rating_snapshot(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    the_list = _list_or_404(slug)
    try:
        day = dt.date.fromisoformat(date)
    except ValueError as error:
        raise Http404 from error
    snapshot = get_object_or_404(PublishedList, rating_list=the_list, date=day)
    entries = selectors.snapshot_entries(snapshot)
    search = request.GET.get("q", "").strip()
    if search:
        for word in search.split()[:4]:
            entries = entries.filter(
                Q(member__family_name__icontains=word) | Q(member__given_name__icontains=word)
            )
    table = SnapshotTable(entries, system=the_list.system)
    RequestConfig(request, paginate={"per_page": _per_page(request)}).configure(table)
    return render(
        request,
        "ratings/rating_snapshot.html",
        {
            "rating_list": the_list,
            "system_title": _system_title(the_list),
            "snapshot": snapshot,
            "snapshots": selectors.snapshots_of(the_list)[:24],
            "table": table,
            "search": search,
            "nav_active": "ratings",
        },
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        member = selectors.player_get(pk)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    profile = selectors.player_profile(member)
    versus = None
    versus_games = None
    vs = request.GET.get("vs", "")
    if vs.isdigit():
        versus = next((h for h in profile.head_to_head if h.opponent_id == int(vs)), None)
        if versus is not None:
            versus_games = list(selectors.games_between(member, versus.opponent_id))
    return render(
        request,
        "ratings/player_detail.html",
        {
            "member": member,
            "profile": profile,
            "versus": versus,
            "versus_games": versus_games,
            "is_me": request.user.is_authenticated and member.user_id == request.user.pk,
            "nav_active": "ratings",
        },
    )
