"""Reads of the club domain: a club, the member behind a user.

The pages that add ratings and tournaments read through `ratings.site_selectors`.
"""

from __future__ import annotations

from clubsite.models import Club, Member, Profile


def club_get(slug: str) -> Club:
    return Club.objects.get(slug=slug)


def member_for_user(user: object) -> Member | None:
    return Member.objects.filter(user=user).select_related("club").first()


def profile_for_user(user: object) -> Profile:
    """The user's settings; an unsaved one with the defaults when he never saved any."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)  # type: ignore[misc]
