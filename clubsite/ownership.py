"""Whose record a member is: his club's. Its admins (and staff) change him; anyone else
may only propose identity data through a table (`tournaments.review.proposals`)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from clubsite.models import Club, Member

User = AbstractBaseUser | AnonymousUser


def clubs_administered(user: User | None) -> QuerySet[Club]:
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(admins=user)


def may_edit_member(user: User | None, member: Member) -> bool:
    """Staff, or an admin of the member's own club. A member without a club is staff's."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return member.club_id is not None and member.club.admins.filter(pk=user.pk).exists()


def may_add_to_club(user: User | None, club: Club | None) -> bool:
    """A new member joins a club only by that club's admins (or staff); no club is open."""
    if club is None:
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or club.admins.filter(pk=user.pk).exists()


def may_see_member_history(user: User | None, member: Member) -> bool:
    """His record's changes are shown to staff and to his club's admins."""
    return may_edit_member(user, member)


def may_confirm_member_claim(user: User | None, member: Member) -> bool:
    """Who confirms that an account is this member ("this is me", issue 56): whoever keeps
    his record, his club's admins and staff. The one check of it: a registrar's rights
    (the rules module of the `authority` work) are to be added here."""
    return may_edit_member(user, member)
