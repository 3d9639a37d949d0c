"""Paging links on the rating lists: they carry the filter, reach every page, and per_page is
one of the page's choices whatever the URL says (issue 16, item 1)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from ratings.models import PublishedEntry, PublishedList, RatingEntry
from tests.factories import MemberFactory, RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_list(db):
    rating_list = RatingListFactory(slug="big")
    for i in range(130):
        member = MemberFactory(family_name=f"Big{i:03d}", country="UA" if i % 2 else "PL")
        RatingEntry.objects.create(
            rating_list=rating_list, member=member, rating=3000 - i, tournaments=1
        )
    return rating_list


def names(html: str) -> list[str]:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/players/\d+/">([^<]+)</a>', body)


def links(html: str) -> dict[str, str]:
    """Pagination / per-page links by their text."""
    return {
        text.strip(): href.replace("&amp;", "&")
        for href, text in re.findall(
            r'<a (?:class="page-link" )?href="(\?[^"]*)">([^<]+)</a>', html
        )
    }


def test_page_links_carry_the_filter_and_reach_the_page(client, big_list):
    url = reverse("rating_list", args=["big"])
    first = client.get(url, {"country": "UA", "per_page": 25}).content.decode()
    assert "QueryDict" not in first
    found = links(first)
    assert found["2"] == "?country=UA&per_page=25&page=2"
    second = client.get(url + found["2"]).content.decode()
    expected = [f"Big{i:03d}" for i in range(130) if i % 2][25:50]
    assert [n.split()[-1] for n in names(second)] == expected
    nxt = links(second)["next ›"]
    third = client.get(url + nxt).content.decode()
    assert [n.split()[-1] for n in names(third)] == [f"Big{i:03d}" for i in range(130) if i % 2][
        50:65
    ]


def test_per_page_links_keep_the_filter_and_drop_the_page(client, big_list):
    url = reverse("rating_list", args=["big"])
    html = client.get(url, {"country": "PL", "page": 2}).content.decode()
    assert links(html)["100"] == "?country=PL&per_page=100"


@pytest.mark.parametrize("junk", ["-1", "0", "10000000", "7", "²", "①", "1" + "0" * 20, "", "%00"])
def test_per_page_only_from_the_choices(client, big_list, junk):
    for name in ("rating_list", "rating_list_csv"):
        response = client.get(reverse(name, args=["big"]), {"per_page": junk})
        assert response.status_code == 200
        if name == "rating_list":
            assert len(names(response.content.decode())) == 50


@pytest.mark.parametrize("junk", ["-1", "0", "²", "10" * 15, "abc", "999"])
def test_junk_page_is_a_page(client, big_list, junk):
    response = client.get(reverse("rating_list", args=["big"]), {"page": junk})
    assert response.status_code == 200
    assert names(response.content.decode())


def test_snapshot_per_page_is_bounded(client, big_list):
    snapshot = PublishedList.objects.create(rating_list=big_list, date="2024-06-30")
    for rank, entry in enumerate(RatingEntry.objects.filter(rating_list=big_list), start=1):
        PublishedEntry.objects.create(
            snapshot=snapshot, member=entry.member, rank=rank, rating=entry.rating
        )
    url = reverse("rating_snapshot", args=["big", "2024-06-30"])
    for junk in ("-1", "10000000", "²"):
        response = client.get(url, {"per_page": junk})
        assert response.status_code == 200
        assert response.content.decode().count('href="/players/') == 50


def test_tournament_list_junk_page(client, db):
    for junk in ("-1", "²", "10" * 15):
        assert (
            client.get(reverse("tournament_list"), {"page": junk, "per_page": junk}).status_code
            == 200
        )


@pytest.mark.parametrize("few_active", [0, 10_000])
def test_active_players_found_by_key_or_by_filter_show_the_same_pages(
    client, big_list, monkeypatch, few_active
):
    """A list where few are active finds them by key (`selectors.active_filter`); a list
    where many are, by the filter. Both show the same players, ranks and pages."""
    import datetime as dt

    from django.core.cache import cache

    from ratings import selectors

    today = dt.date.today()
    entries = list(
        RatingEntry.objects.filter(rating_list=big_list)
        .select_related("member")
        .order_by("-rating")
    )
    for i, entry in enumerate(entries):
        entry.active_until = today if i % 3 == 0 else today - dt.timedelta(days=1)
    RatingEntry.objects.bulk_update(entries, ["active_until"])
    active = [e.member for e in entries[::3]]  # 44 of 130
    cache.clear()
    monkeypatch.setattr(selectors, "FEW_ACTIVE", few_active)
    url = reverse("rating_list", args=["big"])
    page2 = client.get(url, {"per_page": 25, "page": 2})
    assert names(page2.content.decode()) == [m.full_name for m in active[25:]]
    assert page2.context["table"].paginator.count == 44
    assert [row.record.rank for row in page2.context["table"].page.object_list][:2] == [26, 27]
    ua = client.get(url, {"per_page": 25, "country": "UA"}).content.decode()
    assert names(ua) == [m.full_name for m in active if m.country == "UA"][:25]
    everyone = client.get(url, {"per_page": 25, "active": "all"}).content.decode()
    assert len(names(everyone)) == 25


def ranked_rows(html: str) -> list[tuple[int, str]]:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        (int(rank), name)
        for rank, name in re.findall(
            r'<tr><td class="num">(\d+)</td><td><a href="/players/\d+/">([^<]+)</a>', body
        )
    ]


def tied_pages(client, big_list, query) -> list[tuple[list[tuple[int, str]], list[str]]]:
    """Pages 1 to 6 (25 rows each) of the list under `query`, Big126 … Big129 tied at
    rank 127: each page's ranked rows and the SQL of the queries that drew it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tied = RatingEntry.objects.filter(rating_list=big_list, rating__lte=2874)
    tied.update(rating=2874)
    url = reverse("rating_list", args=["big"])
    pages = []
    for page in range(1, 7):
        with CaptureQueriesContext(connection) as captured:
            html = client.get(url, {**query, "per_page": 25, "page": page}).content.decode()
        pages.append((ranked_rows(html), [q["sql"] for q in captured]))
    return pages


