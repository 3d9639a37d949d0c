"""Each system's rules that live in the application, around the engine (issue: the recompute).

The engine rates one event; these decide what it is given and what happens around it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from ratings.systems.grades import Grade
from ratings.systems.model import PlayerOutput
from ratings.systems.ufgo import grades as ufgo_grades
from tournaments.models import Tournament
from tournaments.timecontrol import egf_class_allowed, suggest_egf_class

GO_SYSTEMS = frozenset({"egf", "ufgo", "rivne"})

# Systems where a player's result at a table depends only on his own start and his
# opponents' (and the table's games and class): egf.md §3, every game from the
# pre-tournament ratings; §6, a start from the player's own rating or grade. Elsewhere a
# start or a round can hang on players further off (ufgo: each round from the last
# round's ratings; orr and uscf: a newcomer's start from his own opponents).
OPPONENTS_ONLY_SYSTEMS = frozenset({"egf"})


EGF_FIRST_COUNTED_DAY = dt.date(1996, 1, 1)  # egf.md §8: events that started in 1996 or later
CLASS_STRENGTH = {"A": 3, "B": 2, "C": 1}


@dataclass(frozen=True)
class EventVerdict:
    rated: bool
    keep_rating_above: float | None = None  # players above this keep their rating (UFGO 1.7)
    reason: str = ""
    klass: str | None = None  # the EGF class the list rates it at (None: as entered)


def event_verdict(system: str, tournament: Tournament) -> EventVerdict:
    """Whether a list rates this tournament, and how (UFGO 1.7, EGF §8). An unknown time
    control blocks nothing (formats.md): the referee was warned of it."""
    known = tournament.time_control_known
    if system == "ufgo" and not known:
        return EventVerdict(True)
    if system == "ufgo":
        verdict = ufgo_grades.event_eligibility(tournament.basic_time_minutes)
        return EventVerdict(verdict.rated, verdict.keep_ik_above, verdict.reason)
    if system == "egf":
        return _egf_verdict(tournament)
    return EventVerdict(True)


# What a history row says when the list did not simply rate the player, in the system's
# words (stored in English; pages translate them with the msgids below).
KEPT_BY_TIME_CONTROL = gettext_noop("not rated: time control (1.7)")
UFGO_ANOMALY = gettext_noop("anomaly: IK recalculated from a raised start (4.4, B6)")
RIVNE_ANOMALY = gettext_noop("anomaly: recalculated from the previous calculation's result")


def start_rating(
    system: str, rating_in: float | None, sent: float | None, grade: Grade | None
) -> float | None:
    """The rating a player brings to the event: his list rating, else the start the
    engine gives a newcomer (UFGO D2: the rating sent, else Table 1 for his grade, else 0)."""
    if rating_in is not None:
        return rating_in
    if sent is not None:
        return sent
    if system == "ufgo":
        return float(ufgo_grades.t1_start(grade)) if grade is not None else 0.0
    return None


def grade_not_given(
    system: str, *, last_professed: int | None, brings_rating: bool, member_grade: int | None
) -> int | None:
    """The grade (rank) a player plays at when his results file gives none, by his
    system's own rule. EGF: the last grade he professed in the list (§8: inactivity and
    resets go by it). Rivne and UFGO: none once he brings a rating (rivne.md B3 derives the
    grade index from his rating; ufgo.md B1 reads a grade only as a newcomer's start). A
    newcomer: his member record's (his start, egf.md §6, D2 of the others). Chess and
    Reversi have no grades."""
    if system not in GO_SYSTEMS:
        return None
    if system == "egf":
        return last_professed if last_professed is not None else member_grade
    return None if brings_rating else member_grade


def kept_by_time_control(verdict: EventVerdict, start: float | None) -> bool:
    """UFGO 1.7 (B9): above IK 2100 a player is rated only with 60 minutes; the IK tested is
    the one he brings, for a newcomer his start."""
    return (
        verdict.keep_rating_above is not None
        and start is not None
        and start > verdict.keep_rating_above
    )


def is_reset(system: str, rating_in: float | None, before: float | None) -> bool:
    """An EGF reset (egf.md §6) raised his start; other systems' restarts are no reset."""
    return system == "egf" and rating_in is not None and before is not None and before > rating_in


def anomaly_note(system: str) -> str:
    if system == "ufgo":
        return UFGO_ANOMALY
    if system == "rivne":
        return RIVNE_ANOMALY
    return ""


ZERO_DEBUT_SYSTEMS = frozenset({"orr"})  # where `debut_not_kept` can hold


def debut_not_kept(system: str, *, rating_in: float | None, history, result: PlayerOutput) -> bool:
    """orr.md D15: a newcomer who scores nothing gets no rating, and his games are "not
    stored and not taken into account later": no history row, no tournament counted."""
    return (
        system in ZERO_DEBUT_SYSTEMS and rating_in is None and history is None and not result.rated
    )


# Systems whose spec lets the application give a newcomer a start (UFGO D2, ORR D22);
# EGF starts him from his grade, USCF and Rivne from their own rules.
DECLARED_START_SYSTEMS = frozenset({"ufgo", "orr"})


def newcomer_start(system: str, *, declared: float | None, fide: int | None) -> float | None:
    """A newcomer's start the application sends: the rating his results file declares
    where the spec allows one (UFGO D2, ORR D22), for ORR else his FIDE rating valid at
    the tournament; None elsewhere (the engine starts him by its own rule)."""
    if system not in DECLARED_START_SYSTEMS:
        return None
    if declared is not None:
        return declared
    return float(fide) if system == "orr" and fide is not None else None


def declared_start_used(system: str) -> bool:
    return system in DECLARED_START_SYSTEMS


def _egf_verdict(tournament: Tournament) -> EventVerdict:
    """egf.md §8: events that started before 1996 and games under 30 minutes are not
    rated, and a tournament is rated at no stronger a class than its time control allows
    (the referee may demote it, never promote it past that)."""
    # "Not earlier than January 1, 1996" goes by the start: 31.12.1995-1.1.1996 is out.
    if tournament.start_date < EGF_FIRST_COUNTED_DAY:
        return EventVerdict(
            False, reason="the EGF counts events that started on 1 January 1996 or later (§8)"
        )
    if not tournament.time_control_known:
        return EventVerdict(True, klass=tournament.tournament_class)
    allowed = egf_class_allowed(tournament)
    if allowed is None:
        return EventVerdict(False, reason=suggest_egf_class(tournament).reason)
    entered = tournament.tournament_class
    klass = min(entered, allowed, key=CLASS_STRENGTH.__getitem__)
    return EventVerdict(True, klass=klass)


def add_months(day: dt.date, months: int) -> dt.date:
    """`months` later, on the same day or the month's last; past year 9999, the last day
    there is (inputs are bounded to 1900-2100, but a stored date must not stop a list)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    if year > dt.MAXYEAR:
        return dt.date.max
    # The last day of a shorter month stands in for the 29th-31st.
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable")


def egf_active_until(last_played: dt.date, grade: Grade | None) -> dt.date:
    """egf.md §8: the last day a player stays in the live list, counted in whole months,
    "the actual year/month is not counted": a kyu who last played in month M stays to
    the end of M + 12 (1-10 kyu) or M + 6 (weaker); a dan or pro who last played in year
    Y stays to 31 December of Y + 2. The grade is the last one he professed."""
    if grade is None or grade.kind != "k":
        return dt.date(min(last_played.year + 2, dt.MAXYEAR), 12, 31)
    months = 12 if grade.level <= 10 else 6
    first_of_month = add_months(last_played.replace(day=1), months + 1)
    if first_of_month == dt.date.max:
        return first_of_month
    return first_of_month - dt.timedelta(days=1)


UFGO_PUBLICATION_MONTHS = (1, 4, 7, 10)  # ufgo.md 1.5


def is_quarter_day(day: dt.date) -> bool:
    """ufgo.md 1.5, B9: the list is published on 1 January, 1 April, 1 July and 1 October."""
    return day.day == 1 and day.month in UFGO_PUBLICATION_MONTHS


def has_floating_grades(system: str) -> bool:
    """Whether the list computes its own grades after each event (UFGO 2.4)."""
    return system == "ufgo"


def grade_after(
    system: str,
    *,
    professed: Grade | None,
    held: Grade | None,
    rating: float | None,
    birth_date: dt.date | None,
    event_date: dt.date,
) -> Grade | None:
    """The grade the list shows after an event: UFGO floats it (2.4); others show the professed."""
    if system == "ufgo" and rating is not None:
        # Only the list's own grade can be a permanent 4-7 dan (given at publication);
        # what a newcomer professes does not make one.
        return ufgo_grades.grade_after_event(
            held,
            rating,
            birth_date=birth_date,
            event_date=event_date,
        )
    return professed if professed is not None else held


def grade_at_publication(
    system: str,
    *,
    held: Grade | None,
    rating: float,
    birth_date: dt.date | None,
    publication_date: dt.date,
) -> Grade | None:
    """UFGO assigns and lowers 4-7 dan only when the list is published (2.5, 2.6, 2.7)."""
    if system == "ufgo":
        return ufgo_grades.grade_at_publication(
            held, rating, birth_date=birth_date, publication_date=publication_date
        )
    return held
