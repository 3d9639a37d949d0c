"""Reads for the public rating pages: lists, entries, a player's history and chart."""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from functools import cached_property
from operator import neg
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import Rank
from django.utils import timezone
from django.utils.translation import gettext

from clubsite import authority
from clubsite.authority import may_see_drafts_member
from clubsite.models import Club, Member
from clubsite.numbers import is_ascii_number
from ratings.display.formatting import rating_number
from ratings.models import (
    BaselineRow,
    PublishedEntry,
    PublishedList,
    RatingEntry,
    RatingHistory,
    RatingList,
)
from ratings.recompute.reads import any_of
from ratings.systems.grades import Grade
from tournaments.models import Game, Participant, Tournament


def rating_list_all() -> list[RatingList]:
    """Every list, each with `players`: how many rated players its page shows by default
    (not those out for inactivity, issue 55), and `players_all`: with them. Counted once
    per list version and day (`list_version_key`, as the filter's choices are): counting
    45,000 entries was 11 ms of the home page's 31 and of the lists' page's 19 at EGD scale."""
    lists = list(RatingList.objects.select_related("owner_club"))
    day = timezone.localdate()
    keys = {rating_list.pk: list_version_key(rating_list, "players", day) for rating_list in lists}
    counts = cache.get_many(keys.values())
    uncounted = [pk for pk, key in keys.items() if key not in counts]
    if uncounted:
        rated = (
            RatingEntry.objects.filter(rating_list__in=uncounted, rating__isnull=False)
            .order_by()
            .values("rating_list")
            .annotate(n=Count("pk"), active=Count("pk", filter=active_q(day)))
        )
        found = {row["rating_list"]: (row["active"], row["n"]) for row in rated}
        fresh = {keys[pk]: found.get(pk, (0, 0)) for pk in uncounted}
        cache.set_many(fresh, CHOICES_SECONDS)
        counts.update(fresh)
    for rating_list in lists:
        rating_list.players, rating_list.players_all = counts[keys[rating_list.pk]]
    return lists


def active_q(today: dt.date) -> Q:
    """The live list's default: entries not yet out for inactivity (EGF), or never out."""
    return Q(active_until__isnull=True) | Q(active_until__gte=today)


# A list with at most this many active players finds them by key (see `active_filter`).
FEW_ACTIVE = 1000


def active_filter(rating_list: RatingList, today: dt.date) -> Q:
    """`active_q`, or for a list where few players are active (one started from an old
    published list: 10 of 45,000) those players' keys. The planner cannot know how few
    they are and walks the rating index through every inactive row (15 ms at EGD scale);
    by key the page reads only them. Cached per list version and day."""
    key = list_version_key(rating_list, "few-active", today)
    ids = cache.get(key)
    if ids is None:
        found = list(
            RatingEntry.objects.filter(active_q(today), rating_list=rating_list)
            .order_by()
            .values_list("pk", flat=True)[: FEW_ACTIVE + 1]
        )
        ids = found if len(found) <= FEW_ACTIVE else "many"
        cache.set(key, ids, CHOICES_SECONDS)
    return active_q(today) if ids == "many" else Q(pk__in=ids)


def rating_entries(rating_list: RatingList) -> QuerySet[RatingEntry]:
    """The list's rated entries with member and club, ready to filter and sort."""
    return (
        RatingEntry.objects.filter(rating_list=rating_list, rating__isnull=False)
        .select_related("member", "member__club")
        .only(
            "id", "rating", "provisional", "grade", "tournaments", "games", "last_played",
            "active_until", "rating_list_id",
            "member__id", "member__family_name", "member__given_name", "member__country",
            "member__club__id", "member__club__name", "member__club__slug",
            "member__egd_pin", "member__fide_id", "member__fide_title",
        )
    )  # fmt: skip


# The list's one order best first, and its exact reverse: the id breaks ties (the rating
# column's order, ratings.views.tables), so that a page read from either end, or by any
# reader below, holds the same players rated alike as its neighbours expect.
BEST_FIRST = ("-rating", "pk")
WEAKEST_FIRST = ("rating", "-pk")


