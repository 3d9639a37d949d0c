"""Who each row of a published rating list is: a member matched by EGD PIN, FIDE ID or
the list's own key; otherwise by name (in any script, through the usual transliterations),
country, club and birth year. Reads only; `baseline_services.py` writes.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubsite.models import Member
from clubsite.numbers import MAX_ID, int_or_default
from tournaments.formats.egd_list import club_column
from tournaments.formats.list_model import ListRow, RatingListFile
from tournaments.importing.common import FIDE_COUNTRIES

RowStatus = Literal["matched", "new", "ambiguous"]
Choice = int | Literal["new"]

# Ukrainian, Russian and Belarusian letters as their passports and the EGD write them;
# variants (ya/ia, yu/iu, kh/h, ts/c, shch/sch, y/i) collapse in `_fold` below.
_CYRILLIC = dict(
    zip(
        "абвгґдеєёжзиіїйклмнопрстуфхцчшщъыьэюяў",
        [
            "a",
            "b",
            "v",
            "h",
            "g",
            "d",
            "e",
            "ye",
            "yo",
            "zh",
            "z",
            "y",
            "i",
            "yi",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "",
            "y",
            "",
            "e",
            "yu",
            "ya",
            "w",
        ],
        strict=True,
    )
)
_CYRILLIC["г"] = "g"  # Russian г; Ukrainian h and g both fold to g below
_FOLDS = (
    ("j", "y"), ("shch", "sch"), ("sch", "sh"), ("kh", "h"), ("ts", "c"), ("tz", "c"), ("cz", "ch"),
    ("ya", "ia"), ("yu", "iu"), ("ye", "e"), ("yo", "e"), ("ia", "a"), ("iu", "u"),
    ("y", "i"), ("w", "v"), ("h", "g"), ("ck", "k"), ("x", "ks"), ("ph", "f"),
)  # fmt: skip


def _latin(text: str) -> str:
    text = text.lower().replace("ьо", "ё")  # Ukrainian ьо (Шмельов) is Russian ё
    text = "".join(_CYRILLIC.get(ch, ch) for ch in text)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _fold(word: str) -> str:
    for old, new in _FOLDS:
        word = word.replace(old, new)
    # doubled letters (Shmelev / Shmelyov, Kosianenko / Kossianenko)
    return "".join(ch for i, ch in enumerate(word) if i == 0 or ch != word[i - 1])


def name_key(*parts: str) -> str:
    """A name as a key that survives script, transliteration, order and punctuation:
    'Шмельов Олег' and 'Shmelyov Oleh' and 'Oleg Shmelev' give the same key."""
    words = "".join(ch if ch.isalnum() else " " for ch in _latin(" ".join(parts))).split()
    return " ".join(sorted(_fold(word) for word in words))


@dataclass(frozen=True)
class RowMatch:
    row: ListRow
    status: RowStatus
    member: Member | None = None
    candidates: tuple[Member, ...] = ()
    matched_by: str = ""  # "EGD PIN", "FIDE ID", "list key", "name"
    note: str = ""

    @property
    def key(self) -> str:
        return self.row.key


@dataclass(frozen=True)
class BaselinePreview:
    listfile: RatingListFile
    rows: tuple[RowMatch, ...]

    def by_status(self, status: RowStatus) -> list[RowMatch]:
        return [m for m in self.rows if m.status == status]

    @property
    def matched(self) -> list[RowMatch]:
        return self.by_status("matched")

    @property
    def new(self) -> list[RowMatch]:
        return self.by_status("new")

    @property
    def ambiguous(self) -> list[RowMatch]:
        return self.by_status("ambiguous")


def row_country(row: ListRow) -> str:
    if row.country:
        return row.country
    return FIDE_COUNTRIES.get(row.federation or "", "")


# Ids or numbers a query names in an `IN` list; for more, one query reads them all.
SMALL = 5000
NAME_FIELDS = (
    "id", "family_name", "given_name", "native_name", "country", "federation", "birth_year",
    "egd_pin", "fide_id", "club__name", "club__slug",
)  # fmt: skip


class _Index:
    """The members a list can mean, read in a few queries whatever the list's size: the
    numbers members have are read as plain values and only the members a row can mean are
    loaded (a full EGD list is 45,000 rows)."""

    def __init__(self, rows: tuple[ListRow, ...]) -> None:
        self.base = Member.objects.select_related("club")
        found: dict[str, dict[str, int]] = {}
        for field, values in (
            ("egd_pin", {r.egd_pin for r in rows if r.egd_pin}),
            ("fide_id", {r.fide_id for r in rows if r.fide_id}),
            ("import_key", {r.key for r in rows if not r.key.startswith("line ")}),
        ):
            found[field] = {}
            if values:
                numbers = Member.objects.exclude(**{field: ""})
                if len(values) <= SMALL:
                    numbers = numbers.filter(**{f"{field}__in": list(values)})
                numbers = numbers.values_list(field, "pk")
                for value, pk in numbers.iterator(chunk_size=20000):
                    if value in values:
                        found[field][value] = pk
        members = _members(self.base, {pk for hits in found.values() for pk in hits.values()})
        self.by_pin = {value: members[pk] for value, pk in found["egd_pin"].items()}
        self.by_fide = {value: members[pk] for value, pk in found["fide_id"].items()}
        self.by_key = {value: members[pk] for value, pk in found["import_key"].items()}
        self.by_name: dict[str, list[Member]] = {}

    def read_names(self, wanted: set[str], claimed: set[int]) -> None:
        """`by_name`: the members not `claimed` by a number whose name key is `wanted`, in
        the members' order."""
        order: list[tuple[str, int]] = []
        names = Member.objects.values_list("pk", "family_name", "given_name", "native_name")
        for pk, family_name, given_name, native_name in names.iterator(chunk_size=10000):
            if pk in claimed:
                continue
            keys = {name_key(family_name, given_name)}
            if native_name:
                keys.add(name_key(native_name))
            order += [(key, pk) for key in keys & wanted]
        members = _members(self.base.only(*NAME_FIELDS), {pk for _key, pk in order})
        self.by_name = defaultdict(list)
        for key, pk in order:
            self.by_name[key].append(members[pk])


