"""The text of an uploaded file as it was written: UTF-8 when the bytes decode as UTF-8,
else the encoding the bytes themselves show (charset-normalizer over the whole file), or
the one the admin picked after seeing the preview.

A fixed order of guesses read OpenGotha's ISO-8859-15 tables as Windows Cyrillic
("Nemo André" became "Nemo Andrй"), so the same players came in as new members.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from charset_normalizer.md import mess_ratio

from tournaments.formats.model import FormatError, Problem, gettext_noop

UTF8 = "utf-8"

# The encodings a club's file comes in, with the names the preview offers. Their order
# breaks a tie between two readings the detector finds equally clean: a Western text
# (OpenGotha writes ISO-8859-15) decodes without a flaw as Windows-1250 too.
ENCODINGS: dict[str, str] = {
    UTF8: "UTF-8",
    "iso8859_15": "ISO-8859-15 (Western European)",
    "cp1252": "Windows-1252 (Western European)",
    "cp1250": "Windows-1250 (Central European)",
    "iso8859_2": "ISO-8859-2 (Central European)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "koi8_u": "KOI8-U (Ukrainian)",
    "koi8_r": "KOI8-R (Russian)",
    "cp866": "DOS 866 (Cyrillic)",
}
DETECTABLE = tuple(code for code in ENCODINGS if code != UTF8)
MAX_COMPARED_BYTES = 64 * 1024  # the non-ASCII lines of the largest real tables (~30 kB) fit


@dataclass(frozen=True, slots=True)
class DecodedText:
    text: str
    encoding: str  # a key of ENCODINGS
    chosen: bool = False  # the admin picked it (else UTF-8 or the detector's reading)

    @property
    def label(self) -> str:
        return ENCODINGS[self.encoding]


def encoding_code(name: str) -> str | None:
    """The ENCODINGS key a user's spelling means ("ISO-8859-15", "cp1251", "utf8"), or None."""
    wanted = name.strip().lower().replace("-", "").replace("_", "")
    for code, label in ENCODINGS.items():
        if wanted in (
            code.replace("_", "").replace("-", ""),
            label.split(" ")[0].lower().replace("-", ""),
        ):
            return code
    return None


def decode_text(data: bytes, encoding: str | None = None, *, detect: bool = True) -> DecodedText:
    """The file's text. `encoding` (a key of ENCODINGS) is the admin's choice; without it
    UTF-8 is tried first, then (with `detect`) the detector decides from all the bytes.
    Raises `FormatError` when the bytes are not text in the chosen (or only) encoding."""
    if encoding is not None:
        if encoding not in ENCODINGS:
            raise FormatError(
                [_problem(None, gettext_noop("Unknown encoding; choose one from the list."))]
            )
        return DecodedText(_strict(data, encoding), encoding, chosen=True)
    try:
        return DecodedText(data.decode(UTF8), UTF8)
    except UnicodeDecodeError:
        if not detect:
            raise FormatError(
                [
                    _problem(
                        _bad_line(data, UTF8),
                        gettext_noop("The file is not UTF-8 text; please save it as UTF-8."),
                    )
                ]
            ) from None
    code = detected_encoding(data)
    return DecodedText(data.decode(code, errors="replace"), code)


def detected_encoding(data: bytes) -> str:
    """The cleanest reading among DETECTABLE: the least mess by charset-normalizer's
    detector plus symbols inside words ("Pawe³" is Windows-1250's "Paweł" read as
    Western), then ENCODINGS' order. Only the lines with non-ASCII bytes are compared:
    the rest reads the same in every candidate."""
    lines = b"\n".join(line for line in data.splitlines() if not line.isascii())
    lines = lines[:MAX_COMPARED_BYTES]
    scores = []
    for at, code in enumerate(DETECTABLE):
        try:
            text = lines.decode(code)
        except UnicodeDecodeError:
            continue
        flaws = mess_ratio(text, 1.0) + _symbols_in_words(text) + _accents_only(text)
        scores.append((round(flaws, 3), at, code))
    # iso8859_15 decodes any byte, so there is always a reading; the preview shows the
    # names for the admin to pick another encoding.
    return min(scores)[2] if scores else DETECTABLE[0]


def _accents_only(text: str) -> float:
    """The share of words of three letters or more written mostly in accented Latin
    letters: "Îëåíà" is Windows Cyrillic's "Олена" read as Western; no Western name is
    spelled so."""
    words = text.split()
    odd = 0
    for word in words:
        letters = [c for c in word if c.isalpha()]
        accented = [c for c in letters if not c.isascii() and "LATIN" in unicodedata.name(c, "")]
        if len(letters) >= 3 and len(accented) * 2 > len(letters):
            odd += 1
    return odd / len(words) if words else 0.0


def _symbols_in_words(text: str) -> float:
    """The share of words where a symbol (£, ³, ¤, ¦…) stands among letters."""
    words = text.split()
    odd = sum(
        1
        for word in words
        if any(c.isalpha() for c in word)
        and any(unicodedata.category(c)[0] == "S" or unicodedata.category(c) == "No" for c in word)
    )
    return odd / len(words) if words else 0.0


def _strict(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise FormatError(
            [
                _problem(
                    _bad_line(data, encoding),
                    gettext_noop(
                        "The file cannot be read as %(encoding)s; please choose another encoding."
                    ),
                    encoding=ENCODINGS[encoding],
                )
            ]
        ) from None


def _bad_line(data: bytes, encoding: str) -> int:
    try:
        data.decode(encoding)
    except UnicodeDecodeError as error:
        return data[: error.start].count(b"\n") + 1
    return 1


def _problem(line: int | None, template: str, **params: str) -> Problem:
    return Problem.of(line, None, template, **params)
