"""The club admin's pages: his tournaments, their players, rounds, submission.

Thin views: forms validate, `manage_services` / `services` write, `manage_selectors` /
`selectors` read. Every view asks `manage_access` who may act. The pages that involve
rating lists (the tournament form and page, the results import) are the ratings app's:
`tournaments.views.manage.lists`, `tournaments.views.manage.importing`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubsite.duplicates import Candidate, likely_duplicates
from clubsite.models import Member
from ratings.submissions.services import tournament_reopen_and_unrate
from tournaments import manage_selectors, manage_services, selectors, services
from tournaments.handicaps import handicap_warnings
from tournaments.models import Participant, Tournament
from tournaments.review.pairing_checks import pairing_warnings
from tournaments.views.forms import (
    DecisionCommentForm,
    MemberCreateForm,
    MemberSearchForm,
    RoundFormSet,
)
from tournaments.views.manage.access import (
    NAV,
    clubs_or_403,
    error_messages,
    int_between,
    time_control_probe,
    tournament_or_403,
)


@login_required
@require_GET
def manage_tournaments(request: HttpRequest) -> HttpResponse:
    clubs = clubs_or_403(request)
    tournaments = manage_selectors.tournaments_managed(request.user)[:200]
    return render(
        request,
        "tournaments/manage/tournament_list.html",
        {"clubs": clubs, "tournaments": tournaments, **NAV},
    )


@login_required
@require_GET
def manage_time_control(request: HttpRequest) -> HttpResponse:
    """The advice partial for the time control being typed (the form's script asks for it)."""
    clubs_or_403(request)
    probe = time_control_probe(request.GET, fallback=Tournament())
    return render(
        request,
        "tournaments/manage/_time_control_advice.html",
        {"advice": manage_selectors.time_control_advice(probe)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_participants(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
    editable = tournament.status in manage_services.EDITABLE
    search = MemberSearchForm(request.GET or None)
    duplicates: list[Candidate] = []
    own_clubs = manage_selectors.clubs_administered(request.user)
    create = MemberCreateForm(
        initial={"club": tournament.organiser_id, "country": tournament.organiser.country},
        clubs=own_clubs,
    )
    if request.method == "POST":
        if not editable:
            messages.error(request, _("This table is locked; reopen it to change it."))
            return redirect("manage_participants", pk=pk)
        action = request.POST.get("action")
        try:
            if action == "add":
                member = get_object_or_404(
                    Member, pk=int_between(request.POST.get("member"), 0, 0, 2**62)
                )
                manage_services.participant_add(
                    tournament=tournament, member=member, by=request.user
                )
                messages.success(request, _("%(name)s is added.") % {"name": member.full_name})
                return redirect(f"{request.path}?{request.GET.urlencode()}")
            if action == "add_many":
                return _add_many(request, tournament)
            if action == "remove":
                participant = get_object_or_404(
                    Participant,
                    pk=int_between(request.POST.get("participant"), 0, 0, 2**62),
                    tournament=tournament,
                )
                manage_services.participant_remove(
                    tournament=tournament, participant=participant, by=request.user
                )
                messages.success(request, _("The player is removed."))
                return redirect("manage_participants", pk=pk)
            if action == "create":
                create = MemberCreateForm(request.POST, clubs=own_clubs)
                if create.is_valid() and not request.POST.get("confirm_new"):
                    duplicates = _likely_duplicates(create.cleaned_data, tournament)
                if create.is_valid() and not duplicates:
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
            for message in error_messages(error):
                messages.error(request, message)
            return redirect("manage_participants", pk=pk)
    found = []
    if search.is_valid() and search.cleaned_data["q"]:
        found = manage_selectors.member_search(
            search.cleaned_data["q"], exclude_tournament=tournament
        )
    roster_query = (request.GET.get("roster") or "").strip()[:100]
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
            "duplicates": duplicates,
            "editable": editable,
            "roster_query": roster_query,
            "roster": manage_selectors.club_roster(tournament, roster_query) if editable else [],
            "recent": manage_selectors.recent_club_players(tournament, roster_query)
            if editable
            else [],
            **NAV,
        },
    )


def _likely_duplicates(data: dict, tournament: Tournament) -> list[Candidate]:
    """The members the new one may already be, those already in this tournament too
    (Остап Гнатюк typed beside Ostap Hnatyuk, who plays)."""
    birth = data.get("birth_date")
    playing = set(tournament.participants.values_list("member_id", flat=True))
    return likely_duplicates(
        family_name=data["family_name"], given_name=data.get("given_name") or "",
        birth_year=birth.year if birth else None, club=data.get("club"), playing=playing,
    )  # fmt: skip


def _add_many(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The members ticked in the club's roster or the recent players."""
    ids = {int_between(value, 0, 0, 2**62) for value in request.POST.getlist("members")}
    members = list(Member.objects.filter(pk__in=ids - {0}).order_by("family_name"))
    manage_services.participants_add(tournament=tournament, members=members, by=request.user)
    messages.success(
        request,
        ngettext("%(n)d player is added.", "%(n)d players are added.", len(members))
        % {"n": len(members)},
    )
    return redirect(f"{request.path}?{request.GET.urlencode()}")


@login_required
@require_http_methods(["GET", "POST"])
def manage_round(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
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
                    colours_known=b.get("colour") != "unknown",
                )
                for b in formset.boards()
            ]  # fmt: skip
            try:
                services.round_replace(
                    tournament=tournament, round_number=number, pairings=pairings,
                    by=request.user,
                )  # fmt: skip
            except ValidationError as error:
                round_errors = error_messages(error)
            else:
                messages.success(
                    request, _("Round %(n)d is saved: %(boards)d boards.")
                    % {"n": number, "boards": len(pairings)},
                )  # fmt: skip
                saved = tournament.games.filter(round=number).select_related("white", "black")
                for text in handicap_warnings(tournament, saved):
                    messages.warning(request, text)
                for text in pairing_warnings(tournament, round_number=number):
                    messages.warning(request, text)
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
            "crosstable": selectors.crosstable(tournament),
            **NAV,
        },
    )


@login_required
@require_POST
def manage_submit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
    try:
        services.tournament_submit(
            tournament=tournament, by=request.user, comment=request.POST.get("reply", "")[:4000]
        )
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(request, _("The table is submitted; the referee will look at it."))
        warning = manage_selectors.empty_rounds_warning(tournament)
        if warning:
            messages.warning(request, warning)
    return redirect("manage_tournament", pk=pk)


@login_required
@require_POST
def manage_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
    form = DecisionCommentForm(request.POST)
    comment = form.cleaned_data["comment"] if form.is_valid() else ""
    try:
        tournament_reopen_and_unrate(tournament=tournament, by=request.user, comment=comment)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(request, _("The table is a draft again: correct it and submit it."))
    return redirect("manage_tournament", pk=pk)


@login_required
@require_POST
def manage_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Abandon a draft: the table, its games and the identity data it proposed go."""
    tournament = tournament_or_403(request, pk)
    try:
        manage_services.tournament_delete_draft(tournament=tournament, by=request.user)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
        return redirect("manage_tournament", pk=pk)
    messages.success(request, _("The draft %(name)s is deleted.") % {"name": tournament.name})
    return redirect("manage_tournaments")
