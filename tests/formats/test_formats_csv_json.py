"""CSV games (formats.md §3) and the engine-contract JSON (§4), both ways."""

from __future__ import annotations

import json

import pytest

from tests.formats.helpers import EXAMPLES, TABLES, assert_one_error, messages
from tournaments.formats import csv_games, egd, json_format
from tournaments.formats.model import FormatError

CSV = "round,white,black,result,handicap\n1,Anna,Boris,white,0\n1,Clara,Dmytro,draw,\n2,Boris,Clara,black,2\n"


def test_csv_games() -> None:
    results = csv_games.parse(CSV)
    assert [p.key for p in results.players] == ["Anna", "Boris", "Clara", "Dmytro"]
    assert [(g.round, g.white, g.black, g.result, g.handicap) for g in results.games] == [
        (1, "Anna", "Boris", "white", 0),
        (1, "Clara", "Dmytro", "draw", 0),
        (2, "Boris", "Clara", "black", 2),
    ]
    assert results.details.rounds == 2
    assert csv_games.parse(csv_games.write(results)) == results


def test_csv_without_handicap_column_and_quoted_names() -> None:
    results = csv_games.parse('Round,White,Black,Result\n1,"Petrenko, Ivan",17,White\n')
    assert results.games[0].white == "Petrenko, Ivan"
    assert results.games[0].black == "17"
    assert csv_games.parse(csv_games.write(results)) == results


@pytest.mark.parametrize(
    ("row", "fragment"),
    [
        ("0,Anna,Boris,white", "round '0'"),
        ("x,Anna,Boris,white", "round 'x'"),
        ("1,Anna,Anna,white", "cannot play himself"),
        ("1,Anna,,white", "Both players"),
        ("1,Anna,Boris,1-0", "must be white, black or draw"),
        ("1,Anna,Boris,white,10", "handicap '10'"),
        ("1,Anna,Clara,white", "already plays in round 1 (line 2)"),
    ],
)
def test_csv_errors(row: str, fragment: str) -> None:
    with pytest.raises(FormatError) as info:
        csv_games.parse("round,white,black,result,handicap\n1,Anna,Boris,white\n" + row + "\n")
    assert_one_error(info, 3, fragment)


def test_csv_needs_its_header() -> None:
    with pytest.raises(FormatError) as info:
        csv_games.parse("1,Anna,Boris,white\n")
    assert_one_error(info, 1, "missing: round, black, result")


def test_csv_unknown_column_is_a_warning() -> None:
    results = csv_games.parse("round,white,black,result,board\n1,A,B,white,3\n")
    assert any("'board'" in p.message for p in results.warnings)


def test_csv_export_writes_only_rated_games_by_name() -> None:
    results = egd.parse((TABLES / "mpk2025.txt").read_text())
    rows = csv_games.write(results).splitlines()
    assert rows[0] == "round,white,black,result,handicap"
    assert len(rows) - 1 == sum(1 for g in results.games if g.is_rated)
    assert "Szychowiak Marianna" in rows[1] or any("Szychowiak Marianna" in r for r in rows)


# ---------------------------------------------------------------- JSON

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


def _second_game_in_a_round(event: dict) -> tuple[str, int, int, int] | None:
    """(player, round, index of his first game there, index of the second) for the first
    game that seats a player a second time in one round, or None."""
    seats: dict[tuple[int, str], int] = {}
    for index, game in enumerate(event["games"]):
        for side in ("white", "black"):
            first = seats.setdefault((game["round"], game[side]), index)
            if first != index:
                return game[side], game["round"], first, index
    return None


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_engine_examples_map_both_ways(path) -> None:
    event = json.loads(path.read_text())["input"]
    second = _second_game_in_a_round(event)
    if second is not None:
        # The engine rates such a batch where its system allows it (ufgo D4, uscf U2,
        # rivne D4; example ufgo-12), but the application keeps one seat per player per
        # round (RoundSeat): importing the file is refused with a clear message instead.
        player, round_number, first, index = second
        with pytest.raises(FormatError) as caught:
            json_format.parse(json.dumps(event))
        assert messages(caught.value) == [
            f"games[{index}]: player {player!r} already plays in round {round_number} "
            f"(games[{first}])."
        ]
        return
    results = json_format.parse(json.dumps(event))
    written = json.loads(json_format.write(results))
    # What the engine reads comes back unchanged (handicap 0 may be added: it is the default).
    assert written["system"] == event["system"]
    assert written.get("params", {}) == event.get("params", {})
    for name, value in event["event"].items():
        assert written["event"][name] == value, name
    assert len(written["players"]) == len(event["players"])
    for mine, theirs in zip(written["players"], event["players"], strict=True):
        for name, value in theirs.items():
            assert mine.get(name) == value, (name, theirs["id"])
    for mine, theirs in zip(written["games"], event["games"], strict=True):
        assert mine == {"handicap": 0, **theirs}
    assert json_format.parse(json.dumps(written)) == results


