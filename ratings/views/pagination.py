"""A paginator whose total is cached for a short while: counting a filtered 45,000-row list
costs more than rendering its page. The key names the list's version, so a recompute that
changes the list also changes the key."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.core.paginator import Paginator
from django.utils.functional import cached_property

COUNT_SECONDS = 120


class CachedCountPaginator(Paginator):
    def __init__(self, *args: Any, count_key: str = "", **kwargs: Any) -> None:
        self.count_key = count_key
        super().__init__(*args, **kwargs)

    @cached_property
    def count(self) -> int:
        if not self.count_key:
            return super().count
        value = cache.get(self.count_key)
        if value is None:
            value = super().count
            cache.set(self.count_key, value, COUNT_SECONDS)
        return value
