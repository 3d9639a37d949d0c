"""Reads of the club domain: a club, the member behind a user, a member's history.

The pages that add ratings and tournaments read through `ratings.site_selectors`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from clubsite.authority import members_kept_by
from clubsite.models import Club, Member, MemberClaim, Profile


def club_get(slug: str) -> Club:
    return Club.objects.get(slug=slug)


def member_for_user(user: object) -> Member | None:
    return Member.objects.filter(user=user).select_related("club").first()


@dataclass(frozen=True)
class MemberChange:
    """One change of a member's record: when, who, why, and each field before → after."""

    at: datetime.datetime
    who: str
    reason: str
    kind: str  # "+" created, "~" changed, "-" deleted
    fields: tuple[tuple[str, str, str], ...]


def _text(member_field: Any, value: Any, clubs: dict[int, Club]) -> str:
    if value is None or value == "":
        return "—"
    if member_field.name == "club":
        club = clubs.get(value)
        return club.name if club is not None else f"#{value}"
    return str(value)


def member_changes(member: Member) -> list[MemberChange]:
    """His history, newest first (contact details are not kept in it)."""
    records = list(member.history.select_related("history_user").order_by("history_date"))
    club_ids = {r.club_id for r in records if r.club_id}
    clubs = Club.objects.in_bulk(list(club_ids))
    changes: list[MemberChange] = []
    previous = None
    for record in records:
        fields = []
        if previous is not None:
            delta = record.diff_against(previous)
            for change in delta.changes:
                model_field = Member._meta.get_field(change.field)
                fields.append(
                    (
                        str(model_field.verbose_name),
                        _text(model_field, change.old, clubs),
                        _text(model_field, change.new, clubs),
                    )
                )
        user = record.history_user
        changes.append(
            MemberChange(
                at=record.history_date,
                who=user.get_username() if user is not None else "",
                reason=record.history_change_reason or "",
                kind=record.history_type,
                fields=tuple(fields),
            )
        )
        previous = record
    changes.reverse()
    return changes


def profile_for_user(user: object) -> Profile:
    """The user's settings; an unsaved one with the defaults when he never saved any."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)  # type: ignore[misc]


def member_claim_pending_for_user(user: object) -> MemberClaim | None:
    return (
        MemberClaim.objects.filter(user=user, state=MemberClaim.State.PENDING)
        .select_related("member")
        .first()
    )


def member_claims_to_decide(user: object) -> QuerySet[MemberClaim]:
    """The pending "this is me" requests he may decide: those about the members whose
    identity he keeps (his clubs' members, a registrar's scope; staff: all)."""
    claims = MemberClaim.objects.filter(state=MemberClaim.State.PENDING).select_related(
        "user", "member__club"
    )
    kept = Member.objects.filter(members_kept_by(user)).values("pk")
    return claims.filter(member__in=kept).order_by("created_at", "pk")
