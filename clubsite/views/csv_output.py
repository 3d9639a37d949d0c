"""Every CSV the site writes for people goes through here (issue 16, item 4).

Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one)
as a formula: a member named `=HYPERLINK("http://evil.example","x")` became a live link in
whoever opened the list. OWASP's rule: such a cell gets a leading single quote, which
spreadsheets show as text. A plain number such as -12.5 stays a number.

The download starts with a UTF-8 byte-order mark: without it Excel reads the file in the
local code page and garbles “Tengen” and every Cyrillic name.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def safe_cell(value: Any) -> Any:
    """The value as a spreadsheet should see it: text that would run as a formula is quoted."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeWriter:
    """`csv.writer` whose every cell goes through `safe_cell`."""

    def __init__(self, stream: TextIO, **kwargs: Any) -> None:
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_download(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """An attachment response (BOM written) and the writer to fill it."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write(BOM)
    return response, SafeWriter(response)
