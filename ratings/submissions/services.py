"""Writes where a tournament meets its rating lists: the one place the workflow crosses
into the ratings app.

`tournaments.manage_services` saves the tournament and `tournaments.services` runs its
workflow (both check who acts); these wrap them and, in the same transaction, set the
`ListTournament` links or ask the lists to recompute (the task runs after the commit).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from clubsite import authority
from ratings.models import ListTournament, RatingList
from ratings.recompute.services import rating_list_request_recompute
from ratings.submissions import list_approval
from tournaments import manage_services
from tournaments import services as workflow
from tournaments.models import Tournament, TournamentLog
from tournaments.review.conversation import tournament_withdraw
from tournaments.review.notifications import event_mail_queue


def tournament_lists_set(*, tournament: Tournament, rating_lists: Iterable[RatingList]) -> None:
    """Link the tournament to exactly these lists (the callers have checked who acts)."""
    wanted = {rl.pk for rl in rating_lists}
    ListTournament.objects.filter(tournament=tournament).exclude(rating_list_id__in=wanted).delete()
    have = set(
        ListTournament.objects.filter(tournament=tournament).values_list(
            "rating_list_id", flat=True
        )
    )
    ListTournament.objects.bulk_create(
        ListTournament(tournament=tournament, rating_list_id=pk) for pk in sorted(wanted - have)
    )


@transaction.atomic
def tournament_create_with_lists(
    *, tournament: Tournament, rating_lists: Iterable[RatingList], by: AbstractBaseUser
) -> Tournament:
    """Save an unsaved Tournament built by the form, as a draft, with its lists."""
    rating_lists = list(rating_lists)
    list_approval.check_lists_accept(rating_lists, tournament.organiser, by)
    tournament = manage_services.tournament_create(tournament=tournament, by=by)
    tournament_lists_set(tournament=tournament, rating_lists=rating_lists)
    return tournament


@transaction.atomic
def tournament_update_with_lists(
    *,
    tournament: Tournament,
    changes: dict[str, Any],
    rating_lists: Iterable[RatingList],
    by: AbstractBaseUser,
) -> Tournament:
    """Change a draft's details and its lists."""
    rating_lists = list(rating_lists)
    organiser = changes.get("organiser", tournament.organiser)
    list_approval.check_lists_accept(rating_lists, organiser, by)
    current = manage_services.tournament_update(tournament=tournament, changes=changes, by=by)
    tournament_lists_set(tournament=current, rating_lists=rating_lists)
    return current


@transaction.atomic
def tournament_approve_and_rate(
    *,
    tournament: Tournament,
    by: AbstractBaseUser,
    comment: str = "",
    rating_lists: Iterable[RatingList] | None = None,
) -> Tournament:
    """Approve the table for the lists `by` referees (staff: all; or those named) and queue the recompute of exactly those lists after
    the commit (a failed approval queues nothing). The table is approved once every list
    decided (`ratings.submissions.list_approval`)."""
    outcome = list_approval.lists_decide(
        tournament=tournament, by=by, decision=ListTournament.Decision.APPROVED,
        comment=comment, rating_lists=rating_lists,
    )  # fmt: skip
    # The identity data it proposes is not his to apply (issue 54): it waits for the
    # members' keepers (`tournaments.review.proposals`); the lists rate the recorded facts.
    # Rated again by the coming recompute, as it stands now: the recompute's cone
    # (ratings/recompute/cone.py) starts from the tables whose `rated_at` is empty.
    ListTournament.objects.filter(tournament=tournament, rating_list__in=outcome.decided).update(
        rated_at=None
    )
    for rating_list in outcome.decided:
        rating_list_request_recompute(
            rating_list=rating_list,
            from_date=outcome.tournament.end_date,
            trigger=f"approval of tournament {tournament.pk}",
        )
    if outcome.tournament.status == Tournament.Status.APPROVED:
        # This step concluded the table (it was submitted before). After the recompute's
        # request, so the mail (with the rating changes) queues after it.
        approved = outcome.tournament.log.filter(action=TournamentLog.Action.APPROVED)
        event_mail_queue(log=approved.latest("id"))
    return outcome.tournament


@transaction.atomic
def tournament_reject_for_lists(
    *,
    tournament: Tournament,
    by: AbstractBaseUser,
    comment: str,
    rating_lists: Iterable[RatingList] | None = None,
) -> Tournament:
    """Refuse the table for `by`'s lists; the other lists still decide for themselves.
    When this refusal is the last decision and another list approved, the table is
    approved now, and its approval mail goes as after an approval."""
    outcome = list_approval.lists_decide(
        tournament=tournament, by=by, decision=ListTournament.Decision.REJECTED,
        comment=comment, rating_lists=rating_lists,
    )  # fmt: skip
    if outcome.tournament.status == Tournament.Status.APPROVED:
        approved = outcome.tournament.log.filter(action=TournamentLog.Action.APPROVED)
        event_mail_queue(log=approved.latest("id"))
    return outcome.tournament


@transaction.atomic
def tournament_reopen_and_unrate(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """Reopen the table; the lists that counted it recompute without it, and every list
    decides again when it comes back."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    counted = list_approval.lists_counting(tournament)
    tournament = workflow.tournament_reopen(tournament=tournament, by=by, comment=comment)
    list_approval.decisions_reset(tournament)
    # Not rated any more: the recompute's cone (ratings/recompute/cone.py) finds changed tables by
    # this, even when the table is approved again before the list recomputes.
    ListTournament.objects.filter(tournament=tournament, rating_list__in=counted).update(
        rated_at=None
    )
    for rating_list in counted:
        rating_list_request_recompute(
            rating_list=rating_list,
            from_date=tournament.end_date,
            trigger=f"reopening of tournament {tournament.pk}",
        )
    return tournament


@transaction.atomic
def tournament_withdraw_approval(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """A referee takes back his own lists' approval (issue 54); the other lists' decisions
    stand and his lists decide again. Where no one else's decision would be undone (or
    for staff) the table is reopened as a whole, back to its club."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if authority.allowed(by, "table.reopen", locked):
        return tournament_reopen_and_unrate(tournament=locked, by=by, comment=comment)
    authority.require(by, "table.withdraw_approval", locked,
                      _("Only the referee who approved it for his list withdraws that."))  # fmt: skip
    mine = list(
        authority.links_decided_by(by, locked).filter(decision=ListTournament.Decision.APPROVED)
    )
    ListTournament.objects.filter(pk__in=[link.pk for link in mine]).update(
        decision=ListTournament.Decision.UNDECIDED, decided_by=None, decided_at=None,
        decision_comment="", rated_at=None,
    )  # fmt: skip
    for link in mine:
        rating_list_request_recompute(
            rating_list=link.rating_list,
            from_date=locked.end_date,
            trigger=f"approval of tournament {locked.pk} withdrawn",
        )
    return workflow.tournament_back_to_undecided(
        tournament=locked, by=by, comment=comment, lists=[link.rating_list.name for link in mine]
    )


@transaction.atomic
def tournament_withdraw_undecided(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """The club takes a submitted table back (issue 17) while no referee has acted on it.
    With each list deciding for itself (issue 14) a table one list approved or refused is
    still submitted; it is no longer the club's to withdraw (a referee reopens it)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status == Tournament.Status.SUBMITTED and list_approval.any_list_decided(locked):
        raise workflow.WorkflowError(
            _(
                "A referee has already decided this table for one of its lists; it can no "
                "longer be withdrawn. Write to the referee in the conversation."
            )
        )
    return tournament_withdraw(tournament=locked, by=by)
