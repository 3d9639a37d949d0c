"""A time control as files write it, read for the rules (EGF class, UFGO eligibility).

The text itself is what the tournament keeps and what the export writes back; this
only says what it means where the notation is a common one:

- TRF record 122's free text: `90min/40moves+30min+30sec`, `90'+30''`, `90/40+30`
  (90 minutes for 40 moves, then 30 minutes), `40/120, 60` (40 moves in 120 minutes,
  then 60), `G/60+30` (the game in 60 minutes, 30 seconds a move), `90+30`;
- EGD `TM[…]`: the adjusted time in minutes (`82`, `82.5`) or with a unit (`3h`);
- Go's basic time with byoyomi or Canadian overtime: `60 min + 5x30s`,
  `40min + canadian 25/10min`.

Anything else is not recognised: the time control is then unknown (no rule blocks, the
referee is warned) rather than a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournaments.formats.model import TimeControl

MAX_TEXT = 200
MAX_MINUTES = 24 * 60.0
USUAL_MOVES = 40  # "90/40", "40/120": the side that says 40 counts moves

_NUMBER = r"(\d+(?:[.,]\d+)?)"
_MINUTES_UNIT = r"(?:minutes|minute|mins|min|m|')"
_SECONDS_UNIT = r"(?:seconds|second|secs|sec|s|''|\")"
_HOURS_UNIT = r"(?:hours|hour|hrs|hr|h)"
_MOVES_UNIT = r"(?:moves|move|mv|m)"

_EGD_ADJUSTED = re.compile(r"^" + _NUMBER + r"\s*(" + _HOURS_UNIT + r"|" + _MINUTES_UNIT + r")?$")
_PERIOD_MINUTES_PER_MOVES = re.compile(
    r"^" + _NUMBER + r"\s*" + _MINUTES_UNIT + r"?\s*/\s*(\d+)\s*" + _MOVES_UNIT + r"?$"
)
_GAME_IN = re.compile(r"^(?:g|game|sd)\s*/?\s*" + _NUMBER + r"\s*" + _MINUTES_UNIT + r"?$")
_MINUTES = re.compile(r"^" + _NUMBER + r"\s*(" + _MINUTES_UNIT + r"|" + _HOURS_UNIT + r")?$")
_SECONDS = re.compile(
    r"^" + _NUMBER + r"\s*" + _SECONDS_UNIT + r"(?:\s*(?:/\s*move|per move|increment|inc))?$"
)
_BYOYOMI = re.compile(
    r"^(?:byo-?yomi\s*)?(\d+)\s*[x×*]\s*"
    + _NUMBER
    + r"\s*("
    + _SECONDS_UNIT
    + r"|"
    + _MINUTES_UNIT
    + r")?"
    r"(?:\s*byo-?yomi)?$"
)
_CANADIAN = re.compile(
    r"^canadian\s*(\d+)\s*(?:stones?)?\s*(?:/|in)\s*"
    + _NUMBER
    + r"\s*("
    + _SECONDS_UNIT
    + r"|"
    + _MINUTES_UNIT
    + r")?$"
)


@dataclass(frozen=True, slots=True)
class _Reading:
    basic_minutes: float = 0.0
    increment_seconds: float | None = None
    overtime: str | None = None


def read_time_text(text: str) -> TimeControl | None:
    """The file's text with what it means, or None when the text is empty. A text not
    recognised comes back with its `description` only (the time control is unknown)."""
    written = " ".join(text.split())
    if not written:
        return None
    reading = _read(written.lower()) if len(written) <= MAX_TEXT else None
    if reading is None:
        return TimeControl(description=written)
    return TimeControl(
        basic_minutes=reading.basic_minutes,
        overtime=reading.overtime,
        fischer_increment_seconds=reading.increment_seconds,
        description=written,
    )


def read_egd_adjusted(text: str) -> float | None:
    """EGD `TM[…]`: adjusted minutes (`82`, `82,5`, `82 min`, `3h`); None when unreadable."""
    m = _EGD_ADJUSTED.match(" ".join(text.lower().split()))
    if m is None:
        return None
    value = float(m.group(1).replace(",", "."))
    if m.group(2) and m.group(2).startswith("h"):
        value *= 60
    return value if value <= MAX_MINUTES else None


def is_known(time: TimeControl | None) -> bool:
    """Whether the rules can read the time control (else it is unknown)."""
    return time is not None and (
        time.basic_minutes is not None or time.adjusted_minutes is not None
    )


def _read(text: str) -> _Reading | None:
    """Periods joined by `+` or `,`: each a number of minutes, minutes for a number of
    moves, an increment in seconds, or Go's overtime; the minutes add up."""
    parts = [part.strip() for part in re.split(r"\s*[+,;]\s*|\s+then\s+|\s+and\s+", text)]
    if not parts or any(not part for part in parts):
        return None
    minutes = 0.0
    increment: float | None = None
    overtime: str | None = None
    for at, part in enumerate(parts):
        first = at == 0
        period = _period_minutes(
            part, first=first, after_moves=at > 0 and _has_moves(parts[at - 1])
        )
        if period is not None:
            minutes += period
            continue
        if (
            not first
            and (seconds := _increment_seconds(part, bare=_bare_is_increment(parts, at)))
            is not None
        ):
            if increment is not None:
                return None
            increment = seconds
            continue
        if not first and (go := _go_overtime(part)) is not None:
            if overtime is not None:
                return None
            overtime = go
            continue
        return None
    if minutes <= 0 or minutes > MAX_MINUTES:
        return None
    return _Reading(round(minutes, 2), increment, overtime)


