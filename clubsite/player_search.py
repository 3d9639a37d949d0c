"""A player typed into a form by name or by number (the calculator, issue 16).

A number is the one in the player's page address; anything else is a name, or part of one,
matched word by word against family, given and native names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from clubsite.models import Member
from clubsite.numbers import MAX_ID, int_or_none, is_ascii_number

MAX_CANDIDATES = 10


@dataclass
class Found:
    member: Member | None = None
    candidates: list[Member] = field(default_factory=list)  # more than one matched
    number: int | None = None  # a number no member has


def player_find(text: str) -> Found:
    """The member `text` names: by number, or the only one whose names hold every word."""
    text = text.strip()
    if is_ascii_number(text):
        number = int_or_none(text, minimum=1, maximum=MAX_ID)
        member = Member.objects.filter(pk=number).first() if number else None
        return Found(member=member, number=None if member else int(text))
    query = Q()
    for word in text.split()[:4]:
        query &= (
            Q(family_name__icontains=word)
            | Q(given_name__icontains=word)
            | Q(native_name__icontains=word)
        )
    found = list(
        Member.objects.filter(query).order_by("family_name", "given_name", "pk")[
            : MAX_CANDIDATES + 1
        ]
    )
    if len(found) == 1:
        return Found(member=found[0])
    exact = [m for m in found if m.full_name.casefold() == text.casefold()]
    if len(exact) == 1:
        return Found(member=exact[0])
    return Found(candidates=found)
