"""What a tournament's time control means for rating: EGF class (egf.md §8) and UFGO eligibility."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal, InvalidOperation

from django.utils.translation import gettext as _

from tournaments.models import Tournament

Overtime = Tournament.Overtime

# egf.md §8: (class, minimum adjusted minutes, minimum basic minutes) for byoyomi/sudden
# death, and the same for Fischer clocks; strongest class first.
EGF_CLASS_RULES = (("A", 75, 60), ("B", 50, 40), ("C", 30, 25))
EGF_FISCHER_RULES = (("A", 75, 45), ("B", 50, 30), ("C", 30, 20))
BYOYOMI_MOVES = 45
CANADIAN_MOVES = 60
FISCHER_MOVES = 120


def adjusted_minutes(tournament: Tournament) -> float:
    """egf.md §8: basic time plus the time for 45 byoyomi / 60 Canadian / 120 Fischer moves."""
    basic = float(tournament.basic_time_minutes)
    seconds = float(tournament.overtime_seconds)
    if tournament.overtime_kind == Overtime.BYOYOMI:
        return basic + BYOYOMI_MOVES * seconds / 60
    if tournament.overtime_kind == Overtime.CANADIAN:
        moves = max(tournament.overtime_moves, 1)
        return basic + CANADIAN_MOVES * (seconds / moves) / 60
    if tournament.overtime_kind == Overtime.FISCHER:
        return basic + FISCHER_MOVES * seconds / 60
    return basic


@dataclass(frozen=True)
class ClassSuggestion:
    klass: str | None  # None: too short to be rated by the EGF
    reason: str


def egf_class_allowed(tournament: Tournament) -> str | None:
    """The strongest EGF class the time control allows (None: too short to be rated).

    A recompute asks this of every tournament (9,000 at EGD scale): numbers only, no words."""
    adjusted = adjusted_minutes(tournament)
    basic = float(tournament.basic_time_minutes)
    for klass, min_adjusted, min_basic in _egf_rules(tournament):
        if adjusted >= min_adjusted and basic >= min_basic:
            return klass
    return None


def _egf_rules(tournament: Tournament) -> tuple[tuple[str, int, int], ...]:
    return EGF_FISCHER_RULES if tournament.overtime_kind == Overtime.FISCHER else EGF_CLASS_RULES


def suggest_egf_class(tournament: Tournament) -> ClassSuggestion:
    """The strongest EGF class the time control allows, with the reason in words."""
    adjusted = adjusted_minutes(tournament)
    basic = float(tournament.basic_time_minutes)
    for klass, min_adjusted, min_basic in _egf_rules(tournament):
        if adjusted >= min_adjusted and basic >= min_basic:
            return ClassSuggestion(
                klass,
                _(
                    "Adjusted time %(adj)g min (needs %(need_adj)d) and basic time %(basic)g min "
                    "(needs %(need_basic)d) allow class %(klass)s."
                )
                % {
                    "adj": adjusted,
                    "need_adj": min_adjusted,
                    "basic": basic,
                    "need_basic": min_basic,
                    "klass": klass,
                },
            )
    return ClassSuggestion(
        None,
        _(
            "Adjusted time %(adj)g min with basic time %(basic)g min is below class C; "
            "the EGF does not rate it."
        )
        % {"adj": adjusted, "basic": basic},
    )


# --- reading a time control a results file wrote (formats.md) --------------------------

MINUTES_PLACES = Decimal("0.01")
MAX_MINUTES = Decimal("99999.99")


def exact_minutes(value: float | Decimal | str) -> Decimal | None:
    """Minutes as the model keeps them: to the hundredth, rounded down, so no threshold
    (30, 45, 60 minutes...) is ever reached by rounding (egf.md §8, ufgo.md B9)."""
    try:
        minutes = Decimal(str(value))
    except InvalidOperation:
        return None
    if not minutes.is_finite() or minutes < 0:
        return None
    if minutes > MAX_MINUTES:  # before quantize: 1e308 has more digits than it may keep
        return MAX_MINUTES
    return minutes.quantize(MINUTES_PLACES, rounding=ROUND_FLOOR)


def minutes_text(value: Decimal | float) -> str:
    """60 → "60", 29.5 → "29.5": the shortest exact writing, for files and pages."""
    text = format(Decimal(str(value)).normalize(), "f")
    return text


@dataclass(frozen=True)
class OvertimeReading:
    kind: str
    seconds: int
    moves: int = 1


_NUMBER = r"(\d+(?:[.,]\d+)?)"
_UNIT = r"\s*(seconds|second|secs|sec|s|minutes|minute|mins|min|m|''|\"|'|)"
_DURATION = _NUMBER + _UNIT
_PERIODS_TIMES = re.compile(r"(\d+)\s*[x×*]\s*" + _DURATION + r"(?![\w.])", re.IGNORECASE)
_TIMES_PERIODS = re.compile(_DURATION + r"\s*[x×*]\s*(\d+)(?![\w.])", re.IGNORECASE)
_STONES_IN = re.compile(
    r"(\d+)\s*(?:moves|move|stones|stone)?\s*(?:/|in)\s*" + _DURATION + r"(?![\w.])",
    re.IGNORECASE,
)
_IN_STONES = re.compile(
    _DURATION + r"\s*(?:/|for|per)\s*(\d+)\s*(?:moves|move|stones|stone)?(?![\w.])", re.IGNORECASE
)
_ALONE = re.compile(_DURATION + r"(?![\w.])", re.IGNORECASE)


def _seconds(number: str, unit: str, *, default_minutes: bool = False) -> int | None:
    value = float(number.replace(",", "."))
    unit = unit.lower()
    if unit.startswith("m") or unit == "'" or (not unit and default_minutes):
        value *= 60
    seconds = round(value)
    return seconds if 0 <= seconds <= 36000 else None


def overtime_from_text(text: str | None) -> OvertimeReading | None:
    """The overtime a results file writes in words (formats.md, JSON `overtime`), in the
    model's terms; None when the text says nothing this can read.

    Byoyomi: "byoyomi 5x30s", "byoyomi 5x1min", "byoyomi 30s x5", "byoyomi 10s" (the
    application's own export: seconds per period). Canadian: "canadian 25/300s",
    "canadian 25/5min", "canadian 25 stones in 10 min", "canadian 300s/25" — a number
    without a unit there is minutes below 60 (no one gives 25 stones a few seconds).
    Fischer: "fischer 15s". Sudden death: empty, "sudden death", "none", "absolute".
    """
    words = (text or "").strip().lower()
    if not words or "sudden" in words or words in ("none", "absolute", "no overtime", "0"):
        return OvertimeReading(Tournament.Overtime.SUDDEN_DEATH, 0)
    if "canad" in words:
        if (m := _STONES_IN.search(words)) is not None:
            seconds = _seconds(m.group(2), m.group(3), default_minutes=float(m.group(2)) < 60)
            moves = int(m.group(1))
        elif (m := _IN_STONES.search(words)) is not None:
            seconds = _seconds(m.group(1), m.group(2), default_minutes=float(m.group(1)) < 60)
            moves = int(m.group(3))
        else:
            return None
        if seconds is None or not 1 <= moves <= 200:
            return None
        return OvertimeReading(Tournament.Overtime.CANADIAN, seconds, moves)
    if "fischer" in words or "increment" in words or words.startswith("+"):
        m = _ALONE.search(words)
        seconds = _seconds(m.group(1), m.group(2)) if m is not None else None
        return None if seconds is None else OvertimeReading(Tournament.Overtime.FISCHER, seconds)
    if (m := _PERIODS_TIMES.search(words)) is not None:
        seconds = _seconds(m.group(2), m.group(3))
    elif (m := _TIMES_PERIODS.search(words)) is not None or (m := _ALONE.search(words)) is not None:
        seconds = _seconds(m.group(1), m.group(2))
    else:
        return None
    return None if seconds is None else OvertimeReading(Tournament.Overtime.BYOYOMI, seconds)
