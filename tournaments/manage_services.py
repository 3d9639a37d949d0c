"""Writes of the club-admin pages: a tournament's details and its players.

The workflow (submit, approve, reopen) and results entry live in `tournaments.services`;
these add what the admin's forms need around them. Every function checks who acts.
The rating lists a tournament goes to are set by `ratings.submissions.services`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubsite.authority import allowed, is_club_admin, may_add_to_club, may_credit_club
from clubsite.models import Club, Member
from tournaments.models import Participant, Tournament, TournamentLog

EDITABLE = (Tournament.Status.DRAFT, Tournament.Status.REJECTED)


def administers(user: AbstractBaseUser, club: Club) -> bool:
    return allowed(user, "club.create_table", club)


def _check_admin(tournament: Tournament, by: AbstractBaseUser) -> None:
    if not is_club_admin(by, tournament):
        raise PermissionDenied(_("Only the organising club's admins change this tournament."))


def _check_editable(tournament: Tournament) -> None:
    if tournament.status not in EDITABLE:
        raise ValidationError(_("This table is locked; reopen it to change it."))


def _unique_slug(name: str, tournament: Tournament) -> str:
    base = slugify(f"{name} {tournament.start_date:%Y}")[:90].strip("-") or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exclude(pk=tournament.pk).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """Save an unsaved Tournament built by the form, as a draft."""
    if not administers(by, tournament.organiser):
        raise PermissionDenied(_("You do not administer this club."))
    if tournament.host is not None and not may_credit_club(by, tournament.host):
        raise PermissionDenied(_("Only its admins credit a club with a tournament."))
    tournament.status = Tournament.Status.DRAFT
    tournament.slug = _unique_slug(tournament.name, tournament)
    tournament.full_clean()
    tournament.save()
    TournamentLog.objects.create(tournament=tournament, action=TournamentLog.Action.CREATED, by=by)
    return tournament


TIME_FIELDS = ("basic_time_minutes", "overtime_kind", "overtime_seconds", "overtime_moves")


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, changes: dict[str, Any], by: AbstractBaseUser
) -> Tournament:
    current = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_admin(current, by)
    _check_editable(current)
    organiser = changes.get("organiser", current.organiser)
    if organiser != current.organiser and not administers(by, organiser):
        raise PermissionDenied(_("You do not administer this club."))
    host = changes.get("host", current.host)
    if host is not None and host != current.host and not may_credit_club(by, host):
        raise PermissionDenied(_("Only its admins credit a club with a tournament."))
    if any(name in changes and changes[name] != getattr(current, name) for name in TIME_FIELDS):
        # The admin says what the file did not (or otherwise): his time control counts now,
        # and the file's words no longer describe it.
        current.time_control_known = True
        current.time_control_text = ""
    for name, value in changes.items():
        setattr(current, name, value)
    current.full_clean()
    current.save()
    return current


@transaction.atomic
def participant_add(*, tournament: Tournament, member: Member, by: AbstractBaseUser) -> Participant:
    _check_admin(tournament, by)
    _check_editable(tournament)
    participant, _created = Participant.objects.get_or_create(
        tournament=tournament, member=member, defaults={"grade": member.grade}
    )
    return participant


@transaction.atomic
def participants_add(
    *, tournament: Tournament, members: list[Member], by: AbstractBaseUser
) -> list[Participant]:
    """Several ticked members at once; all or none."""
    return [participant_add(tournament=tournament, member=m, by=by) for m in members]


@transaction.atomic
def participant_remove(
    *, tournament: Tournament, participant: Participant, by: AbstractBaseUser
) -> None:
    _check_admin(tournament, by)
    _check_editable(tournament)
    if participant.tournament_id != tournament.pk:
        raise PermissionDenied
    member = participant.member_id
    if (
        tournament.games.filter(white_id=member).exists()
        or tournament.games.filter(black_id=member).exists()
    ):
        raise ValidationError(_("He has games in this tournament; clear them first."))
    participant.delete()


@transaction.atomic
def member_create_and_add(
    *, tournament: Tournament, member: Member, by: AbstractBaseUser
) -> Participant:
    """A new member (built by the inline form) saved and added to the tournament. Without
    a country he gets his club's (else the organiser's)."""
    _check_admin(tournament, by)
    _check_editable(tournament)
    if not may_add_to_club(by, member.club if member.club_id else None):
        raise PermissionDenied(_("A new member joins a club only by its admins."))
    if not member.country:
        club = member.club if member.club_id else tournament.organiser
        member.country = club.country
    member.full_clean()
    member._history_user = by  # type: ignore[attr-defined]
    member._change_reason = _("Created on the players page of %(name)s (#%(id)d)") % {  # type: ignore[attr-defined]
        "name": tournament.name,
        "id": tournament.pk,
    }
    member.save()
    return Participant.objects.create(tournament=tournament, member=member, grade=member.grade)


@transaction.atomic
def tournament_delete_draft(*, tournament: Tournament, by: AbstractBaseUser) -> None:
    """Abandon a draft that was never approved: it goes with its players, games and the
    identity data it proposed (members it created stay, as members)."""
    current = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_admin(current, by)
    if current.status not in EDITABLE:
        raise ValidationError(_("Only a draft or a rejected table can be deleted."))
    if current.log.filter(action=TournamentLog.Action.APPROVED).exists():
        raise ValidationError(
            _("This table was approved once; reopen and correct it instead of deleting it.")
        )
    current.delete()
