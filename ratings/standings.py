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

from ratings.models import RatingEntry, RatingList
from ratings.selectors import active_q, list_version_key

EVERYONE = ""  # the whole list, among the countries
# The keys change with the list's entries and the day: kept until then.
KEEP_SECONDS = 24 * 3600


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
    """The highest rating he held in the 12 months up to `today`: the one he started the
    period with, and each one a tournament in it left him with. `rows` are his history
    rows in this list (with `date`, `rating_in`, `after`) in any order."""
    since = year_before(today)
    ordered = sorted(rows, key=lambda row: row.date)
    before = [row.after for row in ordered if row.date < since and row.after is not None]
    within = [row for row in ordered if since <= row.date <= today]
    if before:
        held = [before[-1]]
    elif within:
        held = [within[0].rating_in] if within[0].rating_in is not None else []
    else:
        held = [current] if current is not None else []
    held += [row.after for row in within if row.after is not None]
    return max(held) if held else None


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