# A sort by no column (junk, or empty) is the default order: read the same way.
@pytest.mark.parametrize("query", [{}, {"active": "all"}, {"sort": "junk"}, {"sort": ""}])
def test_pages_past_the_middle_are_read_from_the_end_with_the_same_rows_and_ranks(
    client, big_list, query
):
    """A page nearer the list's end is read from its weakest end (`selectors.
    best_first_page_from_the_end`): the same rows, order and ranks as read from the top,
    and players rated alike ranked alike. (Their order among themselves is the database's:
    the tie is kept within the last page.)"""
    every = []
    for page, (rows, queries) in enumerate(tied_pages(client, big_list, query), start=1):
        every += rows
        if page >= 4:  # rows 75 on, nearer the end: no query skips the rows above them
            assert not [sql for sql in queries if re.search(r"OFFSET (7|10|12)5\b", sql)]
    assert [rank for rank, _name in every] == [*range(1, 127), *[127] * 4]
    assert [name.split()[-1] for _rank, name in every[:126]] == [f"Big{i:03d}" for i in range(126)]
    assert sorted(name.split()[-1] for _rank, name in every[126:]) == [
        f"Big{i:03d}" for i in range(126, 130)
    ]


def test_a_page_from_the_end_of_active_players_ranks_among_them(client, big_list):
    import datetime as dt

    today = dt.date.today()
    entries = list(RatingEntry.objects.filter(rating_list=big_list).order_by("-rating"))
    for i, entry in enumerate(entries):
        entry.active_until = today if i % 2 == 0 else today - dt.timedelta(days=1)
    RatingEntry.objects.bulk_update(entries, ["active_until"])
    url = reverse("rating_list", args=["big"])
    last = client.get(url, {"per_page": 25, "page": 3})  # 65 active: rows 51 to 65
    assert last.context["table"].paginator.count == 65
    assert ranked_rows(last.content.decode()) == [
        (rank, entries[2 * (rank - 1)].member.full_name) for rank in range(51, 66)
    ]


