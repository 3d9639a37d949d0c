"""Where a player stands in each of his lists (issue 56): his rank among the players the
live list shows (everyone, and those of his country) and R_max, the highest rating he held
in the last 12 months (the EGD's optional column).

A rank is 1 + the number of players rated higher (players with one rating share a rank),
counted among the list's active rated players, as its public page shows them; a player out
for inactivity or unrated has none. The list's ratings by country are read once per list
version and day (one query over the list) and kept in the cache, so a profile costs no
query over the list.
"""

from __future__ import annotations

import bisect
import datetime as dt
from array import array
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Max

from ratings.models import RatingEntry, RatingHistory, RatingList
from ratings.selectors import active_q, list_version_key

EVERYONE = ""  # the whole list, among the countries
# The keys change with the list's entries and the day: kept until then.
KEEP_SECONDS = 24 * 3600
CHUNK = 5000  # members per query (SQLite's limit of a statement's parameters)


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None: not in the live list (unrated, or out for inactivity)
    players: int
    country: str
    country_rank: int | None
    country_players: int
    r_max: float | None  # None: no rating in the last 12 months


def list_ratings(rating_list: RatingList, today: dt.date, countries: list[str]) -> list[array]:
    """The active ratings, lowest first, of each of `countries` ("" for everyone). Each
    country is kept under its own key, so a profile reads the two it shows (the whole list
    at EGD scale is 360 kB), all built by one query when the list changes."""
    keys = [list_version_key(rating_list, "ratings-of-country", today, c) for c in countries]
    found = cache.get_many(keys)
    if len(found) < len(keys):
        by_country: dict[str, list[float]] = defaultdict(list)
        rows = (
            RatingEntry.objects.filter(active_q(today), rating_list=rating_list)
            .filter(rating__isnull=False)
            .order_by()
            .values_list("rating", "member__country")
        )
        for rating, country in rows.iterator(chunk_size=5000):
            by_country[EVERYONE].append(rating)
            if country:
                by_country[country].append(rating)
        every = {
            list_version_key(rating_list, "ratings-of-country", today, country): array(
                "d", sorted(ratings)
            )
            for country, ratings in by_country.items()
        }
        cache.set_many(every, KEEP_SECONDS)
        found = {key: every.get(key, array("d")) for key in keys}
    return [found[key] for key in keys]


def rank_among(ratings: array, rating: float) -> int:
    """1 + how many of `ratings` (lowest first) are higher than `rating`."""
    return 1 + len(ratings) - bisect.bisect_right(ratings, rating)


def year_before(today: dt.date) -> dt.date:
    try:
        return today.replace(year=today.year - 1)
    except ValueError:  # 29 February
        return today.replace(year=today.year - 1, day=28)


def r_max(rows: list[Any], current: float | None, today: dt.date) -> float | None:
    """The highest rating he held in the 12 months up to `today`: the one he holds now, and
    each one he came into or left a tournament of the period with. `rows` are his history
    rows in this list (with `date`, `rating_in`, `after`), in any order."""
    since = year_before(today)
    held = [current] + [
        value for row in rows if since <= row.date <= today for value in (row.rating_in, row.after)
    ]
    known = [value for value in held if value is not None]
    return max(known) if known else None


def r_max_of(
    rating_list: RatingList, current: dict[int, float | None], today: dt.date
) -> dict[int, float | None]:
    """`r_max` of many members (member id -> his current rating), a query per 5,000."""
    since = year_before(today)
    highest: dict[int, float] = {}
    ids = sorted(current)
    for at in range(0, len(ids), CHUNK):
        rows = (
            RatingHistory.objects.filter(
                rating_list=rating_list, member_id__in=ids[at : at + CHUNK],
                date__gte=since, date__lte=today,
            )
            .order_by()
            .values("member_id")
            .annotate(came_in=Max("rating_in"), left=Max("after"))
        )  # fmt: skip
        for row in rows:
            values = [v for v in (row["came_in"], row["left"]) if v is not None]
            if values:
                highest[row["member_id"]] = max(values)
    found: dict[int, float | None] = {}
    for member_id, rating in current.items():
        known = [v for v in (rating, highest.get(member_id)) if v is not None]
        found[member_id] = max(known) if known else None
    return found


def standing(
    rating_list: RatingList,
    entry: RatingEntry | None,
    country: str,
    rows: list[Any],
    today: dt.date,
) -> Standing:
    everyone, mine = list_ratings(rating_list, today, [EVERYONE, country])
    shown = (
        entry is not None
        and entry.rating is not None
        and (entry.active_until is None or entry.active_until >= today)
    )
    rating = entry.rating if entry is not None else None
    return Standing(
        rank=rank_among(everyone, rating) if shown and rating is not None else None,
        players=len(everyone),
        country=country,
        country_rank=rank_among(mine, rating) if shown and rating is not None and country else None,
        country_players=len(mine),
        r_max=r_max(rows, rating, today),
    )
