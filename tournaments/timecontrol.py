"""What a tournament's time control means for rating: EGF class (egf.md §8) and UFGO eligibility."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Tournament

Overtime = Tournament.Overtime

# egf.md §8: (class, minimum adjusted minutes, minimum basic minutes) for byoyomi/sudden
# death, and the same for Fischer clocks; strongest class first.
EGF_CLASS_RULES = (("A", 75, 60), ("B", 50, 40), ("C", 30, 25))
EGF_FISCHER_RULES = (("A", 75, 45), ("B", 50, 30), ("C", 30, 20))
BYOYOMI_MOVES = 45
CANADIAN_MOVES = 60
FISCHER_MOVES = 120


def adjusted_minutes(tournament: Tournament) -> float:
    """egf.md §8: basic time plus the time for 45 byoyomi / 60 Canadian / 120 Fischer moves."""
    basic = float(tournament.basic_time_minutes)
    seconds = float(tournament.overtime_seconds)
    if tournament.overtime_kind == Overtime.BYOYOMI:
        return basic + BYOYOMI_MOVES * seconds / 60
    if tournament.overtime_kind == Overtime.CANADIAN:
        moves = max(tournament.overtime_moves, 1)
        return basic + CANADIAN_MOVES * (seconds / moves) / 60
    if tournament.overtime_kind == Overtime.FISCHER:
        return basic + FISCHER_MOVES * seconds / 60
    return basic


@dataclass(frozen=True)
class ClassSuggestion:
    klass: str | None  # None: too short to be rated by the EGF
    reason: str


def suggest_egf_class(tournament: Tournament) -> ClassSuggestion:
    """The strongest EGF class the time control allows, with the reason in words."""
    adjusted = adjusted_minutes(tournament)
    basic = tournament.basic_time_minutes
    rules = EGF_FISCHER_RULES if tournament.overtime_kind == Overtime.FISCHER else EGF_CLASS_RULES
    for klass, min_adjusted, min_basic in rules:
        if adjusted >= min_adjusted and basic >= min_basic:
            return ClassSuggestion(
                klass,
                _(
                    "Adjusted time %(adj).0f min (needs %(need_adj)d) and basic time %(basic)d min "
                    "(needs %(need_basic)d) allow class %(klass)s."
                )
                % {
                    "adj": adjusted,
                    "need_adj": min_adjusted,
                    "basic": basic,
                    "need_basic": min_basic,
                    "klass": klass,
                },
            )
    return ClassSuggestion(
        None,
        _(
            "Adjusted time %(adj).0f min with basic time %(basic)d min is below class C; "
            "the EGF does not rate it."
        )
        % {"adj": adjusted, "basic": basic},
    )
