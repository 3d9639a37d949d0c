"""What happened, kept as an English template and its parameters, worded late.

A results file's problems (`tournaments.formats.model.Problem`), an import's checks and
the tournament's history are shown to people who read Ukrainian, Russian or English,
often not the language of whoever caused them. So they are stored as a template marked
for translation (`gettext_noop`) with its %(name)s parameters, and rendered in the
reader's language when a page shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from tournaments.formats.model import Problem
from tournaments.models import TournamentLog


def render(template: str, params: Mapping[str, Any] | None = None) -> str:
    """The template in the active language with its parameters. A translation that
    lost a parameter falls back to the English text rather than failing the page."""
    params = params or {}
    translated = gettext(template) if template else ""
    try:
        return translated % params if params else translated
    except (KeyError, TypeError, ValueError):
        return template % params if params else template


class Said(str):
    """A message rendered now (it is a `str`) that remembers how to render it again."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Said:
        text = super().__new__(cls, render(template, params))
        text.template = template
        text.params = params
        return text

    def stored(self) -> list[Any]:
        """[template, params] with JSON-safe parameters, for a JSON field."""
        return [self.template, {k: _json_safe(v) for k, v in self.params.items()}]


def said(template: str, **params: Any) -> Said:
    return Said(template, **params)


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def stored_lines(lines: Iterable[str]) -> list[list[Any]]:
    """Lines to keep in a JSON field: a `Said` as its template, anything else as text."""
    return [line.stored() if isinstance(line, Said) else [str(line), {}] for line in lines]


def render_lines(stored: Sequence[Sequence[Any]]) -> list[str]:
    return [render(str(item[0]), dict(item[1]) if len(item) > 1 else {}) for item in stored]


# --- a results file's problems -------------------------------------------------------


def problem_message(problem: Problem) -> str:
    """The problem's words in the active language (without its line and column)."""
    if not problem.template:
        return problem.message
    text = render(problem.template, problem.params)
    return f"{problem.where}: {text}" if problem.where else text


@dataclass(frozen=True)
class ProblemRow:
    line: int | None
    column: int | None
    severity: str
    message: str


def problem_rows(problems: Iterable[Problem]) -> list[ProblemRow]:
    """The rows of a page's problem table, worded for its reader."""
    return [ProblemRow(p.line, p.column, p.severity, problem_message(p)) for p in problems]


# --- the tournament's history ----------------------------------------------------------


@dataclass(frozen=True)
class HistoryEntry:
    log: TournamentLog
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def history_entry(log: TournamentLog) -> HistoryEntry:
    """A log row in the reader's language: its stored lines if any, else its comment
    (a person's words, or a row written before lines were stored)."""
    stored = (log.params or {}).get("lines")
    if stored:
        return HistoryEntry(log, render_lines(stored))
    return HistoryEntry(log, [log.comment] if log.comment else [])


# Words of the history that are not the import's checks (makemessages finds them here).
IMPORTED = gettext_noop("Imported %(source)s: %(players)d players (%(new)d new), %(games)d games.")
IMPORTED_FROM_FILE = gettext_noop(
    "Imported a results file: %(players)d players (%(new)d new), %(games)d games."
)
NOT_LINKED = gettext_noop("Not linked to a rating list for rating.")
# orr.md Part D: a declared count of participants below the players listed, in the preview
# and at the referee's review.
PARTICIPANTS_BELOW_LISTED = gettext_noop(
    "The file declares %(declared)s participants but lists %(listed)s players: the two "
    "contradict each other, and the %(listed)s players listed are counted."
)
