"""One person, one member: the members a new one may already be (issue 14).

A name is compared by its *skeleton* (`name_index.skeleton`): Cyrillic transliterated to
Latin, accents dropped, and the spellings transliterations disagree on folded together
(sh/š/sz, ch/č/cz, kh/h/g, y/i/j, w/v, doubled letters), so Shevchuk, Ševčuk and Шевчук are one name. Same EGD PIN
or FIDE ID is the same person whatever the name; a same birth year or club is said
beside a name match, for the admin to choose. Digits stay in the skeleton: "Guest 1" and
"Guest 2" are two people.

This module is the one duplicate check (issue 55): the players page, the import, the
Identity page and the referee's warnings all ask it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
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
    playing: bool = False  # already in the table the new one is meant for

    @property
    def text(self) -> str:
        return ", ".join(self.reasons)


def _birth_year(member: Member) -> int | None:
    return member.birth_date.year if member.birth_date else member.birth_year


@dataclass(frozen=True)
class Person:
    """Who is being checked: a name typed or read from a file, with what else is known."""

    family_name: str
    given_name: str = ""
    birth_year: int | None = None
    club_id: int | None = None
    egd_pin: str = ""
    fide_id: str = ""

    @classmethod
    def of(cls, member: Member) -> Person:
        return cls(member.family_name, member.given_name, _birth_year(member), member.club_id,
                   member.egd_pin or "", member.fide_id or "")  # fmt: skip


def _reasons(person: Person, member: Member, *, named: bool, playing: bool) -> tuple[str, ...]:
    """Why `member` may be `person` (empty: he is not)."""
    reasons = []
    if person.egd_pin and member.egd_pin == person.egd_pin:
        reasons.append(_("same EGD PIN"))
    if person.fide_id and member.fide_id == person.fide_id:
        reasons.append(_("same FIDE ID"))
    if named:
        typed = " ".join(f"{person.family_name} {person.given_name}".lower().split())
        spelled = {
            " ".join(f"{member.family_name} {member.given_name}".lower().split()),
            " ".join(f"{member.given_name} {member.family_name}".lower().split()),
        }
        reasons.append(_("same name") if typed in spelled else _("same name in another spelling"))
        if person.birth_year is not None and _birth_year(member) == person.birth_year:
            reasons.append(_("same birth year"))
        if person.club_id is not None and member.club_id == person.club_id:
            reasons.append(_("same club"))
    if reasons and playing:
        reasons.append(_("already plays in this tournament"))
    return tuple(reasons)


class DuplicateIndex:
    """Members by name skeleton: every member (the index the search reads too,
    name_index.py), or only `members` (a table's players, checked against each other)."""

    def __init__(self, members: Iterable[Member] | None = None) -> None:
        if members is None:
            self.by_key = member_name_index().by_key
            return
        self.by_key = defaultdict(set)
        for m in members:
            for key in name_keys(m.family_name, m.given_name) | native_keys(m.native_name):
                self.by_key[key].add(m.pk)

    def named(self, person: Person) -> set[int]:
        keys = name_keys(person.family_name, person.given_name)
        return set().union(*(self.by_key.get(k, set()) for k in keys))

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
        playing: Collection[int] = (),
    ) -> list[Candidate]:
        """The members this person may be; `playing`: ids of the players of the table he is
        meant for (they are found too, and said to play there)."""
        person = Person(family_name, given_name, birth_year, club.pk if club else None,
                        egd_pin or "", fide_id or "")  # fmt: skip
        named = self.named(person)
        ids_q = Q(pk__in=named)
        if egd_pin:
            ids_q |= Q(egd_pin=egd_pin)
        if fide_id:
            ids_q |= Q(fide_id=fide_id)
        members = Member.objects.filter(ids_q).exclude(pk__in=list(exclude)).select_related("club")
        found = []
        for member in members.order_by("family_name", "given_name", "pk"):
            here = member.pk in playing
            reasons = _reasons(person, member, named=member.pk in named, playing=here)
            found.append(Candidate(member, reasons, playing=here))
        return found


def likely_duplicates(**person: object) -> list[Candidate]:
    """The members a new one may be (see `DuplicateIndex.find` for the arguments)."""
    return DuplicateIndex().find(**person)  # type: ignore[arg-type]


def likely_duplicate_pairs(members: Iterable[Member]) -> list[tuple[Member, Candidate]]:
    """Pairs among these members (a table's players) who may be one person: by name in
    any script, EGD PIN or FIDE ID. Each pair once, the lower id first."""
    members = list(members)
    index = DuplicateIndex(members)
    by_id = {m.pk: m for m in members}
    by_pin: dict[str, set[int]] = defaultdict(set)
    by_fide: dict[str, set[int]] = defaultdict(set)
    for m in members:
        if m.egd_pin:
            by_pin[m.egd_pin].add(m.pk)
        if m.fide_id:
            by_fide[m.fide_id].add(m.pk)
    pairs = []
    for member in sorted(members, key=lambda m: m.pk):
        person = Person.of(member)
        named = index.named(person)
        for native in native_keys(member.native_name):
            named |= index.by_key.get(native, set())
        near = named | by_pin.get(person.egd_pin, set()) | by_fide.get(person.fide_id, set())
        for other_id in sorted(i for i in near if i > member.pk):
            other = by_id[other_id]
            reasons = _reasons(person, other, named=other_id in named, playing=False)
            if reasons:
                pairs.append((member, Candidate(other, reasons)))
    return pairs


def duplicate_pairs(members: Iterable[Member]) -> list[tuple[Member, Member]]:
    """Pairs among these members who may be one person (the demo must have none)."""
    return [(member, c.member) for member, c in likely_duplicate_pairs(members)]
