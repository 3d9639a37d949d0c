"""Real EGD data for the `egf` engine: tournament tables and rating-list snapshots.

A small self-contained reader for `shared/refdata/egd/` (see its README): it
reads the EGD table export and the `allworld_lp` rating lists, and pairs them
into engine events whose published before/after ratings are known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .examples import REFDATA_DIR

EGD_DIR = REFDATA_DIR / "egd"
TOLERANCE = 2.0  # published ratings are integers, and so are the inputs we start from

_HEADER = re.compile(r"^;\s*([A-Z]{2})\[(.*)\]")
_RESULT = re.compile(r"^(\d+)([+=-])(?:/([bw])(\d*))?(!?)$")
_GRADE = re.compile(r"^\d{1,2}[kdp]$")
_LIST_ROW = re.compile(r"^\s*(\d{6,})\s+(.*\S)\s*$")


@dataclass(frozen=True)
class Entry:
    """One cell of a table row: the game of one round from this player's side."""

    opponent: int  # place; 0 = no game (free round)
    symbol: str  # + - =
    colour: str | None  # 'b' / 'w' / None
    handicap: int
    by_default: bool


@dataclass(frozen=True)
class Row:
    place: int
    grade: str
    pin: str | None
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Table:
    name: str
    code: str
    klass: str
    end_date: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class ListEntry:
    pin: str
    grade: str
    gor: int
    tournaments: int
    last: str


@dataclass(frozen=True)
class Snapshot:
    name: str
    players: dict[str, ListEntry]


def read_table(path: Path) -> Table:
    headers: dict[str, str] = {}
    rows: list[Row] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        header = _HEADER.match(line)
        if header:
            headers.setdefault(header.group(1), header.group(2))
            continue
        body, _, pin = line.split(";", 1)[0].partition("|")
        tokens = body.split()
        if not tokens or not tokens[0].isdigit():
            continue
        grade = next((t.lower() for t in tokens[1:] if _GRADE.match(t.lower())), None)
        if grade is None:
            continue
        entries = []
        for token in tokens[1:]:
            match = _RESULT.match(token)
            if match:
                opponent, symbol, colour, stones, default = match.groups()
                entries.append(
                    Entry(int(opponent), symbol, colour, int(stones or 0), default == "!")
                )
        rows.append(Row(int(tokens[0]), grade, pin.strip() or None, tuple(entries)))
    end_date = headers.get("DT", "").split(",")[-1].strip()
    return Table(
        path.stem, headers.get("TC", path.stem), headers.get("CL", "A"), end_date, tuple(rows)
    )


def read_rating_list(path: Path) -> Snapshot:
    players: dict[str, ListEntry] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _LIST_ROW.match(line)
        if not match:
            continue
        tokens = match.group(2).split()
        if len(tokens) < 5 or not (tokens[-2].isdigit() and tokens[-3].isdigit()):
            continue
        pin = match.group(1)
        players[pin] = ListEntry(pin, tokens[-5], int(tokens[-3]), int(tokens[-2]), tokens[-1])
    return Snapshot(path.name, players)


@dataclass(frozen=True)
class Case:
    """One real tournament as an engine event, with what the EGD published after it."""

    table: Table
    event: dict[str, Any]
    published: dict[str, int]  # player id -> GoR after, for the comparable players
    known_inputs: frozenset[str]  # player ids whose pre-tournament rating is the EGD's


def _game_key(place: int, entry: Entry, round_number: int) -> tuple[int, int, int]:
    low, high = sorted((place, entry.opponent))
    return round_number, low, high


def build_case(table: Table, earlier: Snapshot, later: Snapshot) -> Case:
    """Rate `table` from `earlier`'s ratings; compare with `later` (README's pairing rule)."""
    by_place = {row.place: row for row in table.rows}
    ids = {row.place: row.pin or f"place{row.place}" for row in table.rows}
    players: list[dict[str, Any]] = []
    published: dict[str, int] = {}
    for row in table.rows:
        before = earlier.players.get(row.pin) if row.pin else None
        after = later.players.get(row.pin) if row.pin else None
        player: dict[str, Any] = {
            "id": ids[row.place],
            "rating": before.gor if before else None,
            "grade": row.grade,
        }
        if before is not None:
            player["best_grade"] = before.grade.lower()  # the list's last grade, the best we know
        players.append(player)
        if after is None or after.last != table.code:
            continue
        if (before is None and after.tournaments == 1) or (
            before is not None and after.tournaments == before.tournaments + 1
        ):
            published[ids[row.place]] = after.gor

    games: list[dict[str, Any]] = []
    seen: set[tuple[int, int, int]] = set()
    for row in table.rows:
        for index, entry in enumerate(row.entries):
            key = _game_key(row.place, entry, index + 1)
            if entry.opponent == 0 or entry.by_default or entry.opponent not in by_place:
                continue
            if entry.opponent == row.place or key in seen:
                continue
            seen.add(key)
            me, opponent = ids[row.place], ids[entry.opponent]
            if entry.colour == "b":
                white, black = opponent, me
            else:
                white, black = me, opponent
            if entry.symbol == "=":
                result = "draw"
            else:
                won = entry.symbol == "+"
                result = "white" if (white == me) == won else "black"
            handicap = entry.handicap if 0 <= entry.handicap <= 9 else 0
            games.append(
                {"round": index + 1, "white": white, "black": black, "result": result,
                 "handicap": handicap}
            )  # fmt: skip
    event = {
        "system": "egf",
        "event": {"id": table.code, "date": table.end_date, "class": table.klass},
        "players": players,
        "games": games,
    }
    known = frozenset(published)
    return Case(table, event, published, known)


def opponents(event: dict[str, Any]) -> dict[str, set[str]]:
    result: dict[str, set[str]] = {p["id"]: set() for p in event["players"]}
    for game in event["games"]:
        result[game["white"]].add(game["black"])
        result[game["black"]].add(game["white"])
    return result


def bracketing_files() -> list[tuple[Path, Path, Path]]:
    """(table, earlier snapshot, later snapshot) for every table some consecutive pair of
    snapshots brackets (the later one is the first list showing it)."""
    paths = sorted((EGD_DIR / "ratinglists").glob("egf_db_*.txt"))
    snapshots = [read_rating_list(p) for p in paths]
    found = []
    for path in sorted((EGD_DIR / "tables").glob("*.txt")):
        table = read_table(path)
        if table.klass not in ("A", "B", "C") or not table.end_date:
            continue
        pins = {row.pin for row in table.rows if row.pin}
        showing = [
            k
            for k, snapshot in enumerate(snapshots)
            if any((e := snapshot.players.get(pin)) and e.last == table.code for pin in pins)
        ]
        if showing and showing[0] > 0:
            first = showing[0]
            found.append((path, paths[first - 1], paths[first]))
    return found


def load_cases() -> list[Case]:
    """Every table some consecutive pair of snapshots brackets (the first list showing it)."""
    return [
        build_case(read_table(table), read_rating_list(earlier), read_rating_list(later))
        for table, earlier, later in bracketing_files()
    ]
