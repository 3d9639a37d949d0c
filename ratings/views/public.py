"""Public rating pages: the lists, a list (live or a published snapshot), a player's profile."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_tables2.rows import BoundRows

from clubsite.numbers import MAX_ID, int_or_none
from clubsite.views.csv_output import csv_download
from clubsite.views.paging import (
    PER_PAGE_CHOICES,
    configure_table,
    page_range,
    query_without,
    sort_headers,
)
from clubsite.views.paging import per_page_of as _per_page
from clubsite.views.url_prefix import url_prefix
from ratings import selectors
from ratings.display.formatting import (
    decimal_separator,
    escaped,
    format_change,
    format_expectation,
    format_rating,
)
from ratings.display.system_titles import system_title
from ratings.merging import merge_redirect_target
from ratings.models import PublishedList, RatingEntry, RatingList
from ratings.standings import standing
from ratings.views import calculator_links, filters, history_rows, list_counts, list_rows
from ratings.views.filters import RatingEntryFilter
from ratings.views.list_columns import r_max_asked, set_r_max
from ratings.views.pagination import COUNT_SECONDS, CachedCountPaginator
from ratings.views.tables import (
    RatingEntryTable,
    SnapshotTable,
    csv_header,
    csv_row,
    number_columns,
)


def _list_or_404(slug: str) -> RatingList:
    return get_object_or_404(RatingList, slug=slug)


def _system_title(rating_list: RatingList) -> str:
    return system_title(rating_list.system)


def rating_lists(request: HttpRequest) -> HttpResponse:
    lists = selectors.rating_list_all()
    return render(request, "ratings/rating_lists.html", {"lists": lists, "nav_active": "ratings"})


def _filtered_table(
    request: HttpRequest,
    rating_list: RatingList,
    *,
    paginate: bool = True,
    keys_only: bool = False,
    csv: bool = False,
) -> tuple[RatingEntryFilter, RatingEntryTable]:
    """The filter and the sorted, paged table. `keys_only`: the page holds entries with
    only their id, rating and rank (see `selectors.entries_of_page`)."""
    filterset = RatingEntryFilter(
        request.GET,
        queryset=selectors.rating_entries(rating_list),
        rating_list=rating_list,
        countries=selectors.rating_list_countries(rating_list),
    )
    entries = _keys(filterset.qs) if keys_only else filterset.qs
    table = RatingEntryTable(
        selectors.with_rank(entries), system=rating_list.system,
        numbers=number_columns(rating_list.game, csv=csv), r_max=r_max_asked(request),
    )  # fmt: skip
    count_key = selectors.list_version_key(
        rating_list, "count", _filter_query(request), filters.today()
    )
    configure_table(request, table, per_page=_per_page(request) if paginate else None,
                    paginator_class=CachedCountPaginator, count_key=count_key)  # fmt: skip
    return filterset, table


def _filter_query(request: HttpRequest) -> list[tuple[str, list[str]]]:
    """What of the URL chooses the rows (not their order or page), as a cache key's part."""
    return sorted((k, v) for k, v in request.GET.lists() if k not in ("page", "sort", "per_page"))


def _by_rating(table: RatingEntryTable) -> bool:
    return tuple(table.order_by) in (("rating",), ("-rating",))


def _ratings_best_first(
    request: HttpRequest, rating_list: RatingList, filterset: RatingEntryFilter
) -> list[float]:
    """The ratings the filter keeps, highest first, kept as long as the page's count (the
    key names the list's version: a recompute changes it)."""
    return selectors.kept_ratings_best_first(
        _keys(filterset.qs), key=_ratings_key(request, rating_list), seconds=COUNT_SECONDS
    )


def _ratings_key(request: HttpRequest, rating_list: RatingList) -> str:
    return selectors.list_version_key(
        rating_list, "ratings", _filter_query(request), filters.today()
    )


def _keys_in_order(
    request: HttpRequest,
    rating_list: RatingList,
    filterset: RatingEntryFilter,
    ordering: Sequence[str],
) -> selectors.KeysInOrder:
    """The ids the filter keeps in the page's order, kept as the ratings are (a deep page
    of a sorted list is cut out of them: see `selectors.page_in_order`). Read with their
    ratings, which are kept too: the page ranks its rows among them next."""
    return selectors.kept_keys_in_order(
        _keys(filterset.qs),
        ordering,
        key=selectors.list_version_key(
            rating_list, "keys", _filter_query(request), list(ordering), filters.today()
        ),
        ratings_key=_ratings_key(request, rating_list),
        seconds=COUNT_SECONDS,
    )


def _keys(entries: QuerySet[RatingEntry]) -> QuerySet[RatingEntry]:
    return entries.select_related(None).only("id", "rating")


