"""The rating list's columns asked for in its address (issue 56): `?rmax=1` adds R_max,
the highest rating of the last 12 months (the EGD's optional column), to the page and the
CSV, read for the shown rows in one query (a query per 5,000 rows for the whole CSV)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from ratings.display.formatting import format_rating
from ratings.models import RatingList
from ratings.standings import r_max_of
from ratings.views import filters


def r_max_asked(request: HttpRequest) -> bool:
    return request.GET.get("rmax") == "1"


def set_r_max(rating_list: RatingList, records: list[Any]) -> None:
    """Each record's R_max (`r_max`, and `r_max_shown` as the page shows it)."""
    found = r_max_of(rating_list, {r.member_id: r.rating for r in records}, filters.today())
    for record in records:
        record.r_max = found.get(record.member_id)
        record.r_max_shown = format_rating(record.r_max, rating_list.system)
