"""The tournament a results file describes: its name, dates, class, rules and time control
as the file gives them, within what the columns hold."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubsite.input_checks import country_or_blank
from clubsite.models import Club
from tournaments.formats.model import (
    TimeControl,
    TournamentDetails,
)
from tournaments.formats.time_text import is_known
from tournaments.importing.common import (
    MAX_SMALL,
    RATED_CLASSES,
)
from tournaments.importing.preview import name_and_dates
from tournaments.models import Tournament
from tournaments.timecontrol import exact_minutes, overtime_from_text


def _unique_slug(name: str, day: dt.date) -> str:
    base = slugify(name)[:80].strip("-") or f"tournament-{day.isoformat()}"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _decimal(value: float) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _exact_minutes(time: TimeControl | None) -> Decimal | None:
    """EGD `TM[…]` as written (62.5 stays 62.5), when it fits the column."""
    if time is None or time.adjusted_minutes is None:
        return None
    value = Decimal(str(time.adjusted_minutes))
    if not 0 <= value < 100000 or value != value.quantize(Decimal("0.01")):
        return None
    return value


def _declared_participants(details: TournamentDetails, listed: int) -> int | None:
    """The file's own count of participants (JSON event.participants, TRF 062), kept only
    when it says more than the file lists: orr.md B.2's Np counts everyone who played."""
    declared = details.participants
    if declared is None or declared <= listed or declared > 1_000_000:
        return None
    return declared


def declared_below_listed(details: TournamentDetails, listed: int) -> int | None:
    """The file's count of participants when it is below the players it lists: a
    contradiction the preview and the referee are shown (orr.md Part D); never sent."""
    declared = details.participants
    return declared if declared is not None and declared < listed else None


def tournament_from_details(
    details: TournamentDetails,
    game: str,
    organiser: Club,
    fmt: str | None = None,
    *,
    listed: int = 0,
) -> Tournament:
    name, start, end = name_and_dates(details)
    if start is None or end is None:
        # The preview refuses such a file (`table_errors`); the clock never stands in.
        raise ValidationError(_("The file gives no date; give the tournament's dates."))
    country = country_or_blank(details.country)  # "ZZ" is no country: left out
    komi = details.komi if details.komi is not None and abs(details.komi) < 1000 else None
    rounds = max(details.rounds, 1)
    tournament = Tournament(
        name=name,
        slug=_unique_slug(name, end),
        city=details.city[:120],
        country=country,
        start_date=start,
        end_date=end,
        game=game,
        board_size=details.board_size or 19,
        tournament_class=details.tournament_class
        if details.tournament_class in RATED_CLASSES
        else Tournament.Klass.A,
        file_class=details.tournament_class
        if details.tournament_class in FILE_ONLY_CLASSES
        else "",
        handicap_rule=f"h{details.handicap_rule}" if details.handicap_rule is not None else "",
        komi=_decimal(komi) if komi is not None else None,
        rounds=min(rounds, MAX_SMALL),
        participants_declared=_declared_participants(details, listed),
        participants_declared_below_listed=declared_below_listed(details, listed),
        code=(details.code or "").strip()[:200],
        comment=details.comment,
        adjusted_minutes=_exact_minutes(details.time_control),
        federation=details.federation[:100],
        chief_arbiter=details.chief_arbiter[:200],
        tournament_type=details.tournament_type[:200],
        organiser=organiser,
        official=details.official if details.official is not None else True,
        status=Tournament.Status.DRAFT,
    )
    _apply_time_control(tournament, details.time_control)
    tournament.save()
    return tournament


FILE_ONLY_CLASSES = ("D", "X")


def _apply_time_control(tournament: Tournament, time: TimeControl | None) -> None:
    """Fill what the file says; where it says nothing readable the time control is
    unknown (`time_control_known`), and the model's defaults mean nothing.

    Minutes are kept exact (`exact_minutes`); the overtime is read by
    `overtime_from_text`, which knows every form the formats write."""
    tournament.time_control_text = " ".join((time.description or "").split())[:200] if time else ""
    tournament.time_control_known = is_known(time)
    if time is None:
        return
    if time.basic_minutes is not None:
        tournament.basic_time_minutes = exact_minutes(time.basic_minutes) or 0
        if time.fischer_increment_seconds is not None:
            tournament.overtime_kind = Tournament.Overtime.FISCHER
            tournament.overtime_seconds = min(round(time.fischer_increment_seconds), 36000)
        elif (reading := overtime_from_text(time.overtime)) is not None:
            tournament.overtime_kind = reading.kind
            tournament.overtime_seconds = reading.seconds
            tournament.overtime_moves = reading.moves
        else:
            tournament.time_control_known = False  # an overtime written some other way
    elif time.adjusted_minutes is not None:
        # EGD `TM[…]` is the adjusted time already: store it as that much sudden death.
        tournament.basic_time_minutes = exact_minutes(time.adjusted_minutes) or 0
        tournament.overtime_kind = Tournament.Overtime.SUDDEN_DEATH
        tournament.overtime_seconds = 0
