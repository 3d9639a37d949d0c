"""The tournament list's rows drawn in Python (issue 18): fifty a page, each a dozen
pieces, which through the template language were a third of the page's time at EGD
scale. The markup is the template's, every value escaped as the template escaped it."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ratings.display.formatting import escaped
from ratings.views.history_rows import short_date
from tournaments.models import Tournament
from tournaments.templatetags.organised_by import organised_by


def tournament_rows_html(
    rows: Iterable[tuple[Tournament, str, str]], *, tournament_prefix: str, club_prefix: str
) -> SafeString:
    """Each (tournament, game label, status label) as a table row, or the empty table's row."""
    language = get_language()
    drawn = []
    for t, game, status in rows:
        drawn.append(
            f"\n    <tr><td>{short_date(t.end_date, language)}</td>"
            f'<td><a href="{tournament_prefix}{t.pk}/">{escaped(t.name)}</a></td>'
            f"<td>{escaped(t.city) if t.city else '—'}</td>"
            f"<td>{organised_by(t, club_prefix)}</td><td>{escaped(game)}</td>"
            f"<td>{escaped(t.tournament_class) if t.tournament_class else '—'}</td>"
            f'<td class="num">{int(t.players)}</td>'
            f'<td><span class="badge badge-status-{escaped(t.status)}">{escaped(status)}</span>'
            "</td></tr>\n  "
        )
    if not drawn:
        drawn.append(
            f'\n    <tr><td colspan="8" class="muted">{escaped(_("No tournaments match."))}'
            "</td></tr>\n  "
        )
    return mark_safe("".join(drawn))  # noqa: S308 - every value above escaped
