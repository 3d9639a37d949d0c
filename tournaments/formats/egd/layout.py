"""The table's vocabulary: its tags, classes, rules, the patterns of a line's tokens, and
the rows a reading builds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from ratings.systems.grades import Grade
from tournaments.formats.model import (
    FilePlayer,
)

KNOWN_TAGS = ("TC", "CL", "EV", "PC", "DT", "HA", "KM", "TM", "CM")


RATED_CLASSES = ("A", "B", "C")


UNRATED_CLASSES = {"D": "an online tournament", "X": "an unrated tournament"}


EVEN_GAMES_RULE = 9  # `h9`: every game is even


MAX_HANDICAP = 9


MAX_ROUNDS = 200  # more is not a tournament table; stops a garbage upload early


BYE_POINTS = {"+": 1.0, "=": 0.5, "-": 0.0}


# Clubs written as a placeholder for "no club" in real tables.
NO_CLUB = re.compile(r"^x{2,4}$", re.IGNORECASE)


TAG_PATTERN = re.compile(r"([A-Z]{2})\[([^\]]*)\]")


TAG_LINE_PATTERN = re.compile(r"^\s*[A-Z]{2}\[")


GRADE_PATTERN = re.compile(r"^\d{1,2}[kdp]$", re.IGNORECASE)


BARE_GRADE_PATTERN = re.compile(r"^\d{1,2}$")


COUNTRY_PATTERN = re.compile(r"^[A-Za-z]{2}$")


# `?` is OpenGotha's "result not entered": `5?` paired with 5, a lone `?` no opponent.
ENTRY_PATTERN = re.compile(
    r"^(?P<opp>\d+|(?=\?))(?P<sym>[-+=?])(?P<forfeit>!)?"
    r"(?:(?P<slash>/)?(?P<colour>[bwBW])(?P<hcp>\d+)?)?$"
)


LOOKS_LIKE_ENTRY_PATTERN = re.compile(r"^\d+[-+=?]|/")


RULE_PATTERN = re.compile(r"^\s*h?(\d)\s*$", re.IGNORECASE)


RULE_IN_FILENAME_PATTERN = re.compile(r"\.h(\d)$", re.IGNORECASE)


PIN_PATTERN = re.compile(r"^\d{8}$")


ENTRY_HELP = "expected something like 12+/w, 7-/b2, 3=, 5+! or 0+"


class Entry(NamedTuple):
    opponent: int
    symbol: str  # + - =
    forfeit: bool
    colour: str | None  # "b" / "w"
    handicap: int | None
    text: str


@dataclass(slots=True)
class Row:
    line: int
    place: int  # what opponents' entries name: the written place, or the line's position
    player: FilePlayer
    grade: Grade | None  # None: the grade was refused (the rest of the line is still read)
    entries: list[Entry]
    entries_broken: bool = False  # an entry was refused: its round count proves nothing
    place_written: bool = True  # False: OpenGotha left it blank (tied with the line above)
    unknown_before: int = 0  # lone `?` right before the entries: rounds or a score column


def clean_field(value: str) -> str:
    """A tag value as the table holds it: one space between words, no `;` or `]` inside."""
    return " ".join(value.replace("]", ")").replace(";", ",").split())