def _members(query: Any, ids: set[int]) -> dict[int, Member]:
    """The members `ids` of `query`, by id: most of the members in one pass, a few by id."""
    if len(ids) > SMALL and 2 * len(ids) > Member.objects.count():
        return {m.pk: m for m in query.iterator(chunk_size=10000) if m.pk in ids}
    members: dict[int, Member] = {}
    ordered = sorted(ids)
    for at in range(0, len(ordered), SMALL):
        members.update((m.pk, m) for m in query.filter(pk__in=ordered[at : at + SMALL]))
    return members


def _same_club(member: Member, row: ListRow) -> bool:
    if member.club is None or not row.club:
        return False
    return (
        name_key(member.club.name) == name_key(row.club)
        or member.club.slug in (slugify(row.club), club_slug(row))
        # the EGD's layout (and our export in it) cuts a club's name at 4 characters
        or club_column(member.club.name).casefold() == row.club.casefold()
    )


def club_slug(row: ListRow) -> str:
    """A club the list names, as a slug: the EGD's clubs are short names within a country."""
    country = row_country(row).lower()
    return slugify(f"{country}-{row.club}" if country else row.club or "")[:80]


def _name_keys(row: ListRow) -> set[str]:
    keys = {name_key(row.family_name, row.given_name)}
    if row.native_name:
        keys.add(name_key(row.native_name))
    return keys - {""}


def _by_name(row: ListRow, keys: set[str], index: _Index, claimed: set[int]) -> RowMatch:
    hits = list({m.pk: m for key in keys for m in index.by_name.get(key, [])}.values())
    country = row_country(row)
    hits = [
        m
        for m in hits
        if m.pk not in claimed
        and not (row.egd_pin and m.egd_pin and m.egd_pin != row.egd_pin)
        and not (row.fide_id and m.fide_id and m.fide_id != row.fide_id)
        and not (country and m.country and m.country != country)
        and not (row.federation and m.federation and m.federation != row.federation)
        and not (row.birth_year and m.birth_year and m.birth_year != row.birth_year)
    ]
    if not hits:
        return RowMatch(row, "new")
    same_club = [m for m in hits if _same_club(m, row)]
    if len(same_club) == 1:
        return RowMatch(row, "matched", same_club[0], matched_by="name")
    if len(hits) == 1 and (not row.club or hits[0].club is None):
        return RowMatch(row, "matched", hits[0], matched_by="name")
    note = ""
    if len(hits) == 1:
        note = _("Same name, but a different club (%(club)s).") % {"club": hits[0].club}
    return RowMatch(row, "ambiguous", candidates=tuple(same_club or hits), note=note)


