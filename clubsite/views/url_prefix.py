"""Links drawn by the hundred: a page's URL up to its id, so that each row adds `{pk}/`."""

from __future__ import annotations

from django.urls import reverse


def url_prefix(view_name: str, *args: object) -> str:
    """The URL of `view_name` (with `args` before its last part) without that last part:
    `url_prefix("player_detail")` is `/players/`. A `reverse()` or `{% url %}` per row cost
    a page of a hundred rows a tenth of its time."""
    return reverse(view_name, args=[*args, 0])[: -len("0/")]
