"""A profile's history table rows drawn in Python (issue 18).

A regular's profile has two hundred rows; through the template language (a variable
lookup, a filter or a tag for each of a row's twenty-odd pieces) they were half of the
page's time. These strings are the template's markup: every value escaped, every label
translated the same way (`{% translate %}` escapes, `{% blocktranslate %}` escapes its
variables).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubsite.views.url_prefix import url_prefix
from ratings import selectors
from ratings.display.formatting import escaped


@lru_cache(maxsize=8192)
def short_date(day: dt.date, language: str | None) -> str:
    """The `date:"SHORT_DATE_FORMAT"` filter, remembered per date and language (its
    formatting was half of the rows' time; a tournament's date is on all its players')."""
    return escaped(date_filter(day, "SHORT_DATE_FORMAT"))


@dataclass(frozen=True)
class RowLabels:
    """What every row shares, worked out once per page."""

    tournament_prefix: str
    breakdown_prefix: str  # the member's breakdown page without the row id
    how_title: str
    reset: str
    anomalous: str
    not_rated: str
    how_computed: str  # the breakdown's link text
    language: str | None  # the dates' (they are formatted once per language)

    @classmethod
    def make(cls, member_pk: int) -> RowLabels:
        return cls(
            how_computed=escaped(_("How is this rating computed?")),
            language=get_language(),
            tournament_prefix=url_prefix("tournament_detail"),
            breakdown_prefix=url_prefix("player_breakdown", member_pk),
            how_title=escaped(_("How the change came about")),
            reset=f' <span class="badge text-bg-info">{escaped(_("reset"))}</span>',
            anomalous=f' <span class="badge text-bg-warning">{escaped(_("anomalous"))}</span>',
            not_rated=f' <span class="badge text-bg-secondary">{escaped(_("not rated"))}</span>',
        )


def history_row_html(line: selectors.HistoryLine, labels: RowLabels) -> SafeString:
    """The row's `<tr>` (its breakdown row, when shown, stays in the template)."""
    row = line.row
    tournament = row.tournament
    name = (
        f'<a href="{labels.tournament_prefix}{row.tournament_id}/">{escaped(tournament.name)}</a>'
        + (labels.reset if row.reset else "")
        + (labels.anomalous if row.anomalous else "")
        + ("" if row.rated else labels.not_rated)
        + (
            f'<div class="small muted history-note">{escaped(_(row.note))}</div>'
            if row.note
            else ""
        )
        + (
            f'<div class="small muted raised-start">{escaped(line.raised_s)}</div>'
            if line.raised_s
            else ""
        )
    )
    entered = tournament.tournament_class
    klass = escaped(row.klass or entered)
    if row.klass and row.klass != entered:
        klass += (
            f' <span class="small muted">{_("(entered %(k)s)") % {"k": escaped(entered)}}</span>'
        )
    css, shown = escaped(line.change_css), escaped(line.change_s)
    if line.games:
        change = (
            f'<a class="{css} breakdown-toggle" href="#bd-{row.pk}" aria-controls="bd-{row.pk}" '
            f'title="{labels.how_title}">{shown} ▸</a>'
        )
    elif line.breakdown_elsewhere:
        change = (
            f'<a class="{css}" href="{labels.breakdown_prefix}{row.pk}/" '
            f'title="{labels.how_title}">{shown} ▸</a>'
        )
    else:
        change = f'<span class="{css}">{shown}</span>'
    return mark_safe(  # noqa: S308 - every value above escaped by _esc
        f"<tr>\n        <td>{short_date(row.date, labels.language)}</td>\n"
        f"        <td>{name}</td>\n        <td>{klass}</td>\n"
        f'        <td class="num">{row.games_count}</td>\n'
        f'        <td class="num">{escaped(line.before_s)}</td>\n'
        f'        <td class="num rating">{escaped(line.after_s)}</td>\n'
        f'        <td class="num">{change}</td>\n      </tr>'
    )


def section_rows_html(
    section: selectors.ListSection, labels: RowLabels, breakdown_head: str
) -> SafeString:
    """The history table's body for one list: each line's row and, when its breakdown
    opens in place, the breakdown row, with the whitespace the template's loop gave."""
    system_url = escaped(reverse("rating_system", args=[section.rating_list.system]))
    parts = []
    for line in section.lines:
        parts.append(f"\n      {history_row_html(line, labels)}\n      ")
        if line.games:
            raised = (
                f'<p class="small mb-1 raised-start">{escaped(line.raised_s)}</p>'
                if line.raised_s
                else ""
            )
            parts.append(
                f'\n      <tr class="breakdown-row" id="bd-{line.row.pk}"><td colspan="7">\n'
                f"        {raised}\n"
                f'        <p class="small mb-1"><a class="system-help-link" href="{system_url}">'
                f"{labels.how_computed}</a></p>\n"
                f'        <table class="table table-sm breakdown mb-0">\n'
                f"          <thead>{breakdown_head}</thead>\n"
                f"          <tbody>{line.games_html}</tbody>\n"
                f"        </table>\n      </td></tr>\n      "
            )
        parts.append("\n    ")
    return mark_safe("".join(parts))  # noqa: S308 - every value above escaped by _esc
