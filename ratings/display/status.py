"""Where a tournament stands in each of its rating lists, in words (issue 6: status for long work)."""

from __future__ import annotations

from dataclasses import dataclass

from ratings.models import ListTournament, RatingList


@dataclass(frozen=True)
class RatingStatus:
    code: str  # rated | not_rated | waiting | recomputing | failed | undecided | refused
    reason: str = ""  # why not rated, or the error (shown to staff only)


def tournament_rating_status(link: ListTournament) -> RatingStatus:
    """The state of one tournament in one list: its referee's decision first (a list rates
    the table once it approved it, while the others still decide), then the rating."""
    rating_list = link.rating_list
    if link.decision == ListTournament.Decision.REJECTED:
        return RatingStatus("refused")
    if link.decision == ListTournament.Decision.UNDECIDED and link.tournament.status != "approved":
        return RatingStatus("undecided")
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
        done = ("rated", "not_rated", "refused")
        return all(status.code in done for _link, status in self.items)

    @property
    def any_approved(self) -> bool:
        """Some list approved (and rates) the table while others still decide."""
        return any(status.code not in ("undecided", "refused") for _link, status in self.items)


def tournament_rating_states(links: list[ListTournament]) -> TournamentRatingStates:
    return TournamentRatingStates([(link, tournament_rating_status(link)) for link in links])