@pytest.mark.parametrize("query", [{}, {"active": "all"}])
def test_lowest_first_pages_have_the_rows_and_ranks_of_the_list_turned_round(
    client, big_list, query
):
    """Sorted lowest rating first, a page is read along the rating index from the nearer
    end (`selectors.weakest_first_page`): the list's rows in the reverse order, each with
    the rank it has best first, players rated alike ranked alike; and no page ranks every
    row of the list first (a window over the whole list before the page is cut out). Pages
    in the weakest half rank their rows by place, with no window at all."""
    every = []
    lowest_first = {**query, "sort": "rating"}
    for page, (rows, queries) in enumerate(tied_pages(client, big_list, lowest_first), start=1):
        every += rows
        windows = [sql for sql in queries if "OVER" in sql]
        if page <= 2:  # rows 1-50 of 130
            assert not windows
        if page > 1:
            assert all("LIMIT" in sql for sql in windows)
            # From the nearer end: no page skips more than half of the list's 130 rows.
            pages = [sql for sql in queries if "ORDER BY" in sql and "LIMIT" in sql]
            skipped = [int(n) for sql in pages for n in re.findall(r"OFFSET (\d+)", sql)]
            assert all(n <= 65 for n in skipped), skipped
    assert [rank for rank, _name in every[:4]] == [127] * 4
    assert sorted(name.split()[-1] for _rank, name in every[:4]) == [
        f"Big{i:03d}" for i in range(126, 130)
    ]
    assert [rank for rank, _name in every[4:]] == list(range(126, 0, -1))
    assert [name.split()[-1] for _rank, name in every[4:]] == [
        f"Big{i:03d}" for i in range(125, -1, -1)
    ]


@pytest.mark.parametrize("query", [{}, {"country": "UA"}, {"q": "Big"}])
def test_best_first_pages_are_ranked_by_place_with_ties_inside_and_across_pages(
    client, big_list, query
):
    """A deep page best first (`selectors.best_first_page_by_place`) ranks its rows by
    their place, a tie sharing its first row's rank, as a window over the whole list
    would: with a tie inside a page and a tie begun on the page before (then the rank of
    the row above is looked up among the ratings the filter keeps); never by a window."""
    entries = RatingEntry.objects.filter(rating_list=big_list).select_related("member")
    if "country" in query:
        entries = entries.filter(member__country="UA")
    kept = list(entries.order_by("-rating", "member__family_name"))
    for i in (30, 31, 32):  # a tie inside page 2
        kept[i].rating = kept[29].rating
    for i in (49, 50, 51):  # rows 50 to 52: a tie across the top of page 3
        kept[i].rating = kept[48].rating
    RatingEntry.objects.bulk_update(kept, ["rating"])
    ratings = sorted((e.rating for e in kept), reverse=True)
    url = reverse("rating_list", args=["big"])
    shown = []
    for page in (2, 3):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            html = client.get(url, {**query, "per_page": 25, "page": page}).content.decode()
        # A tie begun on the page before (page 3) is ranked among the list's ratings.
        assert not [q["sql"] for q in captured if "OVER" in q["sql"]]
        shown += ranked_rows(html)
    expected = [1 + sum(r > rating for r in ratings) for rating in ratings[25:75]]
    assert [rank for rank, _name in shown] == expected
    by_name = {e.member.full_name: e.rating for e in kept}
    assert [by_name[name] for _rank, name in shown] == ratings[25:75]


@pytest.fixture(
    params=[None, 10, 30], ids=["pages-from-the-rows", "deep-pages-from-the-keys", "page-2-not"]
)
def deep_rows(request, monkeypatch):
    """`selectors.DEEP_ROWS` as it is (the big list's pages are all near an end), or so low
    that every page but the first and the last is cut out of the cached keys, or all but
    page 2 too (best first through the members, page 2 is then read by place)."""
    from django.core.cache import cache

    from ratings import selectors

    if request.param is not None:
        monkeypatch.setattr(selectors, "DEEP_ROWS", request.param)
    cache.clear()