def entries_of_page(rating_list: RatingList, page: Iterable[RatingEntry]) -> list[RatingEntry]:
    """The page's entries read whole (member and club), in the page's order, with its ranks.

    The page itself is found on the entries alone: a deep page skips thousands of rows,
    and joining each of them to its member and club cost a page 400 of the EGD list
    60 ms; its fifty rows are then read by key."""
    keys = [(entry.pk, entry.rank) for entry in page]
    whole = rating_entries(rating_list).in_bulk([pk for pk, _rank in keys])
    rows = []
    for pk, rank in keys:
        entry = whole.get(pk)
        if entry is not None:  # else gone since its page's keys were kept: the page is short
            entry.rank = rank
            rows.append(entry)
    return rows


def best_first_page_from_the_end(
    entries: QuerySet[RatingEntry], *, start: int, stop: int, total: int
) -> list[RatingEntry]:
    """Rows `start:stop` of `entries` best first (as `with_rank(entries).order_by(*BEST_FIRST)`
    reads them), with their rank, read from the weakest end of the rating index.

    A page past the middle of a list is nearer its end: walking the index from the top
    visited (and fetched) every row above the page, 37,000 for the EGD list's last page
    (20 ms); from the bottom, only the rows below it. The index read backwards yields its
    rows, ties included, in exactly the reverse order, so reversed they are the same rows in
    the same order. A row's rank (1 + the rows rated higher) is `total` less the rows rated
    at most as high, plus one; `total` is the count the paginator pages by."""
    weakest_first = entries.order_by(*WEAKEST_FIRST).annotate(
        at_most=Window(Count("*"), order_by=F("rating").asc())
    )
    rows = list(weakest_first[max(0, total - stop) : max(0, total - start)])
    rows.reverse()
    for row in rows:
        row.rank = total - row.at_most + 1
    return rows


def weakest_first_page(
    entries: QuerySet[RatingEntry],
    *,
    start: int,
    stop: int,
    total: int,
    ratings: Callable[[], Sequence[float]],
) -> list[RatingEntry]:
    """Rows `start:stop` of `entries` weakest first (the list sorted by rating, lowest
    first), with their rank as `with_rank` gives it, read along the rating index from the
    nearer end.

    Sorted so, a page used to rank every row best first, then sort them all the other way
    (30 ms at EGD scale, whatever the page). From the weakest end a row's rank is `total`
    less the rows rated at most as high, plus one: less its place, for the last row of a
    tie, which the others share. The row just past the page is read with it; only when it
    ties with the page's last row (a tie that goes on past the page) is its rank looked up
    in `ratings` (`ratings_best_first(entries)`, asked for then): counting the rows below
    by a window took the middle page of the EGD list 16 ms of its 20 ms of SQL. Past the
    middle, the rows best first, reversed, are the same rows in this order."""
    if start < total - stop:
        rows = list(entries.order_by(*WEAKEST_FIRST)[start : stop + 1])
        after = rows.pop() if len(rows) > stop - start else None
        if after is not None and rows and after.rating == rows[-1].rating:
            after.rank = rank_among(ratings(), after.rating)
        for place in range(start + len(rows) - 1, start - 1, -1):
            row = rows[place - start]
            row.rank = total - place if after is None or after.rating != row.rating else after.rank
            after = row
        return rows
    rows = list(with_rank(entries).order_by(*BEST_FIRST)[max(0, total - stop) : total - start])
    rows.reverse()
    return rows


