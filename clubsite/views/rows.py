"""The home and club pages' long lists drawn in Python (issue 18): a club's hundred members
and its fifty tournaments.

Through the template language (a lookup, a filter or a tag for each piece of a row) they
were most of the club page's time at EGD scale: 23 of its 26 ms of drawing. These strings
are the markup the templates had, every value escaped as the template escaped it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubsite.models import Member
from ratings.display.formatting import escaped, format_rating
from ratings.views.history_rows import short_date
from tournaments.models import Tournament


def tournament_short_list_html(
    tournaments: Iterable[Tournament], *, tournament_prefix: str, empty_text: str
) -> SafeString:
    """Tournaments as links with their date, city, organiser and number of players, or
    `empty_text` when there are none. Each needs its `players` (`tournament_public_list`)."""
    language = get_language()
    external = escaped(_("external organiser"))
    players_title = escaped(_("Players"))
    items = []
    for t in tournaments:
        organiser = t.organised_by
        where = f" · {escaped(t.city)}" if t.city else ""
        by = escaped(organiser.name) if organiser else external
        items.append(
            '\n  <a class="list-group-item list-group-item-action d-flex justify-content-between '
            f'align-items-center gap-2" href="{tournament_prefix}{t.pk}/">\n'
            f"    <span><strong>{escaped(t.name)}</strong><br>"
            f'<span class="small muted">{short_date(t.end_date, language)}{where} · {by}</span>'
            "</span>\n"
            f'    <span class="badge text-bg-light border" title="{players_title}">'
            f"{int(t.players)}</span>\n  </a>\n  "
        )
    if not items:
        items.append(f'\n  <div class="list-group-item muted">{escaped(empty_text)}</div>\n  ')
    return mark_safe(  # noqa: S308 - every value above escaped
        f'<div class="list-group">{"".join(items)}\n</div>'
    )


def club_member_rows_html(members: Iterable[Member], *, player_prefix: str) -> SafeString:
    """A club's members as table rows: name (a link), grade, and the rating in each list
    (`club_members`' `entries`); the empty table's row when there are none."""
    rows = []
    none = '<span class="muted">—</span>'
    for member in members:
        entries = "".join(
            '<span class="me-2 text-nowrap"><span class="muted">'
            f"{escaped(entry.rating_list.name)}:</span> <strong>"
            f"{escaped(format_rating(entry.rating, entry.rating_list.system, entry.provisional))}"
            "</strong></span> "
            for entry in member.entries
        )
        grade = escaped(member.grade) if member.grade else ""
        rows.append(
            f'\n        <tr><td class="text-nowrap"><a href="{player_prefix}{member.pk}/">'
            f"{escaped(member.full_name)}</a></td><td>{grade}</td>\n"
            f'          <td class="small">{entries or none}</td></tr>'
            "\n      "
        )
    if not rows:
        rows.append(f'<tr><td colspan="3" class="muted">{escaped(_("No members yet."))}</td></tr>')
    return mark_safe("".join(rows))  # noqa: S308 - every value above escaped
