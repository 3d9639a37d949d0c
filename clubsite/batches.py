"""Lookups by a long list of values, a few hundred at a time.

SQLite refuses a statement with more than 32,766 parameters ("too many SQL variables"), and
a results file names up to a few thousand players, each by several keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import QuerySet

BATCH = 500


def in_batches(
    queryset: QuerySet, field: str, values: Iterable[Any], size: int = BATCH
) -> Iterator[Any]:
    """The rows of `queryset` whose `field` is one of `values`, querying `size` values at a time."""
    wanted = list(values)
    for start in range(0, len(wanted), size):
        yield from queryset.filter(**{f"{field}__in": wanted[start : start + size]})