def best_first_page_by_place(
    entries: QuerySet[RatingEntry],
    *,
    start: int,
    stop: int,
    total: int,
    ratings: Callable[[], Sequence[float]],
) -> list[RatingEntry]:
    """Rows `start:stop` of `entries` best first, with their rank as `with_rank` gives it,
    without ranking every row above the page.

    Where the filter joins the members (a country, a club, a name), the rows are sorted
    before the page is cut out, and ranking them all by a window too cost a third of a
    deep page (25,000 rows ranked at EGD scale, issue 18). A row's rank is one more than
    the rows rated higher: its place, unless it ties with the row above, whose rank it
    shares. The row just above the page is read with it; only when it ties with the
    page's first row (a tie begun on an earlier page) is its rank looked up in `ratings`
    (`ratings_best_first(entries)`, asked for then): ranking by the window took a page at
    the EGD list's tied tail 150 ms."""
    with_above = list(entries.order_by(*BEST_FIRST)[start - 1 : stop]) if start else []
    if len(with_above) < 2:
        return list(with_rank(entries).order_by(*BEST_FIRST)[start:stop])
    above, *rows = with_above
    if rows[0].rating == above.rating:
        above.rank = rank_among(ratings(), above.rating)
    for place, row in enumerate(rows, start=start + 1):
        row.rank = place if row.rating != above.rating else above.rank
        above = row
    return rows


def page_in_order(
    entries: QuerySet[RatingEntry],
    *,
    ordering: Sequence[str],
    ratings: Callable[[], Sequence[float]],
    keys: Callable[[], KeysInOrder] | None = None,
    deep_rows: int | None = None,
    start: int,
    stop: int,
    total: int,
) -> list[RatingEntry]:
    """Rows `start:stop` of `entries` sorted by `ordering` (names, grades, clubs; or by
    rating through the members) as entries with only their id, rating and rank (as
    `with_rank` gives it, found in `ratings()`, `ratings_best_first(entries)`), not by
    ranking every row in the database; `entries_of_page` reads them whole."""
    page = keys_of_page(
        entries, ordering=ordering, keys=keys, deep_rows=deep_rows, start=start, stop=stop,
        total=total,
    )  # fmt: skip
    best_first = ratings()  # after the keys: a caller may keep the ratings read with them
    rows = []
    for pk, rating in page:
        row = RatingEntry(pk=pk, rating=rating)
        row.rank = rank_among(best_first, rating)
        rows.append(row)
    return rows


def keys_of_page(
    entries: QuerySet[RatingEntry],
    *,
    ordering: Sequence[str],
    keys: Callable[[], KeysInOrder] | None = None,
    deep_rows: int | None = None,
    start: int,
    stop: int,
    total: int,
) -> list[tuple[int, float]]:
    """(id, rating) of rows `start:stop` of `entries` sorted by `ordering`, the row's id
    breaking ties, so that pages neither repeat nor drop players of the same name.

    Ranked by a window, then sorted the other way, a page sorted by name cost the EGD list
    50 ms whichever page it was; found along the names' index, a page near either end
    reads only the rows before it from that end. A page `deep_rows` or more from both ends
    (`DEEP_ROWS` unless given; 0: every page) is cut out of `keys()` (`keys_in_order(
    entries, ordering)`, which the caller may keep): cut out of the sorted rows themselves,
    a page in the middle of the EGD list sorted by club cost 60-100 ms, most of it
    sorting."""
    in_order = entries.order_by(*ordering, "pk").values_list("pk", "rating")
    deep_rows = DEEP_ROWS if deep_rows is None else deep_rows
    if keys is not None and min(start, total - stop) >= deep_rows:
        kept = keys()
        return list(zip(kept.ids[start:stop], kept.ratings[start:stop], strict=True))
    return rows_from_nearer_end(in_order, start=start, stop=stop, total=total)


def rows_from_nearer_end(in_order: QuerySet[Any], *, start: int, stop: int, total: int) -> list:
    """`in_order[start:stop]` (of `total` rows), past the middle read from the end of the
    order and turned round: walking an index from the far end visits every row before
    the slice. `in_order` must reverse exactly (a unique key last in its order)."""
    if start <= total - stop:
        return list(in_order[start:stop])
    rows = list(in_order.reverse()[max(0, total - stop) : total - start])
    rows.reverse()
    return rows


# Rows from the nearer end of the sorted rows from which `page_in_order` cuts a page out of
# the cached keys rather than out of the rows (a hundred pages of fifty): walking the
# names' index from an end, 5,000 rows cost about 15 ms, a quarter of reading the EGD
# list's 45,000 keys in order (the first visit of a deep page pays that, once).
DEEP_ROWS = 5000


