"""Games whose handicap is not what the tournament's handicap rule gives.

The EGD import applies the rule `hN` to every entry without a handicap number
(`tournaments.formats.egd.rule_handicap`: grade difference minus N, within 0–9; `h9`
means even games, formats.md §1). A game entered by hand or written with a number gets
the same check here, as a warning: a referee may accept an agreed handicap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import ngettext

from clubsite.models import GameKind
from ratings.systems.grades import Grade
from tournaments.formats.egd import rule_handicap
from tournaments.models import Game, Participant, Tournament

RULE = re.compile(r"h(\d)")


@dataclass(frozen=True)
class HandicapMismatch:
    game: Game
    white_grade: Grade
    black_grade: Grade
    expected: int

    def text(self, rule: str) -> str:
        # counted: "1 handicap stone", "1 камінь" (issue 55)
        return ngettext(
            "Round %(round)d: %(white)s (%(white_grade)s) – %(black)s (%(black_grade)s) has "
            "%(stones)d handicap stone; the rule %(rule)s gives %(expected)d.",
            "Round %(round)d: %(white)s (%(white_grade)s) – %(black)s (%(black_grade)s) has "
            "%(stones)d handicap stones; the rule %(rule)s gives %(expected)d.",
            self.game.handicap,
        ) % {
            "round": self.game.round,
            "white": self.game.white,
            "white_grade": self.white_grade,
            "black": self.game.black,
            "black_grade": self.black_grade,
            "stones": self.game.handicap,
            "rule": rule,
            "expected": self.expected,
        }


def handicap_rule_number(tournament: Tournament) -> int | None:
    """N of the tournament's rule `hN`; None when it has none (or it is not Go)."""
    if tournament.game != GameKind.GO:
        return None
    match = RULE.fullmatch((tournament.handicap_rule or "").strip().lower())
    return int(match.group(1)) if match else None


def handicap_mismatches(
    tournament: Tournament, games: Iterable[Game] | None = None
) -> list[HandicapMismatch]:
    """Played games whose stones differ from the rule, by the grades professed at the
    tournament (or the member's declared grade). Games of a player without a grade are
    not judged."""
    rule = handicap_rule_number(tournament)
    if rule is None:
        return []
    if games is None:
        games = tournament.games.select_related("white", "black")
    professed = dict(
        Participant.objects.filter(tournament=tournament).values_list("member_id", "grade")
    )
    found = []
    for game in games:
        if game.kind not in (Game.Kind.PLAYED, Game.Kind.UNRATED) or game.black is None:
            continue
        white = professed.get(game.white_id) or game.white.grade
        black = professed.get(game.black_id) or game.black.grade
        if white is None or black is None:
            continue
        expected = rule_handicap(white, black, rule)
        if game.handicap != expected:
            found.append(HandicapMismatch(game, white, black, expected))
    return found


def handicap_warnings(tournament: Tournament, games: Iterable[Game] | None = None) -> list[str]:
    return [m.text(tournament.handicap_rule) for m in handicap_mismatches(tournament, games)]
