"""A real Celery worker on the real Redis, with PostgreSQL (issue 6).

These tests start `celery -A clubsite.config worker` as a subprocess against the test
database and approve tables through `manage.py approve_tournament` subprocesses, so
every message really crosses the broker. Without PostgreSQL and Redis they skip
(under CI=true they fail).
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from ratings.models import ListTournament, RatingEntry, RatingHistory, RatingList, RecomputeRun
from ratings.recompute.services import rating_list_recompute
from sampledata.bench import bench_generate
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import members, submitted, tournament_with_games
from tournaments.models import Game, Tournament

ROOT = Path(__file__).resolve().parents[2]
REDIS_DB = 11
BROKER = f"redis://127.0.0.1:6379/{REDIS_DB}"
DEAD_BROKER = "redis://127.0.0.1:6399/0"

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(autouse=True)
def _services():
    missing = []
    if connection.vendor != "postgresql":
        missing.append("PostgreSQL (set DATABASE_URL=postgres://…)")
    if not _redis_up():
        missing.append("Redis at 127.0.0.1:6379")
    if missing:
        message = "needs " + " and ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    import redis

    redis.Redis.from_url(BROKER).flushdb()


def _env(broker: str = BROKER) -> dict[str, str]:
    db = settings.DATABASES["default"]
    env = dict(os.environ)
    env.update(
        DATABASE_URL=(
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        ),
        CELERY_BROKER_URL=broker,
        CELERY_VISIBILITY_TIMEOUT="4",
        RECOMPUTE_SWEEP_SECONDS="2",
        PYTHONPATH=str(ROOT),
    )
    return env


class Worker:
    def __init__(self, tmp_path: Path, name: str) -> None:
        self.log = tmp_path / f"{name}.log"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "clubsite.config",
                "worker",
                "-B",
                "--concurrency=1",
                "--loglevel=info",
                f"--hostname={name}@%h",
                f"--schedule={tmp_path / (name + '-beat')}",
                f"--logfile={self.log}",
            ],
            cwd=ROOT,
            env=_env(),
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.log.exists() and " ready." in self.log.read_text(errors="replace"):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        raise AssertionError(f"worker did not start:\n{self.log.read_text(errors='replace')}")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def worker_factory(tmp_path):
    workers: list[Worker] = []

    def start(name: str = "w1") -> Worker:
        worker = Worker(tmp_path, name)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def approve(tournament_id: int, broker: str = BROKER) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "approve_tournament", str(tournament_id)],
        cwd=ROOT,
        env=_env(broker),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_rated(rating_list: RatingList, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rating_list.refresh_from_db()
        if rating_list.pending_from is None and rating_list.state == RatingList.State.RATED:
            return
        time.sleep(0.2)
    runs = list(RecomputeRun.objects.values_list("outcome", "error"))
    raise AssertionError(f"list still {rating_list.state} from {rating_list.pending_from}; {runs}")


def snapshot(rating_list: RatingList):
    return sorted(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("member_id", "rating")
    )


def history(rating_list: RatingList):
    return sorted(
        RatingHistory.objects.filter(rating_list=rating_list).values_list(
            "member_id", "tournament_id", "before", "after"
        )
    )


def _three_tables(seed: int = 4):
    import random

    rng = random.Random(seed)
    club = ClubFactory()
    players = members(rng, club, 12)
    rating_list = RatingListFactory(system="egf", slug=f"worker-{seed}")
    tables = [
        tournament_with_games(rng, club=club, players=players, day=dt.date(2024, 1, 10 * (i + 1)))
        for i in range(3)
    ]
    for table in tables:
        submitted(table, rating_list)
    return rating_list, tables


def _sequential_reference(rating_list: RatingList, tables) -> list:
    reference = RatingListFactory(system=rating_list.system, slug=f"{rating_list.slug}-ref")
    for table in sorted(tables, key=lambda t: (t.end_date, t.pk)):
        ListTournament.objects.create(rating_list=reference, tournament=table)
        rating_list_recompute(
            rating_list_id=reference.pk, trigger="reference", from_date=table.end_date
        )
    return snapshot(reference)


def test_parallel_approvals_through_the_worker_end_in_the_sequential_result(worker_factory):
    rating_list, tables = _three_tables()
    worker_factory()
    processes = [approve(table.pk) for table in reversed(tables)]  # newest first, all at once
    for process in processes:
        output, _ = process.communicate(timeout=60)
        assert process.returncode == 0, output
    wait_rated(rating_list)
    assert Tournament.objects.filter(pk__in=[t.pk for t in tables], status="approved").count() == 3
    assert snapshot(rating_list) == _sequential_reference(rating_list, tables)
    assert RecomputeRun.objects.filter(rating_list=rating_list, outcome="success").exists()


def test_broker_down_keeps_the_approval_and_rates_it_when_back(worker_factory):
    rating_list, tables = _three_tables(seed=6)
    process = approve(tables[0].pk, broker=DEAD_BROKER)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    tables[0].refresh_from_db()
    rating_list.refresh_from_db()
    assert tables[0].status == Tournament.Status.APPROVED
    assert rating_list.state == RatingList.State.WAITING
    assert rating_list.pending_from == tables[0].end_date
    assert not RatingEntry.objects.filter(rating_list=rating_list).exists()

    worker_factory()  # the broker is back: the worker's start-up sweep queues the list
    wait_rated(rating_list)
    assert snapshot(rating_list) == _sequential_reference(rating_list, tables[:1])


def _big_list():
    data = bench_generate(
        slug="big", players=3000, tournaments=400, games=80000, end=dt.date(2024, 12, 31), years=4
    )
    rating_list_recompute(
        rating_list_id=data.rating_list.pk, trigger="setup", from_date=dt.date(1900, 1, 1)
    )
    return data


def test_worker_killed_mid_recompute_loses_nothing_and_the_retry_completes(worker_factory):
    data = _big_list()
    rating_list = data.rating_list
    old_history = history(rating_list)
    # A correction of the first table: the whole list must be recomputed.
    first = Tournament.objects.get(pk=data.tournament_ids[0])
    game = first.games.first()
    Game.objects.filter(pk=game.pk).update(result="black" if game.result == "white" else "white")
    Tournament.objects.filter(pk=first.pk).update(status=Tournament.Status.SUBMITTED)

    worker = worker_factory("victim")
    process = approve(first.pk)
    assert process.wait(60) == 0
    deadline = time.monotonic() + 60
    while not RecomputeRun.objects.filter(rating_list=rating_list, outcome="running").exists():
        assert time.monotonic() < deadline, "the recompute never started"
        time.sleep(0.05)
    time.sleep(0.5)
    worker.kill()

    rating_list.refresh_from_db()
    assert rating_list.pending_from is not None, "the request was lost"
    assert history(rating_list) == old_history, "a killed run changed the history"

    worker_factory("rescuer")
    wait_rated(rating_list, timeout=240)
    assert history(rating_list) != old_history
    after_retry = history(rating_list)
    rating_list_recompute(
        rating_list_id=rating_list.pk, trigger="check", from_date=dt.date(1900, 1, 1)
    )
    assert history(rating_list) == after_retry  # the retry gave the from-scratch result
    assert RecomputeRun.objects.filter(
        rating_list=rating_list, outcome="failed", error__contains="interrupted"
    ).exists()


def test_readers_see_old_or_new_ratings_never_a_mix():
    data = _big_list()
    rating_list = data.rating_list
    old = snapshot(rating_list)
    first = Tournament.objects.get(pk=data.tournament_ids[0])
    for game in first.games.all()[:5]:
        Game.objects.filter(pk=game.pk).update(
            result="black" if game.result == "white" else "white"
        )
    recompute = subprocess.Popen(
        [sys.executable, "manage.py", "recompute", "big", "--from", "1900-01-01"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen = []
    while recompute.poll() is None:
        seen.append(snapshot(rating_list))
    output = recompute.stdout.read()
    assert recompute.returncode == 0, output
    new = snapshot(rating_list)
    assert new != old
    assert len(seen) >= 2
    assert all(view in (old, new) for view in seen), "a reader saw a half-swapped list"