class KeysInOrder(NamedTuple):
    """The ids of a filter's entries in a page's order, and their ratings in that order."""

    ids: list[int]
    ratings: list[float]


def keys_in_order(entries: QuerySet[RatingEntry], ordering: Sequence[str]) -> KeysInOrder:
    """The entries' ids and ratings sorted as `keys_of_page` sorts them (for its `keys`):
    kept (a list of 45,000 is read in 50 ms), a deep page is cut out of them. Their
    ratings, highest first, are `ratings_best_first(entries)`."""
    rows = list(entries.order_by(*ordering, "pk").values_list("pk", "rating"))
    return KeysInOrder([row[0] for row in rows], [row[1] for row in rows])


def kept_keys_in_order(
    entries: QuerySet[RatingEntry],
    ordering: Sequence[str],
    *,
    key: str,
    ratings_key: str,
    seconds: int,
) -> KeysInOrder:
    """`keys_in_order(entries, ordering)`, kept in the cache under `key` for `seconds`; the
    ratings read with them are kept too, highest first, under `ratings_key` (where
    `kept_ratings_best_first` looks), unless some are there already."""
    kept = cache.get(key)
    if kept is None:
        kept = keys_in_order(entries, ordering)
        cache.set(key, kept, seconds)
        cache.add(ratings_key, sorted(kept.ratings, reverse=True), seconds)
    return kept


def kept_ratings_best_first(
    entries: QuerySet[RatingEntry], *, key: str, seconds: int
) -> list[float]:
    """`ratings_best_first(entries)`, kept in the cache under `key` for `seconds`."""
    return cache.get_or_set(key, lambda: ratings_best_first(entries), seconds)


def rank_among(ratings_best_first: Sequence[float], rating: float) -> int:
    """The rank of `rating` among these ratings (highest first), as `with_rank` gives it:
    one more than the ratings higher."""
    return bisect_left(ratings_best_first, -rating, key=neg) + 1


def ratings_best_first(entries: QuerySet[RatingEntry]) -> list[float]:
    """Every rating of `entries`, highest first (for `page_in_order`)."""
    return list(entries.order_by("-rating").values_list("rating", flat=True))


def with_rank(entries: QuerySet[RatingEntry]) -> QuerySet[RatingEntry]:
    """Annotate `rank`: the place by rating among the rows the filter kept (ties share)."""
    return entries.annotate(rank=Window(Rank(), order_by=F("rating").desc()))


CHOICES_SECONDS = 300


def list_version_key(rating_list: RatingList, *parts: object) -> str:
    """A cache key for what is kept of the list's entries: it changes whenever they do
    (`entries_version`). Not when the list is asked to recompute or starts to: a key that
    changed then too made every web worker read its counts, choices and ranks again three
    times a recompute: under load, during recomputes, the list's pages' p95 was 310 ms
    with it, 200 without (issue 18)."""
    from hashlib import sha1

    raw = "|".join(str(p) for p in parts)
    digest = sha1(raw.encode(), usedforsecurity=False).hexdigest()[:16]
    return f"ratings:{rating_list.pk}:{rating_list.entries_version}:{digest}"


def rating_list_countries(rating_list: RatingList) -> list[str]:
    """Countries of the list's players (cached a few minutes per list version)."""
    key = list_version_key(rating_list, "countries")
    found = cache.get(key)
    if found is None:
        found = _rating_list_countries(rating_list)
        cache.set(key, found, CHOICES_SECONDS)
    return found


def _rating_list_countries(rating_list: RatingList) -> list[str]:
    rows = (
        Member.objects.filter(rating_entries__rating_list=rating_list)
        .exclude(country="")
        .values_list("country", flat=True)
        .distinct()
        .order_by("country")
    )
    return list(rows)


def snapshots_of(rating_list: RatingList) -> QuerySet[PublishedList]:
    return PublishedList.objects.filter(rating_list=rating_list).order_by("-date")


def snapshot_entries(snapshot: PublishedList) -> QuerySet[PublishedEntry]:
    return PublishedEntry.objects.filter(snapshot=snapshot).select_related("member", "member__club")


# --- A player's profile --------------------------------------------------------------------


