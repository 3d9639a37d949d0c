"""Writing an EGD table that the EGD and the pairing programs read."""

from __future__ import annotations

from tournaments.formats.bounds import is_ascii_number
from tournaments.formats.egd.layout import COUNTRY_PATTERN, clean_field
from tournaments.formats.egd.places import place_texts
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    FormatError,
    Problem,
    ResultsFile,
    TimeControl,
    TournamentDetails,
    gettext_noop,
)
from tournaments.formats.time_text import read_egd_adjusted


def write(results: ResultsFile) -> str:
    """The table as EGD text; raises `FormatError` if a player lacks what EGD requires."""
    places = _places(results)
    problems = [
        Problem.of(
            None,
            None,
            gettext_noop("Player %(name)r has no %(what)s; the EGD format needs one."),
            name=p.name,
            what=what,
        )
        for p in results.players
        for what, value in (("grade", p.grade), ("two-letter country", p.country))
        if not value or (what != "grade" and not COUNTRY_PATTERN.match(value))
    ]
    if problems:
        raise FormatError(problems)
    lines = _header_lines(results.details)
    lines.append(";")
    rounds = max(
        [
            results.details.rounds,
            *(g.round for g in results.games),
            *(b.round for b in results.byes),
        ]
    )
    name_width = max(len(_name_token(p)) for p in results.players) if results.players else 0
    place_text = place_texts(list(results.players), places)
    place_width = max((len(text) for text in place_text.values()), default=1)
    seats = results.seats()
    points_of = results.all_points()
    for player in results.players:
        entries = [
            _entry_text(player.key, seats.get((r, player.key)), places)
            for r in range(1, rounds + 1)
        ]
        club = (player.club or "xxxx").replace(" ", "_")
        points = f"{points_of[player.key]:g}"
        text = (
            f"{place_text[player.key]:>{place_width}} {_name_token(player):<{name_width}} "
            f"{player.grade:>3} {player.country} {club:<4} {points:>4}  "
            + " ".join(f"{e:<7}" for e in entries)
        ).rstrip()
        if player.egd_pin:
            text += f" |{player.egd_pin}"
        lines.append(text)
    return "\n".join(lines) + "\n"


def _places(results: ResultsFile) -> dict[str, int]:
    """Keep the file's keys where they are distinct place numbers, else number players in order."""
    keys = [p.key for p in results.players]
    if all(is_ascii_number(k, max_digits=9) and int(k) > 0 for k in keys) and len(
        {int(k) for k in keys}
    ) == len(keys):
        return {k: int(k) for k in keys}
    return {k: i for i, k in enumerate(keys, start=1)}


def _number(value: float) -> str:
    return f"{value:g}"


def _header_lines(details: TournamentDetails) -> list[str]:
    tags: list[tuple[str, str]] = []
    if details.code:
        tags.append(("TC", details.code))
    if details.tournament_class:
        tags.append(("CL", details.tournament_class))
    if details.name:
        tags.append(("EV", details.name))
    if details.country or details.city:
        tags.append(
            ("PC", f"{details.country}, {details.city}" if details.city else details.country)
        )
    if details.start_date or details.end_date:
        dates = [d.isoformat() if d else "" for d in (details.start_date, details.end_date)]
        tags.append(("DT", ",".join(dates)))
    if details.handicap_rule is not None:
        tags.append(("HA", f"h{details.handicap_rule}"))
    if details.komi is not None:
        tags.append(("KM", _number(details.komi)))
    time = details.time_control
    if time is not None and time.description and _own_tm_text(time):
        tags.append(("TM", time.description))  # the file's own TM text (`82`, `3h`)
    elif time is not None and time.adjusted_minutes is not None:
        tags.append(("TM", _number(time.adjusted_minutes)))
    for comment in details.comment.split("\n") if details.comment else []:
        tags.append(("CM", comment))
    return [f"; {code}[{clean_field(value)}]" for code, value in tags]


def _own_tm_text(time: TimeControl) -> bool:
    """The text is what a TM tag holds, or what the file said with nothing else known."""
    if read_egd_adjusted(time.description or "") is not None:
        return True
    return time.adjusted_minutes is None and time.basic_minutes is None


def _name_token(player: FilePlayer) -> str:
    family = player.family_name or player.key
    parts = [family.replace(" ", "_")]
    if player.given_name:
        parts.append(player.given_name.replace(" ", "_"))
    return " ".join(parts)


def _entry_text(key: str, seat: FileGame | FileBye | None, places: dict[str, int]) -> str:
    if isinstance(seat, FileGame):
        return _game_entry(key, seat, places)
    if isinstance(seat, FileBye):
        symbol = {1.0: "+", 0.5: "="}.get(seat.points, "-")
        return "0" + symbol + ("!" if seat.kind == "forfeit" else "")
    return "0-"


def _game_entry(key: str, game: FileGame, places: dict[str, int]) -> str:
    opponent = game.black if key == game.white else game.white
    if game.kind == "unrated" and game.result == "draw":
        return "0="  # EGD cannot say "drawn, not rated": half a point each, no game
    points = game.points_of(key)
    symbol = "=" if game.result == "draw" else ("+" if points == 1.0 else "-")
    forfeit = "!" if game.kind != "played" else ""
    colour = ""
    if game.colours_known:
        colour = f"/{'w' if key == game.white else 'b'}{game.handicap}"
    return f"{places[opponent]}{symbol}{forfeit}{colour}"
