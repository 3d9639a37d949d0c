"""UFGO grade rules (`ratings.systems.ufgo.grades`; spec ufgo.md section 2, 1.7 and B9)."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest

from ratings.systems.grades import ALL_GRADES, Grade
from ratings.systems.ufgo.grades import (
    TABLE1,
    event_eligibility,
    grade_after_event,
    grade_at_publication,
    grade_of,
    ik_range,
    is_protected,
    player_eligible,
    t1_start,
    ufgo_grade_for_rating,
)
from tests.systems.examples import DATA_DIR

# Tables 1-5 of the source (shared/seeds/001_…txt), as printed there.
SOURCE = DATA_DIR / "ufgo" / "ufgo-tables.txt"
G = Grade.parse
OLD = dt.date(1950, 6, 1)  # 73 on the dates below
EVENT_DAY = dt.date(2024, 3, 10)


# --- Table 1 (2.2, 2.3) ---------------------------------------------------------------------


def test_37_grades_from_30_kyu_to_7_dan() -> None:
    grades = [grade for _, grade in TABLE1]
    assert len(grades) == 37 and grades == sorted(grades)
    assert grades[0] == G("30k") and grades[-1] == G("7d")


def test_table1_rows_printed_in_the_source() -> None:
    text = SOURCE.read_text(encoding="utf-8")
    body = text[text.index("Таблица 1.") : text.index("2.4.")]
    rows = re.findall(r"(?:от|От)\s+(\d+)\s+до\s+(\d+)\s+(\d+)\s+(кю|дан)", body)
    assert len(rows) == 11  # the printed rows; the rest are elided with dots
    for low, high, level, kind in rows:
        grade = Grade("k" if kind == "кю" else "d", int(level))
        assert grade_of(int(low)) == grade and grade_of(int(high)) == grade
        assert grade_of(int(high) + 1) > grade
    assert "2700 и выше" in body and grade_of(2700) == G("7d")


@pytest.mark.parametrize(
    ("ik", "grade"),
    [
        (-20, "30k"), (0, "30k"), (9, "30k"), (Fraction(999, 100), "30k"), (10, "29k"),
        (99, "21k"), (99.9, "21k"), (100, "20k"), (199, "20k"), (200, "19k"), (1100, "10k"),
        (1999, "2k"), (2000, "1k"), (2099.5, "1k"), (2100, "1d"), (2399, "3d"), (2699, "6d"),
        (2700, "7d"), (5000, "7d"),
    ],
)  # fmt: skip
def test_grade_of_bands_are_lower_inclusive(ik: float, grade: str) -> None:
    assert grade_of(ik) == G(grade)
    assert ufgo_grade_for_rating(ik) == G(grade)


def test_grade_to_ik_and_back() -> None:
    for grade in ALL_GRADES:
        if grade > G("7d"):
            assert t1_start(grade) == 2700
            continue
        low, high = ik_range(grade)
        assert t1_start(grade) == low and grade_of(low) == grade
        if high is not None:
            assert grade_of(Fraction(high) - Fraction(1, 1000)) == grade and grade_of(high) > grade
    assert ik_range(G("21k")) == (90, 100) and ik_range(G("20k")) == (100, 200)
    assert ik_range(G("7d")) == (2700, None) and ik_range(G("9p")) == (2700, None)


# --- floating grades after an event (2.4, 2.7) ----------------------------------------------


@pytest.mark.parametrize(
    ("current", "ik", "after"),
    [
        ("5k", 1850, "3k"),  # up
        ("3k", 1500, "6k"),  # down
        ("1d", 2650, "3d"),  # floating stops at 3 dan: 4-7 dan only at a publication (2.5)
        ("3d", 2450, "3d"),
        ("5d", 1900, "5d"),  # permanent: untouched by events (2.6)
        (None, 1250, "9k"),  # no grade yet
        (None, 0, "30k"),
    ],
)
def test_grade_after_event(current: str | None, ik: int, after: str) -> None:
    held = None if current is None else G(current)
    assert grade_after_event(held, ik, event_date=EVENT_DAY) == G(after)


def test_no_lowering_after_event_when_older_than_60() -> None:
    assert grade_after_event(G("2k"), 1500, birth_date=OLD, event_date=EVENT_DAY) == G("2k")
    assert grade_after_event(G("5k"), 1850, birth_date=OLD, event_date=EVENT_DAY) == G("3k")
    # Exactly 60 is not "more than 60 years" (2.7): lowered; one year later: kept.
    sixty = dt.date(1964, 3, 10)
    assert grade_after_event(G("2k"), 1500, birth_date=sixty, event_date=EVENT_DAY) == G("6k")
    later = dt.date(2025, 3, 10)
    assert grade_after_event(G("2k"), 1500, birth_date=sixty, event_date=later) == G("2k")


def test_protected_age_boundary() -> None:
    # ufgo.md B9 (issue 20): protected from the day after the 60th birthday.
    born = dt.date(1960, 5, 20)
    assert not is_protected(born, dt.date(2020, 5, 19))  # 59
    assert not is_protected(born, dt.date(2020, 5, 20))  # the 60th birthday itself
    assert is_protected(born, dt.date(2020, 5, 21))  # the day after
    assert is_protected(born, dt.date(2021, 5, 20))
    assert not is_protected(None, dt.date(2021, 5, 20))


# --- at the quarterly publication (2.5, 2.6, 2.7) -------------------------------------------


@pytest.mark.parametrize(
    ("current", "ik", "after"),
    [
        ("3d", 2400, "4d"), ("3d", 2399, "3d"), ("2d", 2555, "5d"), ("4d", 2650, "6d"),
        ("6d", 2999, "7d"), (None, 2500, "5d"),
        ("7d", 2550, "7d"), ("7d", 2549, "6d"), ("6d", 2449, "5d"), ("5d", 2349, "4d"),
        ("4d", 2250, "4d"), ("4d", 2249, "2d"),
        ("7d", 1500, "6d"),  # one step per publication
        ("2d", 1500, "2d"),  # floating grades follow the events, not the publication
        ("5k", 1500, "5k"),
    ],
)  # fmt: skip
def test_grade_at_publication(current: str | None, ik: int, after: str) -> None:
    held = None if current is None else G(current)
    assert grade_at_publication(held, ik, publication_date=dt.date(2024, 4, 1)) == G(after)


def test_no_lowering_at_publication_when_older_than_60() -> None:
    day = dt.date(2024, 4, 1)
    assert grade_at_publication(G("4d"), 2000, birth_date=OLD, publication_date=day) == G("4d")
    assert grade_at_publication(G("4d"), 2600, birth_date=OLD, publication_date=day) == G("6d")
    assert grade_at_publication(G("4d"), 2000, publication_date=day) == G("2d")


def test_nothing_held_and_no_norm_reached_stays_none() -> None:
    assert grade_at_publication(None, 1500) is None


# --- time control (1.7) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "rated", "keep_above"),
    [(0, False, None), (44.9, False, None), (45, True, 2100), (59, True, 2100), (60, True, None),
     (180, True, None)],
)  # fmt: skip
def test_event_eligibility(minutes: float, rated: bool, keep_above: int | None) -> None:
    verdict = event_eligibility(minutes)
    is_rated, keep_ik_above, reason = verdict  # unpacks as documented
    assert (is_rated, keep_ik_above) == (rated, keep_above)
    assert (reason == "") == (rated and keep_above is None)


def test_player_eligibility() -> None:
    assert player_eligible(50, 2100) and not player_eligible(50, 2100.5)
    assert player_eligible(60, 2800) and not player_eligible(40, 500)
