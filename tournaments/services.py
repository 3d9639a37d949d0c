"""The results table's workflow: draft → submitted → approved | rejected → (reopen) draft.

Each function checks the state and who acts, records who and when, and runs in one
transaction. This app knows nothing of rating lists: approving a table (and reopening
an approved one) also asks its lists to recompute, and that crossing lives one level up,
in `ratings.submissions.services.tournament_approve_and_rate` and
`tournament_reopen_and_unrate`, which wrap these steps in the same transaction. Pages
and commands call those.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite import authority
from clubsite.authority import is_club_admin, is_referee
from clubsite.models import Member
from tournaments.models import Game, RoundSeat, Tournament, TournamentLog
from tournaments.review.conversation import table_snapshot
from tournaments.review.notifications import event_mail_queue

Status = Tournament.Status


class WorkflowError(ValidationError):
    """The table is not in a state that allows this step."""


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _expect(tournament: Tournament, *states: str) -> None:
    if tournament.status not in states:
        raise WorkflowError(
            _("This table is %(status)s; that step is not possible now.")
            % {"status": tournament.get_status_display()}
        )


@transaction.atomic
def tournament_submit(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """Submit the table; `comment` is the admin's reply to the referee (on a resubmission)."""
    tournament = _locked(tournament)
    if not is_club_admin(by, tournament):
        raise PermissionDenied(_("Only the organising club's admins submit its tables."))
    _expect(tournament, Status.DRAFT)
    if not tournament.games.exists():
        raise WorkflowError(_("Enter at least one game before submitting."))
    if not tournament.rating_lists.exists():
        raise WorkflowError(_("Choose at least one rating list to submit the table to."))
    tournament.status = Status.SUBMITTED
    tournament.submitted_at = timezone.now()
    tournament.submitted_by = by
    tournament.decided_at = None
    tournament.decided_by = None
    tournament.decision_comment = ""
    tournament.save()
    log = TournamentLog.objects.create(
        tournament=tournament,
        action=TournamentLog.Action.SUBMITTED,
        by=by,
        comment=comment.strip(),
        params={"snapshot": table_snapshot(tournament)},
    )
    event_mail_queue(log=log)
    return tournament