@dataclass
class GameLine:
    round: int
    opponent_id: int | None
    opponent_name: str
    opponent_rating: float | None
    score: float | None
    expected: float | None
    change: float | None


@dataclass(frozen=True, slots=True)
class TournamentBrief:
    """What the profile shows of a tournament (read as values: see `ProfileRow`)."""

    id: int
    name: str
    city: str
    end_date: dt.date
    tournament_class: str

    @property
    def pk(self) -> int:
        return self.id


@dataclass(slots=True)
class ProfileRow:
    """A `RatingHistory` row as the profile reads it: its fields as values, then its list,
    tournament and (for a breakdown shown in place) breakdown. Two hundred model instances
    of a regular's history cost twice what reading their values does."""

    id: int
    date: dt.date
    sequence: int
    rating_in: float | None
    before: float | None
    after: float | None
    change: float | None
    games_count: int
    rated: bool
    provisional: bool
    anomalous: bool
    reset: bool
    grade: Grade | None
    rating_list_id: int
    tournament_id: int
    klass: str
    note: str
    rating_list: RatingList | None = None
    tournament: TournamentBrief | None = None
    breakdown: Any = None

    @property
    def pk(self) -> int:
        return self.id


# The columns read: the fields the profile does not fill in afterwards.
_PROFILE_ROW_FIELDS = tuple(f.name for f in fields(ProfileRow) if f.default is MISSING)


@dataclass
class HistoryLine:
    row: RatingHistory | ProfileRow  # the model on the breakdown's page
    games: list[GameLine]
    # Older tournaments' breakdowns are a click away on their own page (the profile of a
    # regular would otherwise render a thousand rows).
    breakdown_elsewhere: bool = False

    @cached_property  # asked by the chart and the table of every row
    def raised(self) -> bool:
        """The engine started him higher than the rating he came in with (a reset, or an
        anomaly restart), by at least what the page shows."""
        row = self.row
        if row.rating_in is None or row.before is None:
            return False
        system = row.rating_list.system
        return rating_number(row.before, system) > rating_number(row.rating_in, system)


@dataclass
class ListSection:
    rating_list: RatingList
    entry: RatingEntry | None
    lines: list[HistoryLine] = field(default_factory=list)
    standing: Any = None  # ratings.standings.Standing, set by the profile page


@dataclass
class HeadToHead:
    opponent_id: int
    opponent_name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass
class Profile:
    member: Member
    sections: list[ListSection]
    chart: dict[str, Any]
    grade_history: list[dict[str, Any]]
    head_to_head: list[HeadToHead]


def player_get(pk: int, viewer: Any = None) -> Member:
    """The member, as `viewer` may see him: one only drafts name is not public yet."""
    member = (
        Member.objects.select_related("club")
        .annotate(drafts_only=Exists(drafts_only_members().filter(pk=OuterRef("pk"))))
        .get(pk=pk)
    )  # one query, as before: the privacy is a column of it
    if member.drafts_only and not may_see_drafts_member(viewer, member):
        raise Member.DoesNotExist(pk)
    return member


def drafts_only_members() -> QuerySet[Member]:
    """Members a draft created, not yet public (issue 54): created with a draft they play
    in, they play only in drafts, and no list, baseline or account names them. They become
    public when the club submits the table, the moment the table itself becomes public (issue 14): hidden until approval,
    the players of a submitted table, which anyone reads, would be names without a page.
    Until then nobody else sees them, nor the EGD PIN or FIDE ID the file gave them."""
    # Created with or after a draft he plays in (the import or its players page made him):
    # a member who was here before stays public whoever's draft names him.
    created = Member.history.model.objects.filter(id=OuterRef("pk"), history_type="+")
    in_draft = Participant.objects.filter(
        member=OuterRef("pk"),
        tournament__status="draft",
        tournament__created_at__lte=OuterRef("created"),
    )
    elsewhere = Participant.objects.filter(member=OuterRef("pk")).exclude(
        tournament__status="draft"
    )
    return Member.objects.annotate(
        created=Subquery(created.order_by("history_date").values("history_date")[:1])
    ).filter(
        Exists(in_draft),
        ~Exists(elsewhere),
        ~Exists(RatingEntry.objects.filter(member=OuterRef("pk"))),
        ~Exists(BaselineRow.objects.filter(member=OuterRef("pk"))),
        user__isnull=True,
    )


