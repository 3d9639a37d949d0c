"""Identity data proposed about members by someone who may not change them (issues 14, 54).

A member's identity is changed by his club's admins or a registrar only
(`clubsite.authority`, docs/authority.md). A results file, the club admin's form or a
list's baseline may only *propose* a FIDE ID, EGD PIN, title, federation, birth year,
grade or club for anyone else; a file's FIDE rating of a member already here is a
proposal too, whichever club he is in (valid from the table's start, issue 20). The
proposal is kept (`MemberProposal`), shown to the referees as a pending change
(`proposals_for_review`), and waits in the inbox of those who keep the member
(`proposals_waiting_for`), who accept or decline it (`proposal_decide`), each in his
history. A referee's approval decides what the table counts for in his list, not who a
person is: until accepted, the table is rated with the member's recorded facts. Deleting
a draft deletes its proposals.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite import authority
from clubsite.authority import members_kept_by
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
            "decision": "",
            "decided_by": None,
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


def _set(member: Member, field: str, text: str, tournament: Tournament | None) -> None:
    if field == Field.FIDE_RATING and tournament is not None:
        fide_rating_record(member=member, rating=int(text), valid_from=tournament.start_date)
    elif field == Field.CLUB:
        member.club_id = int(text) if text else None
    elif field == Field.BIRTH_YEAR:
        member.birth_year = int(text) if text else None
    elif field == Field.GRADE:
        member.grade = parse_grade(text)
    else:
        setattr(member, field, text)


def proposals_waiting_for(user: AbstractBaseUser) -> QuerySet[MemberProposal]:
    """The proposals about the members `user` keeps, waiting for a decision: those of a
    submitted (or decided) table or of a baseline; a draft's stay with its club."""
    kept = Member.objects.filter(members_kept_by(user)).values("pk")
    return (
        MemberProposal.objects.filter(decision="", applied_at__isnull=True, member__in=kept)
        .filter(Q(tournament__isnull=True) | ~Q(tournament__status=Tournament.Status.DRAFT))
        .select_related("member", "member__club", "tournament", "proposed_by")
        .order_by("member__family_name", "member__given_name", "member_id", "field")
    )


def _where(proposal: MemberProposal) -> str:
    if proposal.tournament is not None:
        return f"{proposal.tournament.name} (#{proposal.tournament_id})"
    return proposal.source or _("a list's baseline")


@transaction.atomic
def proposal_decide(
    *, proposal: MemberProposal, by: AbstractBaseUser, accept: bool
) -> MemberProposal:
    """Accept (apply it to the member) or decline one proposal; his history keeps who
    proposed it, where, and who decided."""
    proposal = (
        MemberProposal.objects.select_for_update(of=("self",))
        .select_related("tournament", "proposed_by", "member")
        .get(pk=proposal.pk)
    )
    authority.require(by, "proposal.decide", proposal,
                      _("Only his club's admins or a registrar decide what he is."))  # fmt: skip
    if proposal.decision or proposal.applied_at is not None:
        raise ValidationError(_("This proposal has already been decided."))
    member = Member.objects.select_for_update().get(pk=proposal.member_id)
    proposal.previous = current_text(member, proposal.field, proposal.tournament)
    proposal.applied_at = timezone.now()
    proposal.decided_by = by
    proposal.outcome = ""
    if accept:
        proposal.outcome = _conflict(member, proposal.field, proposal.value)
        if not proposal.outcome and proposal.field == Field.FIDE_RATING and not proposal.tournament:
            proposal.outcome = _("Not applied: a FIDE rating needs the table it is valid from.")
        if not proposal.outcome:
            _set(member, proposal.field, proposal.value, proposal.tournament)
    proposal.decision = (
        MemberProposal.Decision.ACCEPTED if accept else MemberProposal.Decision.DECLINED
    )
    params = {
        "field": Field(proposal.field).label,
        "value": shown(proposal.field, proposal.value),
        "who": proposal.proposed_by.get_username() if proposal.proposed_by else _("a file"),
        "where": _where(proposal),
        "by": by.get_username(),
    }
    if accept:
        reason = _("%(field)s %(value)s proposed by %(who)s in %(where)s, accepted by %(by)s")
    else:
        reason = _("%(field)s %(value)s proposed by %(who)s in %(where)s, declined by %(by)s")
    member._history_user = by  # type: ignore[attr-defined]
    member._change_reason = reason % params  # type: ignore[attr-defined]
    member.full_clean(exclude=["grade"])
    member.save()
    proposal.save(update_fields=["previous", "applied_at", "decided_by", "outcome", "decision"])
    return proposal


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
        .select_related("member", "member__club", "proposed_by", "decided_by")
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
