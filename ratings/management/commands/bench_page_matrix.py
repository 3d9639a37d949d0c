"""Time the public lists under every order, filter and depth (issue 18: "any page, any
filter"), and report the spread.

    python manage.py bench_page_matrix [--runs 3] [--cold] [--only WORD] [--over 50]

The largest rating list under each of its sorts (both ways) and filters (a country, a
club, a grade range, a name, everyone, everyone of a country) at page 1, 50, 200, the
middle and the last; the tournament list under each sort and filter at pages 1 to the
last; the API list at offsets from the top to the end; the largest club's page. Server
time through Django's test client, the median of `--runs` after one run that warms the
caches (`--cold`: every cache cleared before every run, as for the first visitor).
"""

from __future__ import annotations

import itertools
import statistics
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count
from django.test import Client
from django.urls import reverse

from clubsite.models import Club, Member
from ratings.models import RatingEntry, RatingList
from tournaments.models import Tournament

LIST_SORTS = ["name", "grade", "club", "country", "rating", "tournaments", "last_played"]
TOURNAMENT_SORTS = ["end_date", "name", "city", "organiser", "game", "tournament_class",
                    "players", "status"]  # fmt: skip
Variant = tuple[str, dict[str, Any]]


class Command(BaseCommand):
    help = "Time the public lists under every order, filter and depth (medians, ms)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--runs", type=int, default=3)
        parser.add_argument("--cold", action="store_true", help="clear every cache first")
        parser.add_argument("--only", default="", help="only URLs with this in their path")
        parser.add_argument("--over", type=float, default=50.0, help="list pages slower")

    def handle(self, *args: Any, **options: Any) -> None:
        host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
        client = Client(HTTP_HOST=host.lstrip("."))
        variants = [v for v in self._variants() if options["only"] in v[0]]
        timed = []
        for url, query in variants:
            times = []
            for index in range(max(1, options["runs"]) + 1):
                if options["cold"]:
                    cache.clear()
                start = time.perf_counter()
                response = client.get(url, query)
                elapsed = (time.perf_counter() - start) * 1000
                if response.status_code != 200:
                    raise CommandError(f"{url} {query}: HTTP {response.status_code}")
                if index:  # the first run warms caches (unless --cold)
                    times.append(elapsed)
            timed.append((statistics.median(times), url, query))
        for path in sorted({url for _ms, url, _q in timed}):
            medians = sorted(ms for ms, url, _q in timed if url == path)
            self.stdout.write(
                f"{path}: {len(medians)} variants, median {statistics.median(medians):.1f} ms, "
                f"90th percentile {medians[int(len(medians) * 0.9)]:.1f}, "
                f"slowest {medians[-1]:.1f}, over {options['over']:g} ms: "
                f"{sum(ms > options['over'] for ms in medians)}"
            )
        for ms, url, query in sorted(timed, key=lambda t: -t[0])[:10]:
            self.stdout.write(f"  {ms:.1f} ms {url} {query}")

    def _variants(self) -> list[Variant]:
        biggest = RatingList.objects.annotate(n=Count("entries")).order_by("-n").first()
        if biggest is None:
            raise CommandError("No rating list in this database.")
        entries = RatingEntry.objects.filter(rating_list=biggest, rating__isnull=False)
        members = Member.objects.filter(rating_entries__rating_list=biggest).exclude(country="")
        country = members.values_list("country", flat=True).first() or ""
        club = Club.objects.annotate(n=Count("members")).order_by("-n").first()
        last = max(1, entries.count() // 50)
        filters: list[dict[str, Any]] = [
            {}, {"country": country}, {"grade_min": "10k", "grade_max": "1d"}, {"q": "an"},
            {"active": "all"}, {"active": "all", "country": country},
        ]  # fmt: skip
        if club is not None:
            filters.append({"club": club.pk})
        sorts = ["", *LIST_SORTS, *(f"-{s}" for s in LIST_SORTS)]
        url = reverse("rating_list", args=[biggest.slug])
        variants: list[Variant] = [
            (url, {**f, "page": page, **({"sort": s} if s else {})})
            for s, f, page in itertools.product(sorts, filters, [1, 50, 200, last // 2, last])
        ]
        tournaments = max(1, Tournament.objects.count() // 50)
        url = reverse("tournament_list")
        for s, page, f in itertools.product(
            ["", *TOURNAMENT_SORTS, *(f"-{s}" for s in TOURNAMENT_SORTS)],
            [1, tournaments // 2, tournaments],
            [{}, {"q": "a"}, {"game": "go"}, {"status": "approved"}],
        ):
            variants.append((url, {**f, "page": page, **({"sort": s} if s else {})}))
        url = reverse("api_rating_list", args=[biggest.slug])
        total = entries.count()
        for active, offset in itertools.product(["", "all"], [0, 3000, total // 4, total // 2,
                                                               total - 3000]):  # fmt: skip
            variants.append((url, {"active": active, "offset": max(0, offset)}))
        if club is not None:
            url = reverse("club_detail", args=[club.slug])
            pages = max(1, club.n // 50)
            for s, page in itertools.product(["", "name", "-name", "grade"],
                                             [1, pages // 2, pages]):  # fmt: skip
                variants.append((url, {"page": page, **({"sort": s} if s else {})}))
        return variants