def _nearer_the_end(filterset: RatingEntryFilter, table: RatingEntryTable) -> bool:
    """Whether the page is best read from the list's weakest end (see
    `selectors.best_first_page_from_the_end`): past the middle of a list in the default
    order, best first, filtered on the entries alone. A filter on the member (name, country,
    club) joins the members, and the planner may then sort the rows instead of reading the
    rating index; players rated alike would not come in an order that reverses."""
    page = table.page
    if page is None or tuple(table.order_by) != ("-rating",) or _on_members(filterset):
        return False
    return table.paginator.count - page.end_index() < page.start_index() - 1


def _page_reader(
    filterset: RatingEntryFilter,
    table: RatingEntryTable,
    ratings: Callable[[], list[float]],
    keys: Callable[[], selectors.KeysInOrder],
    *,
    ordering: Sequence[str],
    deep: bool,
) -> Callable[..., list[RatingEntry]] | None:
    """How the page is read without ranking every row above it (None: as the table reads
    it, for page 1 best first or no rows). Best first past the middle of the list, along
    the rating index from the weakest end; lowest first, from the nearer end; otherwise
    best first, ranked by place. Sorted by anything else (names, grades, clubs), or by
    rating through the members (a name, country or club chosen), any page is found on the
    keys in that order (`keys()`, deep in the list) and ranked among the ratings the
    filter keeps."""
    if table.page is None or not table.paginator.count:
        return None
    in_order = partial(
        selectors.page_in_order,
        ordering=ordering,
        ratings=ratings,
        keys=keys,
        deep_rows=None if tuple(table.order_by)[0] in _ALONG_AN_INDEX else 0,
    )
    if not _by_rating(table):
        return in_order
    if not deep and tuple(table.order_by) == ("-rating",):
        return None
    if _on_members(filterset):
        # Sorted through the members, not along the rating index: near the top best first
        # by place (it reads the ratings only for a tie begun above the page), else in
        # order, which cuts a deep page out of the kept keys.
        near_the_top = table.page.start_index() <= selectors.DEEP_ROWS
        if tuple(table.order_by) == ("-rating",) and near_the_top:
            return partial(selectors.best_first_page_by_place, ratings=ratings)
        return in_order
    if _nearer_the_end(filterset, table):
        return selectors.best_first_page_from_the_end
    if _weakest_first(filterset, table):
        return partial(selectors.weakest_first_page, ratings=ratings)
    return partial(selectors.best_first_page_by_place, ratings=ratings)


# Orders whose first rows an index gives (the members' names, the ratings): a page near
# either end of them is read from the rows. Sorted by any other column (grade, club,
# country, tournaments, last played), every page sorts all the rows the filter keeps (page
# 1 of the EGD list by club: 45 ms), so each page is cut out of the kept keys.
_ALONG_AN_INDEX = {"name", "-name", "rating", "-rating"}


def _weakest_first(filterset: RatingEntryFilter, table: RatingEntryTable) -> bool:
    """Whether the page is the list sorted lowest rating first, filtered on the entries
    alone (see `selectors.weakest_first_page` and `_nearer_the_end`)."""
    return (
        table.page is not None
        and tuple(table.order_by) == ("rating",)
        and not _on_members(filterset)
    )


def _on_members(filterset: RatingEntryFilter) -> bool:
    data = filterset.form.cleaned_data
    return any(data.get(name) for name in ("q", "country", "club", "sex", "category"))