def match_rows(listfile: RatingListFile) -> BaselinePreview:
    """Who each row is; nothing is written."""
    index = _Index(listfile.rows)
    matches: list[RowMatch | None] = []
    claimed: set[int] = set()
    for row in listfile.rows:
        found = None
        if row.egd_pin and row.egd_pin in index.by_pin:
            found = RowMatch(row, "matched", index.by_pin[row.egd_pin], matched_by="EGD PIN")
        elif row.fide_id and row.fide_id in index.by_fide:
            found = RowMatch(row, "matched", index.by_fide[row.fide_id], matched_by="FIDE ID")
        elif row.key in index.by_key:
            found = RowMatch(row, "matched", index.by_key[row.key], matched_by="list key")
        if found is not None and found.member is not None:
            claimed.add(found.member.pk)
        matches.append(found)
    keys = {
        at: _name_keys(row)
        for at, (row, found) in enumerate(zip(listfile.rows, matches, strict=True))
        if found is None
    }
    if keys:
        index.read_names(set().union(*keys.values()), claimed)
    settled = [
        found if found is not None else _by_name(row, keys[at], index, claimed)
        for at, (row, found) in enumerate(zip(listfile.rows, matches, strict=True))
    ]
    return BaselinePreview(listfile, tuple(_claimed_twice(settled)))


def _claimed_twice(matches: list[RowMatch]) -> list[RowMatch]:
    """Two rows matched by name to one member: both become choices to make."""
    owners: dict[int, list[int]] = defaultdict(list)
    for at, match in enumerate(matches):
        if match.member is not None and match.matched_by == "name":
            owners[match.member.pk].append(at)
    for positions in owners.values():
        if len(positions) > 1:
            for at in positions:
                match = matches[at]
                note = _("Another row of the list matches the same member.")
                matches[at] = RowMatch(
                    match.row,
                    "ambiguous",
                    candidates=(match.member,),
                    note=note,  # type: ignore[arg-type]
                )
    return matches


def resolve(
    preview: BaselinePreview,
    choices: Mapping[str, Choice],
    *,
    new_for_ambiguous: bool = False,
) -> tuple[list[tuple[ListRow, int | None]], list[str]]:
    """Each row with its member id (None: a new member), and what stops the import."""
    errors: list[str] = []
    resolved: list[tuple[ListRow, int | None]] = []
    keys = {m.key for m in preview.rows}
    for key in sorted(set(choices) - keys):
        errors.append(_("There is no row %(key)s in the list.") % {"key": key})
    chosen_ids = [c for c in choices.values() if c != "new"]
    existing = set(Member.objects.filter(pk__in=chosen_ids).values_list("pk", flat=True))
    taken: dict[int, str] = {}
    for match in preview.rows:
        choice = choices.get(match.key)
        member_id: int | None
        if choice == "new":
            member_id = None
        elif choice is not None:
            if choice not in existing:
                errors.append(
                    _("Row %(key)s: there is no member #%(id)s.") % {"key": match.key, "id": choice}
                )
                continue
            member_id = choice
        elif match.status == "ambiguous":
            if not new_for_ambiguous:
                errors.append(
                    _("Row %(key)s (%(name)s, line %(line)s) could be %(who)s: choose one.")
                    % {
                        "key": match.key,
                        "name": match.row.name,
                        "line": match.row.line,
                        "who": ", ".join(f"#{m.pk} {m.full_name}" for m in match.candidates),
                    }
                )
                continue
            member_id = None
        else:
            member_id = match.member.pk if match.member is not None else None
        if member_id is not None:
            if member_id in taken:
                errors.append(
                    _("Rows %(a)s and %(b)s are both member #%(id)s.")
                    % {"a": taken[member_id], "b": match.key, "id": member_id}
                )
                continue
            taken[member_id] = match.key
        resolved.append((match.row, member_id))
    return resolved, errors


def choices_from(values: Iterable[tuple[str, str]]) -> dict[str, Choice]:
    """Form or command values `key -> member id | new`; blanks are no choice."""
    choices: dict[str, Choice] = {}
    for key, value in values:
        value = value.strip()
        if value == "new":
            choices[key] = "new"
        elif value:
            # Anything else is a member id or a refusal: "²" and 10**22 are no member.
            choices[key] = int_or_default(value, 0, minimum=1, maximum=MAX_ID)
    return choices
