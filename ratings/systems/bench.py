"""Throughput benchmark: rate a synthetic EGD-sized year in memory, in two shapes.

    python -m ratings.systems bench [--system egf] [--shape realistic] [--games 60000]
                                    [--players 10000] [--tournaments 1000] [--seed 1]
                                    [--repeat 3] [--baseline PACKAGE]

For each system, a year of tournaments is generated (valid for that system:
grades for the Go systems, birth dates for everyone) in two shapes:

- `random`: `--tournaments` small events (12-40 entrants), random pairings and
  results, a tenth of the Go games handicapped;
- `realistic`: what real tournaments look like, 40-200 players, 5-7 rounds,
  everyone in every round, each round paired Swiss/McMahon-like (by points,
  then strength, no rematch) and won mostly by the stronger player, so that
  anomaly rules fire about as rarely as in real life; events are added until
  the year has at least `--games` games.

The year is rated once in date order, each tournament starting from the ratings
(and `history`) the previous ones produced; that chain is then timed `--repeat`
times, in games per CPU-second of this process (so that other load on the
machine disturbs the figures less than wall-clock time would):

- `rate()`: the system's `rate` alone on the prebuilt `EventInput`s;
- `rate_json`: the whole boundary, JSON dict in -> validation -> rate -> JSON
  dict out, on the same events.

Each figure is the median of the runs; the last column gives their spreads
((max - min) / median).

`--baseline PACKAGE` times another copy of the engine on the same documents in
the same runs (alternated with this one, so machine noise hits both alike) and
prints its figures and the ratio new/old under each system. The copy must have
this one's outer face (`rate_json`, `io.parse_event`, `registry.SYSTEMS`); an
older commit's engine, for example, exported and renamed:

    git archive COMMIT ratings/systems | tar -x -C /tmp/old
    mv /tmp/old/ratings /tmp/old/oldratings && touch /tmp/old/oldratings/__init__.py
    sed -i 's/ratings[.]systems/oldratings.systems/g' /tmp/old/oldratings/systems/*.py
    PYTHONPATH=/tmp/old python -m ratings.systems bench --baseline oldratings.systems
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import importlib
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ratings.systems import rate_json
from ratings.systems.egf import rating_to_grade
from ratings.systems.io import parse_event
from ratings.systems.model import JSON, BadInput, RatingSystem, Result
from ratings.systems.registry import SYSTEMS

YEAR_START = dt.date(2017, 1, 1)
NEWCOMER_SHARE = 0.05
HANDICAP_SHARE = 0.1  # random shape, Go systems

# The realistic shape.
REALISTIC_PLAYERS = (40, 200)
REALISTIC_ROUNDS = (5, 7)
DRAW_SHARE = 0.05
RESULT_SCALE = 150.0  # strength points for which the stronger wins e:1 (logistic)

# (white, black, result, handicap), as player indexes of the pool.
Pairing = tuple[int, int, Result, int]
Tournament = list[list[Pairing]]  # its rounds, in order


@dataclass
class PlayerState:
    id: str
    strength: float
    rating: float | None
    grade: str
    birth_date: str
    history: JSON = None


@dataclass(frozen=True)
class Throughput:
    """Games per CPU-second: the median of the runs and their spread (max - min) / median."""

    median: float
    spread: float

    @classmethod
    def of(cls, games: int, seconds: Sequence[float]) -> Throughput:
        rates = [games / max(s, 1e-9) for s in seconds]
        median = statistics.median(rates)
        return cls(median, (max(rates) - min(rates)) / median)


@dataclass(frozen=True)
class Figures:
    system: str
    shape: str
    games: int
    rate: Throughput
    rate_json: Throughput


def _players(count: int, rng: random.Random) -> list[PlayerState]:
    players = []
    for index in range(count):
        strength = min(2700.0, max(100.0, rng.gauss(1700, 450)))
        grade = str(rating_to_grade(strength, professional=False))
        rating = None if rng.random() < NEWCOMER_SHARE else round(strength + rng.gauss(0, 60), 3)
        birth = dt.date(rng.randint(1950, 2012), rng.randint(1, 12), rng.randint(1, 28))
        players.append(PlayerState(f"p{index}", strength, rating, grade, birth.isoformat()))
    return players


# --- The two shapes ----------------------------------------------------------------------


def random_year(
    system: RatingSystem, tournaments: int, games: int, pool: list[PlayerState], rng: random.Random
) -> list[Tournament]:
    """`tournaments` events of 12-40 entrants, `games` games in all, random everything."""
    go = system.needs_grade
    players = len(pool)
    year = []
    for number in range(tournaments):
        target = games // tournaments + (1 if number < games % tournaments else 0)
        size = min(players - players % 2, max(4, 2 * rng.randint(6, 20)))
        entrants = rng.sample(range(players), size)
        rounds: Tournament = []
        left = target
        while left > 0:
            rng.shuffle(entrants)
            pairs = list(zip(entrants[::2], entrants[1::2], strict=True))[:left]
            rounds.append([(white, black, *_random_outcome(go, rng)) for white, black in pairs])
            left -= len(pairs)
        year.append(rounds)
    return year


def _random_outcome(go: bool, rng: random.Random) -> tuple[Result, int]:
    handicap = rng.randint(1, 5) if go and rng.random() < HANDICAP_SHARE else 0
    result: Result = rng.choice(("white", "black", "white", "black", "draw"))
    return result, handicap


def realistic_year(games: int, pool: list[PlayerState], rng: random.Random) -> list[Tournament]:
    """Swiss/McMahon-like events of 40-200 players and 5-7 rounds until `games` games."""
    year: list[Tournament] = []
    total = 0
    largest = len(pool) - len(pool) % 2
    while total < games:
        size = min(largest, 2 * (rng.randint(*REALISTIC_PLAYERS) // 2))
        entrants = rng.sample(range(len(pool)), size)
        rounds = _swiss(entrants, rng.randint(*REALISTIC_ROUNDS), pool, rng)
        year.append(rounds)
        total += sum(len(pairs) for pairs in rounds)
    return year


def _swiss(
    entrants: list[int], rounds: int, pool: list[PlayerState], rng: random.Random
) -> Tournament:
    """Each round pairs neighbours in (points, strength) order, never a rematch."""
    points = dict.fromkeys(entrants, 0.0)
    met: set[tuple[int, int]] = set()
    tournament: Tournament = []
    for _ in range(rounds):
        order = sorted(entrants, key=lambda p: (-points[p], -pool[p].strength))
        pairs: list[Pairing] = []
        for first, second in _neighbours(order, met):
            met.update(((first, second), (second, first)))
            white, black = (first, second) if rng.random() < 0.5 else (second, first)
            result = _likely_result(pool[white].strength - pool[black].strength, rng)
            points[white] += 1.0 if result == "white" else 0.5 if result == "draw" else 0.0
            points[black] += 1.0 if result == "black" else 0.5 if result == "draw" else 0.0
            pairs.append((white, black, result, 0))
        tournament.append(pairs)
    return tournament


def _neighbours(order: list[int], met: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pair the first waiting player with the nearest one he has not met, backtracking
    when the rest cannot be paired (a few rounds among 40+ players always can)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for position, second in enumerate(rest):
        if (first, second) not in met:
            tail = _neighbours(rest[:position] + rest[position + 1 :], met)
            if len(tail) * 2 == len(rest) - 1:
                return [(first, second), *tail]
    return []


def _likely_result(white_advantage: float, rng: random.Random) -> Result:
    if rng.random() < DRAW_SHARE:
        return "draw"
    white_wins = 1 / (1 + math.exp(-white_advantage / RESULT_SCALE))
    return "white" if rng.random() < white_wins else "black"


# --- Rating and timing -------------------------------------------------------------------


def _event_json(
    system: RatingSystem, number: int, count: int, rounds: Tournament, state: list[PlayerState]
) -> dict[str, JSON]:
    entrants = sorted({index for pairs in rounds for game in pairs for index in game[:2]})
    games: list[JSON] = [
        {
            "round": round_number,
            "white": state[white].id,
            "black": state[black].id,
            "result": result,
            "handicap": handicap,
        }
        for round_number, pairs in enumerate(rounds, start=1)
        for white, black, result, handicap in pairs
    ]
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
    date = YEAR_START + dt.timedelta(days=number * 365 // count)
    return {
        "system": system.code,
        "event": {"id": f"t{number}", "date": date.isoformat(), "class": "A"},
        "players": players,
        "games": games,
    }


def _chain(
    system: RatingSystem, year: list[Tournament], state: list[PlayerState]
) -> list[dict[str, JSON]]:
    """The year's input documents, each built from the ratings the previous ones produced."""
    index_of = {player.id: index for index, player in enumerate(state)}
    documents = []
    for number, rounds in enumerate(year):
        document = _event_json(system, number, len(year), rounds, state)
        documents.append(document)
        for output in rate_json(document)["players"]:  # type: ignore[union-attr]
            assert isinstance(output, dict)
            player = state[index_of[str(output["id"])]]
            after = output["after"]
            player.rating = after if isinstance(after, int | float) else None
            player.history = output["history"]
    return documents