@transaction.atomic
def tournament_approve(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """Approve the table (the workflow step only: `ratings.submissions.services.
    tournament_approve_and_rate` adds the recompute of its lists)."""
    tournament = _locked(tournament)
    if not is_referee(by, tournament):
        raise PermissionDenied(_("Only a referee of its rating lists approves a table."))
    _expect(tournament, Status.SUBMITTED)
    tournament.status = Status.APPROVED
    tournament.decided_at = timezone.now()
    tournament.decided_by = by
    tournament.decision_comment = comment
    tournament.save()
    TournamentLog.objects.create(
        tournament=tournament, action=TournamentLog.Action.APPROVED, by=by, comment=comment
    )
    return tournament


@transaction.atomic
def tournament_reject(*, tournament: Tournament, by: AbstractBaseUser, comment: str) -> Tournament:
    tournament = _locked(tournament)
    if not is_referee(by, tournament):
        raise PermissionDenied(_("Only a referee of its rating lists rejects a table."))
    _expect(tournament, Status.SUBMITTED)
    if not comment.strip():
        raise WorkflowError(_("Say why the table is rejected, so the club can fix it."))
    tournament.status = Status.REJECTED
    tournament.decided_at = timezone.now()
    tournament.decided_by = by
    tournament.decision_comment = comment.strip()
    tournament.save()
    log = TournamentLog.objects.create(
        tournament=tournament, action=TournamentLog.Action.REJECTED, by=by, comment=comment.strip()
    )
    event_mail_queue(log=log)
    return tournament


@transaction.atomic
def tournament_reopen(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str = ""
) -> Tournament:
    """Back to draft for corrections. No one undoes a decision he did not make (issue 54,
    `clubsite.authority`'s "table.reopen"): a table some list approved is reopened by
    staff or by the referee of every list that decided it; the club reopens it only while
    no list approved it (`ratings.submissions.services.tournament_reopen_and_unrate`
    then takes its ratings out: the lists recompute without it)."""
    tournament = _locked(tournament)
    _expect(tournament, Status.REJECTED, Status.APPROVED, Status.SUBMITTED)
    if not authority.allowed(by, "table.reopen", tournament):
        raise PermissionDenied(
            _(
                "Another list's referee has decided this table: only he withdraws his "
                "list's decision (or staff reopen it)."
            )
        )
    tournament.status = Status.DRAFT
    tournament.save()
    log = TournamentLog.objects.create(
        tournament=tournament, action=TournamentLog.Action.REOPENED, by=by, comment=comment
    )
    event_mail_queue(log=log)
    return tournament


@transaction.atomic
def tournament_back_to_undecided(
    *, tournament: Tournament, by: AbstractBaseUser, comment: str, lists: list[str]
) -> Tournament:
    """A referee withdrew his lists' approval while other lists' decisions stand: the table
    waits for his lists' decision again (`ratings.submissions.services.
    tournament_withdraw_approval` resets the links)."""
    tournament = _locked(tournament)
    _expect(tournament, Status.APPROVED, Status.SUBMITTED)
    tournament.status = Status.SUBMITTED
    tournament.decided_at = None
    tournament.decided_by = None
    tournament.save()
    TournamentLog.objects.create(
        tournament=tournament, action=TournamentLog.Action.REOPENED, by=by, comment=comment,
        params={"withdrawn_lists": lists},
    )  # fmt: skip
    return tournament


# --- results entry ----------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """One board of a round as entered: a game, a forfeit, or a bye (black is None)."""

    white: Member
    black: Member | None
    result: str = ""
    kind: str = Game.Kind.PLAYED
    handicap: int = 0
    komi: float | None = None
    colours_known: bool = True  # False: who had White was not recorded


def _check_editable(tournament: Tournament, by: AbstractBaseUser | None) -> None:
    if by is not None and not is_club_admin(by, tournament):
        raise PermissionDenied(_("Only the organising club's admins edit its results."))
    if tournament.status not in (Status.DRAFT, Status.REJECTED):
        raise WorkflowError(_("This table is locked; reopen it to change results."))


def round_validate(pairings: Iterable[Pairing]) -> list[str]:
    """Errors of one round's pairings, in words a club admin understands."""
    errors: list[str] = []
    seen: set[int] = set()
    for number, pairing in enumerate(pairings, start=1):
        players = [pairing.white]
        if pairing.black is not None and pairing.black.pk != pairing.white.pk:
            players.append(pairing.black)
        if pairing.black is not None and pairing.white.pk == pairing.black.pk:
            errors.append(
                _("Board %(n)d: %(name)s cannot play against themselves.")
                % {"n": number, "name": pairing.white}
            )
        for player in players:
            if player.pk in seen:
                errors.append(
                    _("Board %(n)d: %(name)s already plays in this round.")
                    % {"n": number, "name": player}
                )
            seen.add(player.pk)
        if not 0 <= pairing.handicap <= 9:
            errors.append(_("Board %(n)d: handicap must be 0 to 9 stones.") % {"n": number})
        is_bye = pairing.kind in Game.BYES
        if is_bye != (pairing.black is None):
            errors.append(
                _("Board %(n)d: a bye has no opponent, and a game needs one.") % {"n": number}
            )
        if not is_bye and pairing.result not in Game.Result.values:
            errors.append(_("Board %(n)d: choose a result.") % {"n": number})
        if pairing.kind == Game.Kind.FORFEIT and pairing.result == Game.Result.DRAW:
            errors.append(_("Board %(n)d: a forfeit has a winner.") % {"n": number})
    return errors


@transaction.atomic
def round_replace(
    *,
    tournament: Tournament,
    round_number: int,
    pairings: list[Pairing],
    by: AbstractBaseUser | None,
) -> list[Game]:
    """Replace every game of one round; all or nothing."""
    tournament = _locked(tournament)
    _check_editable(tournament, by)
    if round_number < 1:
        raise WorkflowError(_("Rounds are numbered from 1."))
    errors = round_validate(pairings)
    if errors:
        raise ValidationError(errors)
    tournament.games.filter(round=round_number).delete()
    games = Game.objects.bulk_create(
        Game(
            tournament=tournament,
            round=round_number,
            white=p.white,
            black=p.black,
            result=p.result if p.kind not in Game.BYES else "",
            kind=p.kind,
            handicap=p.handicap,
            komi=p.komi,
            colours_known=p.colours_known or p.black is None,
        )
        for p in pairings
    )
    seats_create(games)
    return games


def seats_create(games: Iterable[Game]) -> None:
    """The per-round seats that let the database refuse a player twice in one round."""
    RoundSeat.objects.bulk_create(
        RoundSeat(
            game=game, tournament_id=game.tournament_id, round=game.round, member_id=member_id
        )
        for game in games
        for member_id in (game.white_id, game.black_id)
        if member_id is not None
    )
