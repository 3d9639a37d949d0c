"""`{% crosstable_rows crosstable %}`: a crosstable's body rows drawn in Python (issue 18).

A sixty-player table with its rounds and rating changes is some three thousand template
lookups, filters and tags: two thirds of the tournament page's time. These strings are the
markup `_crosstable.html`'s loop drew: every value escaped as `{{ }}` escapes it, numbers
localized as the template localized them, labels translated as `{% translate %}` gives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubsite.views.url_prefix import url_prefix
from ratings.display.formatting import escaped, format_change, format_rating

register = template.Library()


@dataclass(frozen=True)
class _Labels:
    """What every row shares, worked out once per table."""

    player_prefix: str
    as_given: str
    member_of: str
    not_rated: str

    @classmethod
    def make(cls) -> _Labels:
        return cls(
            player_prefix=escaped(url_prefix("player_detail")),
            as_given=escaped(_("as the results file gives it")),
            member_of=escaped(_("member of")),
            not_rated=f'<span class="muted">{escaped(_("not rated"))}</span>',
        )


def _club_cell(participant: Any, labels: _Labels) -> str:
    club = participant.member.club
    club_name = escaped(club.name) if club is not None and club.name else ""
    if participant.team:
        title = labels.as_given + (f"; {labels.member_of} {escaped(club.name)}" if club else "")
        shown = escaped(participant.team)
    else:
        title = shown = club_name
    return f'<td class="club-cell" title="{title}">{shown}</td>'


def _cell(cell: Any) -> str:
    title = f' title="{escaped(cell.opponent.member.full_name)}"' if cell.opponent else ""
    return (
        f'<td class="text-center round-cell {escaped(cell.css)}"{title}>{escaped(cell.text)}</td>'
    )


def _change(change: Any, labels: _Labels) -> str:
    if change is None:
        shown = "—"
    elif change.rated:
        css = "" if not change.change else ("change-up" if change.change > 0 else "change-down")
        shown = (
            f'<span class="change-before">{escaped(format_rating(change.before, change.system))}'
            f" → </span>{escaped(format_rating(change.after, change.system, change.provisional))} "
            f'<span class="{css}">{escaped(format_change(change.change, change.system))}</span>'
        )
    else:
        shown = labels.not_rated
    return f'<td class="num small text-nowrap change-cell">{shown}</td>'


def _row(row: Any, labels: _Labels) -> str:
    participant = row.participant
    grade = participant.grade
    return (
        "\n    <tr>\n"
        f'      <td class="num sticky-col sticky-place">'
        f"{escaped(localize(participant.place or row.number))}</td>\n"
        f'      <td class="sticky-col sticky-name"><a href="{labels.player_prefix}'
        f'{escaped(participant.member_id)}/">{escaped(participant.member.full_name)}</a></td>\n'
        f'      <td class="grade-cell">{escaped(grade) if grade else ""}</td>\n'
        f"      {_club_cell(participant, labels)}\n"
        f"      {''.join(_cell(cell) for cell in row.cells)}\n"
        f'      <td class="num points-cell"><strong>{floatformat(row.points, "-1")}</strong></td>\n'
        f"      {''.join(_change(change, labels) for change in getattr(row, 'changes', ()))}\n"
        "    </tr>\n  "
    )


@register.simple_tag
def crosstable_rows(crosstable: Any) -> SafeString:
    """The table body's rows, with the whitespace the template's loop gave them."""
    labels = _Labels.make()
    return mark_safe(  # noqa: S308 - every value above escaped by _esc
        "".join(_row(row, labels) for row in crosstable.rows)
    )
