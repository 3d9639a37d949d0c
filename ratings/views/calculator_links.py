"""Links into the calculator arrive filled in (issue 16).

The profile's link names one player; the head-to-head's names both, with the game and the
handicap of their latest game. A link naming one player opens the form with him filled in,
not with "This field is required."; the game defaults to Go and the handicap to none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.http import QueryDict
from django.urls import reverse

from clubsite.models import GameKind

SUBMITTED = "go"  # the form's button: a request without it and with one side is a link


def calculator_form_data(query: QueryDict) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """(data to bind the form to, or None) and the initial values to show."""
    data = {key: query.get(key) for key in query}
    data.setdefault("game", GameKind.GO)
    if not data.get("handicap"):
        data["handicap"] = "0"
    sides = all(data.get(side) or data.get(f"rating_{side}") for side in ("a", "b"))
    if sides or SUBMITTED in query:
        return data, {}
    return None, data if len(query) else {}


def profile_link(member_id: int, game: str | None) -> str:
    return reverse("calculator") + "?" + urlencode({"a": member_id, "game": game or GameKind.GO})


def head_to_head_link(member_id: int, opponent_id: int, games: Sequence[Any]) -> str:
    """Both players, the game and handicap of their latest game; White (A) as it was then."""
    latest = games[0] if games else None
    a, b, handicap, game = member_id, opponent_id, 0, GameKind.GO
    if latest is not None:
        game = latest.tournament.game
        handicap = latest.handicap or 0
        if latest.black_id == member_id and handicap:
            a, b = opponent_id, member_id  # B takes the stones
    query = {"a": a, "b": b, "game": game, "handicap": handicap}
    return reverse("calculator") + "?" + urlencode(query)
