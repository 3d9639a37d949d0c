"""Time the two heavy public pages on the current database and report medians.

    python manage.py bench_pages [--runs 20]

1. the largest rating list's first page, sorted by rating, filtered by its most common country;
2. the profile of the player with the most rated tournaments.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.models import Member
from ratings.models import RatingEntry, RatingHistory, RatingList


class Command(BaseCommand):
    help = "Time the rating list's first page and the busiest player's profile (medians, ms)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--runs", type=int, default=20)

    def handle(self, *args: Any, **options: Any) -> None:
        runs = max(1, options["runs"])
        biggest = RatingList.objects.annotate(n=Count("entries")).order_by("-n").first()
        if biggest is None:
            raise CommandError("No rating list in this database.")
        country = (
            Member.objects.filter(rating_entries__rating_list=biggest)
            .exclude(country="")
            .values("country")
            .annotate(n=Count("id"))
            .order_by("-n")
            .values_list("country", flat=True)
            .first()
        )
        busiest = (
            RatingHistory.objects.values("member_id").annotate(n=Count("id")).order_by("-n").first()
        )
        pages = [
            (
                f"rating list '{biggest.slug}' ({biggest.n} entries), page 1 by rating, "
                f"country={country}",
                reverse("rating_list", args=[biggest.slug]),
                {"country": country or "", "sort": "-rating"},
            )
        ]
        if busiest:
            pages.append(
                (
                    f"player {busiest['member_id']} ({busiest['n']} rated tournaments)",
                    reverse("player_detail", args=[busiest["member_id"]]),
                    {},
                )
            )
        host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
        client = Client(HTTP_HOST=host.lstrip("."))
        self.stdout.write(f"database: {connection.vendor}; {RatingEntry.objects.count()} entries")
        for label, url, query in pages:
            times, queries = [], 0
            for index in range(runs + 1):
                # CaptureQueriesContext, not DEBUG=True: changing DEBUG resets the template
                # engines, and every run would parse its templates again.
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    response = client.get(url, query)
                    elapsed = (time.perf_counter() - start) * 1000
                queries = len(captured.captured_queries)
                if response.status_code != 200:
                    raise CommandError(f"{url}: HTTP {response.status_code}")
                if index:  # the first run warms caches
                    times.append(elapsed)
            self.stdout.write(
                f"{label}: median {statistics.median(times):.1f} ms, "
                f"min {min(times):.1f}, max {max(times):.1f}, {queries} queries ({runs} runs)"
            )
