"""Reads for tournament pages: the public list, one tournament, its crosstable.

`crosstable(tournament)` is shared with the club-admin and referee pages; the ratings
app adds each list's rating changes to it (`ratings.crosstable`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce

from tournaments.models import Game, Participant, Tournament

PUBLIC_STATUSES = (
    Tournament.Status.SUBMITTED,
    Tournament.Status.APPROVED,
    Tournament.Status.REJECTED,
)
WIN, LOSS, DRAW = Decimal(1), Decimal(0), Decimal("0.5")


def tournament_public_list() -> QuerySet[Tournament]:
    """Every tournament the public may see (not drafts), newest first.

    `players` comes from `TournamentCounts`, which triggers on the participants keep
    (one row per tournament, joined on its key): counting entrants per row cost the
    tournament list 40-120 ms at EGD scale, most of it for rows a page skips."""
    return (
        tournament_public_keys()
        .select_related("organiser", "host")
        .annotate(players=Coalesce(F("counts__players"), 0))
    )


def tournament_public_keys() -> QuerySet[Tournament]:
    """`tournament_public_list` without its joins, to find a page's tournaments by any
    order but their players: newest first, this reads the index `tournament_newest_first`
    up to the page (joined to the counts, it sorted all 9,000: 15 ms more at EGD scale)."""
    return Tournament.objects.filter(status__in=PUBLIC_STATUSES).order_by("-end_date", "-id")


def tournaments_in_order(ids: list[int]) -> list[Tournament]:
    """These public tournaments read whole (as `tournament_public_list` gives them), in
    this order."""
    found = tournament_public_list().in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def tournaments_recent_rated(limit: int = 8) -> QuerySet[Tournament]:
    return tournament_public_list().filter(status=Tournament.Status.APPROVED)[:limit]


def tournaments_waiting(limit: int = 8) -> QuerySet[Tournament]:
    return tournament_public_list().filter(status=Tournament.Status.SUBMITTED)[:limit]


def tournament_get(pk: int) -> Tournament:
    return Tournament.objects.select_related("organiser", "host").get(pk=pk)


def tournament_visible(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    from clubsite.authority import can_view

    return can_view(user, tournament)


@dataclass
class Cell:
    """One round of one player: whom he met (by place), colour, handicap, result."""

    round: int
    opponent: Participant | None = None
    opponent_number: int | None = None
    colour: str = ""  # "w" / "b" / "" for a bye or no game
    handicap: int = 0
    result: str = ""  # "+", "-", "=", or "" (no game)
    kind: str = ""
    points: Decimal = LOSS

    @property
    def css(self) -> str:
        return {"+": "win", "-": "loss", "=": "draw"}.get(self.result, "")

    @property
    def text(self) -> str:
        """EGD style: `3+/w2` (opponent 3, won, white, handicap 2); byes as `0+`, `0=`, `0-`.

        A forfeit ends in `!`, a game played but not rated in `*`.
        """
        if self.kind in Game.BYES:
            return f"0{self.result}"
        if self.opponent_number is None:
            return "–" if not self.kind else "0"
        text = f"{self.opponent_number}{self.result}"
        if self.colour:
            text += f"/{self.colour}"
            if self.handicap:
                text += str(self.handicap)
        if self.kind == Game.Kind.FORFEIT:
            text += "!"
        elif self.kind == Game.Kind.UNRATED:
            text += "*"  # played, not rated (TRF W/D/L)
        return text


@dataclass
class Row:
    number: int
    participant: Participant
    cells: list[Cell]
    points: Decimal = Decimal(0)

    @property
    def member(self):  # noqa: ANN201 - the participant's member
        return self.participant.member


@dataclass
class Crosstable:
    tournament: Tournament
    rounds: list[int]
    rows: list[Row]


def _score(game: Game, white: bool) -> tuple[str, Decimal]:
    if game.kind in (Game.Kind.BYE_FULL, Game.Kind.BYE_PAIRING):
        return "+", WIN
    if game.kind == Game.Kind.BYE_HALF:
        return "=", DRAW
    if game.kind == Game.Kind.BYE_ZERO:
        return "-", LOSS
    if game.result == Game.Result.DRAW:
        return "=", DRAW
    won = (game.result == Game.Result.WHITE) == white
    return ("+", WIN) if won else ("-", LOSS)


def crosstable(tournament: Tournament) -> Crosstable:
    """The table: players by place (then points), each round's cell and points.

    Two queries: participants and games.
    """
    participants = list(
        Participant.objects.filter(tournament=tournament).select_related("member", "member__club")
    )
    games = list(Game.objects.filter(tournament=tournament).order_by("round", "id"))
    rounds = sorted({g.round for g in games} | set(range(1, (tournament.rounds or 0) + 1)))
    cells: dict[int, dict[int, Cell]] = defaultdict(dict)
    points: dict[int, Decimal] = defaultdict(Decimal)
    for game in games:
        for member_id, opponent_id, white in (
            (game.white_id, game.black_id, True),
            (game.black_id, game.white_id, False),
        ):
            if member_id is None:
                continue
            result, score = _score(game, white)
            cell = Cell(
                round=game.round,
                colour=(
                    "" if opponent_id is None or not game.colours_known else ("w" if white else "b")
                ),
                handicap=game.handicap,
                result=result,
                kind=game.kind,
                points=score,
            )
            cell.opponent_id = opponent_id  # type: ignore[attr-defined]
            cells[member_id][game.round] = cell
            points[member_id] += score

    def order(p: Participant) -> tuple:
        return (p.place is None, p.place or 0, -points[p.member_id], p.member.family_name)

    participants.sort(key=order)
    number_of = {p.member_id: index + 1 for index, p in enumerate(participants)}
    by_member = {p.member_id: p for p in participants}
    rows = []
    for p in participants:
        row_cells = []
        for r in rounds:
            cell = cells[p.member_id].get(r) or Cell(round=r)
            opponent_id = getattr(cell, "opponent_id", None)
            if opponent_id is not None:
                cell.opponent = by_member.get(opponent_id)
                cell.opponent_number = number_of.get(opponent_id)
            row_cells.append(cell)
        rows.append(Row(number_of[p.member_id], p, row_cells, points[p.member_id]))

    return Crosstable(tournament, rounds, rows)
