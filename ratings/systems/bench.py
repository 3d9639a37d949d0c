"""Throughput benchmark: rate a synthetic EGD-sized year in memory.

    python -m ratings.systems bench [--system egf] [--tournaments 1000]
                                    [--games 60000] [--players 10000] [--seed 1]

For each system, a year of tournaments is generated (valid for that system:
grades for the Go systems, birth dates for everyone) and rated in date order,
each tournament starting from the ratings (and `history`) the previous ones
produced. Two figures are printed, in games per CPU-second of this process (so
other load on the machine disturbs them less than wall-clock time would):

- `rate()`: the system's `rate` alone on the prebuilt `EventInput`s of that
  chain, best of `--repeat` runs;
- `rate_json`: the whole boundary, JSON dict in -> validation -> rate -> JSON
  dict out, timed during the chained run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ratings.systems import rate_json
from ratings.systems.egf import rating_to_grade
from ratings.systems.io import parse_event
from ratings.systems.model import JSON, BadInput, EventInput, RatingSystem
from ratings.systems.registry import SYSTEMS

YEAR_START = dt.date(2017, 1, 1)
NEWCOMER_SHARE = 0.05
HANDICAP_SHARE = 0.1


@dataclass
class PlayerState:
    id: str
    rating: float | None
    grade: str
    birth_date: str
    history: JSON = None


@dataclass(frozen=True)
class Figures:
    system: str
    games: int
    rate_per_second: float
    rate_json_per_second: float


def _players(count: int, rng: random.Random) -> list[PlayerState]:
    players = []
    for index in range(count):
        strength = min(2700.0, max(100.0, rng.gauss(1700, 450)))
        grade = str(rating_to_grade(strength, professional=False))
        rating = None if rng.random() < NEWCOMER_SHARE else round(strength + rng.gauss(0, 60), 3)
        birth = dt.date(rng.randint(1950, 2012), rng.randint(1, 12), rng.randint(1, 28))
        players.append(PlayerState(f"p{index}", rating, grade, birth.isoformat()))
    return players


def _schedule(
    tournaments: int, games: int, players: int, rng: random.Random
) -> list[list[list[tuple[int, int]]]]:
    """Per tournament, per round, the pairs (player indexes); `games` games in all."""
    schedule = []
    for number in range(tournaments):
        target = games // tournaments + (1 if number < games % tournaments else 0)
        size = min(players - players % 2, max(4, 2 * rng.randint(6, 20)))
        entrants = rng.sample(range(players), size)
        rounds: list[list[tuple[int, int]]] = []
        left = target
        while left > 0:
            rng.shuffle(entrants)
            pairs = list(zip(entrants[::2], entrants[1::2], strict=True))[:left]
            rounds.append(pairs)
            left -= len(pairs)
        schedule.append(rounds)
    return schedule


def _event_json(
    system: RatingSystem,
    number: int,
    rounds: list[list[tuple[int, int]]],
    state: list[PlayerState],
    rng: random.Random,
) -> dict[str, JSON]:
    go = system.needs_grade
    entrants = sorted({index for pairs in rounds for pair in pairs for index in pair})
    games: list[JSON] = []
    for round_number, pairs in enumerate(rounds, start=1):
        for white, black in pairs:
            handicap = rng.randint(1, 5) if go and rng.random() < HANDICAP_SHARE else 0
            games.append(
                {
                    "round": round_number,
                    "white": state[white].id,
                    "black": state[black].id,
                    "result": rng.choice(("white", "black", "white", "black", "draw")),
                    "handicap": handicap,
                }
            )
    players: list[JSON] = [
        {
            "id": state[i].id,
            "rating": state[i].rating,
            "grade": state[i].grade,
            "birth_date": state[i].birth_date,
            "history": state[i].history,
        }
        for i in entrants
    ]
    date = YEAR_START + dt.timedelta(days=number * 365 // 1000)
    return {
        "system": system.code,
        "event": {"id": f"t{number}", "date": date.isoformat(), "class": "A"},
        "players": players,
        "games": games,
    }


def bench_system(
    system: RatingSystem, tournaments: int, games: int, players: int, seed: int, repeat: int = 3
) -> Figures:
    rng = random.Random(seed)
    state = _players(players, rng)
    index_of = {player.id: index for index, player in enumerate(state)}
    schedule = _schedule(tournaments, games, players, rng)

    prebuilt: list[EventInput] = []
    json_seconds = 0.0
    for number, rounds in enumerate(schedule):
        document = _event_json(system, number, rounds, state, rng)
        started = time.process_time()
        result = rate_json(document)
        json_seconds += time.process_time() - started
        prebuilt.append(parse_event(document, SYSTEMS)[1])
        for output in result["players"]:  # type: ignore[union-attr]
            assert isinstance(output, dict)
            player = state[index_of[str(output["id"])]]
            after = output["after"]
            player.rating = after if isinstance(after, int | float) else None
            player.history = output["history"]

    gc.collect()
    gc.freeze()  # the year's inputs stay alive: keep the collector from rescanning them
    rate_seconds = math.inf
    for _ in range(repeat):
        started = time.process_time()
        for event in prebuilt:
            system.rate(event)
        rate_seconds = min(rate_seconds, time.process_time() - started)
    gc.unfreeze()
    return Figures(system.code, games, games / rate_seconds, games / json_seconds)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m ratings.systems bench")
    parser.add_argument("--system", action="append", choices=sorted(SYSTEMS))
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--games", type=int, default=60000)
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs of rate()")
    args = parser.parse_args(list(argv))
    if args.tournaments < 1 or args.games < args.tournaments or args.players < 4:
        parser.error("need at least 1 tournament, 1 game per tournament and 4 players")

    codes = args.system or list(SYSTEMS)
    print(
        f"synthetic year: {args.tournaments} tournaments, {args.games} games, "
        f"{args.players} players (seed {args.seed}); games per CPU-second on one core"
    )
    print(f"{'system':8} {'games':>8} {'rate() games/s':>16} {'rate_json games/s':>18}")
    status = 0
    for code in codes:
        try:
            figures = bench_system(
                SYSTEMS[code], args.tournaments, args.games, args.players, args.seed
            )
        except BadInput as error:
            print(f"{code:8} failed on synthetic input: {error}")
            status = 1
            continue
        print(
            f"{figures.system:8} {figures.games:>8} {figures.rate_per_second:>16,.0f} "
            f"{figures.rate_json_per_second:>18,.0f}"
        )
    return status
