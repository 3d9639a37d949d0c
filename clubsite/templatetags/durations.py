"""`{{ timedelta|whole_minutes }}`: a duration as whole minutes (rounded up), for sentences."""

from __future__ import annotations

import datetime as dt
import math

from django import template

register = template.Library()


@register.filter
def whole_minutes(value: dt.timedelta | None) -> int:
    if not isinstance(value, dt.timedelta):
        return 0
    return max(0, math.ceil(value.total_seconds() / 60))