def make_ties_and_namesakes(big_list):
    """Threes rated alike and fours of one name ("SameNN Ann"), across page edges of 25."""
    entries = list(RatingEntry.objects.filter(rating_list=big_list).select_related("member"))
    for i, entry in enumerate(entries):
        entry.rating = 3000 - 10 * (i // 3)
        entry.member.family_name = f"Same{i // 4:02d}"
        entry.member.given_name = "Ann"
        entry.member.save()
    RatingEntry.objects.bulk_update(entries, ["rating"])
    return entries


def walk_pages(client, query):
    """(member, rank, rating) of every row of every page, page 1 on, 25 a page."""
    url = reverse("rating_list", args=["big"])
    shown = []
    for page in range(1, 9):
        response = client.get(url, {**query, "per_page": 25, "page": page})
        if response.context["table"].page.number != page:
            break  # past the last page: the pager shows the last one again
        rows = [row.record for row in response.context["table"].page.object_list]
        shown += [(row.member_id, row.rank, row.rating) for row in rows]
    return shown


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"active": "all"},
        {"sort": "rating"},
        {"country": "UA"},
        {"sort": "-rating", "q": "Same"},
        {"sort": "rating", "country": "PL"},
        {"sort": "-rating", "q": "Same0"},
    ],
)
def test_pages_by_rating_show_every_row_once_in_order_with_its_rank(
    client, big_list, query, deep_rows
):
    """Best first or lowest first, on the entries alone or through the members: walking
    every page, each player the filter keeps is shown once, players rated alike included
    (threes, across the pages' edges), in rating order, each ranked as a window would
    rank him. Every reader of such a page (the table's own, by place, from the weakest
    end, in order, the cached keys) walks one order or its exact reverse."""
    entries = make_ties_and_namesakes(big_list)
    kept = [
        e
        for e in entries
        if query.get("country", e.member.country) == e.member.country
        and query.get("q", "Same") in e.member.family_name
    ]
    ratings = [e.rating for e in kept]
    shown = walk_pages(client, query)
    assert sorted(member for member, _rank, _rating in shown) == sorted(e.member_id for e in kept)
    assert all(rank == 1 + sum(r > rating for r in ratings) for _m, rank, rating in shown)
    in_order = [rating for _m, _rank, rating in shown]
    assert in_order == sorted(in_order, reverse=query.get("sort", "-rating") == "-rating")


