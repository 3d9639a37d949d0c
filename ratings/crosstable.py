"""A tournament's crosstable with its rating lists and each player's rating changes.

`tournaments.selectors.crosstable` builds the plain table (places, rounds, points); this
adds what the ratings app knows about it: the lists the table counts for (`lists`) and,
once it is approved, one column per list with each player's change (`change_lists`,
`row.changes`). The public, admin and referee pages and the API show this one.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, fields

from ratings.models import ListTournament, RatingHistory
from tournaments.models import Tournament
from tournaments.selectors import Crosstable, Row, crosstable


@dataclass
class RatingChange:
    list_name: str
    list_slug: str
    system: str
    before: float | None
    after: float | None
    change: float | None
    provisional: bool
    rated: bool


@dataclass
class RatedRow(Row):
    changes: list[RatingChange | None] = field(default_factory=list)  # one per change_lists


@dataclass
class RatedCrosstable(Crosstable):
    lists: list[ListTournament] = field(default_factory=list)
    change_lists: list[tuple[str, str]] = field(default_factory=list)  # (name, slug)

    @property
    def has_changes(self) -> bool:
        return bool(self.change_lists)


def _copy(value: object) -> dict[str, object]:
    return {f.name: getattr(value, f.name) for f in fields(value)}  # type: ignore[arg-type]


def crosstable_with_ratings(tournament: Tournament) -> RatedCrosstable:
    """The plain crosstable, its list links and (approved) the rating changes.

    Four queries: participants, games, list links and, when approved, the rating history.
    """
    plain = crosstable(tournament)
    links = list(
        ListTournament.objects.filter(tournament=tournament)
        .select_related("rating_list")
        .order_by("rating_list__name")
    )
    table = RatedCrosstable(
        tournament=plain.tournament,
        rounds=plain.rounds,
        rows=[RatedRow(**_copy(row)) for row in plain.rows],
        lists=links,
    )
    # A list that approved rates the table before the others decide.
    if tournament.status in (Tournament.Status.APPROVED, Tournament.Status.SUBMITTED):
        _attach_changes(table)
    return table


def _attach_changes(table: RatedCrosstable) -> None:
    history = (
        RatingHistory.objects.filter(tournament=table.tournament)
        .select_related("rating_list")
        .only(
            "member_id", "before", "after", "change", "provisional", "rated",
            "rating_list__name", "rating_list__slug", "rating_list__system",
        )
        .order_by("rating_list__name")
    )  # fmt: skip
    by_member: dict[int, dict[str, RatingChange]] = defaultdict(dict)
    lists: dict[str, str] = {}
    for h in history:
        lists[h.rating_list.slug] = h.rating_list.name
        by_member[h.member_id][h.rating_list.slug] = (
            RatingChange(
                h.rating_list.name, h.rating_list.slug, h.rating_list.system,
                h.before, h.after, h.change, h.provisional, h.rated,
            )
        )  # fmt: skip
    table.change_lists = sorted(((name, slug) for slug, name in lists.items()))
    for row in table.rows:
        mine = by_member.get(row.participant.member_id, {})
        row.changes = [mine.get(slug) for _name, slug in table.change_lists]
