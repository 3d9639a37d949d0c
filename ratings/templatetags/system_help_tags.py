"""`{% fig "A.after" %}`: a figure of the page's worked example, straight from the stored
engine answer, marked so that a test can check it against the engine (see system_help)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from ratings.display import system_help

register = template.Library()


@register.simple_tag(takes_context=True)
def fig(context: template.Context, path: str, places: int | None = None) -> str:
    """The figure at `path` of the example's output, e.g. `B.games.1.expected`."""
    output: dict[str, Any] = context["example"]["output"]
    value = system_help.figure_value(output, path)
    if places is None and path.rsplit(".", 1)[-1] in ("before", "after"):
        places = context["example"].get("rating_places", 0)
    text = system_help.format_figure(value, path, places)
    places_attr = "" if places is None else str(places)
    return format_html(
        '<span class="fig" data-figure="{}" data-places="{}">{}</span>', path, places_attr, text
    )
