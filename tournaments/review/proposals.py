"""Identity data a table proposes about members it may not change (issue 14).

A club admin changes his own club's members; a results file, or the admin's form, may only
*propose* a FIDE ID, EGD PIN, title, federation, birth year, grade or club for anyone else.
A file's FIDE rating of a member already here is a proposal too, whichever club he is in:
it is valid from the table's start (issue 20), and a draft must not seed anyone's ORR start.
The proposal is kept with the table (`MemberProposal`), shown to the referees as a change
(`proposals_for_review`), and applied when a list approves the table
(`proposals_apply`, called from `ratings.submissions.services`). Nothing about a member
changes while the table is a draft; deleting the draft deletes its proposals.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.fields import parse_grade
from clubsite.models import Club, FideRating, Member
from tournaments.models import MemberProposal, Tournament

Field = MemberProposal.Field
UNIQUE_FIELDS = (Field.FIDE_ID, Field.EGD_PIN)


def current_text(member: Member, field: str, tournament: Tournament | None = None) -> str:
    """The member's value of a proposable field, as a proposal writes it (a FIDE rating:
    the one on record from `tournament`'s start)."""
    if field == Field.FIDE_RATING:
        if tournament is None:
            return ""
        return _fide_ratings_at(tournament, [member.pk]).get(member.pk, "")
    if field == Field.CLUB:
        return str(member.club_id) if member.club_id else ""
    value = getattr(member, field)
    return "" if value is None else str(value)


def _fide_ratings_at(tournament: Tournament, member_ids: Iterable[int]) -> dict[int, str]:
    """The members' FIDE ratings on record from the table's start, as proposals write them."""
    rows = FideRating.objects.filter(
        member_id__in=list(member_ids), valid_from=tournament.start_date
    )
    return {member_id: str(rating) for member_id, rating in rows.values_list("member_id", "rating")}


def shown(field: str, text: str, clubs: dict[int, Club] | None = None) -> str:
    """A proposal's text as people read it (a club by its name)."""
    if not text:
        return "—"
    if field == Field.CLUB:
        club = (clubs or {}).get(int(text)) if text.isdigit() else None
        if club is None:
            club = Club.objects.filter(pk=int(text)).first() if text.isdigit() else None
        return club.name if club is not None else text
    return text


def _normal(field: str, value: Any) -> str:
    """The value as text, in the member's own form (a grade parsed, codes upper case)."""
    if value is None:
        return ""
    if field == Field.CLUB:
        return str(value.pk) if isinstance(value, Club) else str(value or "")
    if field == Field.GRADE:
        grade = parse_grade(str(value))
        return str(grade) if grade is not None else ""
    text = str(value).strip()
    return text.upper() if field == Field.FEDERATION else text


def proposal_record(
    *,
    tournament: Tournament,
    member: Member,
    field: str,
    value: Any,
    by: AbstractBaseUser | None,
    source: str = "",
) -> MemberProposal | None:
    """Keep what the table says of one field (None when it says what he already has)."""
    text = _normal(field, value)
    if text == current_text(member, field, tournament) or (not text and field != Field.CLUB):
        MemberProposal.objects.filter(
            tournament=tournament, member=member, field=field, applied_at__isnull=True
        ).delete()
        return None
    proposal, _created = MemberProposal.objects.update_or_create(
        tournament=tournament,
        member=member,
        field=field,
        defaults={
            "value": text,
            "proposed_by": by if by is not None and by.is_authenticated else None,
            "source": source[:200],
            "applied_at": None,
            "outcome": "",
        },
    )
    return proposal


def proposals_record(
    *,
    tournament: Tournament,
    member: Member,
    values: dict[str, Any],
    by: AbstractBaseUser | None,
    source: str = "",
) -> list[MemberProposal]:
    made = []
    for field, value in values.items():
        proposal = proposal_record(
            tournament=tournament, member=member, field=field, value=value, by=by, source=source
        )
        if proposal is not None:
            made.append(proposal)
    return made


def _conflict(member: Member, field: str, text: str) -> str:
    if field in UNIQUE_FIELDS and text:
        holder = Member.objects.filter(**{field: text}).exclude(pk=member.pk).first()
        if holder is not None:
            return _("Not applied: %(field)s %(value)s belongs to %(name)s (#%(id)d).") % {
                "field": Field(field).label,
                "value": text,
                "name": holder.full_name,
                "id": holder.pk,
            }
    if field == Field.CLUB and text and not Club.objects.filter(pk=int(text)).exists():
        return _("Not applied: the club no longer exists.")
    if field == Field.BIRTH_YEAR and text and not (text.isdigit() and 1 <= int(text) <= 32767):
        return _("Not applied: not a year.")
    if field == Field.FIDE_RATING and not (text.isdigit() and 1 <= int(text) <= 32767):
        return _("Not applied: not a rating.")
    return ""


