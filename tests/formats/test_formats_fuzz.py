"""Fuzzing: random and mutated files raise nothing but `FormatError`, and never hang.

A mutated file that still parses must also survive export → re-parse unchanged.
"""

from __future__ import annotations

import json
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tournaments.formats as formats
from tests.formats.helpers import DATA, EXAMPLES, TABLES, assert_well_formed
from tournaments.formats.model import FormatError, ResultsFile

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FORMAT_CODES = ("egd", "trf16", "csv", "json")
SEEDS = {
    "egd": [(TABLES / name).read_text() for name in ("amp2006.txt", "wagc2021.txt", "mpk2025.txt")],
    "trf16": [(DATA / "all_codes.trf16").read_text(), (DATA / "double_forfeit.trf26").read_text()],
    "csv": [
        "round,white,black,result,handicap\n1,Anna,Boris,white,0\n1,Clara,Dmytro,draw,\n2,Boris,Clara,black,2\n"
    ],
    "json": [(next(iter(sorted(EXAMPLES.glob("*.json"))))).read_text()],
}
SEEDS["json"] = [json.dumps(json.loads(SEEDS["json"][0])["input"], indent=1)]
EGD_ALPHABET = "0123456789+-=/!bwkdpBW |;[]_\nABCDEFGHIJKLMNOPQRSTUVWXYZ"
TRF_ALPHABET = "0123456789 wbmWDLHFUZ+-=/,.#\nABC"


def parse_or_format_error(data: bytes, fmt: str) -> ResultsFile | None:
    try:
        return formats.parse(data, fmt)
    except FormatError as error:
        assert error.problems, "a FormatError must say what is wrong"
        assert all(str(p) for p in error.problems)
        return None


def assert_round_trip(results: ResultsFile, fmt: str) -> None:
    assert_well_formed(results)
    if fmt.startswith("trf"):
        fmt = f"trf{results.details.trf_version}"  # write the version that was read
    again = formats.parse(formats.write(results, fmt).encode(), fmt)
    assert again == results


@FUZZ
@given(data=st.binary(max_size=3000), fmt=st.sampled_from(FORMAT_CODES))
def test_random_bytes(data: bytes, fmt: str) -> None:
    parse_or_format_error(data, fmt)


@FUZZ
@given(text=st.text(alphabet=EGD_ALPHABET, max_size=1500))
def test_random_egd_like_text(text: str) -> None:
    results = parse_or_format_error(text.encode(), "egd")
    if results is not None:
        assert_round_trip(results, "egd")


@FUZZ
@given(lines=st.lists(st.text(alphabet=TRF_ALPHABET, min_size=0, max_size=140), max_size=12))
def test_random_trf_like_text(lines: list[str]) -> None:
    text = "\n".join("001 " + line if i % 2 else line for i, line in enumerate(lines))
    parse_or_format_error(text.encode(), "trf16")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@FUZZ
@given(
    value=st.fixed_dictionaries(
        {"event": json_values, "players": json_values, "games": json_values},
        optional={"system": json_values, "params": json_values},
    )
)
def test_random_json_documents(value: dict[str, object]) -> None:
    parse_or_format_error(json.dumps(value).encode(), "json")


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> str:
    """A real seed file with a few random edits: characters replaced, inserted, lines dropped or doubled."""
    text = draw(st.sampled_from(SEEDS[fmt]))
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        edit = draw(
            st.sampled_from(["replace", "insert", "drop_line", "double_line", "swap_lines"])
        )
        row = draw(st.integers(0, len(lines) - 1))
        if edit in ("replace", "insert"):
            line = lines[row]
            at = draw(st.integers(0, len(line)))
            char = draw(st.sampled_from(EGD_ALPHABET + TRF_ALPHABET + '{}",:é'))
            lines[row] = line[:at] + char + line[at + (edit == "replace") :]
        elif edit == "drop_line":
            del lines[row]
        elif edit == "double_line":
            lines.insert(row, lines[row])
        else:
            other = draw(st.integers(0, len(lines) - 1))
            lines[row], lines[other] = lines[other], lines[row]
        text = "\n".join(lines)
    return text


