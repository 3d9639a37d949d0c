"""Results files in and out: EGD tables, FIDE TRF16/TRF26, CSV games, the engine's JSON.

Pure Python, no Django. `parse(data, fmt, filename, max_bytes=...)` is the entry point
for uploads: it refuses oversized files before decoding, decodes the bytes,
and hands the text to the format's module. Every module parses into the
neutral `ResultsFile` (see `model.py`) and writes one back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import PurePath

from tournaments.formats import csv_games, egd, json_format, trf
from tournaments.formats.bounds import check_sizes
from tournaments.formats.encoding import UTF8, decode_text
from tournaments.formats.model import FormatError, Problem, ResultsFile, gettext_noop

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # 2 MiB: the largest real tables are ~30 kB


@dataclass(frozen=True, slots=True)
class Format:
    code: str
    title: str
    parse: Callable[[str, str | None], ResultsFile]
    write: Callable[[ResultsFile], str]
    extensions: tuple[str, ...]
    # EGD tables and TRFs come from Windows tools and OpenGotha in whatever encoding
    # their system used: the bytes decide (`encoding.decode_text`). CSV and JSON are UTF-8.
    detect_encoding: bool = False


FORMATS: dict[str, Format] = {
    "egd": Format(
        "egd", "EGD tournament table (.h9, .txt)", egd.parse, egd.write, (".txt",),
        detect_encoding=True,
    ),
    "trf16": Format(
        "trf16", "FIDE TRF16", trf.parse, lambda r: trf.write(r, "16"), (".trf", ".trfx"),
        detect_encoding=True,
    ),
    "trf26": Format(
        "trf26", "FIDE TRF26", trf.parse, lambda r: trf.write(r, "26"), (), detect_encoding=True
    ),
    "csv": Format("csv", "CSV games", csv_games.parse, csv_games.write, (".csv",)),
    "json": Format("json", "JSON (engine contract)", json_format.parse, json_format.write, (".json",)),
}  # fmt: skip
ALIASES = {"trf": "trf16", "h9": "egd", "txt": "egd"}

__all__ = [
    "FORMATS",
    "MAX_UPLOAD_BYTES",
    "FormatError",
    "Problem",
    "ResultsFile",
    "guess_format",
    "parse",
    "size_text",
    "write",
]


def _format(fmt: str) -> Format:
    code = ALIASES.get(fmt.lower(), fmt.lower())
    if code not in FORMATS:
        known = ", ".join(FORMATS)
        raise FormatError(
            [
                Problem.of(
                    None,
                    None,
                    gettext_noop("Unknown file format %(fmt)r; known: %(known)s."),
                    fmt=fmt,
                    known=known,
                )
            ]
        )
    return FORMATS[code]


def guess_format(filename: str) -> str | None:
    """The format a file name suggests: `.h9`/`.hN` and `.txt` EGD, `.trf` TRF, `.csv`, `.json`."""
    suffix = PurePath(filename).suffix.lower()
    if len(suffix) == 3 and suffix[:2] == ".h" and suffix[2].isdigit():
        return "egd"
    for code, spec in FORMATS.items():
        if suffix in spec.extensions:
            return code
    return None


def size_text(size: int) -> str:
    """A byte count as people read it: "2 MB", "500 kB", "1000 bytes"."""
    if size >= 1024 * 1024 and size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    if size >= 1024:
        return f"{size // 1024} kB"
    return f"{size} bytes"


def parse(
    data: bytes,
    fmt: str | None = None,
    filename: str | None = None,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    encoding: str | None = None,
) -> ResultsFile:
    """Parse an upload. Raises `FormatError` (only) for anything wrong with it.

    A file over `max_bytes` (the site passes its RESULTS_UPLOAD_MAX_BYTES) is refused
    before it is decoded. `encoding` (a key of `encoding.ENCODINGS`) is the admin's
    choice; without it the bytes decide (`encoding.decode_text`).
    """
    if len(data) > max_bytes:
        raise FormatError(
            [
                Problem.of(
                    None,
                    None,
                    gettext_noop("The file is larger than %(size_text)s; it was not read."),
                    size_text=size_text(max_bytes),
                )
            ]
        )
    code = fmt or (guess_format(filename) if filename else None)
    if code is None:
        raise FormatError(
            [Problem.of(None, None, gettext_noop("Please say which format the file is in."))]
        )
    spec = _format(code)
    decoded = decode_text(data, encoding, detect=spec.detect_encoding)
    results = replace(
        spec.parse(decoded.text, filename), source_text=decoded.text, source_format=spec.code
    )
    check_sizes(results)
    results = replace(results, encoding=decoded.encoding)
    if decoded.encoding == UTF8:
        return results
    note = Problem.of(
        None,
        None,
        gettext_noop(
            "The file is not UTF-8; it was read as %(encoding)s. Please check the names in the "
            "preview, and choose another encoding if they look wrong."
        ),
        "warning",
        encoding=decoded.label,
    )
    return replace(results, warnings=(note, *results.warnings))


def write(results: ResultsFile, fmt: str) -> str:
    """The results as text in the named format."""
    return _format(fmt).write(results)
