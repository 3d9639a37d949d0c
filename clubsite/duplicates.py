"""One person, one member: the members a new one may already be (issue 14).

A name is compared by its *skeleton* (`name_index.skeleton`): Cyrillic transliterated to Latin, accents dropped,
and the spellings transliterations disagree on folded together (sh/š/sz, ch/č/cz, kh/h/g,
y/i/j, w/v, doubled letters), so Shevchuk, Ševčuk and Шевчук are one name. Same EGD PIN
or FIDE ID is the same person whatever the name; a same birth year or club is said
beside a name match, for the admin to choose.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from clubsite.models import Club, Member
from clubsite.name_index import CYRILLIC, member_name_index, name_keys, native_keys, skeleton

__all__ = ["CYRILLIC", "Candidate", "DuplicateIndex", "name_keys", "native_keys", "skeleton"]


@dataclass(frozen=True)
class Candidate:
    member: Member
    reasons: tuple[str, ...]

    @property
    def text(self) -> str:
        return ", ".join(self.reasons)


def _birth_year(member: Member) -> int | None:
    return member.birth_date.year if member.birth_date else member.birth_year


class DuplicateIndex:
    """Every member by name skeleton: the index the search reads too (name_index.py)."""

    def __init__(self) -> None:
        self.by_key = member_name_index().by_key

    def find(
        self,
        *,
        family_name: str,
        given_name: str = "",
        birth_year: int | None = None,
        club: Club | None = None,
        egd_pin: str = "",
        fide_id: str = "",
        exclude: Iterable[int] = (),
    ) -> list[Candidate]:
        named = set().union(
            *(self.by_key.get(k, set()) for k in name_keys(family_name, given_name))
        )
        ids_q = Q(pk__in=named)
        if egd_pin:
            ids_q |= Q(egd_pin=egd_pin)
        if fide_id:
            ids_q |= Q(fide_id=fide_id)
        members = Member.objects.filter(ids_q).exclude(pk__in=list(exclude)).select_related("club")
        typed = " ".join(f"{family_name} {given_name}".lower().split())
        found = []
        for member in members.order_by("family_name", "given_name", "pk"):
            reasons = []
            if egd_pin and member.egd_pin == egd_pin:
                reasons.append(_("same EGD PIN"))
            if fide_id and member.fide_id == fide_id:
                reasons.append(_("same FIDE ID"))
            if member.pk in named:
                spelled = {
                    " ".join(f"{member.family_name} {member.given_name}".lower().split()),
                    " ".join(f"{member.given_name} {member.family_name}".lower().split()),
                }
                reasons.append(
                    _("same name") if typed in spelled else _("same name in another spelling")
                )
                if birth_year is not None and _birth_year(member) == birth_year:
                    reasons.append(_("same birth year"))
                if club is not None and member.club_id == club.pk:
                    reasons.append(_("same club"))
            found.append(Candidate(member, tuple(reasons)))
        return found


def likely_duplicates(**person: object) -> list[Candidate]:
    """The members a new one may be (see `DuplicateIndex.find` for the arguments)."""
    return DuplicateIndex().find(**person)  # type: ignore[arg-type]


def duplicate_pairs(members: Iterable[Member]) -> list[tuple[Member, Member]]:
    """Pairs among these members with one name skeleton (the demo must have none)."""
    seen: dict[str, Member] = {}
    pairs = []
    for member in members:
        key = f"{skeleton(member.family_name)} {skeleton(member.given_name)}"
        if key in seen:
            pairs.append((seen[key], member))
        else:
            seen[key] = member
    return pairs
