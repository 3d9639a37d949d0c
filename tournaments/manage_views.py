"""The club admin's pages: his tournaments, their details, players, rounds, import, submission.

Thin views: forms validate, `manage_services` / `services` / `importing` write,
`manage_selectors` / `selectors` read. Every view asks `permissions` who may act.
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubsite.models import Club, Member
from ratings import referee_selectors
from ratings.models import RatingList
from tournaments import importing, manage_selectors, manage_services, selectors, services
from tournaments.formats import FormatError, guess_format
from tournaments.formats import parse as parse_results
from tournaments.forms import (
    DecisionCommentForm,
    ImportConfirmForm,
    MemberCreateForm,
    MemberSearchForm,
    ResultsUploadForm,
    RoundFormSet,
    TournamentForm,
)
from tournaments.models import Participant, Tournament
from tournaments.permissions import is_club_admin

IMPORT_SESSION_KEY = "results-import"
NAV = {"nav_active": "manage"}


def _clubs(request: HttpRequest):  # noqa: ANN202 - QuerySet[Club]
    clubs = manage_selectors.clubs_administered(request.user)
    if not clubs.exists():
        raise PermissionDenied(_("You do not administer a club."))
    return clubs


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    if not is_club_admin(request.user, tournament):
        raise PermissionDenied(_("Only the organising club's admins manage this tournament."))
    return tournament


def _errors(error: ValidationError) -> list[str]:
    return list(error.messages)


@login_required
@require_GET
def manage_tournaments(request: HttpRequest) -> HttpResponse:
    clubs = _clubs(request)
    tournaments = manage_selectors.tournaments_managed(request.user)[:200]
    return render(
        request,
        "tournaments/manage/tournament_list.html",
        {"clubs": clubs, "tournaments": tournaments, **NAV},
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_tournament_create(request: HttpRequest) -> HttpResponse:
    clubs = _clubs(request)
    form = TournamentForm(request.POST or None, clubs=clubs, initial={"organiser": clubs.first()})
    if request.method == "POST" and form.is_valid():
        try:
            tournament = manage_services.tournament_create(
                tournament=form.save(commit=False),
                rating_lists=form.cleaned_data["rating_lists"],
                by=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The tournament is created. Now add its players."))
            return redirect("manage_participants", pk=tournament.pk)
    return _form_page(request, form, None)


def _form_page(request: HttpRequest, form: TournamentForm, tournament: Tournament | None):  # noqa: ANN202
    probe = form.instance
    if form.is_bound:
        probe = _probe_from(form.data, fallback=probe)
    return render(
        request,
        "tournaments/manage/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "advice": manage_selectors.time_control_advice(probe),
            **NAV,
        },
    )


def _int(value: Any, default: int, low: int, high: int) -> int:
    try:
        return max(low, min(high, int(value)))
    except (TypeError, ValueError):
        return default


def _probe_from(data: Any, fallback: Tournament) -> Tournament:
    """An unsaved tournament carrying only the time control the form shows, for the advice."""
    kinds = Tournament.Overtime.values
    kind = data.get("overtime_kind")
    return Tournament(
        basic_time_minutes=_int(
            data.get("basic_time_minutes"), fallback.basic_time_minutes, 0, 2000
        ),
        overtime_kind=kind if kind in kinds else fallback.overtime_kind,
        overtime_seconds=_int(data.get("overtime_seconds"), fallback.overtime_seconds, 0, 36000),
        overtime_moves=_int(data.get("overtime_moves"), fallback.overtime_moves, 1, 200),
        tournament_class=(
            data.get("tournament_class")
            if data.get("tournament_class") in Tournament.Klass.values
            else fallback.tournament_class
        ),
    )


@login_required
@require_GET
def manage_time_control(request: HttpRequest) -> HttpResponse:
    """The advice partial for the time control being typed (the form's script asks for it)."""
    _clubs(request)
    probe = _probe_from(request.GET, fallback=Tournament())
    return render(
        request,
        "tournaments/manage/_time_control_advice.html",
        {"advice": manage_selectors.time_control_advice(probe)},
    )


@login_required
@require_GET
def manage_tournament(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    return render(
        request,
        "tournaments/manage/tournament_detail.html",
        {
            "tournament": tournament,
            "crosstable": selectors.crosstable(tournament),
            "entered": manage_selectors.rounds_entered(tournament),
            "round_numbers": range(1, tournament.rounds + 1),
            "log": tournament.log.select_related("by").order_by("-at", "-id")[:20],
            "editable": tournament.status in manage_services.EDITABLE,
            "advice": manage_selectors.time_control_advice(tournament),
            "statuses": referee_selectors.recompute_status(tournament),
            **NAV,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if tournament.status not in manage_services.EDITABLE:
        messages.error(request, _("This table is locked; reopen it to change it."))
        return redirect("manage_tournament", pk=pk)
    clubs = manage_selectors.clubs_administered(request.user)
    if not clubs.filter(pk=tournament.organiser_id).exists():
        clubs = Club.objects.filter(pk=tournament.organiser_id) | clubs
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=pk), clubs=clubs)
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in TournamentForm.Meta.fields}
        try:
            manage_services.tournament_update(
                tournament=tournament,
                changes=changes,
                rating_lists=form.cleaned_data["rating_lists"],
                by=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The tournament is saved."))
            return redirect("manage_tournament", pk=pk)
    return _form_page(request, form, tournament)


@login_required
@require_http_methods(["GET", "POST"])
def manage_participants(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    editable = tournament.status in manage_services.EDITABLE
    search = MemberSearchForm(request.GET or None)
    create = MemberCreateForm(initial={"club": tournament.organiser_id})
    if request.method == "POST":
        if not editable:
            messages.error(request, _("This table is locked; reopen it to change it."))
            return redirect("manage_participants", pk=pk)
        action = request.POST.get("action")
        try:
            if action == "add":
                member = get_object_or_404(Member, pk=_int(request.POST.get("member"), 0, 0, 2**62))
                manage_services.participant_add(
                    tournament=tournament, member=member, by=request.user
                )
                messages.success(request, _("%(name)s is added.") % {"name": member.full_name})
                return redirect(f"{request.path}?{request.GET.urlencode()}")
            if action == "remove":
                participant = get_object_or_404(
                    Participant,
                    pk=_int(request.POST.get("participant"), 0, 0, 2**62),
                    tournament=tournament,
                )
                manage_services.participant_remove(
                    tournament=tournament, participant=participant, by=request.user
                )
                messages.success(request, _("The player is removed."))
                return redirect("manage_participants", pk=pk)
            if action == "create":
                create = MemberCreateForm(request.POST)
                if create.is_valid():
                    participant = manage_services.member_create_and_add(
                        tournament=tournament, member=create.save(commit=False), by=request.user
                    )
                    messages.success(
                        request,
                        _("%(name)s is a new member and plays in this tournament.")
                        % {"name": participant.member.full_name},
                    )
                    return redirect("manage_participants", pk=pk)
            else:
                raise Http404
        except ValidationError as error:
            for message in _errors(error):
                messages.error(request, message)
            return redirect("manage_participants", pk=pk)
    found = []
    if search.is_valid() and search.cleaned_data["q"]:
        found = manage_selectors.member_search(
            search.cleaned_data["q"], exclude_tournament=tournament
        )
    participants = tournament.participants.select_related("member", "member__club").order_by(
        "member__family_name", "member__given_name"
    )
    return render(
        request,
        "tournaments/manage/participants.html",
        {
            "tournament": tournament,
            "participants": participants,
            "search": search,
            "found": found,
            "create": create,
            "editable": editable,
            **NAV,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_round(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not 1 <= number <= tournament.rounds:
        raise Http404
    editable = tournament.status in manage_services.EDITABLE
    members = manage_selectors.tournament_members(tournament)
    initial = manage_selectors.round_initial(tournament, number)
    boards = max(len(initial), (members.count() + 1) // 2)
    extra = [{"kind": "played", "handicap": 0}] * (boards - len(initial))
    formset = RoundFormSet(
        request.POST or None, initial=initial + extra, members=members, prefix="board"
    )
    round_errors: list[str] = []
    if request.method == "POST":
        if not editable:
            messages.error(request, _("This table is locked; reopen it to change it."))
            return redirect("manage_round", pk=pk, number=number)
        if formset.is_valid():
            pairings = [
                services.Pairing(
                    white=b["white"], black=b["black"], result=b["result"] or "",
                    kind=b["kind"], handicap=b["handicap"] or 0,
                )
                for b in formset.boards()
            ]  # fmt: skip
            try:
                services.round_replace(
                    tournament=tournament, round_number=number, pairings=pairings,
                    by=request.user,
                )  # fmt: skip
            except ValidationError as error:
                round_errors = _errors(error)
            else:
                messages.success(
                    request, _("Round %(n)d is saved: %(boards)d boards.")
                    % {"n": number, "boards": len(pairings)},
                )  # fmt: skip
                if number < tournament.rounds and "next" in request.POST:
                    return redirect("manage_round", pk=pk, number=number + 1)
                return redirect("manage_round", pk=pk, number=number)
    return render(
        request,
        "tournaments/manage/round.html",
        {
            "tournament": tournament,
            "number": number,
            "formset": formset,
            "round_errors": round_errors,
            "editable": editable,
            "round_numbers": range(1, tournament.rounds + 1),
            "entered": manage_selectors.rounds_entered(tournament),
            "crosstable": selectors.crosstable(tournament, with_changes=False),
            **NAV,
        },
    )


@login_required
@require_POST
def manage_submit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    try:
        services.tournament_submit(tournament=tournament, by=request.user)
    except ValidationError as error:
        for message in _errors(error):
            messages.error(request, message)
    else:
        messages.success(request, _("The table is submitted; the referee will look at it."))
    return redirect("manage_tournament", pk=pk)


@login_required
@require_POST
def manage_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = DecisionCommentForm(request.POST)
    comment = form.cleaned_data["comment"] if form.is_valid() else ""
    try:
        services.tournament_reopen(tournament=tournament, by=request.user, comment=comment)
    except ValidationError as error:
        for message in _errors(error):
            messages.error(request, message)
    else:
        messages.success(request, _("The table is a draft again: correct it and submit it."))
    return redirect("manage_tournament", pk=pk)


# --- results import -------------------------------------------------------------------


def _stash(request: HttpRequest, data: bytes, meta: dict[str, Any]) -> str:
    token = secrets.token_urlsafe(16)
    request.session[IMPORT_SESSION_KEY] = {
        "token": token, "data": base64.b64encode(data).decode("ascii"), **meta,
    }  # fmt: skip
    return token


def _unstash(request: HttpRequest, token: str) -> tuple[bytes, dict[str, Any]] | None:
    stash = request.session.get(IMPORT_SESSION_KEY)
    if not stash or not secrets.compare_digest(str(stash.get("token", "")), token):
        return None
    return base64.b64decode(stash["data"]), stash


def _choice_options(match: importing.PlayerMatch) -> list[tuple[str, str]]:
    """What the admin may say a file player is: the match, a candidate, or a new member."""
    options: list[tuple[str, str]] = []
    members = ([match.member] if match.member is not None else []) + list(match.candidates)
    seen = set()
    for member in members:
        if member.pk in seen:
            continue
        seen.add(member.pk)
        club = f", {member.club.name}" if member.club_id else ""
        options.append((str(member.pk), f"{member.full_name} (#{member.pk}{club})"))
    options.append(("new", _("a new member")))
    return options


def _preview_rows(preview: importing.ImportPreview, posted: Any = None) -> list[dict[str, Any]]:
    rows = []
    for index, match in enumerate(preview.players):
        options = _choice_options(match)
        default = (
            str(match.member.pk)
            if match.status == "matched"
            else ("new" if match.status == "new" else "")
        )
        chosen = posted.get(f"choice-{index}", default) if posted is not None else default
        rows.append({"index": index, "match": match, "options": options, "chosen": chosen})
    return rows


def _render_preview(
    request: HttpRequest,
    preview: importing.ImportPreview,
    token: str,
    *,
    filename: str,
    posted: Any = None,
    errors: list[str] | None = None,
) -> HttpResponse:
    confirm = ImportConfirmForm(posted or None, initial={"token": token})
    if posted is None:
        confirm = ImportConfirmForm(initial={"token": token})
    return render(
        request,
        "tournaments/manage/import_preview.html",
        {
            "preview": preview,
            "rows": _preview_rows(preview, posted),
            "confirm": confirm,
            "filename": filename,
            "errors": errors or [],
            **NAV,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_import(request: HttpRequest) -> HttpResponse:
    """Upload a results file and see what it would become; nothing is saved here."""
    clubs = _clubs(request)
    form = ResultsUploadForm(request.POST or None, request.FILES or None, clubs=clubs)
    problems = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read()
        fmt = form.cleaned_data["fmt"] or guess_format(upload.name)
        try:
            results = parse_results(data, fmt, upload.name)
        except FormatError as error:
            problems = error.problems
        else:
            organiser: Club = form.cleaned_data["organiser"]
            rating_list: RatingList | None = form.cleaned_data["rating_list"]
            preview = importing.results_preview(
                results=results, rating_list=rating_list, organiser=organiser, fmt=fmt
            )
            token = _stash(
                request,
                data,
                {
                    "fmt": fmt, "filename": upload.name, "organiser": organiser.pk,
                    "rating_list": rating_list.pk if rating_list else None,
                },
            )  # fmt: skip
            return _render_preview(request, preview, token, filename=upload.name)
    return render(
        request,
        "tournaments/manage/import_upload.html",
        {"form": form, "problems": problems, **NAV},
    )


@login_required
@require_POST
def manage_import_confirm(request: HttpRequest) -> HttpResponse:
    """Save the previewed file with the admin's choices, all or nothing."""
    clubs = _clubs(request)
    token = request.POST.get("token", "")
    stashed = _unstash(request, token)
    if stashed is None:
        messages.error(request, _("That upload has expired; please upload the file again."))
        return redirect("manage_import")
    data, meta = stashed
    organiser = clubs.filter(pk=meta["organiser"]).first()
    if organiser is None:
        raise PermissionDenied(_("You do not administer this club."))
    rating_list = RatingList.objects.filter(pk=meta.get("rating_list")).first()
    results = parse_results(data, meta["fmt"], meta["filename"])
    preview = importing.results_preview(
        results=results, rating_list=rating_list, organiser=organiser, fmt=meta["fmt"]
    )
    confirm = ImportConfirmForm(request.POST)
    errors: list[str] = []
    choices: dict[str, Any] = {}
    for row in _preview_rows(preview, request.POST):
        allowed = {value for value, _label in row["options"]}
        chosen = row["chosen"]
        if chosen == "":
            continue  # undecided: results_import names him
        if chosen not in allowed:
            errors.append(
                _("%(player)s: choose from the list.") % {"player": row["match"].player.name}
            )
            continue
        choices[row["match"].key] = "new" if chosen == "new" else int(chosen)
    if not confirm.is_valid():
        errors.append(_("Choose how to save the table."))
    if not errors:
        try:
            tournament = importing.results_import(
                results=results, rating_list=rating_list, organiser=organiser,
                by=request.user, choices=choices, status=confirm.cleaned_data["status"],
                fmt=meta["fmt"], source=meta["filename"],
            )  # fmt: skip
        except ValidationError as error:
            errors = _errors(error)
        else:
            request.session.pop(IMPORT_SESSION_KEY, None)
            messages.success(
                request,
                _("%(name)s is imported with %(n)d players.")
                % {"name": tournament.name, "n": len(preview.players)},
            )
            return redirect("manage_tournament", pk=tournament.pk)
    return _render_preview(
        request, preview, token, filename=meta["filename"], posted=request.POST, errors=errors
    )
