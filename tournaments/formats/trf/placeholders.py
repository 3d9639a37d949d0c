"""Placeholders some pairing engines write where a TRF has no value (CPPDubovSystem:
`--CPP DUBOV SYSTEM RANDOM TOURNAMENT (CITY)--`, FIDE ID `-----------`): read as
empty, each with a warning naming its line, rather than as a city or an ID."""

from __future__ import annotations

import re

from tournaments.formats.model import ProblemLog, gettext_noop

HEADER_PLACEHOLDER = re.compile(r"^--.*--$")
ID_PLACEHOLDER = re.compile(r"^-+$")


def blank_header_placeholders(header: dict[str, tuple[int, str]], log: ProblemLog) -> None:
    """Empty every header record whose value is a `--…--` placeholder."""
    for code, (line, text) in list(header.items()):
        value = text[4:].strip()
        if HEADER_PLACEHOLDER.match(value):
            header[code] = (line, code)
            log.warn(
                line,
                gettext_noop(
                    "Record %(code)s holds a placeholder (%(value)r), not a value; it was read"
                    " as empty."
                ),
                5,
                code=code,
                value=value,
            )


def is_id_placeholder(text: str, line: int, column: int, log: ProblemLog) -> bool:
    """A FIDE ID of dashes only: read as no ID, with a warning."""
    if not ID_PLACEHOLDER.match(text):
        return False
    log.warn(
        line,
        gettext_noop("The FIDE ID %(text)r is a placeholder; the player was read without one."),
        column,
        text=text,
    )
    return True