INLINE_BREAKDOWNS = 25  # per list: the newest tournaments' breakdowns open in place


def player_profile(member: Member) -> Profile:
    """Everything the profile shows, in a fixed, small number of queries."""
    entries = {
        e.rating_list_id: e
        for e in RatingEntry.objects.filter(member=member).select_related("rating_list")
    }
    # His lists come with his entries (a list he has history in but no entry is read
    # apart): joining each of two hundred history rows to its list cost more than that.
    # His tournaments are read by key, once for the history and the grades: joined, the
    # planner hashed all nine thousand tournaments for each of the two.
    history = [
        ProfileRow(*values)
        for values in RatingHistory.objects.filter(member=member)
        .values_list(*_PROFILE_ROW_FIELDS)
        .order_by("date", "sequence")
    ]
    tournaments = _tournaments({row.tournament_id for row in history})
    sections: dict[int, ListSection] = {}
    for entry in entries.values():
        sections[entry.rating_list_id] = ListSection(entry.rating_list, entry)
    missing = {row.rating_list_id for row in history} - set(sections)
    for rating_list in RatingList.objects.filter(pk__in=missing) if missing else ():
        sections[rating_list.pk] = ListSection(rating_list, None)
    for row in history:
        section = sections[row.rating_list_id]
        row.rating_list = section.rating_list
        row.tournament = tournaments[row.tournament_id]
        section.lines.append(HistoryLine(row, []))
    ordered = sorted(sections.values(), key=lambda s: s.rating_list.name)
    for section in ordered:
        section.lines.reverse()  # newest first in the table
    # Only the breakdowns shown in place are read: a regular's others are most of the bytes.
    inline = [line for section in ordered for line in section.lines[:INLINE_BREAKDOWNS]]
    breakdowns = _breakdowns([line.row.pk for line in inline])
    record = head_to_head(member)
    # The breakdowns' opponents are named from his head-to-head record (it has the name of
    # everyone he played); only one it leaves out is read by key.
    names = _member_names(
        {
            g.get("opponent")
            for games in breakdowns.values()
            for g in games
            if isinstance(g, dict) and g.get("opponent") is not None
        },
        known={h.opponent_id: h.opponent_name for h in record},
    )
    for line in inline:
        line.row.breakdown = breakdowns.get(line.row.pk) or []
        line.games = _game_lines(line.row.breakdown, names)
    for section in ordered:
        for line in section.lines[INLINE_BREAKDOWNS:]:
            line.breakdown_elsewhere = line.row.games_count > 0

    return Profile(
        member=member,
        sections=ordered,
        chart=_chart_data(ordered),
        grade_history=_grade_history(member, tournaments),
        head_to_head=record,
    )


def _breakdowns(row_ids: list[int]) -> dict[int, Any]:
    # Unordered: the model's order would join every row to its list and member.
    rows = RatingHistory.objects.filter(pk__in=row_ids).values_list("pk", "breakdown").order_by()
    return dict(rows)


def player_history_line(member: Member, row_pk: int) -> HistoryLine:
    """One rated tournament of his, with the breakdown that explains the change."""
    row = RatingHistory.objects.select_related("rating_list", "tournament").get(
        member=member, pk=row_pk
    )
    opponents = {g.get("opponent") for g in row.breakdown or [] if isinstance(g, dict)}
    return HistoryLine(row, _game_lines(row.breakdown, _member_names(opponents)))


def _member_names(ids: set[Any], known: dict[int, str] | None = None) -> dict[int, str]:
    """Names by member id ("given family"); `known`: names already read, by id."""
    clean = {int(i) for i in ids if isinstance(i, int | str) and is_ascii_number(str(i))}
    names = {pk: known[pk] for pk in clean if pk in known} if known else {}
    missing = clean - names.keys()
    if missing:
        rows = Member.objects.filter(pk__in=missing).values_list("pk", "given_name", "family_name")
        names.update((pk, f"{given} {family}".strip()) for pk, given, family in rows)
    return names


