"""The win-probability calculator: the engine's own expectation for one game, per system.

Each system is asked through `rate_json` on a one-game event and the answer's
`games[0].expected` is read, so the figure is exactly what the system would use.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubsite.models import GameKind
from ratings.systems import BadInput, rate_json
from ratings.systems.registry import SYSTEMS

SYSTEMS_BY_GAME = {
    GameKind.GO: ("egf", "ufgo", "rivne"),
    GameKind.CHESS: ("orr",),
    GameKind.REVERSI: ("uscf",),
}
HANDICAP_SYSTEMS = frozenset({"egf", "ufgo", "rivne"})


@dataclass(frozen=True)
class Expectation:
    system: str
    title: str
    rating_a: float
    rating_b: float
    handicap: int
    a: float | None  # A's expected score (A plays white)
    b: float | None


def expectation(
    system: str, rating_a: float, rating_b: float, handicap: int = 0, board: int = 19
) -> Expectation:
    """A (white) against B (black, taking `handicap` stones) under one system."""
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}")
    handicap = handicap if system in HANDICAP_SYSTEMS else 0
    event = {
        "system": system,
        "event": {"id": "calculator", "date": "2000-01-01", "board": board},
        "players": [{"id": "a", "rating": rating_a}, {"id": "b", "rating": rating_b}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "draw", "handicap": handicap}],
    }
    try:
        output = rate_json(event)
    except BadInput:
        return Expectation(system, SYSTEMS[system].title, rating_a, rating_b, handicap, None, None)
    found: dict[str, float | None] = {}
    for player in output["players"]:  # type: ignore[union-attr]
        games = player.get("games") or []  # type: ignore[union-attr]
        found[player["id"]] = games[0].get("expected") if games else None  # type: ignore[index]
    return Expectation(
        system, SYSTEMS[system].title, rating_a, rating_b, handicap, found.get("a"), found.get("b")
    )