@pytest.mark.parametrize(
    "query",
    [
        {"sort": "name"},
        {"sort": "-name"},
        {"sort": "name", "country": "UA"},
        {"sort": "grade", "active": "all"},
        {"sort": "-club", "q": "Same0"},
        {"sort": "name", "q": "Nobody"},
        {"sort": "rating", "country": "PL"},  # lowest first, through the members
    ],
)
def test_pages_sorted_otherwise_show_every_row_once_with_its_rank_by_rating(
    client, big_list, query, deep_rows
):
    """Sorted by a column other than the rating (`selectors.page_in_order`): every page,
    page 1 included, is found on the keys in that order, namesakes and players rated alike
    included, each row ranked among the rows the filter keeps as a window would rank them;
    and no page ranks every row in the database first. Deep pages are cut out of the
    cached keys (`deep_rows`): a page there and its neighbours read from the rows agree."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    entries = make_ties_and_namesakes(big_list)
    cache.clear()
    kept = [
        e
        for e in entries
        if query.get("country", e.member.country) == e.member.country
        and query.get("q", "Same") in e.member.family_name
    ]
    ratings = [e.rating for e in kept]
    expected_rank = {e.member_id: 1 + sum(r > e.rating for r in ratings) for e in kept}
    url = reverse("rating_list", args=["big"])
    shown = []
    for page in range(1, 8):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, {**query, "per_page": 25, "page": page})
        assert not [q["sql"] for q in captured if "OVER" in q["sql"]]
        rows = [row.record for row in response.context["table"].page.object_list]
        if response.context["table"].page.number != page:
            break  # past the last page: the pager shows the last one again
        shown += [(row.member_id, row.rank) for row in rows]
    assert sorted(member for member, _rank in shown) == sorted(e.member_id for e in kept)
    assert all(rank == expected_rank[member] for member, rank in shown)
    names = [RatingEntry.objects.get(rating_list=big_list, member_id=m).member for m, _r in shown]
    keys = [(m.family_name, m.given_name) for m in names]
    descending = query["sort"].startswith("-")
    if query["sort"].lstrip("-") == "name":
        assert keys == sorted(keys, reverse=descending)


@pytest.fixture
def many_tournaments(db):
    """260 public tournaments (six pages of 50) sharing cities, classes, statuses, dates
    and organisers, and each 0 players: every column but the name ties across pages."""
    from clubsite.models import Club
    from tournaments.models import Tournament

    clubs = [Club.objects.create(name=f"Host {i}", slug=f"host-{i}") for i in range(3)]
    statuses = [Tournament.Status.APPROVED, Tournament.Status.SUBMITTED]
    Tournament.objects.bulk_create(
        Tournament(
            name=f"Cup {i:03d}", slug=f"cup-{i}", city=("Kyiv", "Lviv", "Odesa")[i % 3],
            country="UA", start_date=dt.date(2024, 1 + i % 2, 1),
            end_date=dt.date(2024, 1 + i % 2, 1), organiser=clubs[i % 3], rounds=5,
            status=statuses[i % 2], tournament_class="AB"[i % 2],
        )
        for i in range(260)
    )  # fmt: skip
    return set(Tournament.objects.values_list("pk", flat=True))


@pytest.mark.parametrize(
    "sort", ["", "end_date", "-end_date", "players", "-players", "city", "-city", "organiser",
             "-status", "tournament_class", "game", "name", "-name"],
)  # fmt: skip
def test_tournament_list_pages_show_every_tournament_once_by_any_sort(
    client, many_tournaments, sort
):
    """Sorted by a column many tournaments share, the pages partition the tournaments:
    tied rows neither repeat on the next page nor drop out."""
    shown = []
    for page in range(1, 7):
        html = client.get(reverse("tournament_list"), {"sort": sort, "page": page})
        shown += [
            int(pk) for pk in re.findall(r'href="/tournaments/(\d+)/"', html.content.decode())
        ]
    assert len(shown) == len(many_tournaments)
    assert set(shown) == many_tournaments


@pytest.mark.parametrize("sort", ["", "rank", "-grade", "name", "country", "tournaments"])
def test_snapshot_pages_show_every_entry_once_by_any_sort(client, big_list, sort):
    """A published list with tied ranks, one grade, namesakes, two countries: walked page
    by page under any sort, each entry is shown once."""
    snapshot = PublishedList.objects.create(rating_list=big_list, date="2024-06-30")
    entries = list(RatingEntry.objects.filter(rating_list=big_list).select_related("member"))
    for place, entry in enumerate(entries):
        entry.member.family_name, entry.member.given_name = f"Same{place // 4:02d}", "Ann"
        entry.member.save()
        PublishedEntry.objects.create(
            snapshot=snapshot, member=entry.member, rank=1 + place // 3 * 3,
            rating=3000 - place // 3, grade=5, tournaments=place % 2,
        )  # fmt: skip
    url = reverse("rating_snapshot", args=["big", "2024-06-30"])
    shown = []
    for page in range(1, 7):
        html = client.get(url, {"sort": sort, "page": page, "per_page": 25}).content.decode()
        shown += re.findall(r'href="/players/(\d+)/"', html)
    assert sorted(map(int, shown)) == sorted(e.member_id for e in entries)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, lambda t: True),
        ({"sort": "-players"}, lambda t: True),
        ({"status": "submitted", "page": 2}, lambda t: t.status == "submitted"),
        ({"q": "Cup 1", "sort": "-players"}, lambda t: "Cup 1" in t.name),
        ({"q": "lviv", "year": "2024"}, lambda t: t.city == "Lviv"),
        ({"year": "2023"}, lambda t: False),
    ],
)
def test_tournament_list_counts_what_its_filter_keeps_without_the_rows_joins(
    client, many_tournaments, query, expected
):
    """The pager's count is the filter's, counted on the tournaments alone (no join to the
    counts, organisers or hosts that only draw the rows)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Tournament

    wanted = [t for t in Tournament.objects.filter(pk__in=many_tournaments) if expected(t)]
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("tournament_list"), query)
    assert response.context["table"].paginator.count == len(wanted)
    counts = [q["sql"] for q in captured if "COUNT(" in q["sql"]]
    assert counts and not [sql for sql in counts if "JOIN" in sql]
