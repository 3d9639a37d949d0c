"""The file's layout: the `001` record's columns, the round block's offsets and codes, the
header records of each version, and the rows a reading builds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tournaments.formats.model import (
    ByeKind,
    FilePlayer,
)

Version = Literal["16", "26"]


# Player record `001`: (first column, last column), 1-based and inclusive.
START_RANK = (5, 8)


SEX = (10, 10)


TITLE = (11, 13)


NAME = (15, 47)


RATING = (49, 52)


FEDERATION = (54, 56)


FIDE_ID = (58, 68)


BIRTH_DATE = (70, 79)


POINTS = (81, 84)


RANK = (86, 89)


FIRST_ROUND_COLUMN = 92


ROUND_WIDTH = 10


MAX_ROUNDS = 200  # more is not a tournament; stops a garbage upload early


# Inside one round block, offsets from its first column.
OPPONENT_OFFSETS = (0, 3)


COLOUR_OFFSET = 5


RESULT_OFFSET = 7


# Columns that must stay blank between the fields of a `001` record.
SEPARATOR_COLUMNS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)


HEADER_RECORDS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start date",
    "052": "end date",
    "062": "number of players",
    "072": "number of rated players",
    "092": "type of tournament",
    "102": "chief arbiter",
    "122": "time control",
    "132": "round dates",
    "142": "number of rounds",
}


RATED_CODES = {"1": "win", "0": "loss", "=": "draw"}


FORFEIT_CODES = {"+": "win", "-": "loss"}


UNRATED_CODES = {"W": "win", "L": "loss", "D": "draw"}


# TRF26's `*`, and a blank result beside an opponent: paired, no result entered yet.
NOT_ENTERED = "*"


# What the other player's code must be, for each code of a game.
COUNTERPART = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "W", "D": "D"}
COUNTERPART[NOT_ENTERED] = NOT_ENTERED


COLOURS = {"w": "w", "b": "b", "-": None, " ": None}


DATE_PATTERN = re.compile(r"^(\d{4})(?:[/.-](\d{1,2})[/.-](\d{1,2}))?$")


@dataclass(frozen=True, slots=True)
class Block:
    round: int
    column: int
    opponent: int  # 0: none
    colour: str | None
    code: str  # upper case; " " for blank


@dataclass(slots=True)
class Row:
    line: int
    player: FilePlayer
    blocks: dict[int, Block]


def column_text(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1 : span[1]].strip()


# Records that only TRF26 has: their presence (or a `###` comment) marks the version.
TRF26_RECORDS = frozenset(
    [
        "142",
        "152",
        "162",
        "172",
        "182",
        "192",
        "202",
        "212",
        "222",
        "240",
        "250",
        "260",
        "299",
        "300",
        "310",
        "320",
        "330",
        "352",
        "362",
        "801",
        "802",
    ]
)


BYE_CODES: dict[str, tuple[float, ByeKind]] = {
    "H": (0.5, "requested"),
    "F": (1.0, "requested"),
    "U": (1.0, "pairing"),
    "Z": (0.0, "absent"),
    "+": (1.0, "forfeit"),
    "-": (0.0, "forfeit"),
    NOT_ENTERED: (0.0, "unplayed"),
}
