"""What changed in a resubmitted table since the referee last saw it.

Each submission's log row keeps a snapshot (`tournaments.review.conversation.table_snapshot`).
The referee last saw the submission before the latest one; the diff compares the two:
games added and removed, results (and handicaps) changed, players added and removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.models import Tournament, TournamentLog


@dataclass(frozen=True)
class GameChange:
    round: int
    white: str
    black: str
    before: str
    after: str


@dataclass
class SubmissionDiff:
    since: TournamentLog  # the earlier submission
    games_added: list[GameChange] = field(default_factory=list)
    games_removed: list[GameChange] = field(default_factory=list)
    results_changed: list[GameChange] = field(default_factory=list)
    players_added: list[str] = field(default_factory=list)
    players_removed: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.games_added
            or self.games_removed
            or self.results_changed
            or self.players_added
            or self.players_removed
        )


def _key(game: dict[str, Any]) -> tuple[int, frozenset[Any]]:
    return game["round"], frozenset((game["white"], game["black"]))


def _outcome(game: dict[str, Any]) -> str:
    """A game's result as the crosstable reads it, for the diff's before/after."""
    if game["black"] is None:
        return game["kind"]
    text = {"white": f"{game['white_name']} +", "black": f"{game['black_name']} +"}.get(
        game["result"], "="
    )
    if game["handicap"]:
        text += f" h{game['handicap']}"
    if game["kind"] != "played":
        text += f" ({game['kind']})"
    return text


def _change(game: dict[str, Any], before: str = "", after: str = "") -> GameChange:
    return GameChange(game["round"], game["white_name"], game["black_name"], before, after)


def submissions(tournament: Tournament) -> list[TournamentLog]:
    """The table's submissions that kept a snapshot, newest first."""
    rows = tournament.log.filter(action=TournamentLog.Action.SUBMITTED).order_by("-at", "-id")
    return [row for row in rows if (row.params or {}).get("snapshot")]


def submission_diff(tournament: Tournament) -> SubmissionDiff | None:
    """The latest submission against the one before; None for a first submission."""
    found = submissions(tournament)
    if len(found) < 2:
        return None
    latest, earlier = found[0], found[1]
    return snapshot_diff(earlier.params["snapshot"], latest.params["snapshot"], since=earlier)


def snapshot_diff(
    before: dict[str, Any], after: dict[str, Any], *, since: TournamentLog
) -> SubmissionDiff:
    diff = SubmissionDiff(since=since)
    old = {_key(g): g for g in before.get("games", [])}
    new = {_key(g): g for g in after.get("games", [])}
    for key in sorted(new.keys() - old.keys(), key=lambda k: k[0]):
        diff.games_added.append(_change(new[key], after=_outcome(new[key])))
    for key in sorted(old.keys() - new.keys(), key=lambda k: k[0]):
        diff.games_removed.append(_change(old[key], before=_outcome(old[key])))
    for key in sorted(old.keys() & new.keys(), key=lambda k: k[0]):
        was, now = _outcome(old[key]), _outcome(new[key])
        if was != now:
            diff.results_changed.append(_change(new[key], was, now))
    old_players, new_players = before.get("players", {}), after.get("players", {})
    diff.players_added = sorted(new_players[k]["name"] for k in new_players.keys() - old_players)
    diff.players_removed = sorted(old_players[k]["name"] for k in old_players.keys() - new_players)
    return diff