def _game_lines(breakdown: Any, names: dict[int, str]) -> list[GameLine]:
    lines = []
    for item in breakdown or []:
        if not isinstance(item, dict):
            continue
        opponent = item.get("opponent")
        opponent_id = int(opponent) if is_ascii_number(str(opponent)) else None
        lines.append(
            GameLine(
                round=item.get("round") or 0,
                opponent_id=opponent_id,
                opponent_name=names.get(opponent_id, "") if opponent_id else str(opponent or ""),
                opponent_rating=item.get("opponent_rating"),
                score=item.get("score"),
                expected=item.get("expected"),
                change=item.get("change"),
            )
        )
    return lines


def _chart_data(sections: list[ListSection]) -> dict[str, Any]:
    """One line per list: points (date, rating after) in date order; JSON-safe.

    When a tournament raised his start (a reset or an anomaly restart), the rating he came
    in with and the raised start are points at that date too (`"k": "in"`, `"k": "start"`),
    so the line jumps up there instead of sloping from the last tournament."""
    datasets = []
    for section in sections:
        system = section.rating_list.system
        points = []
        for line in reversed(section.lines):  # oldest first
            row = line.row
            if not row.rated or row.after is None:
                continue
            day, name = row.date.isoformat(), row.tournament.name
            if line.raised:
                came_in = float(rating_number(row.rating_in, system))
                start = float(rating_number(row.before, system))
                points.append({"x": day, "y": came_in, "t": name, "k": "in"})
                points.append({"x": day, "y": start, "t": name, "k": "start"})
            shown = rating_number(row.after, system)
            points.append({"x": day, "y": float(shown), "t": name})
        if points:
            # "key": the list's id picks its colour, the same on every profile
            datasets.append(
                {"label": section.rating_list.name, "key": section.rating_list.pk, "data": points}
            )
    return {
        "datasets": datasets,
        "labels": {
            "in": gettext("came in with"),
            "start": gettext("start raised"),
            "rating": gettext("Rating"),
        },
    }


def _drafts() -> QuerySet[Tournament]:
    """Draft tournaments' keys, to leave out by `NOT IN` (the status index finds the few),
    rather than by joining all nine thousand tournaments to his rows."""
    return Tournament.objects.filter(status=Tournament.Status.DRAFT).values("pk")


def _tournaments(ids: set[int]) -> dict[int, TournamentBrief]:
    """Tournaments by key, with what the profile shows of them."""
    if not ids:
        return {}
    rows = (
        Tournament.objects.filter(any_of("pk", ids))  # a regular's 200 keys: one array
        .values_list("id", "name", "city", "end_date", "tournament_class")
        .order_by()
    )
    return {values[0]: TournamentBrief(*values) for values in rows}


def _grade_history(
    member: Member, tournaments: dict[int, TournamentBrief] | None = None
) -> list[dict[str, Any]]:
    """The grade he played at, each time it changed (from his tournament entries; a draft
    is its club's private work, so it says nothing here). `tournaments`: those already
    read (his rated ones); the others are read by key."""
    rows = list(
        member.participations.filter(grade__isnull=False)
        .exclude(tournament__in=_drafts())
        .values_list("grade", "tournament_id")
        .order_by()  # by the tournaments' dates below
    )
    known = dict(tournaments or {})
    known.update(_tournaments({pk for _grade, pk in rows} - set(known)))
    rows.sort(key=lambda row: (known[row[1]].end_date, row[1]))
    changes: list[dict[str, Any]] = []
    for grade, pk in rows:
        if not changes or changes[-1]["grade"] != grade:
            tournament = known[pk]
            changes.append({"grade": grade, "date": tournament.end_date, "tournament": tournament})
    changes.reverse()
    return changes


