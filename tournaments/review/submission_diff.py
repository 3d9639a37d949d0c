"""What changed in a resubmitted table since the referee last saw it.

Each submission's log row keeps a snapshot (`tournaments.review.conversation.table_snapshot`).
The referee last saw the submission before the latest one; the diff compares the two:
games added and removed, games changed (result, colours, handicap, komi, kind: a White/Black
swap with the same winner is a change), players added and removed, and the table's rules
(a handicap rule h9 → h0, komi, dates, time control) when both snapshots kept them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Game, Tournament, TournamentLog


@dataclass(frozen=True)
class GameChange:
    round: int
    white: str
    black: str
    before: str
    after: str


@dataclass(frozen=True)
class RuleChange:
    label: str
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
    rules_changed: list[RuleChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.rules_changed
            or self.games_added
            or self.games_removed
            or self.results_changed
            or self.players_added
            or self.players_removed
        )


def _key(game: dict[str, Any]) -> tuple[int, frozenset[Any]]:
    return game["round"], frozenset((game["white"], game["black"]))


def _kind_label(kind: str) -> str:
    return str(Game.Kind(kind).label) if kind in Game.Kind.values else kind


def _outcome(game: dict[str, Any], *, with_komi: bool = True) -> str:
    """A game in words, colours included, for the diff's before/after."""
    if game["black"] is None:
        return _kind_label(game["kind"])
    names = {"white": game["white_name"], "black": game["black_name"]}
    if game.get("colours_known", True):
        parts = [_("%(white)s had White, %(black)s Black") % names]
    else:
        parts = [_("%(white)s – %(black)s, colours not recorded") % names]
    winner = names.get(game["result"])
    parts.append(_("%(name)s won") % {"name": winner} if winner else _("jigo / draw"))
    if game["handicap"]:
        parts.append(
            ngettext("%(n)d handicap stone", "%(n)d handicap stones", game["handicap"])
            % {"n": game["handicap"]}
        )
    if with_komi and game.get("komi") is not None:
        parts.append(_("komi %(komi)s") % {"komi": game["komi"]})
    if game["kind"] != Game.Kind.PLAYED:
        parts.append(_kind_label(game["kind"]))
    return "; ".join(parts)


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
    # A snapshot from before komi was kept says nothing about it: not a change.
    with_komi = all("komi" in g for g in before.get("games", []))
    for key in sorted(old.keys() & new.keys(), key=lambda k: k[0]):
        was = _outcome(old[key], with_komi=with_komi)
        now = _outcome(new[key], with_komi=with_komi)
        if was != now:
            diff.results_changed.append(_change(new[key], was, now))
    diff.rules_changed = _rules_changed(before.get("rules"), after.get("rules"))
    old_players, new_players = before.get("players", {}), after.get("players", {})
    diff.players_added = sorted(new_players[k]["name"] for k in new_players.keys() - old_players)
    diff.players_removed = sorted(old_players[k]["name"] for k in old_players.keys() - new_players)
    return diff


def _rules_changed(before: dict[str, str] | None, after: dict[str, str] | None) -> list[RuleChange]:
    if not before or not after:
        return []
    changed = []
    for name in after.keys() & before.keys():
        if before[name] != after[name]:
            label = str(Tournament._meta.get_field(name).verbose_name)
            changed.append(RuleChange(label, before[name] or "—", after[name] or "—"))
    return sorted(changed, key=lambda c: c.label)
