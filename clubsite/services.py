"""Writes of the public site: a player updating his own contact details."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.models import Member, Profile


@transaction.atomic
def account_update_contact(
    *, user: AbstractBaseUser, member: Member | None, email: str, phone: str | None = None
) -> None:
    """The account's e-mail (the address a password reset uses) and the linked member's
    e-mail and phone, kept the same. Nothing else of a member is his to change."""
    email = get_user_model().objects.normalize_email(email.strip())
    taken = (
        get_user_model()
        .objects.filter(email__iexact=email, is_active=True)
        .exclude(pk=user.pk)
        .exists()
    )
    if email and taken:
        raise ValidationError(_("Another account uses this e-mail address."))
    user.email = email
    user.full_clean(exclude=["password", "username"])
    user.save(update_fields=["email"])
    if member is not None:
        member.email = email
        if phone is not None:
            member.phone = phone
        member.full_clean(exclude=["grade"])
        member.save(update_fields=["email", "phone"])


MAIL_FLAGS = ("mail_submitted", "mail_approved", "mail_rejected", "mail_reopened", "mail_rating")


@transaction.atomic
def profile_update(*, user: AbstractBaseUser, language: str, **flags: bool) -> Profile:
    """Save the language of the user's mail and which kinds of mail he wants."""
    unknown = set(flags) - set(MAIL_FLAGS)
    if unknown:
        raise ValueError(f"unknown mail kinds: {sorted(unknown)}")
    profile, _created = Profile.objects.get_or_create(user=user)
    profile.language = language
    for name, wanted in flags.items():
        setattr(profile, name, bool(wanted))
    profile.full_clean()
    profile.save()
    return profile