def _cpu_seconds(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


@dataclass(frozen=True)
class Engine:
    """A copy of the engine's outer face, to time: this one, or a `--baseline` package."""

    rate_json: Callable[[dict[str, JSON]], object]
    parse_event: Callable[[object, Any], tuple[Any, Any]]
    systems: Mapping[str, Any]

    @classmethod
    def load(cls, package: str) -> Engine:
        return cls(
            importlib.import_module(package).rate_json,
            importlib.import_module(f"{package}.io").parse_event,
            importlib.import_module(f"{package}.registry").SYSTEMS,
        )


THIS_ENGINE = Engine(rate_json, parse_event, SYSTEMS)


def bench_system(
    system: RatingSystem,
    shape: str,
    tournaments: int,
    games: int,
    players: int,
    seed: int,
    repeat: int = 3,
    baseline: Engine | None = None,
) -> list[Figures]:
    """Figures of this engine, then of `baseline` if given, timed in the same runs."""
    rng = random.Random(seed)
    state = _players(players, rng)
    if shape == "random":
        year = random_year(system, tournaments, games, state, rng)
    else:
        year = realistic_year(games, state, rng)
    documents = _chain(system, year, state)
    count = sum(len(pairs) for rounds in year for pairs in rounds)
    engines = [THIS_ENGINE] if baseline is None else [THIS_ENGINE, baseline]
    work: list[tuple[Callable[[], None], Callable[[], None]]] = [
        _timed_work(engine, system.code, documents) for engine in engines
    ]

    gc.collect()
    gc.freeze()  # the year's inputs stay alive: keep the collector from rescanning them
    seconds: list[tuple[list[float], list[float]]] = [([], []) for _ in engines]
    for _ in range(repeat):  # alternated, so that a noisy moment hits all alike
        for (rate_all, rate_json_all), (rate_seconds, json_seconds) in zip(
            work, seconds, strict=True
        ):
            rate_seconds.append(_cpu_seconds(rate_all))
            json_seconds.append(_cpu_seconds(rate_json_all))
    gc.unfreeze()
    return [
        Figures(
            system.code,
            shape,
            count,
            Throughput.of(count, rate_seconds),
            Throughput.of(count, json_seconds),
        )
        for rate_seconds, json_seconds in seconds
    ]


def _timed_work(
    engine: Engine, code: str, documents: list[dict[str, JSON]]
) -> tuple[Callable[[], None], Callable[[], None]]:
    """(rate() on the engine's own prebuilt inputs, rate_json on the documents)."""
    rate = engine.systems[code].rate
    inputs = [engine.parse_event(document, engine.systems)[1] for document in documents]
    rate_json_ = engine.rate_json

    def rate_all() -> None:
        for event in inputs:
            rate(event)

    def rate_json_all() -> None:
        for document in documents:
            rate_json_(document)

    return rate_all, rate_json_all


SHAPES = ("random", "realistic")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m ratings.systems bench")
    parser.add_argument("--system", action="append", choices=sorted(SYSTEMS))
    parser.add_argument("--shape", action="append", choices=SHAPES, help="default: both")
    parser.add_argument("--tournaments", type=int, default=1000, help="events of the random shape")
    parser.add_argument("--games", type=int, default=60000, help="games per shape (at least)")
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (median, spread)")
    parser.add_argument("--baseline", metavar="PACKAGE", help="another engine copy to compare")
    args = parser.parse_args(list(argv))
    if args.tournaments < 1 or args.games < args.tournaments or args.players < 4:
        parser.error("need at least 1 tournament, 1 game per tournament and 4 players")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    try:
        baseline = None if args.baseline is None else Engine.load(args.baseline)
    except (ImportError, AttributeError) as error:
        parser.error(f"--baseline {args.baseline}: {error}")

    codes = args.system or list(SYSTEMS)
    shapes = [shape for shape in SHAPES if shape in (args.shape or SHAPES)]
    print(
        f"synthetic year (seed {args.seed}, {args.players} players), games per CPU-second "
        f"on one core, median of {args.repeat} runs; random: {args.tournaments} "
        f"tournaments of 12-40; realistic: 40-200 players, 5-7 rounds, Swiss pairings"
    )
    print(
        f"{'system':8} {'random':>8} {'rate()':>10} {'rate_json':>10}"
        f"   {'realistic':>9} {'rate()':>10} {'rate_json':>10}   spread of the runs"
    )
    status = 0
    for code in codes:
        try:
            by_shape = {
                shape: bench_system(
                    SYSTEMS[code],
                    shape,
                    args.tournaments,
                    args.games,
                    args.players,
                    args.seed,
                    args.repeat,
                    baseline,
                )
                for shape in shapes
            }
        except BadInput as error:
            print(f"{code:8} failed on synthetic input: {error}")
            status = 1
            continue
        print(_row(code, [by_shape.get(shape, [None])[0] for shape in SHAPES]))
        if baseline is not None:
            print(_row("  old", [by_shape.get(shape, [None, None])[1] for shape in SHAPES]))
            print(_ratio_row("  ratio", [by_shape.get(shape) for shape in SHAPES]))
    return status


def _row(label: str, figures: list[Figures | None]) -> str:
    cells, spreads = [], []
    for shape_figures, width in zip(figures, (8, 9), strict=True):
        if shape_figures is None:
            cells.append(f"{'-':>{width}} {'-':>10} {'-':>10}")
            continue
        rate, rate_json_ = shape_figures.rate, shape_figures.rate_json
        cells.append(
            f"{shape_figures.games:>{width}} {rate.median:>10,.0f} {rate_json_.median:>10,.0f}"
        )
        spreads += [f"±{rate.spread:.0%}", f"±{rate_json_.spread:.0%}"]
    return f"{label:8} " + "   ".join(cells) + "   " + " ".join(spreads)


def _ratio_row(label: str, figures: list[list[Figures] | None]) -> str:
    cells = []
    for pair, width in zip(figures, (8, 9), strict=True):
        if pair is None:
            cells.append(f"{'-':>{width}} {'-':>10} {'-':>10}")
            continue
        new, old = pair
        rate = new.rate.median / old.rate.median
        rate_json_ = new.rate_json.median / old.rate_json.median
        cells.append(f"{'':>{width}} {rate:>9.2f}x {rate_json_:>9.2f}x")
    return f"{label:8} " + "   ".join(cells)
