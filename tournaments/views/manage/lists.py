"""The club admin's tournament form and tournament page: they show the rating lists.

Mounted at /manage/ with `tournaments.views.manage.urls` (see `tournaments.views.manage.list_urls`). Who may
act is asked of `tournaments.views.manage.access`; the tournament is saved by
`ratings.submissions.services`, which sets its lists in the same transaction.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clubsite.models import Club
from ratings.crosstable import crosstable_with_ratings
from ratings.submissions import selectors as referee_selectors
from ratings.submissions import services as submission_services
from ratings.submissions.list_approval import any_list_decided
from tournaments import manage_selectors, manage_services
from tournaments.messages import history_entry
from tournaments.models import Tournament
from tournaments.review.conversation import conversation
from tournaments.review.proposals import proposals_for_review
from tournaments.views.list_forms import TournamentListsForm
from tournaments.views.manage.access import NAV, clubs_or_403, time_control_probe, tournament_or_403


@login_required
@require_http_methods(["GET", "POST"])
def manage_tournament_create(request: HttpRequest) -> HttpResponse:
    clubs = clubs_or_403(request)
    form = TournamentListsForm(
        request.POST or None, clubs=clubs, initial={"organiser": clubs.first()}
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = submission_services.tournament_create_with_lists(
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


def _form_page(
    request: HttpRequest, form: TournamentListsForm, tournament: Tournament | None
) -> HttpResponse:
    probe = form.instance
    if form.is_bound:
        probe = time_control_probe(form.data, fallback=probe)
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


@login_required
@require_GET
def manage_tournament(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
    return render(
        request,
        "tournaments/manage/tournament_detail.html",
        {
            "tournament": tournament,
            "crosstable": crosstable_with_ratings(tournament),
            "entered": manage_selectors.rounds_entered(tournament),
            "round_numbers": range(1, tournament.rounds + 1),
            "log": [
                history_entry(log)
                for log in tournament.log.select_related("by").order_by("-at", "-id")[:20]
            ],
            "editable": tournament.status in manage_services.EDITABLE,
            "advice": manage_selectors.time_control_advice(tournament),
            "statuses": referee_selectors.recompute_status(tournament),
            "proposals": proposals_for_review(tournament),
            "empty_rounds": manage_selectors.empty_rounds_warning(tournament),
            "conversation": conversation(tournament),
            "withdrawable": tournament.status == Tournament.Status.SUBMITTED
            and not any_list_decided(tournament),
            **NAV,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
    if tournament.status not in manage_services.EDITABLE:
        messages.error(request, _("This table is locked; reopen it to change it."))
        return redirect("manage_tournament", pk=pk)
    clubs = manage_selectors.clubs_administered(request.user)
    if not clubs.filter(pk=tournament.organiser_id).exists():
        clubs = Club.objects.filter(pk=tournament.organiser_id) | clubs
    form = TournamentListsForm(
        request.POST or None, instance=Tournament.objects.get(pk=pk), clubs=clubs
    )
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in TournamentListsForm.Meta.fields}
        try:
            submission_services.tournament_update_with_lists(
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
