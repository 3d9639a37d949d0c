"""Rating lists created, and the effect an approval would have, previewed in memory for
the referee before he decides (nothing is written)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clubsite.models import Member
from ratings.models import RatingEntry, RatingList
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


def rating_impact_preview(*, tournament: Tournament) -> list[ListImpact]:
    """If this table were approved, whose ratings would change, from what to what.

    Replays each list from the table's date with the table in, and compares the
    end states with the live list. Writes nothing.
    """
    previews = []
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
            Impact(rating_list, members[member_id], before, after)
            for member_id, (before, after) in changed.items()
        ]
        impacts.sort(key=lambda i: (-(i.rating_to or 0), i.member.family_name))
        previews.append(
            ListImpact(
                rating_list, impacts, not_rated_reason=outcome.not_rated.get(tournament.pk, "")
            )
        )
    return previews


# --- publication --------------------------------------------------------------------
