"""A rating list as the files pairing programs read: the EGF rating list (`egf_db.txt`,
OpenGotha, Pairgoth) and FIDE's TXT list (Swiss-Manager, Vega, JaVaFo) (issue 56).

`rating_list_file` reads the live list or one of its publications into the neutral
`RatingListFile` (tournaments/formats/list_model.py); the format modules write it. Reads
only, in two queries whatever the list's size.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Callable, Iterable

from django.utils import timezone

from clubsite.duplicates import CYRILLIC
from clubsite.models import GameKind, Member
from ratings.display.calculator import rivne_grade_of_rating
from ratings.models import PublishedEntry, PublishedList, RatingEntry, RatingList
from ratings.systems import egf
from ratings.systems.grades import Grade
from ratings.systems.ufgo.grades import grade_of as ufgo_grade_of
from tournaments.formats.list_model import ListRow, RatingListFile
from tournaments.formats.rating_lists import write_rating_list

PAIRING_FORMATS = {"egd": "egf_db", "fide": "fide"}
# The grade a system gives a rating, for a player the list holds no grade of: the EGF's
# nearest grade (egf.md §1), Table 1 of UFGO and the start index of Rivne (rivne.md B3).
GRADE_OF_RATING: dict[str, Callable[[float], Grade]] = {
    "egf": lambda rating: egf.rating_to_grade(rating, professional=False),
    "ufgo": ufgo_grade_of,
    "rivne": rivne_grade_of_rating,
}
MEMBER_FIELDS = (
    "family_name", "given_name", "country", "federation", "club__name", "egd_pin", "fide_id",
    "sex", "birth_year", "birth_date", "fide_title",
)  # fmt: skip


def file_formats(rating_list: RatingList) -> list[str]:
    """The pairing programs' formats this list can be written in: the EGF list for Go."""
    return ["egd", "fide"] if rating_list.game == GameKind.GO else ["fide"]


def latin_1(text: str) -> str:
    """Text the pairing programs read (OpenGotha reads ISO-8859-15): Cyrillic as the
    passports write it, other letters without their accents, anything else as '?'."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ord(ch) < 256:
            out.append(ch)
            continue
        latin = CYRILLIC.get(ch.lower())
        if latin is not None:
            out.append(latin.capitalize() if ch.isupper() else latin)
            continue
        plain = "".join(
            c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
        )
        out.append(plain if plain and all(ord(c) < 256 for c in plain) else "?")
    return "".join(out)


def _grade(rating_list: RatingList, grade: Grade | None, rating: float) -> str | None:
    if rating_list.game != GameKind.GO:
        return None
    if grade is None:
        grade_of = GRADE_OF_RATING.get(rating_list.system, GRADE_OF_RATING["egf"])
        grade = grade_of(rating)
    return str(grade)


def _row(
    rating_list: RatingList,
    member: Member,
    *,
    line: int,
    rating: float,
    grade: Grade | None,
    tournaments: int,
    games: int | None,
    last_played: dt.date | None,
    inactive: bool,
) -> ListRow:
    birth_year = member.birth_date.year if member.birth_date else member.birth_year
    return ListRow(
        line=line,
        key=member.egd_pin or member.fide_id or str(member.pk),
        rating=rating,
        family_name=latin_1(member.family_name),
        given_name=latin_1(member.given_name),
        country=member.country or None,
        federation=member.federation or None,
        club=latin_1(member.club.name) if member.club else None,
        egd_pin=member.egd_pin or None,
        fide_id=member.fide_id or None,
        sex=member.sex or None,  # type: ignore[arg-type]
        birth_year=birth_year,
        title=member.fide_title or None,
        grade=_grade(rating_list, grade, rating),
        tournaments=tournaments,
        games=games,
        last_played=last_played,
        inactive=inactive,
    )


def _ordered(rows: Iterable[ListRow], fmt: str) -> tuple[ListRow, ...]:
    """The EGD's list runs by name; FIDE's by rating here (its own runs by ID)."""
    if fmt == "egd":
        return tuple(sorted(rows, key=lambda r: (r.family_name.casefold(), r.given_name, r.key)))
    return tuple(rows)


def rating_list_file(
    *, rating_list: RatingList, fmt: str, snapshot: PublishedList | None = None
) -> RatingListFile:
    """Everyone the list rates (a pairing program seeds anyone who may turn up, so the
    players out for inactivity are in too, flagged `i` in FIDE's layout), best first."""
    if snapshot is not None:
        published = (
            PublishedEntry.objects.filter(snapshot=snapshot)
            .select_related("member__club")
            .only("rating", "grade", "tournaments", "last_played", *_member_only())
            .order_by("rank", "member_id")
        )
        rows = [
            _row(
                rating_list,
                entry.member,
                line=number,
                rating=entry.rating,
                grade=entry.grade,
                tournaments=entry.tournaments,
                games=None,
                last_played=entry.last_played,
                inactive=False,
            )  # fmt: skip
            for number, entry in enumerate(published, start=1)
        ]
        return RatingListFile(fmt, _ordered(rows, fmt), snapshot.date)
    today = timezone.localdate()
    live = (
        RatingEntry.objects.filter(rating_list=rating_list, rating__isnull=False)
        .select_related("member__club")
        .only(
            "rating",
            "grade",
            "tournaments",
            "games",
            "last_played",
            "active_until",
            *_member_only(),
        )  # fmt: skip
        .order_by("-rating", "member__family_name", "member_id")
    )
    rows = [
        _row(
            rating_list,
            entry.member,
            line=number,
            rating=entry.rating,
            grade=entry.grade,
            tournaments=entry.tournaments,
            games=entry.games,
            last_played=entry.last_played,
            inactive=entry.active_until is not None and entry.active_until < today,
        )  # fmt: skip
        for number, entry in enumerate(live, start=1)
    ]
    return RatingListFile(fmt, _ordered(rows, fmt), today)


def _member_only() -> list[str]:
    return ["member__id", "member__club__id", *(f"member__{name}" for name in MEMBER_FIELDS)]


def rating_list_text(
    *, rating_list: RatingList, fmt: str, snapshot: PublishedList | None = None
) -> str:
    """The list written in `fmt` ("egd" or "fide")."""
    listfile = rating_list_file(rating_list=rating_list, fmt=fmt, snapshot=snapshot)
    return write_rating_list(listfile, fmt)