@FUZZ
@given(data=st.data(), fmt=st.sampled_from(FORMAT_CODES))
def test_mutated_real_files(data: st.DataObject, fmt: str) -> None:
    text = data.draw(mutated(fmt))
    results = parse_or_format_error(text.encode(), fmt)
    if results is not None:
        assert_round_trip(results, fmt)


def test_nasty_uploads_just_under_the_limit_finish_quickly() -> None:
    limit = formats.MAX_UPLOAD_BYTES - 10
    nasty = {
        "egd": ("1 A B 1d UA x " + "1+/w " * (limit // 5))[:limit],
        "egd rows": "\n".join(f"{i} A B 1d UA x " + "1+/w " * 150 for i in range(1, 3000))[:limit],
        "trf16": ("001    1 m    A" + " " * 76 + "   1 w 1  " * (limit // 10))[:limit],
        "csv": "round,white,black,result\n" + "1,A,A,white\n" * (limit // 13),
        "json": "[" * (limit // 2) + "]" * (limit // 2),
    }
    for fmt, text in nasty.items():
        started = time.perf_counter()
        parse_or_format_error(text.encode(), fmt.split()[0])
        assert time.perf_counter() - started < 15, fmt


def test_a_big_valid_table_parses_and_writes_in_reasonable_time() -> None:
    players, rounds = 2000, 10
    lines = []
    for place in range(1, players + 1):
        partner = place + 1 if place % 2 else place - 1
        symbol, colour = ("+", "w") if place % 2 else ("-", "b")
        entries = " ".join(f"{partner}{symbol}/{colour}0" for _ in range(rounds))
        lines.append(f"{place} Player{place} Given 5k UA Rivn {entries} |{10000000 + place}")
    text = "\n".join(lines) + "\n"
    started = time.perf_counter()
    results = formats.parse(text.encode(), "egd")
    assert formats.parse(formats.write(results, "egd").encode(), "egd") == results
    assert len(results.games) == players // 2 * rounds
    assert time.perf_counter() - started < 20


# --- published rating lists (issue 15): EGD allworld, FIDE TXT, CSV ------------------------

LIST_SEEDS = {
    "egd": [
        (TABLES.parent / "ratinglists" / "egf_db_2015-01-27_58457fd3050f.txt").read_text(
            errors="replace"
        )[:6000]
    ],
    "fide": [(TABLES.parent.parent / "fide" / "standard_rating_list_sample.txt").read_text()],
    "csv": [
        "key,family_name,given_name,rating,grade,provisional,tournaments,games,above_100\n"
        "u1,Ivanova,Anna,95,5k,yes,3,14,yes\nu2,Petrenko,Ivan,1500.5,2d,,,,\n"
    ],
}


def parse_list_or_format_error(data: bytes, fmt: str) -> None:
    from tournaments.formats.rating_lists import parse_rating_list

    try:
        listfile = parse_rating_list(data, fmt)
    except FormatError as error:
        assert error.problems and all(str(p) for p in error.problems)
        return
    assert listfile.rows and len({row.key for row in listfile.rows}) == len(listfile.rows)


@FUZZ
@given(data=st.binary(max_size=3000), fmt=st.sampled_from(sorted(LIST_SEEDS)))
def test_random_bytes_as_rating_lists(data: bytes, fmt: str) -> None:
    parse_list_or_format_error(data, fmt)


@FUZZ
@given(data=st.data(), fmt=st.sampled_from(sorted(LIST_SEEDS)))
def test_mutated_rating_lists(data: st.DataObject, fmt: str) -> None:
    text = data.draw(st.sampled_from(LIST_SEEDS[fmt]))
    for _ in range(data.draw(st.integers(1, 4))):
        lines = text.split("\n")
        row = data.draw(st.integers(0, len(lines) - 1))
        line = lines[row]
        at = data.draw(st.integers(0, len(line)))
        char = data.draw(st.sampled_from(EGD_ALPHABET + ',;"\t' + "é"))
        if data.draw(st.booleans()):
            lines[row] = line[:at] + char + line[at + 1 :]
        else:
            lines.insert(row, lines[row]) if data.draw(st.booleans()) else lines.pop(row)
        text = "\n".join(lines)
    parse_list_or_format_error(text.encode(), fmt)
