"""Writing a TRF16 or TRF26 file the FIDE and the pairing programs read."""

from __future__ import annotations

import datetime as dt

from tournaments.formats.bounds import is_ascii_number
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    ResultsFile,
)
from tournaments.formats.trf.layout import (
    BIRTH_DATE,
    FEDERATION,
    FIDE_ID,
    FIRST_ROUND_COLUMN,
    NAME,
    POINTS,
    RANK,
    RATING,
    ROUND_WIDTH,
    SEX,
    START_RANK,
    TITLE,
    Version,
)


def write(results: ResultsFile, version: Version | None = None) -> str:
    """The results as a TRF (TRF16 unless `version` or the details say 26)."""
    version = version or results.details.trf_version or "16"
    ranks = _ranks(results)
    lines: list[str] = []
    if version == "26":
        lines.append("### Tournament Report File (TRF26)")
    lines += _header_lines(results, version)
    rounds = max(
        [
            results.details.rounds,
            *(g.round for g in results.games),
            *(b.round for b in results.byes),
        ]
    )
    seats = results.seats()
    points = results.all_points()
    for player in results.players:
        lines.append(_player_line(player, seats, points[player.key], ranks, rounds))
    lines += list(results.details.extra_records)
    return "\r\n".join(lines) + "\r\n"


def _ranks(results: ResultsFile) -> dict[str, int]:
    keys = [p.key for p in results.players]
    if all(is_ascii_number(k, max_digits=4) and 0 < int(k) < 10000 for k in keys) and len(
        {int(k) for k in keys}
    ) == len(keys):
        return {k: int(k) for k in keys}
    return {k: i for i, k in enumerate(keys, start=1)}


def _header_lines(results: ResultsFile, version: Version) -> list[str]:
    details = results.details
    time = details.time_control.description if details.time_control else None
    records = [
        ("012", details.name),
        ("022", details.city),
        ("032", details.federation),
        ("042", _trf_date(details.start_date) if details.start_date else ""),
        ("052", _trf_date(details.end_date) if details.end_date else ""),
        ("062", str(max(details.participants or 0, len(results.players)))),
        ("072", str(sum(1 for p in results.players if p.fide_rating))),
        ("092", details.tournament_type),
        ("102", details.chief_arbiter),
        ("122", time or ""),
    ]
    lines = [f"{code} {' '.join(value.split())}" for code, value in records if value]
    if details.round_dates:
        dates = "".join(f"{d:<{ROUND_WIDTH}}" for d in details.round_dates)
        lines.append(("132" + " " * (FIRST_ROUND_COLUMN - 4) + dates).rstrip())
    if version == "26" and details.rounds:
        lines.append(f"142 {details.rounds}")
    return lines


def _put(chars: list[str], span: tuple[int, int], value: str, right: bool = False) -> None:
    width = span[1] - span[0] + 1
    value = value[:width]
    text = value.rjust(width) if right else value.ljust(width)
    chars[span[0] - 1 : span[1]] = list(text)


def _player_line(
    player: FilePlayer,
    seats: dict[tuple[int, str], FileGame | FileBye],
    computed_points: float,
    ranks: dict[str, int],
    rounds: int,
) -> str:
    chars = [" "] * (FIRST_ROUND_COLUMN - 1 + ROUND_WIDTH * rounds)
    _put(chars, (1, 3), "001")
    _put(chars, START_RANK, str(ranks[player.key]), right=True)
    _put(chars, SEX, {"m": "m", "f": "w"}.get(player.sex or "", ""))
    _put(chars, TITLE, player.title or "", right=True)
    name = f"{player.family_name}, {player.given_name}" if player.given_name else player.family_name
    _put(chars, NAME, name or player.key)
    _put(chars, RATING, str(player.fide_rating or ""), right=True)
    _put(chars, FEDERATION, player.federation or "")
    _put(chars, FIDE_ID, player.fide_id or "", right=True)
    _put(chars, BIRTH_DATE, _birth_text(player))
    points = player.points if player.points is not None else computed_points
    _put(chars, POINTS, f"{points:.1f}", right=True)
    _put(chars, RANK, str(player.place or ""), right=True)
    for round_number in range(1, rounds + 1):
        column = FIRST_ROUND_COLUMN + ROUND_WIDTH * (round_number - 1)
        block = _block_text(player.key, seats.get((round_number, player.key)), ranks)
        chars[column - 1 : column - 1 + len(block)] = list(block)
    return "".join(chars).rstrip()


def _birth_text(player: FilePlayer) -> str:
    if player.birth_date:
        return _trf_date(player.birth_date)
    return f"{player.birth_year:04d}" if player.birth_year else ""


def _block_text(key: str, seat: FileGame | FileBye | None, ranks: dict[str, int]) -> str:
    if isinstance(seat, FileGame):
        opponent = seat.black if key == seat.white else seat.white
        colour = ("w" if key == seat.white else "b") if seat.colours_known else "-"
        return f"{ranks[opponent]:>4} {colour} {_game_code(key, seat)}"
    if isinstance(seat, FileBye):
        return f"0000 - {_bye_code(seat)}"
    return "    "


def _game_code(key: str, game: FileGame) -> str:
    points = game.points_of(key)
    if game.kind == "forfeit":
        return "+" if points == 1.0 else "-"
    codes = (
        {1.0: "1", 0.5: "=", 0.0: "0"} if game.kind == "played" else {1.0: "W", 0.5: "D", 0.0: "L"}
    )
    return codes[points]


def _bye_code(bye: FileBye) -> str:
    if bye.kind == "forfeit" and bye.points in (0.0, 1.0):
        return "+" if bye.points == 1.0 else "-"
    if bye.kind == "pairing" and bye.points == 1.0:
        return "U"
    return {1.0: "F", 0.5: "H"}.get(bye.points, "Z")


def _trf_date(day: dt.date) -> str:
    """YYYY/MM/DD, the year always four digits (strftime drops leading zeros on some systems)."""
    return day.isoformat().replace("-", "/")
