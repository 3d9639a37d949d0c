"""Games a referee should look at twice (issue 55): the same two players paired in two
rounds, a jigo under a half-point komi (which cannot end in a draw), and handicap stones
given to the stronger player (the colours entered the wrong way round).

Warnings, not refusals: a referee may know why (a replayed game, an agreed handicap).
Nothing is judged where the table does not say it: no komi, no grade, colours unknown.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.models import GameKind
from tournaments.models import Game, Participant, Tournament

PLAYED = (Game.Kind.PLAYED, Game.Kind.UNRATED)


def repeated_pairings(games: Iterable[Game], round_number: int | None = None) -> list[str]:
    """Two players who meet in more than one round (a forfeit counts as a pairing); with
    `round_number`, only the pairs that round repeats."""
    met: dict[frozenset[int], list[Game]] = defaultdict(list)
    for game in games:
        if game.black_id is not None:
            met[frozenset((game.white_id, game.black_id))].append(game)
    texts = []
    for found in met.values():
        rounds = sorted({g.round for g in found})
        if len(rounds) > 1 and round_number in (None, *rounds):
            first = found[0]
            texts.append(
                _("%(one)s and %(other)s are paired in rounds %(rounds)s.")
                % {
                    "one": first.white,
                    "other": first.black,
                    "rounds": ", ".join(str(r) for r in rounds),
                }  # fmt: skip
            )
    return texts


def impossible_jigos(tournament: Tournament, games: Iterable[Game]) -> list[str]:
    """A Go draw where the game's (or else the table's) komi has a half point."""
    if tournament.game != GameKind.GO:
        return []
    texts = []
    for game in games:
        komi = game.komi if game.komi is not None else tournament.komi
        if game.result != Game.Result.DRAW or game.kind not in PLAYED or komi is None:
            continue
        if Decimal(komi) % 1:
            texts.append(
                _(
                    "Round %(round)d: %(white)s – %(black)s is entered as a jigo with komi "
                    "%(komi)s; a half-point komi leaves no draw."
                )
                % {"round": game.round, "white": game.white, "black": game.black, "komi": komi}
            )
    return texts


def reversed_handicap_colours(tournament: Tournament, games: Iterable[Game]) -> list[str]:
    """Stones taken with Black by the stronger player, by the grades professed here."""
    if tournament.game != GameKind.GO:
        return []
    professed = dict(
        Participant.objects.filter(tournament=tournament).values_list("member_id", "grade")
    )
    texts = []
    for game in games:
        if game.kind not in PLAYED or game.black is None or not game.handicap:
            continue
        if not game.colours_known:
            continue
        white = professed.get(game.white_id) or game.white.grade
        black = professed.get(game.black_id) or game.black.grade
        if white is None or black is None or black.rank <= white.rank:
            continue
        values = {"round": game.round, "black": game.black, "black_grade": black,
                  "white": game.white, "white_grade": white, "n": game.handicap}  # fmt: skip
        texts.append(
            ngettext(
                "Round %(round)d: %(black)s (%(black_grade)s) has Black and %(n)d handicap "
                "stone against %(white)s (%(white_grade)s): the stones go to the weaker "
                "player; are the colours the wrong way round?",
                "Round %(round)d: %(black)s (%(black_grade)s) has Black and %(n)d handicap "
                "stones against %(white)s (%(white_grade)s): the stones go to the weaker "
                "player; are the colours the wrong way round?",
                game.handicap,
            )
            % values
        )
    return texts


def pairing_warnings(tournament: Tournament, round_number: int | None = None) -> list[str]:
    """Every check over the table, or over one round just saved (`round_number`)."""
    games = list(tournament.games.select_related("white", "black"))
    judged = [g for g in games if round_number in (None, g.round)]
    return [
        *repeated_pairings(games, round_number),
        *impossible_jigos(tournament, judged),
        *reversed_handicap_colours(tournament, judged),
    ]
