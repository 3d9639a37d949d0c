"""The inbox of those who keep members' identities (issue 54, docs/authority.md): a club's
admins and the registrars accept or decline what others proposed about their members;
a registrar also sees the merges referees and club admins asked for."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubsite import authority
from clubsite.models import MergeRequest
from ratings.merging import may_merge
from tournaments.models import MemberProposal
from tournaments.review.proposals import proposal_decide as decide
from tournaments.review.proposals import proposals_waiting_for

SHOWN = 500  # the oldest waiting first; a keeper works through them


@login_required
@require_GET
def proposal_inbox(request: HttpRequest) -> HttpResponse:
    proposals = list(proposals_waiting_for(request.user)[:SHOWN])
    requests = []
    if authority.allowed(request.user, "registrar.inbox"):
        candidates = MergeRequest.objects.select_related("keep", "drop", "requested_by")
        requests = [r for r in candidates[:SHOWN] if may_merge(request.user, r.keep, r.drop)]
    return render(
        request,
        "clubsite/proposal_inbox.html",
        {"proposals": proposals, "merge_requests": requests},
    )


@login_required
@require_POST
def proposal_decide(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = get_object_or_404(MemberProposal.objects.select_related("member"), pk=pk)
    if not authority.allowed(request.user, "proposal.decide", proposal):
        raise PermissionDenied(_("Only his club's admins or a registrar decide what he is."))
    choice = request.POST.get("decision")
    if choice not in ("accept", "decline"):
        messages.error(request, _("Choose to accept or decline the proposal."))
        return redirect("proposal_inbox")
    try:
        decided = decide(proposal=proposal, by=request.user, accept=choice == "accept")
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        if decided.outcome:
            messages.warning(request, decided.outcome)
        else:
            messages.success(request, _("Decided; his history keeps it."))
    return redirect("proposal_inbox")
