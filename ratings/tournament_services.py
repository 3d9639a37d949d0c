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

from ratings.models import ListTournament, RatingList
from ratings.services import rating_list_request_recompute
from tournaments import manage_services
from tournaments import services as workflow
from tournaments.models import Tournament, TournamentLog
from tournaments.notifications import event_mail_queue


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
    current = manage_services.tournament_update(tournament=tournament, changes=changes, by=by)
    tournament_lists_set(tournament=current, rating_lists=rating_lists)
    return current


def _request_recompute(tournament: Tournament, trigger: str) -> None:
    for rating_list in tournament.rating_lists.all():
        rating_list_request_recompute(
            rating_list=rating_list, from_date=tournament.end_date, trigger=trigger
        )


@transaction.atomic
def tournament_approve_and_rate(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """Approve the table and queue the recompute of every list it counts for, after the
    commit (a failed approval queues nothing)."""
    tournament = workflow.tournament_approve(tournament=tournament, by=by, comment=comment)
    # Rated again by the coming recompute, as it stands now: the recompute's cone
    # (ratings/cone.py) starts from the tables whose `rated_at` is empty.
    ListTournament.objects.filter(tournament=tournament).update(rated_at=None)
    _request_recompute(tournament, trigger=f"approval of tournament {tournament.pk}")
    # After the recompute's request, so the mail (with the rating changes) queues after it.
    event_mail_queue(log=tournament.log.filter(action=TournamentLog.Action.APPROVED).latest("id"))
    return tournament


@transaction.atomic
def tournament_reopen_and_unrate(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """Reopen the table; if it was approved, its lists recompute without it."""
    was_approved = (
        Tournament.objects.select_for_update().get(pk=tournament.pk).status
        == Tournament.Status.APPROVED
    )
    tournament = workflow.tournament_reopen(tournament=tournament, by=by, comment=comment)
    if was_approved:
        # Not rated any more: the recompute's cone (ratings/cone.py) finds changed tables
        # by this, even when the table is approved again before the list recomputes.
        ListTournament.objects.filter(tournament=tournament).update(rated_at=None)
        _request_recompute(tournament, trigger=f"reopening of tournament {tournament.pk}")
    return tournament
