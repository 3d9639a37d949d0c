"""Small builders for hand-made `orr` events (contract JSON), shared by the orr tests."""

from __future__ import annotations

from typing import Any

from ratings.systems import rate_json
from ratings.systems.io import parse_event
from ratings.systems.model import EventInput
from ratings.systems.registry import SYSTEMS

EVENT_DATE = "2024-06-01"
BORN_AGED_8 = "2016-01-01"  # 8 on EVENT_DATE


def player(
    pid: str,
    rating: float | None = None,
    born: str | None = BORN_AGED_8,
    history: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {"id": pid, "rating": rating, "birth_date": born, "history": history}


def game(round_number: int, white: str, black: str, result: str = "white") -> dict[str, Any]:
    return {"round": round_number, "white": white, "black": black, "result": result}


def event(
    players: list[dict[str, Any]],
    games: list[dict[str, Any]],
    params: dict[str, Any] | None = None,
    participants: int | None = None,
    date: str = EVENT_DATE,
) -> dict[str, Any]:
    block: dict[str, Any] = {"id": "t", "date": date}
    if participants is not None:
        block["participants"] = participants
    document: dict[str, Any] = {
        "system": "orr",
        "event": block,
        "players": players,
        "games": games,
    }
    if params is not None:
        document["params"] = params
    return document


def stored(*games: tuple[float, float], events: int = 1) -> dict[str, Any]:
    """An unsettled player's history with (opponent rating, score) games."""
    return {
        "events": events,
        "games": [
            {"event": "old", "round": i + 1, "opponent": f"o{i}", "rating": r, "score": s}
            for i, (r, s) in enumerate(games)
        ],
    }


def rated(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """rate_json's players, by id."""
    return {p["id"]: p for p in rate_json(document)["players"]}


def as_input(document: dict[str, Any]) -> EventInput:
    return parse_event(document, SYSTEMS)[1]
