"""The conversation on a results table and the steps a club admin takes back.

The conversation is the table's log read as messages: the referee's rejection (or
approval, or reopening) comment, the admin's reply sent with a resubmission, a withdrawal,
and notes either side adds at any time. Each submission also keeps a snapshot of the
table (`table_snapshot`) in its log row, so the referee sees what changed since he last
looked (`tournaments.review.submission_diff`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.authority import is_club_admin, is_referee
from tournaments.models import Tournament, TournamentLog
from tournaments.review.notifications import event_mail_queue

Action = TournamentLog.Action
NOTE_MAX = 4000


# --- the snapshot ---------------------------------------------------------------------


def table_snapshot(tournament: Tournament) -> dict[str, Any]:
    """The players and games as submitted: enough to name what changed later."""
    players = {
        str(p.member_id): {"name": p.member.full_name, "grade": str(p.grade or "")}
        for p in tournament.participants.select_related("member")
    }
    games = [
        {
            "round": g.round,
            "white": g.white_id,
            "black": g.black_id,
            "white_name": g.white.full_name,
            "black_name": g.black.full_name if g.black else "",
            "result": g.result,
            "kind": g.kind,
            "handicap": g.handicap,
            "komi": None if g.komi is None else str(g.komi),
            "colours_known": g.colours_known,
        }
        for g in tournament.games.select_related("white", "black").order_by("round", "id")
    ]
    rules = {name: str(getattr(tournament, name) or "") for name in SNAPSHOT_RULES}
    return {"players": players, "games": games, "rules": rules}


# The table's settings a resubmission may change that move its ratings (issue 55).
SNAPSHOT_RULES = ("handicap_rule", "komi", "start_date", "end_date", "tournament_class",
                  "basic_time_minutes", "overtime_kind", "overtime_seconds", "overtime_moves",
                  "board_size")  # fmt: skip


# --- the conversation -----------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    log: TournamentLog
    side: str  # "referee" | "club"
    text: str


SPEAKERS = {
    Action.REJECTED: "referee",
    Action.APPROVED: "referee",
    Action.SUBMITTED: "club",
    Action.WITHDRAWN: "club",
}


def conversation(tournament: Tournament) -> list[Message]:
    """Every step that carries words, oldest first."""
    rows = tournament.log.select_related("by").order_by("at", "id")
    messages = []
    for log in rows:
        if log.action == Action.IMPORTED or not log.comment.strip():
            continue
        side = SPEAKERS.get(log.action)
        if side is None:  # reopen and notes: whoever wrote them
            side = "club" if log.by is not None and is_club_admin(log.by, tournament) else "referee"
            if log.by is not None and log.by.is_staff:
                side = "referee"
        messages.append(Message(log, side, log.comment.strip()))
    return messages


@transaction.atomic
def table_note_add(*, tournament: Tournament, by: AbstractBaseUser, text: str) -> TournamentLog:
    """A note from the club's admins or the lists' referees, at any state."""
    if not (is_club_admin(by, tournament) or is_referee(by, tournament)):
        raise PermissionDenied(_("Only the club's admins and the referees write here."))
    text = text.strip()
    if not text:
        raise ValidationError(_("Write something first."))
    if len(text) > NOTE_MAX:
        raise ValidationError(_("A note is at most %(n)d characters.") % {"n": NOTE_MAX})
    log = TournamentLog.objects.create(
        tournament=tournament, action=Action.NOTE, by=by, comment=text
    )
    event_mail_queue(log=log)  # the other side hears of it (issue 55)
    return log


@transaction.atomic
def tournament_withdraw(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """Take a submitted table back to a draft, until a referee has acted on it."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not is_club_admin(by, tournament):
        raise PermissionDenied(_("Only the organising club's admins withdraw its tables."))
    if tournament.status != Tournament.Status.SUBMITTED:
        raise ValidationError(
            _("Only a table waiting for a referee can be withdrawn; this one is %(status)s.")
            % {"status": tournament.get_status_display()}
        )
    tournament.status = Tournament.Status.DRAFT
    tournament.save(update_fields=["status"])
    log = TournamentLog.objects.create(tournament=tournament, action=Action.WITHDRAWN, by=by)
    event_mail_queue(log=log)
    return tournament
