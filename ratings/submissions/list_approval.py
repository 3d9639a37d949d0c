"""Authority per list (issue 14): each rating list's referee decides a table for his list.

A table counts in a list only when that list approved it (`ratings.models.counted_links`); a refusal by
one list does not block the others. The table is "approved" once every list it was
submitted to has decided and at least one approved it, "rejected" when all refused
(`tournaments.services` records that step). A list also says which clubs may submit to
it (`list_accepts`).

The recompute that follows an approval is asked for in one place,
`ratings.submissions.services.tournament_approve_and_rate`, which calls `lists_decide`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.authority import links_decided_by, list_accepts
from clubsite.models import Club
from ratings.models import ListTournament, RatingList, counted_links
from tournaments import services as workflow
from tournaments.models import Tournament

Decision = ListTournament.Decision


def lists_refusing(rating_lists: Iterable[RatingList], club: Club | None) -> list[RatingList]:
    return [rl for rl in rating_lists if not list_accepts(rl, club)]


def check_lists_accept(
    rating_lists: Iterable[RatingList], club: Club | None, by: AbstractBaseUser | None
) -> None:
    """Refuse lists the club may not submit to. Staff, and the operator's commands
    (`by` None), keep the federation's own records and may link any list."""
    if by is None or by.is_staff:
        return
    refusing = lists_refusing(rating_lists, club)
    if refusing:
        raise ValidationError(
            _("%(lists)s accepts tables of its own club only (or of the clubs it names).")
            % {"lists": ", ".join(rl.name for rl in refusing)}
        )


def lists_for(user: AbstractBaseUser, tournament: Tournament) -> QuerySet[ListTournament]:
    """The table's links this user decides (`clubsite.authority.links_decided_by`)."""
    return links_decided_by(user, tournament)


def undecided_for(user: AbstractBaseUser, tournament: Tournament) -> QuerySet[ListTournament]:
    return lists_for(user, tournament).filter(decision=Decision.UNDECIDED)


@dataclass(frozen=True)
class ListsDecided:
    tournament: Tournament
    decided: list[RatingList]  # the lists this step decided


@transaction.atomic
def lists_decide(
    *,
    tournament: Tournament,
    by: AbstractBaseUser,
    decision: str,
    comment: str = "",
    rating_lists: Iterable[RatingList] | None = None,
) -> ListsDecided:
    """Record `by`'s decision for his undecided lists of the table (or the ones named);
    when every list has decided, the table is approved (some list approved) or rejected.
    Staff decide every list; a table without lists is staff's to approve as a whole."""
    if decision not in (Decision.APPROVED, Decision.REJECTED):
        raise ValidationError(_("Choose to approve or reject the table."))
    current = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if current.status != Tournament.Status.SUBMITTED:
        raise workflow.WorkflowError(
            _("This table is %(status)s; that step is not possible now.")
            % {"status": current.get_status_display()}
        )
    if decision == Decision.REJECTED and not comment.strip():
        raise workflow.WorkflowError(_("Say why the table is rejected, so the club can fix it."))
    links = list(undecided_for(by, current).select_for_update(of=("self",)))
    if rating_lists is not None:
        wanted = {rl.pk for rl in rating_lists}
        links = [link for link in links if link.rating_list_id in wanted]
    has_lists = ListTournament.objects.filter(tournament=current).exists()
    if not links and (has_lists or not by.is_staff):
        if not lists_for(by, current).exists() and not by.is_staff:
            raise PermissionDenied(_("Only a referee of its rating lists decides this table."))
        raise workflow.WorkflowError(_("No list of this table is waiting for your decision."))
    now = timezone.now()
    for link in links:
        link.decision = decision
        link.decided_by = by
        link.decided_at = now
        link.decision_comment = comment.strip()
    ListTournament.objects.bulk_update(
        links, ["decision", "decided_by", "decided_at", "decision_comment"]
    )
    _conclude(current, by, comment)
    current.refresh_from_db()
    return ListsDecided(current, [link.rating_list for link in links])


def _conclude(tournament: Tournament, by: AbstractBaseUser, comment: str) -> None:
    """Once every list decided: approved if any approved, else rejected."""
    decisions = list(
        ListTournament.objects.filter(tournament=tournament).values_list("decision", flat=True)
    )
    if Decision.UNDECIDED in decisions:
        return
    if not decisions or Decision.APPROVED in decisions:
        # Approved because a list approved it: the log names that list's referee and his
        # words, not a later refusal's (which stays on its list's decision).
        approval = (
            ListTournament.objects.filter(tournament=tournament, decision=Decision.APPROVED)
            .select_related("decided_by")
            .order_by("-decided_at", "-pk")
            .first()
        )
        if approval is not None and approval.decided_by is not None:
            by, comment = approval.decided_by, approval.decision_comment
        workflow.tournament_approve(tournament=tournament, by=by, comment=comment)
    else:
        reasons = list(
            ListTournament.objects.filter(tournament=tournament)
            .exclude(decision_comment="")
            .select_related("rating_list")
            .order_by("rating_list__name")
        )
        # Several refusals are told apart by their list; one is the referee's own words
        # (the conversation, issue 17, shows it as he wrote it).
        if len(reasons) == 1:
            text = reasons[0].decision_comment
        else:
            text = "\n".join(
                f"{link.rating_list.name}: {link.decision_comment}" for link in reasons
            )
        workflow.tournament_reject(tournament=tournament, by=by, comment=text or comment)


def any_list_decided(tournament: Tournament) -> bool:
    """Has a referee decided the table for one of its lists (it is still submitted while
    the others have not)?"""
    return (
        ListTournament.objects.filter(tournament=tournament)
        .exclude(decision=Decision.UNDECIDED)
        .exists()
    )


def lists_counting(tournament: Tournament) -> list[RatingList]:
    """The lists the table counts in now."""
    links = ListTournament.objects.filter(tournament=tournament).filter(counted_links())
    return [link.rating_list for link in links.select_related("rating_list")]


def decisions_reset(tournament: Tournament) -> None:
    """Reopening: every list decides again."""
    ListTournament.objects.filter(tournament=tournament).update(
        decision=Decision.UNDECIDED, decided_by=None, decided_at=None, decision_comment=""
    )