def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    the_list = _list_or_404(slug)
    # Past page 1 the page is found on the entries' keys first (the rows it skips need no
    # member or club); page 1 best first skips nothing, and one query reads it whole.
    deep = (int_or_none(request.GET.get("page"), minimum=1, maximum=MAX_ID) or 1) > 1
    filterset, table = _filtered_table(request, the_list, keys_only=deep)
    ratings = partial(_ratings_best_first, request, the_list, filterset)
    ordering = table.data.data.query.order_by
    keys = partial(_keys_in_order, request, the_list, filterset, ordering)
    read_page = _page_reader(filterset, table, ratings, keys, ordering=ordering, deep=deep)
    if read_page is not None:
        records = read_page(
            _keys(filterset.qs),
            start=table.page.start_index() - 1,
            stop=table.page.end_index(),
            total=table.paginator.count,
        )
    else:
        records = list(table.page.object_list.data) if table.page else []
    if deep or read_page is not None:  # the page holds keys: read whole
        records = selectors.entries_of_page(the_list, records)
    if read_page is not None:
        # These are the page's rows (the pager asks how many): its slice is never read.
        table.page.object_list = BoundRows(records, table)
    for record in records:
        record.shown = format_rating(record.rating, the_list.system, record.provisional)
    r_max = r_max_asked(request)
    if r_max:
        set_r_max(the_list, records)
    list_counts.mark_inactive(records, filters.today())
    labels = list_rows.RowLabels.make(number_columns(the_list.game), r_max)
    rows_html = list_rows.rows_html(records, labels)
    shown_count = table.paginator.count if table.page else len(records)
    pages = table.paginator.num_pages if table.page else 1
    query = request.GET.copy()
    query.pop("page", None)
    csv_page_query = request.GET.copy()
    csv_page_query["page"] = str(table.page.number if table.page else 1)
    csv_page_query["per_page"] = str(_per_page(request))
    return render(
        request,
        "ratings/rating_list.html",
        {
            "rating_list": the_list,
            "system_title": _system_title(the_list),
            "filter": filterset,
            # The filter form drawn once per list version, language and query (crispy
            # forms take a third of the page's time): see the template's cache tag.
            "form_key": selectors.list_version_key(
                the_list, "filter-form", get_language(), sorted(query.lists())
            ),
            "table": table,
            "records": records,
            "rows_html": rows_html,
            "headers": sort_headers(request, table, numeric=("rank", "rating", "tournaments")),
            "page_query": query_without(request, "page"),
            "per_page_query": query_without(request, "page", "per_page"),
            "hidden": list_counts.hidden_inactive(the_list, request.GET, shown_count),
            "everyone_query": query_without(request, "page", "active"),
            "rmax_query": query_without(request, "page", "rmax"),
            "rmax_shown": r_max,
            "page_range": page_range(table.page.number if table.page else 1, pages),
            "snapshots": selectors.snapshots_of(the_list)[:24],
            "csv_all_query": query.urlencode(),
            "csv_page_query": csv_page_query.urlencode(),
            "per_page_choices": PER_PAGE_CHOICES,
            "per_page": _per_page(request),
            "nav_active": "ratings",
            "can_start_baseline": selectors.list_refereed_by(the_list, request.user),
        },
    )