def test_json_extras_and_omitted_rating() -> None:
    document = {
        "system": "egf",
        "event": {
            "id": "t1", "date": "2024-05-02", "start_date": "2024-05-01", "name": "Rivne Open",
            "city": "Rivne", "country": "UA", "class": "B", "board": 13,
            "time_control": {"basic_minutes": 45, "fischer_increment_seconds": 15},
        },
        "players": [
            {"id": "12345678", "name": "Kovalenko Ivan", "country": "UA", "club": "Rivn", "grade": "3d"},
            {"id": "p2", "rating": None, "grade": "5 kyu"},
        ],
        "games": [{"round": 1, "white": "12345678", "black": "p2", "result": "black", "handicap": 4}],
    }  # fmt: skip
    results = json_format.parse(json.dumps(document))
    first, second = results.players
    assert (first.family_name, first.country, first.club, first.grade) == (
        "Kovalenko Ivan",
        "UA",
        "Rivn",
        "3d",
    )
    assert (first.rating, first.rating_stated) == (
        None,
        False,
    )  # omitted: the rating list supplies it
    assert (second.rating, second.rating_stated, second.grade) == (
        None,
        True,
        "5k",
    )  # null: a newcomer
    details = results.details
    assert (details.code, details.tournament_class, details.board_size) == ("t1", "B", 13)
    assert details.time_control is not None and details.time_control.fischer_increment_seconds == 15
    again = json.loads(json_format.write(results))
    assert "rating" not in again["players"][0]
    assert again["players"][1]["rating"] is None
    assert again["event"]["time_control"] == {"basic_minutes": 45, "fischer_increment_seconds": 15}


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["games"][0].update(white="p9"), "games[0].white: unknown player id 'p9'"),
        (lambda d: d["games"][0].update(black="p1"), "cannot play himself"),
        (lambda d: d["games"][0].update(result="1-0"), "games[0].result"),
        (lambda d: d["games"][0].update(handicap=-1), "games[0].handicap"),
        (lambda d: d["games"][0].update(handicap=12), "more than 9"),
        (lambda d: d["players"][0].update(rating="high"), "players[0].rating"),
        (lambda d: d["players"][1].update(id="p1"), "used twice"),
        (lambda d: d["players"][0].update(grade="11"), "players[0].grade"),
        (lambda d: d["event"].update(date="May 1"), "event.date"),
        (lambda d: d["event"].pop("date"), "event.date: is missing"),
        (lambda d: d["games"].append(dict(d["games"][0])), "already plays in round 1"),
    ],
)
def test_json_errors(change, fragment: str) -> None:
    document = {
        "system": "rivne",
        "event": {"id": "e", "date": "2024-05-01"},
        "players": [
            {"id": "p1", "rating": 300, "grade": "5k"},
            {"id": "p2", "rating": 250, "grade": "6k"},
        ],
        "games": [{"round": 1, "white": "p1", "black": "p2", "result": "white"}],
    }
    change(document)
    with pytest.raises(FormatError) as info:
        json_format.parse(json.dumps(document))
    assert any(fragment in m for m in messages(info.value)), messages(info.value)


def test_json_syntax_error_has_line_and_column() -> None:
    with pytest.raises(FormatError) as info:
        json_format.parse('{\n  "system": "egf",\n  "event": {,}\n}')
    problem = info.value.errors[0]
    assert (problem.line, problem.column) == (3, 13)


def test_egd_table_to_json_uses_pins_and_keeps_only_played_games() -> None:
    results = egd.parse((TABLES / "wagc2021.txt").read_text())
    written = json.loads(json_format.write(results))
    assert written["players"][0]["id"] == "19713452"
    assert len(written["games"]) == sum(1 for g in results.games if g.is_rated)
    assert written["event"]["date"] == "2021-06-09"
