"""The "this is me" requests (issue 56): a signed-in user asks to be linked to a member;
the member's club admin (or staff) confirms or refuses it on the requests page; "my
profile" then leads to his ratings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.models import Member, MemberClaim
from clubsite.numbers import MAX_ID, int_or_none
from clubsite.selectors import member_claims_to_decide
from clubsite.services import member_claim_create, member_claim_decide


@login_required
@require_POST
def member_claim(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    try:
        member_claim_create(user=request.user, member=member)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request, _("Asked: his club's admin will confirm that this player is you.")
        )
    return redirect("player_detail", pk=member.pk)


@login_required
@require_http_methods(["GET", "POST"])
def member_claims(request: HttpRequest) -> HttpResponse:
    """The requests he may decide, and their decision (POST `claim`, `decision`)."""
    claims = member_claims_to_decide(request.user)
    if request.method == "POST":
        claim_id = int_or_none(request.POST.get("claim"), minimum=1, maximum=MAX_ID)
        claim = get_object_or_404(MemberClaim, pk=claim_id or 0)
        decision = request.POST.get("decision")
        if decision not in ("confirm", "refuse"):
            messages.error(request, _("Choose to confirm or to refuse."))
            return redirect("member_claims")
        try:
            member_claim_decide(claim=claim, by=request.user, confirm=decision == "confirm")
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Decided."))
        return redirect("member_claims")
    return render(
        request, "clubsite/member_claims.html", {"claims": claims[:200], "nav_active": "manage"}
    )
