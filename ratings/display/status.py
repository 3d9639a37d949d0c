"""Where a tournament stands in each of its rating lists, in words (issue 6: status for long work)."""

from __future__ import annotations

from dataclasses import dataclass

from ratings.models import ListTournament, RatingList


@dataclass(frozen=True)
class RatingStatus:
    code: str  # rated | not_rated | refused | waiting | recomputing | failed
    reason: str = ""  # why not rated, or the error (shown to staff only)


def tournament_rating_status(link: ListTournament) -> RatingStatus:
    """The state of one approved tournament in one list."""
    rating_list = link.rating_list
    if link.decision == ListTournament.Decision.REJECTED:  # never rated there: not waiting
        return RatingStatus("refused")
    if link.not_rated_reason:
        return RatingStatus("not_rated", link.not_rated_reason)
    stale = (
        rating_list.pending_from is not None
        and rating_list.pending_from <= link.tournament.end_date
    )
    if not stale and link.rated_at is not None:
        return RatingStatus("rated")
    if rating_list.state == RatingList.State.FAILED:
        return RatingStatus("failed", rating_list.last_error)
    if rating_list.state == RatingList.State.RECOMPUTING:
        return RatingStatus("recomputing")
    return RatingStatus("waiting")


@dataclass(frozen=True)
class TournamentRatingStates:
    items: list[tuple[ListTournament, RatingStatus]]

    @property
    def all_rated(self) -> bool:
        return all(status.code in ("rated", "not_rated", "refused") for _link, status in self.items)


def tournament_rating_states(links: list[ListTournament]) -> TournamentRatingStates:
    return TournamentRatingStates([(link, tournament_rating_status(link)) for link in links])
