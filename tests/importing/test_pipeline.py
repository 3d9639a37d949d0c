"""The whole road for the engine's examples, through the management commands:

    create_rating_list demo --system S
    import_tournament ex.json --list demo --format json
    approve_tournament ID --wait
    export_ratings demo --format json --all  →  each player's `after`

A player whose example `rating` (or `history`, `best_grade`) is given must start
the tournament with it. No public command seeds a starting rating, so:

* `test_example_through_the_commands_only` runs, with nothing but the commands,
  every example the commands can express: all players newcomers, or ORR players
  who bring a rating (the JSON `rating` is kept as the rating the player declared,
  and ORR's D22 enters a newcomer with it).
* `test_example_with_seeded_prior_ratings` runs every example the application can
  hold (not one where a player plays twice in a round, see below): after the import it
  writes each rated player's prior standing as one history row of an earlier,
  unlinked "seed" tournament (what a previous approved tournament would have left),
  then approves through the command. This is the only step not done by a command.
* An example where a player plays twice in one round (ufgo-12, ufgo.md D4) is the
  engine's alone: the application keeps one seat per player per round (RoundSeat), so
  `test_example_with_a_batch_round_is_refused_by_the_import` checks the clear refusal.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from clubsite.models import Club, Member
from ratings.models import RatingHistory, RatingList
from tournaments.models import Tournament

from .helpers import EXAMPLES

EXAMPLE_PATHS = sorted(EXAMPLES.glob("*.json"))


def _input(path: Path) -> dict:
    return json.loads(path.read_text())["input"]


# Issue 20: a declared rating starts a newcomer only where the spec lets the application
# give a start (UFGO D2, ORR D22); EGF, USCF and Rivne start him by their own rules.
DECLARED_START_SYSTEMS = {"ufgo", "orr"}


def _commands_can_say_it(path: Path) -> bool:
    """True when no player carries state beyond a starting rating the list takes: a JSON
    `rating` is kept as the rating the player declared, and a newcomer to a UFGO or ORR
    list starts from it."""
    data = _input(path)
    return all(
        player.get("history") is None
        and player.get("best_grade") is None
        and (player.get("rating") is None or data["system"] in DECLARED_START_SYSTEMS)
        for player in data["players"]
    )


def _plays_twice_in_a_round(path: Path) -> bool:
    seats = [(g["round"], g[side]) for g in _input(path)["games"] for side in ("white", "black")]
    return len(seats) != len(set(seats))


BATCH_ROUNDS = [p for p in EXAMPLE_PATHS if _plays_twice_in_a_round(p)]
HELD = [p for p in EXAMPLE_PATHS if p not in BATCH_ROUNDS]
COMMANDS_ONLY = [p for p in HELD if _commands_can_say_it(p)]


def _call(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _import(path: Path, tmp_path: Path) -> tuple[dict, dict, int]:
    example = json.loads(path.read_text())
    data, expected = example["input"], example["expected"]
    _call("create_rating_list", "demo", "--system", data["system"],
          "--params", json.dumps(data.get("params") or {}))  # fmt: skip
    file = tmp_path / path.name
    file.write_text(json.dumps(data))
    printed = _call("import_tournament", str(file), "--list", "demo", "--format", "json")
    last = printed.strip().splitlines()[-1]
    assert last.startswith("tournament "), printed
    return data, expected, int(last.split()[1])


def _approve_and_export(tournament_id: int) -> dict[str, dict]:
    _call("approve_tournament", str(tournament_id), "--wait")
    document = json.loads(_call("export_ratings", "demo", "--format", "json", "--all"))
    return {p["player"]: p for p in document["players"]}


def _check(data: dict, expected: dict, exported: dict[str, dict]) -> None:
    ratings_in = {p["id"]: p.get("rating") for p in data["players"]}
    for player in expected["players"]:
        wanted = player["after"] if player["rated"] else ratings_in[player["id"]]
        if player["id"] not in exported:
            # Issue 20 / orr.md D15: a zero-score debut is not stored, so not listed.
            assert data["system"] == "orr" and wanted is None, player["id"]
            continue
        got = exported[player["id"]]["rating"]
        if wanted is None:
            assert got is None, player["id"]
        else:
            assert got == pytest.approx(wanted, abs=5e-4), (player["id"], got, wanted)
        assert exported[player["id"]]["provisional"] == player["provisional"], player["id"]


def _seed(data: dict, tournament_id: int) -> int:
    """Each rated (or storied) player's standing before the event, as the history holds it."""
    rating_list = RatingList.objects.get(slug="demo")
    tournament = Tournament.objects.get(pk=tournament_id)
    day = tournament.end_date - dt.timedelta(days=1)
    seed = Tournament.objects.create(
        name="Seed (earlier results)", slug="seed", start_date=day, end_date=day,
        organiser=Club.objects.get_or_create(slug="seed", defaults={"name": "Seed"})[0],
        status=Tournament.Status.APPROVED,
    )  # fmt: skip
    rows = []
    for player in data["players"]:
        rating, history = player.get("rating"), player.get("history")
        best = player.get("best_grade")
        if rating is None and history is None and best is None:
            continue
        rows.append(
            RatingHistory(
                rating_list=rating_list,
                member=Member.objects.get(import_key=player["id"]),
                tournament=seed,
                date=day,
                sequence=1,
                rating_in=None,
                before=rating,
                after=rating,
                change=0.0 if rating is not None else None,
                rated=rating is not None,
                history=history,
                grade=best,
                list_grade=player.get("grade"),
                # His standing after it, as the recompute writes a row (the state before a
                # date is the last row's): one tournament, his best grade so far.
                tournaments_so_far=1,
                best_grade_so_far=best,
            )  # fmt: skip
        )
    RatingHistory.objects.bulk_create(rows)
    return len(rows)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", COMMANDS_ONLY, ids=[p.stem for p in COMMANDS_ONLY])
def test_example_through_the_commands_only(path, tmp_path):
    data, expected, tournament_id = _import(path, tmp_path)
    _check(data, expected, _approve_and_export(tournament_id))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", HELD, ids=[p.stem for p in HELD])
def test_example_with_seeded_prior_ratings(path, tmp_path):
    data, expected, tournament_id = _import(path, tmp_path)
    _seed(data, tournament_id)
    _check(data, expected, _approve_and_export(tournament_id))


@pytest.mark.django_db
@pytest.mark.parametrize("path", BATCH_ROUNDS, ids=[p.stem for p in BATCH_ROUNDS])
def test_example_with_a_batch_round_is_refused_by_the_import(path, tmp_path):
    from django.core.management.base import CommandError

    data = _input(path)
    _call("create_rating_list", "demo", "--system", data["system"])
    file = tmp_path / path.name
    file.write_text(json.dumps(data))
    with pytest.raises(CommandError) as caught:
        _call("import_tournament", str(file), "--list", "demo", "--format", "json")
    assert "already plays in round" in str(caught.value)
    assert not Tournament.objects.exists()


def test_examples_with_a_batch_round_are_found():
    assert [p.stem for p in BATCH_ROUNDS] == ["ufgo-12-two-games-one-round"]


def test_commands_only_examples_are_found():
    # Issue 20: EGF, Rivne and USCF examples all give prior ratings, which only the
    # seeded test below can express now; every example still runs there.
    names = {p.stem.split("-")[0] for p in COMMANDS_ONLY}
    assert names == DECLARED_START_SYSTEMS
    assert len(COMMANDS_ONLY) >= 15
