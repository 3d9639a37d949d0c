"""Writes of the club domain: a player updating his own contact details, a club admin
correcting his own member's identity data."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.authority import may_add_to_club, may_confirm_member_claim, may_edit_member
from clubsite.models import Member, MemberClaim, Profile


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


IDENTITY_FIELDS = ("family_name", "given_name", "native_name", "fide_id", "egd_pin", "fide_title",
                   "federation", "birth_year", "grade", "club")  # fmt: skip


@transaction.atomic
def member_update_identity(
    *, member: Member, changes: dict[str, object], by: AbstractBaseUser, reason: str = ""
) -> Member:
    """His club's admin (or staff) corrects a member's identity data; the history keeps
    who, when, before → after and `reason`. Anyone else proposes (`tournaments.review.proposals`)."""
    member = Member.objects.select_for_update(of=("self",)).select_related("club").get(pk=member.pk)
    if not may_edit_member(by, member):
        raise PermissionDenied(_("Only his club's admins change this member."))
    unknown = set(changes) - set(IDENTITY_FIELDS)
    if unknown:
        raise ValidationError(_("These fields are not changed here: %s") % ", ".join(unknown))
    club = changes.get("club", member.club)
    if club != member.club and not may_add_to_club(by, club):  # type: ignore[arg-type]
        raise PermissionDenied(_("A member joins another club only by its admins."))
    for name, value in changes.items():
        setattr(member, name, value)
    member.full_clean(exclude=["grade"])
    member._history_user = by  # type: ignore[attr-defined]
    member._change_reason = reason or _("Edited by %(who)s") % {  # type: ignore[attr-defined]
        "who": by.get_username()
    }
    member.save()
    return member


MAIL_FLAGS = ("mail_submitted", "mail_approved", "mail_rejected", "mail_reopened", "mail_note",
              "mail_rating")  # fmt: skip


def profile_update_date_style(*, user: AbstractBaseUser, date_style: str) -> Profile:
    """Save how dates are written for the user on English pages."""
    profile, _created = Profile.objects.get_or_create(user=user)
    profile.date_style = date_style
    profile.full_clean()
    profile.save()
    return profile


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


def member_claim_create(*, user: AbstractBaseUser, member: Member) -> MemberClaim:
    """A signed-in user says he is `member`: a request his club's admin decides. One
    request at a time, for a member no account has, by a user no member is linked to."""
    if not user.is_authenticated:
        raise PermissionDenied
    if Member.objects.filter(user=user).exists():
        raise ValidationError(_("Your account is already linked to a player."))
    if member.user_id is not None:
        raise ValidationError(_("This player is already linked to an account."))
    if MemberClaim.objects.filter(user=user, state=MemberClaim.State.PENDING).exists():
        raise ValidationError(_("You have asked already; wait until it is decided."))
    return MemberClaim.objects.create(user=user, member=member)


@transaction.atomic
def member_claim_decide(*, claim: MemberClaim, by: AbstractBaseUser, confirm: bool) -> None:
    """Confirm (the account is linked to the member) or refuse a pending request; only
    who `may_confirm_member_claim` decides."""
    claim = (
        MemberClaim.objects.select_for_update(of=("self",))
        .select_related("member__club")
        .get(pk=claim.pk)
    )
    if not may_confirm_member_claim(by, claim.member):
        raise PermissionDenied
    if claim.state != MemberClaim.State.PENDING:
        raise ValidationError(_("This request is decided already."))
    if confirm:
        member = claim.member
        if member.user_id is not None or Member.objects.filter(user=claim.user).exists():
            raise ValidationError(_("The player or the account is linked already."))
        member.user = claim.user
        member._change_reason = f"linked to account {claim.user_id} (this is me)"
        member.save(update_fields=["user"])
    claim.state = MemberClaim.State.CONFIRMED if confirm else MemberClaim.State.REFUSED
    claim.decided_by = by
    claim.decided_at = timezone.now()
    claim.save(update_fields=["state", "decided_by", "decided_at"])
