"""The preview (`results_preview`, writes nothing): the matches, the checks and the
problems that block an import.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubsite.fields import parse_grade
from clubsite.models import Club, Member
from tournaments.formats.model import (
    Problem,
    ResultsFile,
    TournamentDetails,
)
from tournaments.formats.time_text import is_known
from tournaments.importing.common import (
    RATED_CLASSES,
    ListTarget,
    _declared,
    _format_code,
    _game_for,
    club_index,
)
from tournaments.importing.matching import (
    ImportPreview,
    PlayerMatch,
    _claimed_twice,
    _Index,
    _match_one,
    _with_list_flags,
    with_likely_duplicates,
)
from tournaments.messages import PARTICIPANTS_BELOW_LISTED, said
from tournaments.models import Tournament


def results_preview(
    *,
    results: ResultsFile,
    organiser: Club,
    fmt: str | None = None,
    target: ListTarget | None = None,
) -> ImportPreview:
    """Who each file player is and what the import would do. Writes nothing."""
    code = _format_code(results, fmt)
    index = _Index(results, code)
    matches = _claimed_twice([_match_one(p, index, code) for p in results.players])
    matches = with_likely_duplicates(matches, code, club_index(Club.objects.all()), organiser)
    matches = _with_list_flags(matches, target)
    game = _game_for(code, target)
    return ImportPreview(
        results=results,
        target=target,
        organiser=organiser,
        game=game,
        players=tuple(matches),
        warnings=(
            *results.warnings,
            *_participants_warnings(results),
            *_duplicate_warnings(results.details, organiser),
        ),
        checks=tuple(_checks(results, target, matches)),
        errors=tuple(
            table_errors(results, target, game, matches)
            + grade_errors(results, target, _decided(matches), _listed(matches), code)
        ),
    )


def name_and_dates(details: TournamentDetails) -> tuple[str, dt.date | None, dt.date | None]:
    """The name and dates the tournament is saved with (see `details.tournament_from_details`).

    Dates come from the file or from a person, never from the clock: without any, both
    are None and `table_errors` asks for them."""
    start, end = details.start_date, details.end_date
    start = start or end
    end = end or start
    if start is not None and end is not None and end < start:
        start, end = end, start
    fallback = (
        _("Imported results %(date)s") % {"date": end.isoformat()} if end else _("Imported results")
    )
    return (details.name or details.code or fallback)[:200], start, end


def _participants_warnings(results: ResultsFile) -> list[Problem]:
    """orr.md Part D: a declared count below the players listed contradicts the table;
    the listed count is what is counted."""
    declared, listed = results.details.participants, len(results.players)
    if declared is None or declared >= listed:
        return []
    return [
        Problem.of(None, None, PARTICIPANTS_BELOW_LISTED, "warning", declared=declared,
                   listed=listed)
    ]  # fmt: skip


DUPLICATES_NAMED = 3


def _duplicate_warnings(details: TournamentDetails, organiser: Club) -> list[Problem]:
    """The tournaments this file may already be: same name and end date, or same code.

    Only a warning: a club may hold two events of one name on one day (two groups). The
    importing club's own tables are named; another club's public table is only said to
    exist, and another club's draft is its private work: not mentioned at all.
    """
    name, _start, end = name_and_dates(details)
    code = (details.code or "").strip()[:200]
    same = (Q(name=name, end_date=end) if end else Q(pk__in=[])) | (
        Q(code=code) if code else Q(pk__in=[])
    )
    found = Tournament.objects.filter(same)
    mine = found.filter(organiser=organiser) if organiser.pk is not None else found.none()
    own = list(mine.order_by("-end_date", "pk")[:DUPLICATES_NAMED])
    warnings = []
    for tournament in own:
        values = {
            "name": tournament.name,
            "date": tournament.end_date.isoformat(),
            "id": tournament.pk,
            "status": tournament.get_status_display(),
        }
        if code and tournament.code == code:
            values["code"] = code
            message = gettext_noop(
                "A tournament with the code %(code)s is already here: %(name)s (%(date)s, "
                "#%(id)s, %(status)s). Importing the file again makes a second one."
            )
        else:
            message = gettext_noop(
                "A tournament with this name and end date is already here: %(name)s "
                "(%(date)s, #%(id)s, %(status)s). Importing the file again makes a second one."
            )
        warnings.append(Problem.of(None, None, message, "warning", **values))
    others = found.exclude(pk__in=mine.values("pk"))
    public = others.exclude(status=Tournament.Status.DRAFT)
    if public.exists():
        warnings.append(
            Problem.of(
                None,
                None,
                gettext_noop(
                    "A similar public tournament (same name and end date, or same code) is "
                    "already here, entered by another club. Check it is not this one."
                ),
                "warning",
            )
        )
    return warnings


def _checks(
    results: ResultsFile, target: ListTarget | None, matches: list[PlayerMatch]
) -> list[str]:
    details = results.details
    checks: list[str] = []
    klass = details.tournament_class
    if klass is not None and klass not in RATED_CLASSES:
        checks.append(
            said(
                gettext_noop(
                    "Class %(klass)s: the tournament is imported but not linked for rating."
                ),
                klass=klass,
            )
        )
    elif klass is None and target is not None and target.system == "egf":
        checks.append(said(gettext_noop("The file gives no class; class A is assumed.")))
    if target is None:
        checks.append(
            said(gettext_noop("No rating list: the tournament is imported but not rated."))
        )
    unrated = [g for g in results.games if not g.is_rated]
    if unrated:
        checks.append(
            said(
                gettext_noop("%(n)d games are not rated (forfeits or games over before a move)."),
                n=len(unrated),
            )
        )
    double = [g for g in results.games if g.result == "none"]
    if double:
        checks.append(
            said(
                gettext_noop(
                    "%(n)d forfeits that both players lost are stored as zero-point byes."
                ),
                n=len(double),
            )
        )
    if results.byes:
        checks.append(said(gettext_noop("%(n)d byes (never rated)."), n=len(results.byes)))
    carried = [p for p in results.players if p.rating is not None]
    if carried and target is not None and not target.uses_declared_start:
        checks.append(
            _(
                "%(n)d players carry a rating in the file. The list %(list)s does not use it: "
                "its system starts a newcomer by its own rule (the rating is kept and shown)."
            )
            % {"n": len(carried), "list": target.name}
        )
    elif carried:
        checks.append(
            said(
                gettext_noop(
                    "%(n)d players carry a rating in the file. A player new to the list starts "
                    "from it; a player already in the list keeps the list's own."
                ),
                n=len(carried),
            )
        )
    storied = [p for p in results.players if p.history is not None or p.best_grade is not None]
    if storied:
        checks.append(
            said(
                gettext_noop(
                    "%(n)d players carry a history or best grade in the file: the list keeps its own."
                ),
                n=len(storied),
            )
        )
    if details.start_date and details.end_date and details.end_date < details.start_date:
        checks.append(
            said(gettext_noop("The file's dates are in the wrong order; they are swapped."))
        )
    if details.time_control is None:
        checks.append(
            said(gettext_noop("The time control is not known; no time-control rule blocks rating."))
        )
    elif not is_known(details.time_control):
        checks.append(
            said(
                gettext_noop(
                    "The time control %(text)s is not one this application can read: it is kept "
                    "as written and counts as unknown; no time-control rule blocks rating."
                ),
                text=details.time_control.description or "",
            )
        )
    if not any(game.is_rated for game in results.games):
        checks.append(
            said(gettext_noop("The table has no rated game: no rating can change through it."))
        )
    if target is not None:
        newcomers = [m for m in matches if m.new_to_list]
        if newcomers:
            checks.append(
                said(
                    gettext_noop("%(n)d players are new to the list %(list)s."),
                    n=len(newcomers),
                    list=target.name,
                )
            )
    return checks


def table_errors(
    results: ResultsFile, target: ListTarget | None, game: str, matches: list[PlayerMatch]
) -> list[str]:
    errors = []
    if results.details.start_date is None and results.details.end_date is None:
        errors.append(
            _(
                "The file gives no date this application can read for certain (none, or day "
                "and month could be swapped): give the tournament's start and end dates."
            )
        )
    if target is not None and target.game != game:
        errors.append(
            _("The list %(list)s rates %(list_game)s, but this file is a %(game)s table.")
            % {"list": target.name, "list_game": target.game, "game": game}
        )
    for kind, attr in (("EGD PIN", "egd_pin"), ("FIDE ID", "fide_id")):
        seen: dict[str, str] = {}
        for player in results.players:
            value = getattr(player, attr)
            if value and value in seen:
                errors.append(
                    _("Players %(a)s and %(b)s have the same %(kind)s %(value)s.")
                    % {"a": seen[value], "b": player.name, "kind": kind, "value": value}
                )
            elif value:
                seen[value] = player.name
    return errors


def _decided(matches: Iterable[PlayerMatch]) -> dict[str, Member | None]:
    """File key → the member he is, or None for a new member; undecided players left out."""
    return {m.key: m.member for m in matches if m.status != "ambiguous"}


def _listed(matches: Iterable[PlayerMatch]) -> set[int]:
    return {m.member.pk for m in matches if m.member is not None and not m.new_to_list}


def grade_errors(
    results: ResultsFile,
    target: ListTarget | None,
    members: Mapping[str, Member | None],
    listed: set[int],
    fmt: str | None,
) -> list[str]:
    """A Go list starts a newcomer from his grade: one with neither grade nor rating stops it.

    The recompute would fail on him (the engine refuses a new player without a grade), so
    the import refuses him first. Only players of rated games in a rated class count;
    `members` holds the decided players (None: a member to create).
    """
    if target is None or not target.needs_grade or not results.details.is_rated_class:
        return []
    playing = {key for g in results.games if g.is_rated for key in (g.white, g.black)}
    errors: list[str] = []
    for player in results.players:
        if player.key not in playing or player.key not in members:
            continue
        member = members[player.key]
        if member is not None and (member.pk in listed or member.grade is not None):
            continue
        if parse_grade(player.grade) is not None:
            continue
        if target.uses_declared_start and _declared(player, fmt) is not None:
            continue
        values = {"player": player.name, "list": target.name, "line": player.line}
        if player.line is not None:
            message = _(
                "Line %(line)d: %(player)s is new to the list %(list)s and has no grade; "
                "the list cannot rate a newcomer without one. Give his grade in the file."
            )
        else:
            values["key"] = player.key
            message = _(
                "%(player)s (number %(key)s in the file) is new to the list %(list)s and has no grade; "
                "the list cannot rate a newcomer without one. Give his grade in the file."
            )
        errors.append(message % values)
    return errors
