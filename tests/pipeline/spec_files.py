"""Hand-made results files run through the management commands (issue 20's boundary tests).

`run_file` writes a JSON (or any) results file, imports it with `import_tournament`,
approves it with `approve_tournament` and recomputes with `recompute`: the path a
real file takes, on the test's database.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from django.core.management import call_command

from tournaments.models import Tournament


def call(*args: str) -> list[str]:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()


def event_json(
    *,
    system: str,
    date: str,
    players: list[dict[str, Any]],
    games: list[tuple[int, str, str, str]],
    name: str = "Event",
    **event: Any,
) -> dict[str, Any]:
    """An engine-contract event; games as (round, white, black, result)."""
    return {
        "system": system,
        "event": {"id": name, "name": name, "date": date, **event},
        "players": players,
        "games": [
            {"round": r, "white": w, "black": b, "result": result, "handicap": 0}
            for r, w, b, result in games
        ],
    }


def import_file(path: Path, slug: str, fmt: str, *, date: str | None = None) -> Tournament:
    """`date`: START[,END] for a file that gives none (a CSV of games)."""
    extra = ("--date", date) if date else ()
    last = call("import_tournament", str(path), "--list", slug, "--format", fmt, *extra)[-1]
    return Tournament.objects.get(pk=int(last.split()[1]))


def rate(tournament: Tournament, slug: str) -> Tournament:
    """Approve (the recompute request is recorded) and recompute the list now."""
    call("approve_tournament", str(tournament.pk))
    call("recompute", slug)
    tournament.refresh_from_db()
    return tournament


def run_json(tmp_path: Path, slug: str, data: dict[str, Any], *, name: str = "event") -> Tournament:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return rate(import_file(path, slug, "json"), slug)


def run_text(
    tmp_path: Path, slug: str, text: str, fmt: str, *, name: str = "event", date: str | None = None
) -> Tournament:
    path = tmp_path / f"{name}.{fmt}"
    path.write_text(text, encoding="utf-8")
    return rate(import_file(path, slug, fmt, date=date), slug)
