"""A member's record: its history of changes (those who keep him: his club's admins, a
registrar, staff), and the merge of two members who are one person: a registrar's act,
which referees and club admins may ask for, and a registrar undoes (docs/authority.md)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubsite import authority, numbers
from clubsite.authority import may_see_member_history
from clubsite.duplicates import likely_duplicates
from clubsite.models import Member, MemberMerge
from clubsite.selectors import member_changes
from ratings.merging import (
    may_merge,
    members_merge,
    members_merge_undo,
    merge_request_make,
    shared_tournaments,
)


@login_required
@require_GET
def member_history(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    if not may_see_member_history(request.user, member):
        raise PermissionDenied(_("His history is shown to those who keep his record."))
    return render(
        request,
        "clubsite/member_history.html",
        {"member": member, "changes": member_changes(member)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another member into this one (or this one into him): a registrar of both; a
    referee or a club admin asks a registrar to."""
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    may_request = authority.allowed(request.user, "member.request_merge", member)
    if not (may_request or may_merge(request.user, member)):
        raise PermissionDenied(_("Only a registrar merges members; referees and club admins ask."))
    source = request.POST if request.method == "POST" else request.GET
    other_id = int_or_none(source.get("other"))
    other = (
        Member.objects.select_related("club").filter(pk=other_id).exclude(pk=pk).first()
        if other_id
        else None
    )
    if request.method == "POST" and other is not None:
        keep, drop = (other, member) if source.get("keep") == str(other.pk) else (member, other)
        if source.get("request"):
            merge_request_make(keep=keep, drop=drop, by=request.user)
            messages.success(request, _("A registrar will see your request."))
            return redirect("player_detail", pk=keep.pk)
        if not may_merge(request.user, keep, drop):
            raise PermissionDenied(_("Only a registrar of both members merges them."))
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
            "may_merge": may_merge(request.user, member, *([other] if other else [])),
            "merges": MemberMerge.objects.filter(kept_id=member.pk, undone_at__isnull=True),
        },
    )


@login_required
@require_POST
def member_merge_undo(request: HttpRequest, pk: int) -> HttpResponse:
    merge = get_object_or_404(MemberMerge, pk=pk)
    try:
        dropped = members_merge_undo(merge=merge, by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("member_merge", pk=merge.kept_id)
    messages.success(request, _("The merge is undone; their lists recompute."))
    return redirect("player_detail", pk=dropped.pk)


def int_or_none(value: object) -> int | None:
    # "²".isdigit() is true yet int("²") fails: the one bounded reader.
    return numbers.int_or_none(str(value or "").strip(), minimum=1, maximum=numbers.MAX_ID)
