"""`ufgo`: every worked example through `rate_json`, and the published tables checked
against the source document itself (`shared/seeds/001_…txt`, spec ufgo.md Part A)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from ratings.systems import rate_json
from ratings.systems.ufgo import rating as ufgo
from tests.systems.examples import DATA_DIR, load_examples

EXAMPLES = load_examples("ufgo")
# Tables 1-5 of the source (shared/seeds/001_…txt), as printed there.
SOURCE = DATA_DIR / "ufgo" / "ufgo-tables.txt"


@pytest.mark.parametrize(
    ("name", "given", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_example_is_reproduced_exactly(
    name: str, given: dict[str, Any], expected: dict[str, Any]
) -> None:
    result = rate_json(given)
    assert result == expected
    # Same JSON types too: integer ratings stay integers (1506, not 1506.0).
    assert json.dumps(result, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 11


# --- The tables, read from the Russian original --------------------------------------------


def _table_lines(start: str, end: str) -> list[str]:
    text = SOURCE.read_text(encoding="utf-8")
    body = text[text.index(start) + len(start) : text.index(end)]
    return [line.strip() for line in body.splitlines() if line.strip()]


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def test_table2_matches_the_source() -> None:
    lines = _table_lines("Таблица 2.", "Таблица 3.")
    rows = lines[9:]  # 3 column groups x (R12, K1 < 0.5, K1 > 0.5) of headers
    assert len(rows) == 3 * len(ufgo.TABLE2) + 3
    bands = [rows[i : i + 3] for i in range(0, len(rows), 3)]
    # The document prints the groups side by side: row-major order, three bands a line.
    by_column = [bands[i::3] for i in range(3)]
    in_order = [band for column in by_column for band in column]
    *finite, beyond = in_order
    previous_upper = -1
    for (band, low, high), (upper, hundredths) in zip(finite, ufgo.TABLE2, strict=True):
        bounds = [int(n) for n in re.findall(r"\d+", band)]
        assert bounds == [previous_upper + 1, upper]  # contiguous integer bands
        assert round(_number(low) * 100) == hundredths
        assert round(_number(high) * 100) == 100 - hundredths
        previous_upper = upper
    assert beyond[0] == "> 735" and _number(beyond[1]) == 0 and _number(beyond[2]) == 1


def test_table3_matches_the_source() -> None:
    lines = _table_lines("Таблица 3.", "4.6.")[3:]
    rows = [lines[i : i + 3] for i in range(0, len(lines), 3)]
    assert [(int(k2), int(k3)) for _, k2, k3 in rows] == [(k2, k3) for _, k2, k3 in ufgo.TABLE3]
    firsts = [int(re.findall(r"\d+", band)[0]) for band, _, _ in rows]
    assert firsts == [600, 600, 1100, 1400, 1700, 2000]  # "< 600", "600 – 1099", …, "> 2000"
    assert [bound for bound, _, _ in ufgo.TABLE3] == [600, 1100, 1400, 1700, 2000, None]


def test_table4_matches_the_source_except_the_d8_misprint() -> None:
    lines = _table_lines("Таблица 4.", "5.3")
    header_end = lines.index("Пор.", len(lines) - 1 - lines[::-1].index("Поб.")) + 1
    cells = lines[header_end:]
    rows = [cells[i : i + 10] for i in range(0, len(cells), 10)]
    assert len(rows) == len(ufgo.TABLE4)
    for printed, (ik_from, per_board) in zip(rows, ufgo.TABLE4, strict=True):
        assert int(re.findall(r"\d+", printed[0])[0]) == ik_from
        values = [int(v) for v in printed[1:]]
        ours = [v for cell in per_board for v in cell]
        if ik_from == 600:
            # D8: the 9x9 loss is printed 0; the spec reads it as -20.
            assert values[1] == 0 and ours[1] == -20
            values[1] = ours[1]
        assert values == ours


def test_table5_matches_the_source() -> None:
    lines = _table_lines("Таблица 5.", "5.4.")[5:]
    rows = [lines[i : i + 4] for i in range(0, len(lines), 4)]
    assert [
        (int(re.findall(r"\d+", band)[0]), (int(a), int(b), int(c))) for band, a, b, c in rows
    ] == list(ufgo.TABLE5)


def test_board_rules_match_the_source_text() -> None:
    text = SOURCE.read_text(encoding="utf-8")
    assert "+2 очка (для доски 9 х 9), +3 очка (для доски 13 х 13) и +5 очков" in text
    assert ufgo.WIN_BELOW_100 == {9: 2, 13: 3, 19: 5}
    assert "9 дополнительных очков (доска 19 х 19) или 6" in text
    assert ufgo.EXTRA_POINTS_LIMIT == {9: 4, 13: 6, 19: 9}
    assert "RА = 0.45" in text
    assert ufgo.DEFAULT_PARAMS["anomaly_factor"] == 0.45
