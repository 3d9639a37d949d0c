"""Template filters for ratings: `{{ entry.rating|rating:system }}` and friends."""

from __future__ import annotations

from django import template

from ratings.display import formatting
from ratings.display import system_titles as titles

register = template.Library()


@register.filter
def rating(value: float | None, system: str) -> str:
    return formatting.format_rating(value, system)


@register.simple_tag
def show_rating(value: float | None, system: str, provisional: bool = False) -> str:
    return formatting.format_rating(value, system, provisional)


@register.filter
def change(value: float | None, system: str) -> str:
    return formatting.format_change(value, system)


@register.filter
def change_class(value: float | None) -> str:
    if value is None or value == 0:
        return ""
    return "change-up" if value > 0 else "change-down"


@register.filter
def expectation(value: float | None) -> str:
    return formatting.format_expectation(value)


@register.filter
def percent(value: float | None) -> str:
    return formatting.format_percent(value)


@register.simple_tag
def rating_states(links):  # noqa: ANN001, ANN201 - ListTournament links in, their states out
    """`{% rating_states links as states %}`: each list's rated / not rated / waiting /
    recomputing / failed, and whether all are in."""
    from ratings.display.status import tournament_rating_states

    return tournament_rating_states(list(links))


@register.filter
def system_title(code: str) -> str:
    """`{{ rating_list.system|system_title }}`: the system's title in the page's language."""
    return titles.system_title(code)