def rating_list_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The rows the page shows (same filter, order and page); with `all=1`, every matching row."""
    the_list = _list_or_404(slug)
    every_row = request.GET.get("all") == "1"
    _filterset, table = _filtered_table(request, the_list, paginate=not every_row, csv=True)
    records = table.data if every_row else table.page.object_list.data
    if r_max_asked(request):
        records = list(records)
        set_r_max(the_list, records)
    filename = f"{slugify(the_list.slug)}-{dt.date.today().isoformat()}.csv"
    response, writer = csv_download(filename)
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
    configure_table(request, table, per_page=_per_page(request))
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


def _first_game(profile: object) -> str | None:
    sections = getattr(profile, "sections", None) or []
    return sections[0].rating_list.game if sections else None


def _change_css(value: float | None) -> str:
    if not value:
        return ""
    return "change-up" if value > 0 else "change-down"


BREAKDOWN_ROW = (
    '<tr><td>{}</td><td>{}</td><td class="num">{}</td><td class="{}">{}</td>'
    '<td class="num">{}</td><td class="num {}">{}</td></tr>'
)


H2H_ROW = (
    '<tr><td><a href="?vs={0}#h2h">{1}</a></td><td class="num">{2}</td>'
    '<td class="num result-win">{3}</td><td class="num result-loss">{4}</td>'
    '<td class="num">{5}</td></tr>'
)


def _result(score: object, results: dict, draw: tuple[str, str]) -> tuple[str, str]:
    if not isinstance(score, int | float):
        return "", "—"
    css, label = results.get(float(score), draw)
    return css, escaped(label)


def _opponent_link(game: selectors.GameLine, player_prefix: str) -> str:
    if game.opponent_id is None:
        return escaped(game.opponent_name)
    return f'<a href="{player_prefix}{int(game.opponent_id)}/">{escaped(game.opponent_name)}</a>'


def _decorate(profile: selectors.Profile) -> None:
    """Display strings for the history and breakdown tables, made once in Python: a player
    with 200 tournaments has many breakdown rows, too many for template filters."""
    labels = _BreakdownLabels.make()
    for section in profile.sections:
        for line in section.lines:
            _decorate_line(line, section.rating_list.system, labels)


@dataclass(frozen=True)
class _BreakdownLabels:
    """What every breakdown row shares, worked out once per page rather than per row."""

    player_prefix: str
    results: dict[float, tuple[str, str]]
    draw: tuple[str, str]
    separator: str  # the decimal one (`formatting.decimal_separator`)

    @classmethod
    def make(cls) -> _BreakdownLabels:
        return cls(
            player_prefix=url_prefix("player_detail"),
            results={1.0: ("result-win", _("won")), 0.0: ("result-loss", _("lost"))},
            draw=("result-draw", _("draw")),
            separator=decimal_separator(),
        )


def _decorate_line(line: selectors.HistoryLine, system: str, labels: _BreakdownLabels) -> None:
    player_prefix, results, draw = labels.player_prefix, labels.results, labels.draw
    separator = labels.separator
    row = line.row
    line.before_s = format_rating(row.before, system)
    line.after_s = format_rating(row.after, system, row.provisional)
    line.change_s = format_change(row.change, system, separator)
    line.change_css = _change_css(row.change)
    line.raised_s = (
        _("Start raised from %(from)s to %(to)s: %(why)s.")
        % {
            "from": format_rating(row.rating_in, system),
            "to": line.before_s,
            "why": _("reset") if row.reset else _("anomaly"),
        }
        if line.raised
        else ""
    )
    line.games_html = mark_safe(  # noqa: S308 - every value escaped by _esc
        "".join(
            BREAKDOWN_ROW.format(
                escaped(game.round),
                _opponent_link(game, player_prefix),
                format_rating(game.opponent_rating, system),
                *_result(game.score, results, draw),
                format_expectation(game.expected, separator),
                _change_css(game.change),
                format_change(game.change, system, separator),
            )
            for game in line.games
        )
    )  # fmt: skip


def _h2h_html(profile: selectors.Profile, chosen: int | None) -> tuple[SafeString, SafeString]:
    """The head-to-head table's rows and the opponent picker's options (`chosen` selected),
    each name escaped once for both: a regular met a thousand opponents."""
    rows, options = [], []
    for h in profile.head_to_head:
        name = escaped(h.opponent_name)
        rows.append(H2H_ROW.format(h.opponent_id, name, h.games, h.wins, h.losses, h.draws))
        selected = " selected" if h.opponent_id == chosen else ""
        options.append(f'<option value="{h.opponent_id}"{selected}>{name} ({h.games})</option>')
    return (
        mark_safe("".join(rows)),  # noqa: S308 - the name escaped above, the rest numbers
        mark_safe("".join(options)),  # noqa: S308 - the name escaped above, the rest numbers
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        member = selectors.player_get(pk, request.user)
    except ObjectDoesNotExist as error:
        kept = merge_redirect_target(pk)  # merged into another (issue 54)
        if kept is not None:
            return redirect("player_detail", pk=kept)
        raise Http404 from error
    profile = selectors.player_profile(member)
    _decorate(profile)
    today = timezone.localdate()
    for section in profile.sections:
        rows = [line.row for line in section.lines]
        section.standing = standing(section.rating_list, section.entry, member.country, rows, today)
    labels = history_rows.RowLabels.make(member.pk)
    breakdown_head = _breakdown_head()
    for section in profile.sections:
        section.rows_html = history_rows.section_rows_html(section, labels, breakdown_head)
    versus = None
    versus_games = None
    vs = int_or_none(request.GET.get("vs"), minimum=1, maximum=MAX_ID)
    if vs is not None:
        versus = next((h for h in profile.head_to_head if h.opponent_id == vs), None)
        if versus is not None:
            versus_games = list(selectors.games_between(member, versus.opponent_id))
    profile.h2h_rows_html, h2h_options = _h2h_html(profile, versus.opponent_id if versus else None)
    return render(
        request,
        "ratings/player_detail.html",
        {
            "member": member,
            "profile": profile,
            "versus": versus,
            "versus_games": versus_games,
            "calculator_link": calculator_links.profile_link(member.pk, _first_game(profile)),
            "versus_link": calculator_links.head_to_head_link(
                member.pk, versus.opponent_id, versus_games or []
            )
            if versus
            else "",
            "h2h_options": h2h_options,
            "player_prefix": url_prefix("player_detail"),
            "tournament_prefix": url_prefix("tournament_detail"),
            "is_me": request.user.is_authenticated and member.user_id == request.user.pk,
            "nav_active": "ratings",
        },
    )


def _breakdown_head() -> str:
    return format_html(
        '<tr><th>{}</th><th>{}</th><th class="num">{}</th><th>{}</th>'
        '<th class="num">{}</th><th class="num">{}</th></tr>',
        _("Round"),
        _("Opponent"),
        _("His rating"),
        _("Result"),
        _("Expected"),
        _("Change"),
    )


def player_breakdown(request: HttpRequest, pk: int, row: int) -> HttpResponse:
    """One tournament's game-by-game explanation of his change (older ones link here)."""
    try:
        member = selectors.player_get(pk, request.user)
        line = selectors.player_history_line(member, row)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    _decorate_line(line, line.row.rating_list.system, _BreakdownLabels.make())
    return render(
        request,
        "ratings/player_breakdown.html",
        {"member": member, "line": line, "breakdown_head": _breakdown_head(),
         "nav_active": "ratings"},
    )  # fmt: skip