def head_to_head(member: Member) -> list[HeadToHead]:
    """His record against every opponent he met in played games of non-draft tournaments.

    Counted in the database, one row per opponent with the opponent's name: a regular met a
    thousand opponents, and reading every game of his to count them in Python (then their
    names by a thousand keys) was a third of his profile's time. One aggregate over his
    games as either colour, each opponent named once by key; in SQL, as the ORM cannot
    group a union: its two grouped queries, one per colour, took 21 ms of the
    211-tournament player's page at EGD scale, this one 9."""
    with connection.cursor() as cursor:
        cursor.execute(
            _HEAD_TO_HEAD_SQL,
            {
                "member": member.pk,
                "played": Game.Kind.PLAYED,
                "white": Game.Result.WHITE,
                "black": Game.Result.BLACK,
                "draw": Game.Result.DRAW,
                "draft": Tournament.Status.DRAFT,
            },
        )
        rows = cursor.fetchall()
    table = [
        HeadToHead(opponent, name.strip(), wins=won, losses=n - won - drawn, draws=drawn)
        for opponent, n, won, drawn, name in rows
    ]
    return sorted(table, key=lambda h: (-h.games, h.opponent_name))


# His games with the result from his side, as white, then as black (a game he is both
# colours of counts once, as white); names spelt as `Member.full_name` spells them.
_HEAD_TO_HEAD_SQL = f"""
SELECT g.opponent, COUNT(*), SUM(g.won), SUM(g.drawn),
    (SELECT COALESCE(m.given_name, '') || ' ' || COALESCE(m.family_name, '')
     FROM {Member._meta.db_table} m WHERE m.id = g.opponent)
FROM (
    SELECT black_id AS opponent, tournament_id,
        CASE WHEN result = %(white)s THEN 1 ELSE 0 END AS won,
        CASE WHEN result = %(draw)s THEN 1 ELSE 0 END AS drawn
    FROM {Game._meta.db_table}
    WHERE white_id = %(member)s AND black_id IS NOT NULL AND kind = %(played)s
    UNION ALL
    SELECT white_id, tournament_id,
        CASE WHEN result = %(black)s THEN 1 ELSE 0 END,
        CASE WHEN result = %(draw)s THEN 1 ELSE 0 END
    FROM {Game._meta.db_table}
    WHERE black_id = %(member)s AND white_id <> %(member)s AND kind = %(played)s
) g
WHERE g.tournament_id NOT IN (
    SELECT id FROM {Tournament._meta.db_table} WHERE status = %(draft)s
)
GROUP BY g.opponent
"""  # noqa: S608 - the tables' own names; every value is a parameter


def games_between(member: Member, opponent_id: int) -> QuerySet[Game]:
    return (
        Game.objects.filter(
            Q(white=member, black_id=opponent_id) | Q(white_id=opponent_id, black=member)
        )
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("tournament", "white", "black")
        .order_by("-tournament__end_date", "round")
    )


def current_rating(member_id: int, system: str) -> RatingEntry | None:
    """His standing in the first list (by name) of that system, if any."""
    return (
        RatingEntry.objects.filter(
            member_id=member_id, rating_list__system=system, rating__isnull=False
        )
        .select_related("rating_list")
        .order_by("rating_list__name")
        .first()
    )


def rating_list_clubs(rating_list: RatingList) -> QuerySet[Club]:
    """Clubs with at least one member in the list: the filter checks a chosen club against
    it (one query then; its options come from `rating_list_club_choices`)."""
    members = RatingEntry.objects.filter(rating_list=rating_list).values("member__club_id")
    return Club.objects.filter(pk__in=members).only("id", "name", "slug").order_by("name")


def rating_list_club_choices(rating_list: RatingList) -> list[tuple[int, str]]:
    """`rating_list_clubs` as the filter's options (id, name), cached: a list from the EGD
    names 2,800 clubs, and reading them (a long `IN` list) was much of its page's time."""
    key = list_version_key(rating_list, "club-choices")
    choices = cache.get(key)
    if choices is None:
        choices = [(club.pk, str(club)) for club in rating_list_clubs(rating_list)]
        cache.set(key, choices, CHOICES_SECONDS)
    return choices


def list_refereed_by(rating_list: RatingList, user: Any) -> bool:
    """Whether the user decides for this list: one of its referees, or staff."""
    return authority.allowed(user, "list.referee", rating_list)
