"""Benchmark the recompute at EGD scale on the configured database (issue 6)."""

from __future__ import annotations

import datetime as dt
import random
import resource
import statistics
import time
import uuid

from django.core.management.base import BaseCommand
from django.db import connection, transaction

from ratings.models import ListTournament, RatingEntry, RatingHistory, RatingList
from ratings.recompute.services import rating_list_recompute
from ratings.submissions.services import tournament_approve_and_rate
from sampledata.bench import ROUNDS, bench_generate
from tournaments.models import Game, Participant, Tournament
from tournaments.services import seats_create

from .approve_tournament import system_referee


class Command(BaseCommand):
    help = "Generate a synthetic EGD-scale list and time full, today's and retroactive recomputes."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=45000)
        parser.add_argument("--tournaments", type=int, default=9000)
        parser.add_argument("--games", type=int, default=1_000_000)
        parser.add_argument("--repeat", type=int, default=3)
        parser.add_argument("--slug", default="bench-egd")
        parser.add_argument("--system", default="egf")
        parser.add_argument(
            "--rewrite-all",
            action="store_true",
            help="Also time one full recompute that must rewrite every history row (what "
            "a change of rules costs): the rows' fingerprints are cleared first.",
        )

    def handle(
        self, *args, players, tournaments, games, repeat, slug, system, rewrite_all, **options
    ):
        out = self.stdout.write
        rating_list = RatingList.objects.filter(slug=slug).first()
        generated = rating_list is None
        if generated:
            started = time.perf_counter()
            data = bench_generate(
                slug=slug, system=system, players=players, tournaments=tournaments, games=games
            )
            out(
                f"generated {len(data.member_ids)} players, {len(data.tournament_ids)} "
                f"tournaments, {data.games} games in {time.perf_counter() - started:.1f} s"
            )
            rating_list = data.rating_list
        else:
            out(f"reusing list {slug}")
        member_ids = list(
            Participant.objects.filter(tournament__list_links__rating_list=rating_list)
            .order_by()
            .values_list("member_id", flat=True)
            .distinct()[:5000]
        )

        full, engine = [], []
        peak_reset = peak_memory_reset()
        for _ in range(repeat):
            started = time.perf_counter()
            run = rating_list_recompute(
                rating_list_id=rating_list.pk, trigger="bench", from_date=dt.date(1900, 1, 1)
            )
            full.append(time.perf_counter() - started)
            engine.append(run.engine_ms / 1000)
            games_done = run.games
        out(peak_memory_line(peak_reset))
        out(
            f"full recompute: {games_done} games, median {statistics.median(full):.2f} s "
            f"({games_done / statistics.median(full):,.0f} games/s); engine alone "
            f"{statistics.median(engine):.2f} s ({games_done / statistics.median(engine):,.0f} games/s)"
        )
        if generated:
            out(
                "ratio: first full recompute after the data was generated / engine alone "
                + _ratio(full[0], engine[0])
            )
        if rewrite_all:
            self._rewrite_all(rating_list)

        put_in: list[Tournament] = []
        try:
            retro = self._time_approvals(rating_list, member_ids, repeat, put_in)
            out(_ratios(full, engine, retro))
        finally:
            self._take_out(rating_list, put_in)

    def _time_approvals(self, rating_list, member_ids, repeat, put_in):
        """Time today's and a retroactive table, approved one by one (`put_in` gets them).
        Returns the retroactive insert's timings."""
        today = dt.date.today()
        for label, day in (
            ("today's tournament", today),
            ("retroactive insert one year back", today - dt.timedelta(days=365)),
        ):
            timings = []
            for attempt in range(repeat):
                tournament = self._tournament(rating_list, member_ids, day, f"{label}-{attempt}")
                put_in.append(tournament)
                started = time.perf_counter()
                with transaction.atomic():
                    tournament_approve_and_rate(tournament=tournament, by=system_referee())
                self._wait(rating_list)
                timings.append(time.perf_counter() - started)
                visible = RatingEntry.objects.filter(
                    rating_list=rating_list, last_played__gte=day
                ).exists()
                assert visible, "the new ratings are not visible"
            self.stdout.write(
                f"{label}: approval to visible ratings, median {statistics.median(timings):.2f} s "
                f"(runs: {', '.join(f'{t:.2f}' for t in timings)})"
            )
        return timings

    def _take_out(self, rating_list, tournaments):
        """Leave the list as this run found it: the tables it put in are taken out of the
        list, which is recomputed from the earliest (their rows go, their players' entries
        are rebuilt), then deleted. Otherwise each run would leave six more tables, three of
        them a year back with the same players, and the next run's retroactive insert would
        reach further."""
        if not tournaments:
            return
        ids = [t.pk for t in tournaments]
        ListTournament.objects.filter(rating_list=rating_list, tournament_id__in=ids).delete()
        earliest = min(t.end_date for t in tournaments)
        rating_list_recompute(rating_list_id=rating_list.pk, trigger="bench", from_date=earliest)
        Tournament.objects.filter(pk__in=ids).delete()
        self.stdout.write(f"took out the {len(tournaments)} tables it put in")

    def _rewrite_all(self, rating_list):
        """A full recompute where no stored row matches (as after a change of rules): a
        cleared fingerprint never equals a computed one (ratings.recompute.history_write)."""
        rows = RatingHistory.objects.filter(rating_list=rating_list).update(fingerprint=None)
        ListTournament.objects.filter(rating_list=rating_list).update(history_digest=None)
        if connection.vendor == "postgresql" and not connection.in_atomic_block:
            # A change of rules meets a settled table: without this, the recompute would
            # also pay for the dead rows the clearing left (at EGD scale, a third more
            # time). VACUUM cannot run inside a transaction (the tests' own).
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE ratings_ratinghistory")
        started = time.perf_counter()
        run = rating_list_recompute(
            rating_list_id=rating_list.pk, trigger="bench", from_date=dt.date(1900, 1, 1)
        )
        took = time.perf_counter() - started
        self.stdout.write(
            f"full recompute, every row rewritten: {rows} rows, "
            f"{took:.2f} s; engine alone {run.engine_ms / 1000:.2f} s"
        )
        self.stdout.write(
            "ratio: change of rules (every row rewritten) / engine alone "
            + _ratio(took, run.engine_ms / 1000)
        )

    def _tournament(self, rating_list, member_ids, day, name):
        rng = random.Random(name)
        entrants = rng.sample(member_ids, k=60)
        with transaction.atomic():
            tournament = Tournament.objects.create(
                name=f"Bench {name}",
                slug=f"bench-{uuid.uuid4().hex[:12]}",
                start_date=day,
                end_date=day,
                organiser=rating_list.tournaments.first().organiser,
                rounds=ROUNDS,
                status=Tournament.Status.SUBMITTED,
            )
            ListTournament.objects.create(rating_list=rating_list, tournament=tournament)
            Participant.objects.bulk_create(
                Participant(tournament=tournament, member_id=m, grade="5k") for m in entrants
            )
            games = []
            for round_number in range(1, ROUNDS + 1):
                rng.shuffle(entrants)
                games += [
                    Game(
                        tournament=tournament,
                        round=round_number,
                        white_id=w,
                        black_id=b,
                        result=rng.choice(["white", "black"]),
                    )
                    for w, b in zip(entrants[::2], entrants[1::2], strict=True)
                ]
            seats_create(Game.objects.bulk_create(games))
        return tournament

    def _wait(self, rating_list, timeout=600):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not RatingList.objects.filter(
                pk=rating_list.pk, pending_from__isnull=False
            ).exists():
                return
            time.sleep(0.02)
        raise TimeoutError("recompute did not finish")


