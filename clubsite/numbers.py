"""One way to read an integer from a request or an uploaded file.

Python's `int()` and `str.isdigit()` accept far more than a person means by a number:
`"²".isdigit()` is true yet `int("²")` fails, `int("١٢")` is 12, `int("1_0")` is 10, and a
20-digit number passes both and overflows the database. Everything typed by a visitor or read
from a file goes through here: ASCII digits only, an optional leading minus where allowed,
and a range checked before the number is used.
"""

from __future__ import annotations

import re

MAX_ID = 2**63 - 1  # the largest primary key a database holds

_INTEGER = re.compile(r"-?[0-9]{1,18}")


class NumberError(ValueError):
    """The text is not a whole number in the allowed range; the message says why (English,
    for logs and format errors; views answer with their own translated text or a default)."""


def read_int(text: object, *, minimum: int, maximum: int) -> int:
    """The integer `text` spells in ASCII digits, within [minimum, maximum]; else NumberError."""
    if isinstance(text, bool):
        raise NumberError(f"not a whole number: {text!r}")
    if isinstance(text, int):
        value = text
    else:
        raw = text if isinstance(text, str) else str(text)
        if not _INTEGER.fullmatch(raw):
            shown = raw if len(raw) <= 20 else raw[:20] + "…"
            raise NumberError(f"not a whole number: {shown!r}")
        value = int(raw)
    if not minimum <= value <= maximum:
        raise NumberError(f"{value} is outside {minimum}..{maximum}")
    return value


def int_or_none(text: object, *, minimum: int, maximum: int) -> int | None:
    """`read_int`, or None when the text is missing or not a number in range."""
    if text is None or text == "":
        return None
    try:
        return read_int(text, minimum=minimum, maximum=maximum)
    except NumberError:
        return None


def int_or_default(text: object, default: int, *, minimum: int, maximum: int) -> int:
    """`read_int`, or `default` when the text is missing or not a number in range."""
    value = int_or_none(text, minimum=minimum, maximum=maximum)
    return default if value is None else value


def is_ascii_number(text: str, *, max_digits: int = 18) -> bool:
    """True when `text` is 1..max_digits ASCII digits (no sign): a key or an id in a file."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()
