"""manage.py bench_baseline [FILE] [--runs N]: the EGD's full world list (45,171 players)
imported as the baseline of a fresh `egf` list, timed step by step (read, match, save,
recompute), then the list's page timed as `bench_pages` times the benchmark list."""

from __future__ import annotations

import datetime as dt
import statistics
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from ratings.baselines.services import baseline_import, baseline_preview
from ratings.management.commands.import_ratings import read_list
from ratings.models import RatingEntry, RatingList
from ratings.recompute.services import rating_list_recompute
from ratings.services import rating_list_create
from tournaments.formats.rating_lists import parse_rating_list

FULL_LIST = Path("tests/data/egd/ratinglists/FULL_egf_db_2018-12-27.txt.gz")
SLUG = "bench-egd-baseline"


class Command(BaseCommand):
    help = "Time importing the full EGD list as a baseline and its list page."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", nargs="?", default=str(FULL_LIST))
        parser.add_argument("--runs", type=int, default=20)

    def handle(self, *args: Any, file: str, runs: int, **options: Any) -> None:
        RatingList.objects.filter(slug=SLUG).delete()
        rating_list = rating_list_create(slug=SLUG, system="egf", name="EGD baseline (bench)")
        write = self.stdout.write
        write(f"database: {connection.vendor}")
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
        rating_list_recompute(rating_list_id=rating_list.pk, trigger="bench")
        recompute_s = time.perf_counter() - at
        total = time.perf_counter() - started
        entries = RatingEntry.objects.filter(rating_list=rating_list).count()
        write(
            f"baseline of {len(listfile.rows)} players ({len(preview.matched)} matched, "
            f"{len(preview.new)} new, {len(preview.ambiguous)} ambiguous): read {read_s:.1f} s, "
            f"match {match_s:.1f} s, save {save_s:.1f} s, recompute {recompute_s:.1f} s; "
            f"total {total:.1f} s; {entries} entries"
        )
        host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
        client = Client(HTTP_HOST=host.lstrip("."))
        url = reverse("rating_list", args=[SLUG])
        for label, query in (
            ("page 1", {}),
            ("country=DE by rating", {"country": "DE", "sort": "-rating"}),
        ):
            times = []
            for _ in range(runs):
                at = time.perf_counter()
                response = client.get(url, query)
                times.append((time.perf_counter() - at) * 1000)
                assert response.status_code == 200, response.status_code
            write(
                f"list page {label}: median {statistics.median(times):.1f} ms, "
                f"min {min(times):.1f}, max {max(times):.1f} ({runs} runs)"
            )
