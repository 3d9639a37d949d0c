"""How many players a live list's default view hides, so the page can say so (issue 16).

The live list shows active players unless asked for everyone; a visitor who sees 35 of 128
rated players must be told 93 are hidden and given the link that shows them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet

from ratings import selectors
from ratings.models import RatingList
from ratings.views import filters

COUNT_SECONDS = 120


def hidden_inactive(rating_list: RatingList, data: Any, shown: int) -> int:
    """How many more players the same filter shows with "Everyone" (0 when it already does)."""
    if data.get("active") == "all" or (data.get("q") or "").strip():
        return 0
    everyone = data.copy()
    everyone["active"] = "all"
    for name in ("page", "per_page", "sort"):
        everyone.pop(name, None)
    key = selectors.list_version_key(
        rating_list, "everyone", sorted(everyone.lists()), filters.today()
    )
    total = cache.get(key)
    if total is None:
        total = _everyone(rating_list, everyone).count()
        cache.set(key, total, COUNT_SECONDS)
    return max(0, total - shown)


def _everyone(rating_list: RatingList, data: Any) -> QuerySet:
    return filters.RatingEntryFilter(
        data,
        queryset=selectors.rating_entries(rating_list),
        rating_list=rating_list,
        countries=selectors.rating_list_countries(rating_list),
    ).qs


def mark_inactive(records: list[Any], today: dt.date) -> None:
    """Set `inactive` on each entry shown: out of the live list for inactivity."""
    for record in records:
        record.inactive = record.active_until is not None and record.active_until < today
