"""How ratings, changes and expectations are shown to people (locale-aware)."""

from __future__ import annotations

import html
import math
from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import get_format


def escaped(text: object) -> str:
    """HTML-escaped text (& < > " '), for rows drawn in Python: Django's `escape` says the
    same but wraps each answer in a SafeString, and a page calls this thousands of times."""
    return html.escape(str(text), quote=True)


# Systems whose stored ratings carry one decimal. None today: UFGO keeps 0.1 only
# between rounds and stores whole numbers at the end of an event (ufgo.md B2, B7).
ONE_DECIMAL: frozenset[str] = frozenset()


# 1, 0.1, 0.01, 0.001: made once (a profile rounds two thousand numbers).
_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(4))


def _half_up(value: float, places: int) -> Decimal:
    return Decimal(repr(value)).quantize(_QUANTA[places], rounding=ROUND_HALF_UP)


def number_format(value: Decimal, places: int, separator: str | None = None) -> str:
    """Like Django's number_format (no thousand separator), but cheap enough to call
    thousands of times a page: the locale's decimal separator on a fixed-point string.
    `separator`: the locale's (`decimal_separator`), when the caller has it already."""
    text = f"{value:.{places}f}"
    if places:
        text = text.replace(".", separator or decimal_separator())
    return text


def decimal_separator() -> str:
    """The active language's decimal separator. Looking it up finds the language first,
    a fifth of the time a profile's two hundred rows took to format: a page that formats
    many numbers looks it up once and passes it on."""
    return get_format("DECIMAL_SEPARATOR")


def rating_number(value: float | None, system: str) -> Decimal | None:
    """The rating as shown: half up to an integer, or to 0.1 for UFGO."""
    if value is None or not math.isfinite(value):
        return None
    return _half_up(value, 1 if system in ONE_DECIMAL else 0)


def format_rating(value: float | None, system: str, provisional: bool = False) -> str:
    """`1345`, `1345*` when provisional, '' when none; decimals in the user's locale."""
    number = rating_number(value, system)
    if number is None:
        return ""
    places = 1 if system in ONE_DECIMAL else 0
    text = number_format(number, places)
    return f"{text}*" if provisional else text


def format_change(value: float | None, system: str, separator: str | None = None) -> str:
    """A signed change: `+12`, `−3`, `0`; one more decimal than the rating itself.
    `separator`: as for `number_format`."""
    if value is None or not math.isfinite(value):
        return ""
    places = 2 if system in ONE_DECIMAL else 1
    number = _half_up(value, places)
    if number == 0:
        return number_format(Decimal(0), places, separator)
    text = number_format(abs(number), places, separator)
    return f"+{text}" if number > 0 else f"−{text}"


def format_expectation(value: float | None, separator: str | None = None) -> str:
    """An expected score (0…1) with three decimals in the user's locale.
    `separator`: as for `number_format`."""
    if value is None or not math.isfinite(value):
        return ""
    return number_format(_half_up(value, 3), 3, separator)


def format_percent(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return ""
    return number_format(_half_up(value * 100, 1), 1) + " %"
