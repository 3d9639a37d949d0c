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

    @classmethod
    def make(cls) -> RowLabels:
        title = escaped(_("Out of the live list for inactivity"))
        return cls(
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
    return (
        f'<tr><td class="num">{escaped(entry.rank)}</td>'
        f'<td><a href="{labels.player_prefix}{escaped(entry.member_id)}/">{escaped(member.full_name)}</a>'
        f"{labels.inactive if entry.inactive else ''}</td>"
        f"<td>{'' if entry.grade is None else escaped(entry.grade)}</td>"
        f"<td>{club_cell}</td><td>{escaped(member.country)}</td>"
        f'<td class="num rating">{escaped(entry.shown)}</td>'
        f'<td class="num">{escaped(entry.tournaments)}</td>'
        f"<td>{'' if entry.last_played is None else short_date(entry.last_played, labels.language)}"
        "</td></tr>"
    )


def rows_html(entries: Iterable[Any], labels: RowLabels) -> SafeString:
    """The table body's rows, with the whitespace the template's loop gave them."""
    return mark_safe(  # noqa: S308 - every value above escaped by _esc
        "".join(f"\n    {entry_row_html(entry, labels)}\n  " for entry in entries)
    )
