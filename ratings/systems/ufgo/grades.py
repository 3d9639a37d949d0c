"""UFGO grade rules (section 2 and 1.7 of the UFGO document; `spec/ufgo.md` B9).

These act outside `rate_json` (D1): the Django application calls them when an
event has been rated (floating grades, 2.4) and when the quarterly rating list
is published (permanent 4-7 dan, 2.5-2.6). Table 1 (IK <-> grade) is also used
by the engine for a newcomer's start (B3 `T1start`, D2).
"""

from __future__ import annotations

import bisect
import datetime as dt
from fractions import Fraction
from typing import NamedTuple

from ratings.systems.grades import Grade

IK = int | float | Fraction

# Table 1, completed (Part A 2.3): (lowest IK of the grade, grade), ascending.
# Below 100 each kyu spans 10 IK points, from 100 up each grade spans 100.
TABLE1: tuple[tuple[int, Grade], ...] = (
    tuple((10 * i, Grade("k", 30 - i)) for i in range(10))  # 0 -> 30k ... 90 -> 21k
    + tuple((100 * i, Grade("k", 21 - i)) for i in range(1, 21))  # 100 -> 20k ... 2000 -> 1k
    + tuple((2000 + 100 * i, Grade("d", i)) for i in range(1, 8))  # 2100 -> 1d ... 2700 -> 7d
)
_TABLE1_BOUNDS = tuple(low for low, _ in TABLE1)
_START_BY_GRADE = {grade: low for low, grade in TABLE1}

HIGHEST_TABLE1_GRADE = Grade("d", 7)
HIGHEST_FLOATING_GRADE = Grade("d", 3)  # 2.4: floating "up to and including 3 dan"
# 2.5: the IK that earns each permanent dan at a list publication.
PERMANENT_DAN_NORMS: dict[Grade, int] = {
    Grade("d", 4): 2400,
    Grade("d", 5): 2500,
    Grade("d", 6): 2600,
    Grade("d", 7): 2700,
}
# 2.6: a permanent dan is lowered when the IK is this far below its norm ...
LOWERING_MARGIN = 151
# ... by one step, 4 dan by two (back to a floating 2 dan).
LOWERED_TO: dict[Grade, Grade] = {
    Grade("d", 7): Grade("d", 6),
    Grade("d", 6): Grade("d", 5),
    Grade("d", 5): Grade("d", 4),
    Grade("d", 4): Grade("d", 2),
}
PROTECTED_AGE = 60  # 2.7: "older than 60": grades are never lowered
# 1.7: minimum time control (minutes per player for the game).
MIN_MINUTES = 45
MIN_MINUTES_STRONG = 60
STRONG_IK = 2100  # "IK > 2100" needs MIN_MINUTES_STRONG


def grade_of(ik: IK) -> Grade:
    """Table 1 grade of an IK, bands lower-inclusive on the real line (B9).

    ``IK < 10`` (negative IKs too, D20) is 30 kyu; ``IK >= 2700`` is 7 dan.
    """
    index = bisect.bisect_right(_TABLE1_BOUNDS, ik) - 1
    return TABLE1[max(index, 0)][1]


ufgo_grade_for_rating = grade_of


def t1_start(grade: Grade) -> int:
    """Lowest IK of a grade in Table 1 (B3 `T1start`, D2, D21).

    Grades above 7 dan (8d, 9d and every professional grade) give 2700.
    """
    if grade > HIGHEST_TABLE1_GRADE:
        return _START_BY_GRADE[HIGHEST_TABLE1_GRADE]
    return _START_BY_GRADE[grade]


def ik_range(grade: Grade) -> tuple[int, int | None]:
    """Table 1 IK interval ``[low, high)`` of a grade; ``high`` is None for 7 dan and above."""
    low = t1_start(grade)
    index = _TABLE1_BOUNDS.index(low)
    high = _TABLE1_BOUNDS[index + 1] if index + 1 < len(_TABLE1_BOUNDS) else None
    return low, high


def is_permanent(grade: Grade | None) -> bool:
    """4 dan and above are given without time limit (2.5, 2.6); the rest float (2.4)."""
    return grade is not None and grade >= Grade("d", 4)


def age_on(birth_date: dt.date, day: dt.date) -> int:
    """Age in completed years on `day`."""
    before_birthday = (day.month, day.day) < (birth_date.month, birth_date.day)
    return day.year - birth_date.year - int(before_birthday)


