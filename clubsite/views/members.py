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
from clubsite.player_search import player_find
from clubsite.selectors import member_changes
from ratings.merging import (
    may_merge,
    members_merge,
    members_merge_undo,
    merge_request_make,
    shared_tournaments,
)
from ratings.site_selectors import member_merge_side


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
    typed = str(source.get("other", "")).strip()[:100]
    other, found = _other_member(member, typed, exact=request.method == "POST")
    if request.method == "POST" and other is not None:
        keep, drop = (other, member) if source.get("keep") == str(other.pk) else (member, other)
        if source.get("request"):
            merge_request_make(keep=keep, drop=drop, by=request.user)
            messages.success(request, _("A registrar will see your request."))
            return redirect("player_detail", pk=keep.pk)
        if not may_merge(request.user, keep, drop):
            raise PermissionDenied(_("Only a registrar of both members merges them."))
        if not source.get("confirm"):
            messages.error(request, _("Tick the box to confirm that they are one person."))
        elif (merged := _merge(request, keep, drop)) is not None:
            return merged
    candidates = likely_duplicates(
        family_name=member.family_name, given_name=member.given_name, exclude=[member.pk]
    )
    return render(
        request,
        "clubsite/member_merge.html",
        {
            "member": member,
            "other": other,
            "typed": typed,
            "found": found,
            "sides": [member_merge_side(m) for m in (member, other) if m is not None],
            "candidates": candidates,
            "both_played": shared_tournaments(member, other) if other is not None else [],
            "may_merge": may_merge(request.user, member, *([other] if other else [])),
            "merges": MemberMerge.objects.filter(kept_id=member.pk, undone_at__isnull=True),
        },
    )


def _other_member(member: Member, typed: str, *, exact: bool) -> tuple[Member | None, list]:
    """The member to compare: by his number as posted (`exact`), else as the site search
    finds what was typed (his number, a name in any spelling, an EGD PIN, a FIDE ID);
    several found are offered to choose from."""
    if exact:
        other = Member.objects.select_related("club").filter(pk=int_or_none(typed) or 0).first()
        return (other if other is not None and other.pk != member.pk else None), []
    if not typed:
        return None, []
    result = player_find(typed)
    found = [result.member] if result.member is not None else result.candidates
    others = [m for m in found if m.pk != member.pk]  # typing his own name finds him too
    if len(others) == 1:
        return Member.objects.select_related("club").get(pk=others[0].pk), []
    return None, others


def _merge(request: HttpRequest, keep: Member, drop: Member) -> HttpResponse | None:
    """Merge and go to the kept member; None (the page again) when the merge is refused."""
    try:
        outcome = members_merge(keep=keep, drop=drop, by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return None
    messages.success(
        request,
        _("%(drop)s is now part of %(keep)s; %(n)d lists recompute.")
        % {"drop": drop.full_name, "keep": keep.full_name, "n": len(outcome.recomputed)},
    )
    return redirect("player_detail", pk=keep.pk)


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
