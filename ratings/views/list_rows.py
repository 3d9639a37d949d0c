"""A rating list page's rows drawn in Python (issue 18).

Fifty rows of eight cells through the template language (a lookup, filter or tag for each
piece) were a third of the list page's time. These strings are `_rating_table.html`'s
markup inside its `{% localize off %}`: every value escaped as `{{ }}` escapes it, numbers
as plain digits, labels translated as `{% translate %}` gives them (escaped).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubsite.views.url_prefix import url_prefix
from ratings.display.formatting import escaped
from ratings.views.history_rows import short_date


@dataclass(frozen=True)
class RowLabels:
    """What every row shares, worked out once per page."""

    player_prefix: str
    club_prefix: str
    inactive: str  # the badge after an inactive player's name
    language: str | None  # the dates' (they are formatted once per language)
    numbers: tuple[str, ...] = ()  # the players' number columns (tables.number_columns)
    r_max: bool = False  # each entry's `r_max_shown` in a column after the rating

    @classmethod
    def make(cls, numbers: tuple[str, ...] = (), r_max: bool = False) -> RowLabels:
        title = escaped(_("Out of the live list for inactivity"))
        return cls(
            numbers=numbers,
            r_max=r_max,
            player_prefix=escaped(url_prefix("player_detail")),
            club_prefix=escaped(url_prefix("club_detail")),
            inactive=(
                f' <span class="badge text-bg-light border inactive-badge" title="{title}">'
                f"{escaped(_('inactive'))}</span>"
            ),
            language=get_language(),
        )


def entry_row_html(entry: Any, labels: RowLabels) -> str:
    """One entry's `<tr>`: an entry of `selectors.rating_entries` with its `rank`, `shown`
    (the formatted rating) and `inactive` set."""
    member = entry.member
    club = member.club if member.club_id else None
    club_cell = (
        f'<a href="{labels.club_prefix}{escaped(club.slug)}/">{escaped(club.name)}</a>'
        if club
        else "—"
    )
    numbers = "".join(f"<td>{escaped(getattr(member, name))}</td>" for name in labels.numbers)
    r_max = f'<td class="num">{escaped(entry.r_max_shown)}</td>' if labels.r_max else ""
    return (
        f'<tr><td class="num">{escaped(entry.rank)}</td>'
        f'<td><a href="{labels.player_prefix}{escaped(entry.member_id)}/">{escaped(member.full_name)}</a>'
        f"{labels.inactive if entry.inactive else ''}</td>"
        f"<td>{'' if entry.grade is None else escaped(entry.grade)}</td>"
        f"<td>{club_cell}</td><td>{escaped(member.country)}</td>{numbers}"
        f'<td class="num rating">{escaped(entry.shown)}</td>{r_max}'
        f'<td class="num">{escaped(entry.tournaments)}</td>'
        f"<td>{'' if entry.last_played is None else short_date(entry.last_played, labels.language)}"
        "</td></tr>"
    )


def rows_html(entries: Iterable[Any], labels: RowLabels) -> SafeString:
    """The table body's rows, with the whitespace the template's loop gave them."""
    return mark_safe(  # noqa: S308 - every value above escaped by _esc
        "".join(f"\n    {entry_row_html(entry, labels)}\n  " for entry in entries)
    )
