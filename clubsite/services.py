"""Writes of the public site: a player updating his own contact details."""

from __future__ import annotations

from clubsite.models import Member


def member_update_contact(*, member: Member, email: str, phone: str) -> Member:
    """Only e-mail and phone; nothing else of a member is his to change."""
    member.email = email
    member.phone = phone
    member.full_clean(exclude=["grade"])
    member.save(update_fields=["email", "phone"])
    return member
