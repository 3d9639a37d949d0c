"""A member's record: its history of changes (staff and his club's admins), and the
merge of two members who are one person (staff and referees)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clubsite import numbers
from clubsite.duplicates import likely_duplicates
from clubsite.models import Member
from clubsite.ownership import may_see_member_history
from clubsite.selectors import member_changes
from ratings.merging import may_merge, members_merge, shared_tournaments


@login_required
@require_GET
def member_history(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    if not may_see_member_history(request.user, member):
        raise PermissionDenied(_("His history is shown to staff and to his club's admins."))
    return render(
        request,
        "clubsite/member_history.html",
        {"member": member, "changes": member_changes(member)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another member into this one (or this one into him): staff and referees."""
    if not may_merge(request.user):
        raise PermissionDenied(_("Only staff and referees merge members."))
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    source = request.POST if request.method == "POST" else request.GET
    other_id = int_or_none(source.get("other"))
    other = (
        Member.objects.select_related("club").filter(pk=other_id).exclude(pk=pk).first()
        if other_id
        else None
    )
    if request.method == "POST" and other is not None:
        keep, drop = (other, member) if source.get("keep") == str(other.pk) else (member, other)
        try:
            outcome = members_merge(keep=keep, drop=drop, by=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(
                request,
                _("%(drop)s is now part of %(keep)s; %(n)d lists recompute.")
                % {"drop": drop.full_name, "keep": keep.full_name, "n": len(outcome.recomputed)},
            )
            return redirect("player_detail", pk=keep.pk)
    candidates = likely_duplicates(
        family_name=member.family_name, given_name=member.given_name, exclude=[member.pk]
    )
    return render(
        request,
        "clubsite/member_merge.html",
        {
            "member": member,
            "other": other,
            "candidates": candidates,
            "both_played": shared_tournaments(member, other) if other is not None else [],
        },
    )


def int_or_none(value: object) -> int | None:
    # "²".isdigit() is true yet int("²") fails: the one bounded reader.
    return numbers.int_or_none(str(value or "").strip(), minimum=1, maximum=numbers.MAX_ID)
