"""manage.py bench_baseline [FILE] [--runs N] [--compare SLUG] [--pages-only]: the EGD's full
world list (45,171 players) imported as the baseline of a fresh `egf` list, timed step by
step (read, match, save, the recompute its commit runs), then the list's page timed as
`bench_pages` times the benchmark list, beside the page of the list `--compare` names
(`bench_recompute`'s generated list, `bench-egd`, by default) when this database has it.

The members the file names are matched first: on a database that has them (a second run)
every row is matched by PIN; on a fresh one all 45,171 are new. The line says which."""

from __future__ import annotations

import datetime as dt
import statistics
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from ratings.baselines.services import baseline_import, baseline_preview
from ratings.management.commands.import_ratings import read_list
from ratings.models import RatingEntry, RatingList
from ratings.services import rating_list_create
from tournaments.formats.rating_lists import parse_rating_list

FULL_LIST = Path("tests/data/egd/ratinglists/FULL_egf_db_2018-12-27.txt.gz")
SLUG = "bench-egd-baseline"
PAGES = (
    ("page 1", {}),
    ("everyone, page 1", {"active": "all"}),  # a 2018 list has few players active today
    ("country=DE by rating", {"country": "DE", "sort": "-rating"}),
)


class Command(BaseCommand):
    help = "Time importing the full EGD list as a baseline and its list page."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", nargs="?", default=str(FULL_LIST))
        parser.add_argument("--runs", type=int, default=20)
        parser.add_argument("--compare", default="bench-egd", help="a list's slug to time too")
        parser.add_argument(
            "--pages-only", action="store_true", help="time the pages of the list imported before"
        )

    def handle(self, *args: Any, file: str, runs: int, compare: str, **options: Any) -> None:
        write = self.stdout.write
        write(f"database: {connection.vendor}")
        if options["pages_only"]:
            if not RatingList.objects.filter(slug=SLUG).exists():
                raise CommandError(f"No list {SLUG} yet: run without --pages-only first.")
        else:
            self._import(file)
        slugs = [SLUG]
        if compare and compare != SLUG:
            if RatingList.objects.filter(slug=compare).exists():
                slugs.append(compare)
            else:
                write(f"no list {compare} in this database: nothing to compare with")
        self._pages(slugs, max(1, runs))

    def _import(self, file: str) -> None:
        RatingList.objects.filter(slug=SLUG).delete()
        rating_list = rating_list_create(slug=SLUG, system="egf", name="EGD baseline (bench)")
        started = time.perf_counter()
        listfile = parse_rating_list(read_list(file), "egd", Path(file).name)
        read_s = time.perf_counter() - started
        at = time.perf_counter()
        preview = baseline_preview(listfile=listfile)
        match_s = time.perf_counter() - at
        at = time.perf_counter()
        with transaction.atomic():
            baseline_import(
                listfile=listfile, rating_list=rating_list, date=dt.date(2018, 12, 27), by=None,
                preview=preview, new_for_ambiguous=True, filename=Path(file).name,
            )  # fmt: skip
            save_s = time.perf_counter() - at
            at = time.perf_counter()
        # Without a broker the recompute the import requests runs here, as the commit's hook.
        recompute_s = time.perf_counter() - at
        total = time.perf_counter() - started
        rating_list.refresh_from_db()
        entries = RatingEntry.objects.filter(rating_list=rating_list).count()
        self.stdout.write(
            f"baseline of {len(listfile.rows)} players ({len(preview.matched)} matched, "
            f"{len(preview.new)} new, {len(preview.ambiguous)} ambiguous): read {read_s:.1f} s, "
            f"match {match_s:.1f} s, save {save_s:.1f} s, commit and recompute "
            f"{recompute_s:.1f} s; total {total:.1f} s; {entries} entries, list "
            f"{rating_list.state}"
        )

    def _pages(self, slugs: list[str], runs: int) -> None:
        """Each page `runs` times (after one warm-up), the lists' pages taking turns."""
        host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
        client = Client(HTTP_HOST=host.lstrip("."))
        times: dict[tuple[str, str], list[float]] = {}
        for index in range(runs + 1):
            for label, query in PAGES:
                for slug in slugs:
                    url = reverse("rating_list", args=[slug])
                    at = time.perf_counter()
                    response = client.get(url, query)
                    elapsed = (time.perf_counter() - at) * 1000
                    if response.status_code != 200:
                        raise CommandError(f"{url} {query}: HTTP {response.status_code}")
                    if index:  # the first run warms caches
                        times.setdefault((label, slug), []).append(elapsed)
        for label, _query in PAGES:
            for slug in slugs:
                got = times[(label, slug)]
                count = RatingEntry.objects.filter(rating_list__slug=slug).count()
                self.stdout.write(
                    f"list '{slug}' ({count} entries) {label}: median "
                    f"{statistics.median(got):.1f} ms, min {min(got):.1f}, max {max(got):.1f} "
                    f"({runs} runs)"
                )
