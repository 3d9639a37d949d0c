"""Time every public page on the current database and report medians (issue 18).

    python manage.py bench_pages [--runs 20] [--only WORD]

The pages a visitor reaches: home, the rating lists, the largest list (page 1, a deep page,
each filter, sorted by name), the profiles of the busiest player and of an ordinary one, the
tournaments list (page 1, a deep page, a filter), a tournament, a club, the calculator and
the JSON API. Server time through Django's test client, the first run of each discarded.
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

from clubsite.models import Club, Member
from ratings.models import RatingEntry, RatingHistory, RatingList
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Time every public page (medians, ms) on the configured database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--runs", type=int, default=20)
        parser.add_argument("--only", default="", help="time only pages whose label has this")

    def handle(self, *args: Any, **options: Any) -> None:
        runs = max(1, options["runs"])
        pages = [p for p in self._pages() if options["only"] in p[0]]
        host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
        client = Client(HTTP_HOST=host.lstrip("."))
        self.stdout.write(f"database: {connection.vendor}; {RatingEntry.objects.count()} entries")
        medians = []
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
                    raise CommandError(f"{url} {query}: HTTP {response.status_code}")
                if index:  # the first run warms caches
                    times.append(elapsed)
            medians.append(statistics.median(times))
            self.stdout.write(
                f"{label}: median {statistics.median(times):.1f} ms, "
                f"min {min(times):.1f}, max {max(times):.1f}, {queries} queries ({runs} runs)"
            )
        if medians:
            self.stdout.write(
                f"all {len(medians)} pages: slowest median {max(medians):.1f} ms, "
                f"median of medians {statistics.median(medians):.1f} ms"
            )

    def _pages(self) -> list[tuple[str, str, dict[str, Any]]]:
        biggest = RatingList.objects.annotate(n=Count("entries")).order_by("-n").first()
        if biggest is None:
            raise CommandError("No rating list in this database.")
        entries = RatingEntry.objects.filter(rating_list=biggest)
        country = (
            Member.objects.filter(rating_entries__rating_list=biggest)
            .exclude(country="")
            .values("country")
            .annotate(n=Count("id"))
            .order_by("-n")
            .values_list("country", flat=True)
            .first()
        )
        club = Club.objects.annotate(n=Count("members")).order_by("-n").first()
        busiest = (
            RatingHistory.objects.values("member_id").annotate(n=Count("id")).order_by("-n").first()
        )
        ordinary = entries.order_by("-rating").values_list("member_id", flat=True)[100:101]
        ordinary_id = ordinary[0] if ordinary else None
        tournament = (
            Tournament.objects.filter(status=Tournament.Status.APPROVED)
            .order_by("-end_date", "-id")
            .first()
        )
        last_page = max(1, entries.filter(rating__isnull=False).count() // 50 // 2)
        # About the last page of the active players: half the rated ones are, at EGD scale.
        country_page = max(
            1, entries.filter(rating__isnull=False, member__country=country).count() // 50 // 2
        )
        slug = biggest.slug
        some_name = Member.objects.filter(pk=ordinary_id).values_list("family_name", flat=True)
        name_word = (some_name[0] if some_name else "a")[:6]
        full_name = some_name[0] if some_name else "a"
        pin = Member.objects.exclude(egd_pin="").values_list("egd_pin", flat=True).first()
        pages: list[tuple[str, str, dict[str, Any]]] = [
            ("home", reverse("home"), {}),
            ("rating lists", reverse("rating_lists"), {}),
            (f"list '{slug}' page 1", reverse("rating_list", args=[slug]), {}),
            (
                f"list '{slug}' page 1 by rating, country={country}",
                reverse("rating_list", args=[slug]),
                {"country": country or "", "sort": "-rating"},
            ),
            (
                f"list '{slug}' page {last_page}",
                reverse("rating_list", args=[slug]),
                {"page": last_page},
            ),
            (
                f"list '{slug}' by name, page 3",
                reverse("rating_list", args=[slug]),
                {"sort": "name", "page": 3},
            ),
            (
                f"list '{slug}' everyone, grades 5k-1d",
                reverse("rating_list", args=[slug]),
                {"active": "all", "grade_min": "5k", "grade_max": "1d"},
            ),
            (f"list '{slug}' name search", reverse("rating_list", args=[slug]), {"q": name_word}),
            # Deep pages under each order and filter: a page read from the wrong end of
            # its index costs what all the pages before it do.
            (
                f"list '{slug}' lowest rating first, page {last_page // 2}",
                reverse("rating_list", args=[slug]),
                {"sort": "rating", "page": last_page // 2},
            ),
            (
                f"list '{slug}' by name, page {last_page}",
                reverse("rating_list", args=[slug]),
                {"sort": "name", "page": last_page},
            ),
            (
                f"list '{slug}' everyone, page {last_page * 2}",
                reverse("rating_list", args=[slug]),
                {"active": "all", "page": last_page * 2},
            ),
            (
                f"list '{slug}' country={country}, page {country_page}",
                reverse("rating_list", args=[slug]),
                {"country": country or "", "page": country_page},
            ),
            ("tournaments page 1", reverse("tournament_list"), {}),
            ("tournaments page 100", reverse("tournament_list"), {"page": 100}),
            ("tournaments by players", reverse("tournament_list"), {"sort": "-players"}),
            ("tournaments search", reverse("tournament_list"), {"q": "Bench 1"}),
            ("calculator", reverse("calculator"), {}),
            # The site search (issue 56): a whole family name, the start of one, a PIN.
            ("search by name", reverse("site_search"), {"q": full_name}),
            ("search by a name's start", reverse("site_search"), {"q": full_name[:3]}),
            ("search by EGD PIN", reverse("site_search"), {"q": pin or "10000001"}),
            ("api index", reverse("api_index"), {}),
            ("api lists", reverse("api_rating_lists"), {}),
            ("api list (1000 players)", reverse("api_rating_list", args=[slug]), {}),
        ]
        if club is not None:
            pages += [
                (
                    f"club '{club.slug}' ({club.n} members)",
                    reverse("club_detail", args=[club.slug]),
                    {},
                )
            ]
            pages.append(
                (
                    f"list '{slug}' club filter",
                    reverse("rating_list", args=[slug]),
                    {"club": club.pk},
                )
            )
        if tournament is not None:
            pages += [
                (f"tournament {tournament.pk}", reverse("tournament_detail", args=[tournament.pk]), {}),
                (f"api tournament {tournament.pk}", reverse("api_tournament", args=[tournament.pk]), {}),
            ]  # fmt: skip
        if busiest:
            member_id = busiest["member_id"]
            pages += [
                (
                    f"player {member_id} ({busiest['n']} rated tournaments)",
                    reverse("player_detail", args=[member_id]),
                    {},
                ),
                (f"api player {member_id}", reverse("api_player", args=[member_id]), {}),
            ]
        if ordinary_id:
            pages += [
                (f"player {ordinary_id} (ordinary)", reverse("player_detail", args=[ordinary_id]), {}),
            ]  # fmt: skip
            if busiest:
                pages.append(
                    (
                        "calculator, two players",
                        reverse("calculator"),
                        {"game": "go", "a": busiest["member_id"], "b": ordinary_id},
                    )
                )
        return pages