def is_protected(birth_date: dt.date | None, day: dt.date) -> bool:
    """2.7: a member whose age exceeds 60 years keeps his grade.

    B9: «возраст превышает 60 лет» — protected from the day after his 60th birthday
    (on `day` he was already 60 the day before). The caller gives a birth year alone
    as 1 July of it. Unknown birth date: not protected.
    """
    if birth_date is None or day <= dt.date.min:
        return False
    return age_on(birth_date, day - dt.timedelta(days=1)) >= PROTECTED_AGE


def grade_after_event(
    current_grade: Grade | None,
    rating: IK,
    *,
    birth_date: dt.date | None = None,
    event_date: dt.date | None = None,
) -> Grade:
    """The grade after a rated event (2.4, 2.7; B9 "floating grade").

    A permanent 4-7 dan (or higher) is untouched: it changes only at a list
    publication. Otherwise the grade floats to ``min(grade_of(rating), 3d)``,
    up or down, except that a member older than 60 on `event_date` is never
    lowered. `current_grade` None means the player has no grade yet.
    """
    if current_grade is not None and is_permanent(current_grade):
        return current_grade
    floating = min(grade_of(rating), HIGHEST_FLOATING_GRADE)
    protected = event_date is not None and is_protected(birth_date, event_date)
    if current_grade is not None and protected and floating < current_grade:
        return current_grade
    return floating


def grade_at_publication(
    current_grade: Grade | None,
    rating: IK,
    *,
    birth_date: dt.date | None = None,
    publication_date: dt.date | None = None,
) -> Grade | None:
    """The grade when the quarterly rating list is published (1.5, 2.5, 2.6, 2.7).

    - 2.5: an IK of at least 2400 / 2500 / 2600 / 2700 earns 4 / 5 / 6 / 7 dan,
      if that is higher than the grade held.
    - 2.6: otherwise a permanent dan whose IK is at most its norm - 151 drops
      one step (7d->6d, 6d->5d, 5d->4d) or, for 4 dan, two steps to 2 dan
      (floating again). One step per publication.
    - 2.7: no lowering for a member older than 60 on `publication_date`.

    Floating grades (up to 3 dan) are not touched here: they follow every
    event (`grade_after_event`).
    """
    earned = earned_permanent_dan(rating)
    if earned is not None and (current_grade is None or earned > current_grade):
        return earned
    if current_grade is None or current_grade not in LOWERED_TO:
        return current_grade
    if publication_date is not None and is_protected(birth_date, publication_date):
        return current_grade
    if rating <= PERMANENT_DAN_NORMS[current_grade] - LOWERING_MARGIN:
        return LOWERED_TO[current_grade]
    return current_grade


def earned_permanent_dan(rating: IK) -> Grade | None:
    """The highest 4-7 dan whose 2.5 norm the IK reaches, or None."""
    earned = [grade for grade, norm in PERMANENT_DAN_NORMS.items() if rating >= norm]
    return max(earned) if earned else None


class Eligibility(NamedTuple):
    """1.7 verdict for an event's time control.

    `rated`: whether the event is submitted at all. `keep_ik_above`: when not
    None, players whose IK before the event exceeds it keep their IK (their
    games still count for their opponents). `reason`: a human-readable line.
    """

    rated: bool
    keep_ik_above: int | None
    reason: str


def event_eligibility(minutes_per_player: float) -> Eligibility:
    """1.7: IKs are recalculated only with at least 45 minutes per game, and for
    players with IK > 2100 only with at least 60 minutes (D19: the engine has
    no time-control field, the caller decides with this).

    "Minutes per game" is each player's thinking time for the game (main time).
    Returns an `Eligibility`, which unpacks as ``(rated, keep_ik_above, reason)``.
    """
    if minutes_per_player < MIN_MINUTES:
        return Eligibility(False, None, f"time control under {MIN_MINUTES} minutes (1.7)")
    if minutes_per_player < MIN_MINUTES_STRONG:
        return Eligibility(
            True,
            STRONG_IK,
            f"players with IK > {STRONG_IK} need {MIN_MINUTES_STRONG} minutes (1.7)",
        )
    return Eligibility(True, None, "")


def player_eligible(minutes_per_player: float, ik: IK) -> bool:
    """1.7 for one player: is his IK recalculated in an event with this time control?"""
    verdict = event_eligibility(minutes_per_player)
    return verdict.rated and (verdict.keep_ik_above is None or ik <= verdict.keep_ik_above)
