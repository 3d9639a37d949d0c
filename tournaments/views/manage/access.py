"""What every club-admin page asks first, shared with the ratings app's admin pages.

Which clubs the user administers (403 if none), the tournament he manages (404, 403),
and the small request helpers the pages share.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from clubsite.authority import is_club_admin
from clubsite.models import Club
from clubsite.numbers import int_or_none
from tournaments import manage_selectors
from tournaments.models import Tournament
from tournaments.timecontrol import exact_minutes

NAV = {"nav_active": "manage"}


def clubs_or_403(request: HttpRequest) -> QuerySet[Club]:
    clubs = manage_selectors.clubs_administered(request.user)
    if not clubs.exists():
        raise PermissionDenied(_("You do not administer a club."))
    return clubs


def tournament_or_403(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    if not is_club_admin(request.user, tournament):
        raise PermissionDenied(_("Only the organising club's admins manage this tournament."))
    return tournament


def error_messages(error: ValidationError) -> list[str]:
    return list(error.messages)


def int_between(value: Any, default: int, low: int, high: int) -> int:
    number = int_or_none(value, minimum=-(10**18), maximum=10**18)
    return default if number is None else max(low, min(high, number))


def time_control_probe(data: Any, fallback: Tournament) -> Tournament:
    """An unsaved tournament carrying only the time control the form shows, for the advice."""
    kinds = Tournament.Overtime.values
    kind = data.get("overtime_kind")
    return Tournament(
        basic_time_minutes=min(
            exact_minutes(data.get("basic_time_minutes") or "") or fallback.basic_time_minutes,
            2000,
        ),
        overtime_kind=kind if kind in kinds else fallback.overtime_kind,
        overtime_seconds=int_between(
            data.get("overtime_seconds"), fallback.overtime_seconds, 0, 36000
        ),
        overtime_moves=int_between(data.get("overtime_moves"), fallback.overtime_moves, 1, 200),
        tournament_class=(
            data.get("tournament_class")
            if data.get("tournament_class") in Tournament.Klass.values
            else fallback.tournament_class
        ),
    )
