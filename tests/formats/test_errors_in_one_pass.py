"""Issue 55, finding 11: a file's errors are told in one pass, in every format (a bad
grade in an EGD table hid three other errors; the EGD case is in tests/desk). Each file
here has several independent errors; every one is reported at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.formats import FormatError, parse

THIRDPARTY = Path(__file__).resolve().parents[1] / "data" / "thirdparty"


def _problems(data: bytes, fmt: str) -> list[str]:
    with pytest.raises(FormatError) as refused:
        parse(data, fmt)
    return [str(problem) for problem in refused.value.problems]


def test_json_tells_every_error_at_once():
    doc = {
        "event": {"name": "X", "date": "2024-01-01"},
        "players": [
            {"id": "a", "name": "A B", "grade": "99q"},
            {"id": "b", "name": "C D", "grade": "1d"},
            {"id": "c", "name": "E F", "grade": "zz"},
        ],
        "games": [
            {"round": 1, "white": "a", "black": "b", "result": "bogus"},
            {"round": 1, "white": "c", "black": "nobody", "result": "white"},
        ],
    }
    problems = "\n".join(_problems(json.dumps(doc).encode(), "json"))
    for expected in ("'99q' is not a grade", "'zz' is not a grade", "'bogus' must be",
                     "unknown player id 'nobody'"):  # fmt: skip
        assert expected in problems


def test_trf_tells_every_error_at_once():
    lines = (THIRDPARTY / "trf" / "chesspairing__basic.trf").read_text("utf-8").splitlines()
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    first, second = lines[players[0]], lines[players[1]]
    lines[players[0]] = first[:48] + "ZZZZ" + first[52:]
    lines[players[1]] = second[:91] + "Q" + second[92:]
    problems = "\n".join(_problems("\n".join(lines).encode(), "trf"))
    assert "The rating 'ZZZZ' is not a whole number" in problems
    assert "the opponent 'Q001' is not a starting rank" in problems


def test_csv_tells_every_error_at_once():
    text = (
        "round,white,black,result,handicap\n"
        "1,A B,C D,bogus,0\n"
        "1,E F,,white,0\n"
        "x,G H,I J,black,0\n"
        "2,A B,C D,white,99\n"
    )
    problems = _problems(text.encode(), "csv")
    assert [p.split(":", 1)[0] for p in problems] == ["line 2", "line 3", "line 4", "line 5"]