def _has_moves(part: str) -> bool:
    return "/" in part and _GAME_IN.match(part) is None


def _bare_is_increment(parts: list[str], at: int) -> bool:
    """`90+30`, `G/60+30`: a bare number after one period is the increment in seconds;
    after minutes for a number of moves (`90/40+30`) it is the next period's minutes."""
    return at == len(parts) - 1 and not _has_moves(parts[at - 1])


def _period_minutes(part: str, *, first: bool, after_moves: bool) -> float | None:
    if (m := _GAME_IN.match(part)) is not None:
        return _number(m.group(1))
    if (m := _PERIOD_MINUTES_PER_MOVES.match(part)) is not None:
        a, b = _number(m.group(1)), _number(m.group(2))
        moves_written = re.search(_MOVES_UNIT + r"$", part.replace(" ", "")) and "min" in part
        if moves_written or b == USUAL_MOVES:
            return a  # "90min/40moves", "90/40": minutes first
        if a == USUAL_MOVES:
            return b  # "40/120": moves first
        return b  # moves/minutes, as US notation writes it
    if (m := _MINUTES.match(part)) is not None:
        unit = m.group(2) or ""
        if not unit and not first and not after_moves:
            return None  # a bare number after a simple period is an increment
        value = _number(m.group(1))
        return value * 60 if unit.startswith("h") else value
    return None


def _increment_seconds(part: str, *, bare: bool) -> float | None:
    if (m := _SECONDS.match(part)) is not None:
        return _number(m.group(1))
    if bare and re.fullmatch(_NUMBER, part):
        return _number(part)
    return None


def _go_overtime(part: str) -> str | None:
    """Japanese byoyomi `5x30s` or Canadian `canadian 25/10min`, in the words
    `tournaments.timecontrol.overtime_from_text` reads. Byoyomi periods without a unit
    are seconds, a Canadian block's minutes (nobody gives 25 stones a few seconds)."""
    if (m := _BYOYOMI.match(part)) is not None:
        return f"byoyomi {m.group(1)}x{m.group(2)}{_unit(m.group(3), default='s')}"
    if (m := _CANADIAN.match(part)) is not None:
        return f"canadian {m.group(1)}/{m.group(2)}{_unit(m.group(3), default='min')}"
    return None


def _unit(written: str | None, *, default: str) -> str:
    if not written:
        return default
    return "min" if written.startswith("m") or written == "'" else "s"


def _number(text: str) -> float:
    return float(text.replace(",", "."))