def peak_memory_reset() -> bool:
    """Start counting this process's peak resident memory afresh (Linux: writing 5 to
    /proc/self/clear_refs resets VmHWM). False where that is not possible: the peak then
    counts from the process's start (the data's generation included)."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return True


def peak_memory_line(reset: bool) -> str:
    """The peak resident memory of this process (the command runs the recomputes in it)."""
    try:
        with open("/proc/self/status") as status:
            kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
        source = "VmHWM"
    except (OSError, StopIteration, ValueError):
        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
        source, reset = "ru_maxrss", False
    since = "during the full recomputes" if reset else "since the command started"
    return (
        f"peak resident memory of this process {since}: {kib / 1024:.0f} MB "
        f"({source} of the bench_recompute process, which runs the recomputes)"
    )


def _ratio(took: float, engine: float) -> str:
    return f"{took / engine:.2f}" if engine else "-"


def _ratios(full: list[float], engine: list[float], retro: list[float]) -> str:
    """Issue 18's two ratios: each full recompute against its own engine time (the
    machine's speed drifts between runs, not within one), and the retroactive insert's
    median against the full recompute's."""
    per_run = ", ".join(_ratio(f, e) for f, e in zip(full, engine, strict=True))
    retro_share = statistics.median(full) / statistics.median(retro)
    return (
        f"ratios: full recompute / engine alone per run {per_run}; "
        f"retroactive insert = 1/{retro_share:.1f} of a full recompute"
    )
