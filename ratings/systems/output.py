"""The JSON boundary's way out (`spec/engine-contract.md`, Output): an `EventOutput`,
or a system's results written straight (`RatingSystem.rate_json`), as the contract's
output object, keys in the contract's order.
"""

from __future__ import annotations

from collections.abc import Iterable

from ratings.systems.model import JSON, EventOutput, GameRecord, PlayerOutput


def _canonical(value: JSON) -> JSON:
    """`history` with object keys sorted, so the output never depends on dict order."""
    if isinstance(value, dict):
        return {key: _canonical(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value


def games_json(games: Iterable[GameRecord]) -> list[JSON]:
    """A player's games as output objects (from `GameOutput`s or plain records)."""
    return [
        {
            "round": round_,
            "opponent": opponent,
            "score": score,
            "expected": expected,
            "change": change,
        }
        for round_, opponent, score, expected, change in games
    ]


def player_json(
    id: str,
    before: float | None,
    after: float | None,
    change: float | None,
    rated: bool = True,
    provisional: bool = False,
    anomalous: bool = False,
    history: JSON = None,
    games: list[JSON] | None = None,
) -> dict[str, JSON]:
    """One player's output (a `PlayerOutput`'s fields; `games` already as `games_json`)."""
    return {
        "id": id,
        "before": before,
        "after": after,
        "change": change,
        "rated": rated,
        "provisional": provisional,
        "anomalous": anomalous,
        "history": _canonical(history),
        "games": [] if games is None else games,
    }


def event_json(
    system: str, event: str, players: list[JSON], notes: Iterable[str]
) -> dict[str, JSON]:
    """The contract's output object, keys in the contract's order."""
    return {"system": system, "event": event, "players": players, "notes": list(notes)}


def _player_json(player: PlayerOutput) -> dict[str, JSON]:
    return player_json(
        player.id,
        player.before,
        player.after,
        player.change,
        player.rated,
        player.provisional,
        player.anomalous,
        player.history,
        games_json(player.games),
    )


def output_to_json(output: EventOutput) -> dict[str, JSON]:
    """The contract's output object, keys in the contract's order."""
    players: list[JSON] = [_player_json(player) for player in output.players]
    return event_json(output.system, output.event, players, output.notes)
