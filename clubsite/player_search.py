"""A player typed into a form or the site's search box (issues 16 and 56).

A number is an EGD PIN, a FIDE ID or the one in the player's page address; anything else
is a name, or the start of its words, in any script or transliteration (Гнатюк, Hnatiuk
and Hnatyuk are one name): the skeletons of `name_index`, the index the duplicate
detector reads too. A name spelled as typed comes first, then the same name in another
spelling, then the names that only start so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q

from clubsite.models import Member
from clubsite.name_index import NameIndex, member_name_index, name_keys, word_key
from clubsite.numbers import MAX_ID, int_or_none, is_ascii_number

MAX_CANDIDATES = 10
MAX_TYPED = 100  # characters of a search read


@dataclass
class SearchResult:
    members: list[Member]  # best first, at most the limit
    total: int  # how many matched


def _numbers_q(text: str, prefix: str = "") -> Q:
    """An EGD PIN or a FIDE ID. Each is found through its partial unique index, which
    SQLite uses only when the query repeats the index's condition."""
    pin, fide = f"{prefix}egd_pin", f"{prefix}fide_id"
    return (Q(**{pin: text}) & ~Q(**{pin: ""})) | (Q(**{fide: text}) & ~Q(**{fide: ""}))


def _number_q(text: str) -> Q:
    """An EGD PIN, a FIDE ID or a member's number."""
    query = _numbers_q(text)
    number = int_or_none(text, minimum=1, maximum=MAX_ID)
    return query | Q(pk=number) if number else query


def _closeness(index: NameIndex, text: str) -> dict[int, int]:
    """0: spelled as typed; 1: the same name in another spelling (or order)."""
    typed = " ".join(text.casefold().split())
    words = typed.split()
    closeness: dict[int, int] = {}
    if len(words) == 1:
        for pk in index.by_word.get(word_key(words[0]), ()):
            closeness[pk] = 1
    else:
        for pk in index.by_key.get(next(iter(name_keys(words[0], " ".join(words[1:]))), ""), ()):
            closeness[pk] = 1
    for pk in list(closeness):
        family_given = index.names.get(pk, "")
        given_family = " ".join(family_given.split()[1:] + family_given.split()[:1])
        if typed in (family_given, given_family, index.natives.get(pk)) or (
            len(words) == 1 and words[0] in family_given.split()
        ):
            closeness[pk] = 0
    return closeness


def member_q(text: str, prefix: str = "") -> Q:
    """The members `text` names, as a condition on `prefix` + member (a list's entries:
    "member__"); a number is an EGD PIN or a FIDE ID."""
    text = text.strip()[:MAX_TYPED]
    if is_ascii_number(text):
        return _numbers_q(text, prefix)
    ids = member_name_index().ids_for(text)
    return Q(**{f"{prefix}id__in": sorted(ids)})


def member_search(text: str, *, limit: int = 20, exclude: Iterable[int] = ()) -> SearchResult:
    """The members `text` names, best first (see the module's docstring)."""
    text = text.strip()[:MAX_TYPED]
    if not text:
        return SearchResult([], 0)
    if is_ascii_number(text):
        numbered = Member.objects.filter(_number_q(text)).exclude(pk__in=list(exclude))
        found = list(numbered.select_related("club").order_by("pk")[:limit])
        return SearchResult(found, len(found))
    index = member_name_index()
    ids = index.ids_for(text) - set(exclude)
    closeness = _closeness(index, text)
    best = sorted(ids, key=lambda pk: (closeness.get(pk, 2), index.names.get(pk, ""), pk))
    chosen = best[:limit]
    members = Member.objects.filter(pk__in=chosen).select_related("club").in_bulk()
    return SearchResult([members[pk] for pk in chosen if pk in members], len(ids))


@dataclass
class Found:
    member: Member | None = None
    candidates: list[Member] = field(default_factory=list)  # more than one matched
    number: int | None = None  # a number no member has


def player_find(text: str) -> Found:
    """The member `text` names: by number (his page's, an EGD PIN or a FIDE ID), or the
    only one the name search finds (or the only one spelled exactly as typed)."""
    text = text.strip()
    if is_ascii_number(text):
        found = list(Member.objects.filter(_number_q(text)).order_by("pk")[: MAX_CANDIDATES + 1])
        by_page = [m for m in found if str(m.pk) == text]
        if len(found) == 1 or len(by_page) == 1:
            return Found(member=(by_page or found)[0])
        return Found(candidates=found) if found else Found(number=int(text))
    result = member_search(text, limit=MAX_CANDIDATES + 1)
    if len(result.members) == 1:
        return Found(member=result.members[0])
    exact = [m for m in result.members if m.full_name.casefold() == text.casefold()]
    if len(exact) == 1:
        return Found(member=exact[0])
    return Found(candidates=result.members)
