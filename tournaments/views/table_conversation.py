"""The conversation on a table (notes from either side), the club admin's withdrawal,
and the referee's reopening of an approved table (with a reason)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite import authority
from clubsite.authority import is_club_admin, is_referee
from ratings.submissions.services import tournament_withdraw_approval, tournament_withdraw_undecided
from tournaments.models import Tournament
from tournaments.review.conversation import NOTE_MAX, table_note_add


def _back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The referee's review for a referee, the manage page for the club's admins."""
    if is_club_admin(request.user, tournament) and not request.POST.get("from_review"):
        return redirect("manage_tournament", pk=tournament.pk)
    return redirect("referee_review", pk=tournament.pk)


def _errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@login_required
@require_POST
def table_note(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    text = _posted_text(request, "text")
    if text is None:
        return _back(request, tournament)
    try:
        table_note_add(tournament=tournament, by=request.user, text=text)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("Your note is added to the conversation."))
    return _back(request, tournament)


@login_required
@require_POST
def manage_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        tournament_withdraw_undecided(tournament=tournament, by=request.user)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("The table is withdrawn: it is a draft again."))
    return redirect("manage_tournament", pk=pk)


@login_required
@require_POST
def referee_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """A referee of its lists reopens an approved table, saying why; the lists recompute
    without it now and with it again when it is re-approved."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not (
        authority.allowed(request.user, "table.withdraw_approval", tournament)
        or (is_referee(request.user, tournament)
            and authority.allowed(request.user, "table.reopen", tournament))
    ):  # fmt: skip
        raise PermissionDenied(_("Only the referee who approved it withdraws his approval."))
    reason = _posted_text(request, "reason")
    if reason is None:
        return redirect("referee_review", pk=pk)
    reason = reason.strip()
    if not reason:
        messages.error(request, _("Say why the table is reopened, so the club knows what to fix."))
        return redirect("referee_review", pk=pk)
    try:
        tournament_withdraw_approval(tournament=tournament, by=request.user, comment=reason)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("Reopened: the club corrects the table and submits it again."))
    return redirect("referee_review", pk=pk)


def _posted_text(request: HttpRequest, name: str) -> str | None:
    """A free text as posted, bounded; None (and a message) when it holds a NUL
    character, which the database cannot store (a 500 on PostgreSQL before)."""
    text = request.POST.get(name, "")[:NOTE_MAX]
    if "\x00" in text:
        messages.error(request, _("The text holds a NUL character; write it again without it."))
        return None
    return text
