"""Reads for the site pages that put clubs, tournaments and ratings together.

A club's members with their ratings and its tournaments; the calculator's players and
their ratings; the two sides of a merge. The club domain itself (`clubsite.selectors`) knows neither app.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from clubsite.models import Club, GameKind, Member
from ratings.display.calculator import SYSTEMS_BY_GAME, Expectation, expectation
from ratings.models import RatingEntry
from ratings.selectors import current_rating, drafts_only_members, rows_from_nearer_end
from tournaments.models import Game, Participant, Tournament
from tournaments.selectors import tournament_public_list


def club_members(club: Club) -> QuerySet[Member]:
    """Members with their rated entries (one prefetch), by name; each member's entries in
    the same order of lists (by name), so the column reads alike down the page."""
    entries = (
        RatingEntry.objects.filter(rating__isnull=False)
        .select_related("rating_list")
        .only("member_id", "rating", "provisional", "rating_list__name", "rating_list__system")
        .order_by("rating_list__name", "rating_list_id")
    )
    return (
        Member.objects.filter(club=club)
        .exclude(pk__in=drafts_only_members().values("pk"))  # not public yet (issue 54)
        .only("id", "given_name", "family_name", "grade")  # what the page shows
        .prefetch_related(Prefetch("rating_entries", queryset=entries, to_attr="entries"))
        .order_by("family_name", "given_name", "id")
    )


def club_members_slice(club: Club, *, start: int, stop: int, total: int) -> list[Member]:
    """`club_members(club)[start:stop]` (of `total`), a slice past the middle read from the
    end of the name order and turned round: a club holding the EGD's 45,000 members read
    through 44,900 names to its last page (22 ms of 50). The id breaks ties of names, so
    the order reverses exactly."""
    start = max(0, start)  # an empty club's only page starts at 0 (Page.start_index)
    if stop <= start:
        return []
    return rows_from_nearer_end(club_members(club), start=start, stop=stop, total=total)


def club_tournaments(club: Club, limit: int = 50) -> QuerySet[Tournament]:
    return tournament_public_list().filter(organiser=club)[:limit]


@dataclass(frozen=True)
class CalculatorAnswer:
    player_a: Member | None
    player_b: Member | None
    results: list[Expectation]
    missing: list[str]  # systems skipped: a player has no rating there

    @property
    def shows_egf(self) -> bool:
        """The epsilon footnote is about the EGF row only."""
        return any(r.system == "egf" for r in self.results)


def calculate(
    *, game: str, a: int | None, b: int | None, rating_a: float | None, rating_b: float | None,
    handicap: int,
) -> CalculatorAnswer:  # fmt: skip
    players = Member.objects.in_bulk([pk for pk in (a, b) if pk])
    player_a, player_b = players.get(a), players.get(b)
    results, missing = [], []
    for system in SYSTEMS_BY_GAME.get(GameKind(game), ()):
        ra = rating_a if rating_a is not None else _rating_of(player_a, system)
        rb = rating_b if rating_b is not None else _rating_of(player_b, system)
        if ra is None or rb is None:
            missing.append(system)
            continue
        results.append(
            expectation(
                system,
                ra,
                rb,
                handicap,
                grade_a=player_a.grade if player_a else None,
                grade_b=player_b.grade if player_b else None,
            )  # fmt: skip
        )
    return CalculatorAnswer(player_a, player_b, results, missing)


def _rating_of(member: Member | None, system: str) -> float | None:
    if member is None:
        return None
    entry = current_rating(member.pk, system)
    return entry.rating if entry else None


def members_with_ratings(members: list[Member]) -> list[tuple[Member, list[RatingEntry]]]:
    """Each member (in the given order) with his entry in every list, in one query: the
    site search's results (issue 56)."""
    by_member: dict[int, list[RatingEntry]] = {m.pk: [] for m in members}
    entries = (
        RatingEntry.objects.filter(member_id__in=list(by_member), rating__isnull=False)
        .select_related("rating_list")
        .only(
            "member_id",
            "rating",
            "provisional",
            "grade",
            "rating_list__name",
            "rating_list__slug",
            "rating_list__system",
        )  # fmt: skip
        .order_by("rating_list__name", "rating_list_id")
    )
    for entry in entries:
        by_member[entry.member_id].append(entry)
    return [(member, by_member[member.pk]) for member in members]


@dataclass(frozen=True)
class MergeSide:
    """One of two members on the merge page: what tells whether they are one person."""

    member: Member
    tournaments: int
    games: int
    entries: list[RatingEntry]


def member_merge_side(member: Member) -> MergeSide:
    """His grade and numbers are on `member`; his tables, games and every list's rating
    are read here (issue 55: the comparison showed neither)."""
    games = Game.objects.filter(Q(white=member) | Q(black=member)).count()
    entries = list(
        RatingEntry.objects.filter(member=member)
        .select_related("rating_list")
        .order_by("rating_list__name", "rating_list_id")
    )
    tournaments = Participant.objects.filter(member=member).count()
    return MergeSide(member, tournaments, games, entries)
