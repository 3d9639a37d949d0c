"""Published rating lists in: the EGD list (allworld), FIDE's TXT and XML (of the combined
list, the standard, rapid or blitz ratings), CSV with named columns.

`parse_rating_list(data, fmt)` refuses oversized files before decoding, decodes the bytes
(the EGD's files are often Latin-1) and hands the text to the format's module. Every
module parses into `RatingListFile` (`list_model.py`) and raises `FormatError` with
line-numbered problems.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from tournaments.formats import egd_list, fide_list, fide_xml, rating_csv
from tournaments.formats.bounds import list_rows_in_bounds
from tournaments.formats.list_model import ListRow, RatingListFile
from tournaments.formats.model import FormatError, Problem

# The EGD's full world list is ~4 MB; FIDE's standard list ~40 MB.
MAX_LIST_BYTES = 64 * 1024 * 1024
LIST_FORMATS: dict[str, tuple[str, Callable[[str, str | None], RatingListFile]]] = {
    "egd": ("EGD rating list (allworld, text or the site's HTML)", egd_list.parse),
    "fide": ("FIDE rating list (TXT; of the combined list, standard)", fide_list.parse),
    "fide-rapid": ("FIDE combined list (TXT), rapid", partial(fide_list.parse, kind="rapid")),
    "fide-blitz": ("FIDE combined list (TXT), blitz", partial(fide_list.parse, kind="blitz")),
    "fide-xml": ("FIDE rating list (XML; of the combined list, standard)", fide_xml.parse),
    "fide-xml-rapid": ("FIDE combined list (XML), rapid", partial(fide_xml.parse, kind="rapid")),
    "fide-xml-blitz": ("FIDE combined list (XML), blitz", partial(fide_xml.parse, kind="blitz")),
    "csv": ("CSV with named columns", rating_csv.parse),
}
WRITERS: dict[str, Callable[[RatingListFile], str]] = {
    "egd": egd_list.write,
    "fide": fide_list.write,
    "csv": rating_csv.write,
}
FALLBACK_ENCODINGS = {code: ("latin-1",) for code in LIST_FORMATS} | {"csv": ("cp1251",)}

__all__ = ["LIST_FORMATS", "ListRow", "RatingListFile", "parse_rating_list", "write_rating_list"]


def parse_rating_list(
    data: bytes, fmt: str, filename: str | None = None, *, max_bytes: int = MAX_LIST_BYTES
) -> RatingListFile:
    """Parse an uploaded rating list. Raises `FormatError` (only) for anything wrong with it."""
    if len(data) > max_bytes:
        message = f"The file is larger than {max_bytes // (1024 * 1024)} MB; it was not read."
        raise FormatError([Problem(None, None, message)])
    if fmt not in LIST_FORMATS:
        known = ", ".join(LIST_FORMATS)
        raise FormatError([Problem(None, None, f"Unknown list format {fmt!r}; known: {known}.")])
    text, encoding = _decode(data, fmt)
    listfile = LIST_FORMATS[fmt][1](text, filename)
    listfile = list_rows_in_bounds(listfile)
    if encoding == "utf-8":
        return listfile
    note = Problem(
        None, None, f"The file is not UTF-8; it was read as {encoding}. Check the names.", "warning"
    )
    return replace(listfile, warnings=(note, *listfile.warnings))


def _decode(data: bytes, fmt: str) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as error:
        for encoding in FALLBACK_ENCODINGS[fmt]:
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                continue
        line = data[: error.start].count(b"\n") + 1
        raise FormatError(
            [Problem(line, None, "The file is not UTF-8 text; please save it as UTF-8.")]
        ) from None


def write_rating_list(listfile: RatingListFile, fmt: str) -> str:
    return WRITERS[fmt](listfile)