def fide_rating_record(*, member: Member, rating: int, valid_from: dt.date) -> None:
    """Keep a FIDE rating with the day it became valid; the member's `fide_rating` shows the
    newest one known (the caller saves the member)."""
    FideRating.objects.update_or_create(
        member=member, valid_from=valid_from, defaults={"rating": rating}
    )
    member.fide_rating = (
        member.fide_ratings.order_by("-valid_from").values_list("rating", flat=True).first()
    )


def _set(member: Member, field: str, text: str, tournament: Tournament) -> None:
    if field == Field.FIDE_RATING:
        fide_rating_record(member=member, rating=int(text), valid_from=tournament.start_date)
    elif field == Field.CLUB:
        member.club_id = int(text) if text else None
    elif field == Field.BIRTH_YEAR:
        member.birth_year = int(text) if text else None
    elif field == Field.GRADE:
        member.grade = parse_grade(text)
    else:
        setattr(member, field, text)


@transaction.atomic
def proposals_apply(*, tournament: Tournament, by: AbstractBaseUser | None) -> int:
    """Apply the table's waiting proposals to the members (one history row each member,
    its reason naming the table and who proposed). Returns how many values changed."""
    waiting = list(
        MemberProposal.objects.filter(tournament=tournament, applied_at__isnull=True)
        .select_related("member", "proposed_by")
        .order_by("member_id", "field")
    )
    now = timezone.now()
    changed = 0
    by_member: dict[int, list[MemberProposal]] = {}
    for proposal in waiting:
        by_member.setdefault(proposal.member_id, []).append(proposal)
    for proposals in by_member.values():
        member = Member.objects.select_for_update().get(pk=proposals[0].member_id)
        proposers = set()
        for proposal in proposals:
            proposal.outcome = _conflict(member, proposal.field, proposal.value)
            proposal.applied_at = now
            proposal.previous = current_text(member, proposal.field, tournament)
            if not proposal.outcome:
                _set(member, proposal.field, proposal.value, tournament)
                changed += 1
                if proposal.proposed_by is not None:
                    proposers.add(proposal.proposed_by.get_username())
        if any(not p.outcome for p in proposals):
            member._history_user = by  # type: ignore[attr-defined]
            member._change_reason = _(  # type: ignore[attr-defined]
                "Approval of %(tournament)s (#%(id)d), proposed by %(who)s"
            ) % {
                "tournament": tournament.name,
                "id": tournament.pk,
                "who": ", ".join(sorted(proposers)) or _("its results file"),
            }
            member.full_clean(exclude=["grade"])
            member.save()
        MemberProposal.objects.bulk_update(proposals, ["applied_at", "outcome", "previous"])
    return changed


@dataclass(frozen=True)
class ProposedChange:
    proposal: MemberProposal
    field_label: str
    before: str
    after: str

    @property
    def member(self) -> Member:
        return self.proposal.member


def proposals_for_review(tournament: Tournament) -> list[ProposedChange]:
    """The table's proposals as changes, for the referee and the club admin."""
    proposals = list(
        MemberProposal.objects.filter(tournament=tournament)
        .select_related("member", "member__club", "proposed_by")
        .order_by("member__family_name", "member__given_name", "field")
    )
    club_ids = {int(p.value) for p in proposals if p.field == Field.CLUB and p.value.isdigit()}
    club_ids |= {
        int(p.previous) for p in proposals if p.field == Field.CLUB and p.previous.isdigit()
    }
    club_ids |= {p.member.club_id for p in proposals if p.member.club_id}
    clubs = Club.objects.in_bulk(list(club_ids))
    fide_then = _fide_ratings_at(
        tournament, (p.member_id for p in proposals if p.field == Field.FIDE_RATING)
    )  # one query for the table, not one a proposal

    def before(p: MemberProposal) -> str:
        if p.applied_at:
            return p.previous
        if p.field == Field.FIDE_RATING:
            return fide_then.get(p.member_id, "")
        return current_text(p.member, p.field)

    return [
        ProposedChange(
            proposal=p,
            field_label=str(Field(p.field).label),
            before=shown(p.field, before(p), clubs),
            after=shown(p.field, p.value, clubs),
        )
        for p in proposals
    ]


def proposals_drop(*, tournament: Tournament, members: Iterable[int] | None = None) -> None:
    """Forget the waiting proposals (of these members, or all of the table)."""
    waiting = MemberProposal.objects.filter(tournament=tournament, applied_at__isnull=True)
    if members is not None:
        waiting = waiting.filter(member_id__in=list(members))
    waiting.delete()
