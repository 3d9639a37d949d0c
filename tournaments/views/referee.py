"""The referee's pages: the approval queue, a table's review with its rating impact,
the decision, and the recompute status that follows it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubsite.authority import can_view, is_referee
from clubsite.numbers import MAX_ID, int_or_none
from ratings.crosstable import crosstable_with_ratings
from ratings.services import rating_impact_preview
from ratings.submissions import selectors as referee_selectors
from ratings.submissions.list_approval import undecided_for
from ratings.submissions.services import tournament_approve_and_rate, tournament_reject_for_lists
from tournaments.models import Tournament
from tournaments.review.conversation import conversation
from tournaments.review.proposals import proposals_for_review
from tournaments.review.submission_diff import submission_diff
from tournaments.views.forms import DecisionCommentForm

NAV = {"nav_active": "referee"}


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    if not is_referee(request.user, tournament):
        raise PermissionDenied(_("Only a referee of its rating lists reviews this table."))
    return tournament


@login_required
@require_GET
def referee_queue(request: HttpRequest) -> HttpResponse:
    lists = referee_selectors.refereed_lists(request.user)
    if not lists.exists():
        raise PermissionDenied(_("You referee no rating list."))
    return render(
        request,
        "referee/queue.html",
        {
            "lists": lists,
            "queue": referee_selectors.referee_queue(request.user),
            "recent": referee_selectors.referee_recent(request.user),
            "club_notes": referee_selectors.club_notes_unanswered(request.user),
            **NAV,
        },
    )


@login_required
@require_GET
def referee_review(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    mine = list(undecided_for(request.user, tournament))
    has_lists = tournament.list_links.exists()
    # His decision is asked while one of his lists is undecided (staff: a table without lists).
    submitted = tournament.status == Tournament.Status.SUBMITTED and (
        bool(mine) or (request.user.is_staff and not has_lists)
    )
    return render(
        request,
        "referee/review.html",
        {
            "tournament": tournament,
            "crosstable": crosstable_with_ratings(tournament),
            "warnings": referee_selectors.review_warnings(tournament),
            "impacts": rating_impact_preview(tournament=tournament) if submitted else None,
            "statuses": referee_selectors.recompute_status(tournament),
            "proposals": proposals_for_review(tournament),
            "form": DecisionCommentForm(),
            "submitted": submitted,
            "my_lists": [link.rating_list for link in mine],
            "conversation": conversation(tournament),
            "diff": submission_diff(tournament) if submitted else None,
            **NAV,
        },
    )


@login_required
@require_POST
def referee_decide(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = DecisionCommentForm(request.POST)
    decision = request.POST.get("decision")
    if decision not in ("approve", "reject") or not form.is_valid():
        messages.error(request, _("Choose to approve or reject the table."))
        return redirect("referee_review", pk=pk)
    comment = form.cleaned_data["comment"]
    chosen = request.POST.getlist("lists")
    rating_lists = None
    if chosen:
        ids = [int_or_none(v, minimum=1, maximum=MAX_ID) for v in chosen]  # "²".isdigit()
        rating_lists = [link.rating_list for link in undecided_for(request.user, tournament)
                        if link.rating_list_id in ids]  # fmt: skip
    try:
        if decision == "approve":
            tournament_approve_and_rate(
                tournament=tournament, by=request.user, comment=comment, rating_lists=rating_lists
            )
            messages.success(request, _("Approved for your lists; they are being recomputed."))
        else:
            tournament_reject_for_lists(
                tournament=tournament, by=request.user, comment=comment, rating_lists=rating_lists
            )
            messages.success(request, _("Refused for your lists. The club sees your comment."))
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    return redirect("referee_review", pk=pk)


@require_GET
def recompute_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The small status partial the review and manage pages reload until the ratings are in."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can_view(request.user, tournament):
        raise Http404
    statuses = referee_selectors.recompute_status(tournament)
    return render(
        request,
        "referee/_recompute_status.html",
        {"tournament": tournament, "statuses": statuses, "partial": True},
    )
