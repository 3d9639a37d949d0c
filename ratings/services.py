"""Rating lists created, and the effect an approval would have, previewed in memory for
the referee before he decides (nothing is written)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q

from clubsite.models import Member
from ratings.models import ListTournament, RatingEntry, RatingList, counted_links
from ratings.recompute.replay import replay
from ratings.systems.model import BadInput
from tournaments.models import Tournament


def rating_list_create(
    *,
    slug: str,
    system: str,
    name: str = "",
    game: str = "go",
    params: dict[str, Any] | None = None,
) -> RatingList:
    rating_list = RatingList(
        slug=slug, system=system, name=name or slug, game=game, params=params or {}
    )
    rating_list.full_clean()
    rating_list.save()
    return rating_list


# --- requests -----------------------------------------------------------------------


# --- the run ------------------------------------------------------------------------


# --- impact preview -----------------------------------------------------------------


@dataclass(frozen=True)
class Impact:
    rating_list: RatingList
    member: Member
    rating_from: float | None
    rating_to: float | None
    in_table: bool = True  # False: he moves only because later tables are replayed

    @property
    def change(self) -> float | None:
        if self.rating_to is None:
            return None
        return self.rating_to - (self.rating_from or 0.0) if self.rating_from is not None else None


@dataclass(frozen=True)
class ListImpact:
    rating_list: RatingList
    impacts: list[Impact]
    error: str = ""
    not_rated_reason: str = ""
    later_tables: int = 0  # counted tables after this one: replayed with it
    newest: dt.date | None = None  # the end of the list's newest counted table
    old: bool = False  # the table is far older than the list's newest

    @property
    def outside(self) -> int:
        return sum(1 for i in self.impacts if not i.in_table)


# A table this much older than the list's newest is remarked on (a 2018 table in 2026).
OLD_TABLE = dt.timedelta(days=365)


def _list_context(rating_list: RatingList, tournament: Tournament) -> dict[str, Any]:
    """Where the table falls in the list: the counted tables after it (the replay rates
    them again, so players outside the table move too) and the list's newest date."""
    counted = ListTournament.objects.filter(counted_links(), rating_list=rating_list).exclude(
        tournament=tournament
    )
    after = Q(tournament__end_date__gt=tournament.end_date) | Q(
        tournament__end_date=tournament.end_date, tournament_id__gt=tournament.pk
    )
    newest = counted.aggregate(newest=Max("tournament__end_date"))["newest"]
    return {
        "later_tables": counted.filter(after).count(),
        "newest": newest,
        "old": newest is not None and newest - tournament.end_date > OLD_TABLE,
    }


def rating_impact_preview(*, tournament: Tournament) -> list[ListImpact]:
    """If this table were approved, whose ratings would change, from what to what.

    Replays each list from the table's date with the table in, and compares the
    end states with the live list. Writes nothing.
    """
    previews = []
    playing = set(tournament.participants.values_list("member_id", flat=True))
    for rating_list in tournament.rating_lists.order_by("name"):
        try:
            outcome = replay(rating_list, tournament.end_date, include=tournament)
        except BadInput as error:
            previews.append(ListImpact(rating_list, [], error=str(error)))
            continue
        current = dict(
            RatingEntry.objects.filter(
                rating_list=rating_list, member_id__in=outcome.touched
            ).values_list("member_id", "rating")
        )
        changed = {
            member_id: (current.get(member_id), outcome.states[member_id].rating)
            for member_id in outcome.touched
            if current.get(member_id) != outcome.states[member_id].rating
        }
        members = Member.objects.in_bulk(list(changed))
        impacts = [
            Impact(rating_list, members[member_id], before, after, member_id in playing)
            for member_id, (before, after) in changed.items()
        ]
        impacts.sort(key=lambda i: (-(i.rating_to or 0), i.member.family_name))
        previews.append(
            ListImpact(
                rating_list,
                impacts,
                not_rated_reason=outcome.not_rated.get(tournament.pk, ""),
                **_list_context(rating_list, tournament),
            )  # fmt: skip
        )
    return previews


# --- publication --------------------------------------------------------------------
