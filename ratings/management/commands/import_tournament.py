"""manage.py import_tournament FILE --list SLUG --format egd|trf|trf16|trf26|csv|json
[--encoding NAME] [--date START[,END]]

Parses the file, prints the preview (players matched / new / ambiguous, the
file's warnings by line, what the importer noticed) and, unless --dry-run,
saves it. The last line printed is `tournament <id>`.

The bytes decide the encoding unless `--encoding` names one. A file without a date
this command can read for certain (none, or day and month that could be swapped) is
refused unless `--date` gives the tournament's dates; the clock never stands in.
"""

from __future__ import annotations

import datetime as dt
import sys
from dataclasses import replace
from pathlib import Path

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubsite.models import Club
from ratings.management.acting import HELP, acting_user, require
from ratings.models import RatingList
from ratings.submissions.importing import results_errors, results_import, results_preview
from tournaments.formats import FORMATS, FormatError, guess_format, parse, size_text
from tournaments.formats.dates import with_dates
from tournaments.formats.encoding import ENCODINGS, encoding_code
from tournaments.importing import ImportPreview, problems_text
from tournaments.models import Tournament

FORMAT_CHOICES = sorted({*FORMATS, "trf"})
IMPORTED_CLUB = ("imported-results", "Imported results")


def read_upload(path: str, max_bytes: int) -> bytes:
    """The file's bytes; refuses a file over `max_bytes` before reading it all."""
    too_large = f"The file is larger than {size_text(max_bytes)}; it was not read."
    if path == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
    else:
        file = Path(path)
        if not file.is_file():
            raise CommandError(f"no such file: {path}")
        if file.stat().st_size > max_bytes:
            raise CommandError(too_large)
        data = file.read_bytes()
    if len(data) > max_bytes:
        raise CommandError(too_large)
    return data


def default_organiser(rating_list: RatingList, *, create: bool) -> Club:
    """The list's owner club, else the "Imported results" club (unsaved until `create`)."""
    if rating_list.owner_club is not None:
        return rating_list.owner_club
    slug, name = IMPORTED_CLUB
    if not create:
        return Club.objects.filter(slug=slug).first() or Club(slug=slug, name=name)
    club, _created = Club.objects.get_or_create(slug=slug, defaults={"name": name})
    return club


def parse_dates(value: str | None) -> tuple[dt.date, dt.date] | None:
    """`--date 2005-07-28` or `--date 2005-07-28,2005-07-30` (ISO: no day/month doubt)."""
    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    try:
        if len(parts) > 2:
            raise ValueError
        start = dt.date.fromisoformat(parts[0])
        end = dt.date.fromisoformat(parts[1]) if len(parts) == 2 else start
    except ValueError:
        raise CommandError(
            f"--date takes START or START,END as YYYY-MM-DD, not {value!r}"
        ) from None
    if end < start:
        raise CommandError(f"--date: the end {end} is before the start {start}")
    return start, end


def parse_choices(values: list[str]) -> dict[str, int | str]:
    choices: dict[str, int | str] = {}
    for value in values:
        key, sep, target = value.partition("=")
        if not sep or not key or not (target == "new" or target.isdigit()):
            raise CommandError(f"--choose takes KEY=MEMBER_ID or KEY=new, not {value!r}")
        choices[key] = target if target == "new" else int(target)
    return choices


class Command(BaseCommand):
    help = "Import a results file (EGD, TRF, CSV, JSON) as a tournament of a rating list."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the results file, or - for standard input")
        parser.add_argument("--list", dest="list_slug", required=True, help="rating list slug")
        parser.add_argument("--format", dest="fmt", choices=FORMAT_CHOICES)
        parser.add_argument("--dry-run", action="store_true", help="show the preview only")
        parser.add_argument(
            "--encoding",
            help="read the file in this encoding (" + ", ".join(ENCODINGS) + "); "
            "without it the bytes decide",
        )
        parser.add_argument(
            "--date",
            metavar="START[,END]",
            help="the tournament's dates (YYYY-MM-DD) where the file gives none it can read "
            "for certain; they replace the file's",
        )
        parser.add_argument("--organiser", help="slug of the organising club")
        parser.add_argument("--draft", action="store_true", help="save as a draft, not submitted")
        parser.add_argument("--as", dest="as_user", metavar="USERNAME", help=HELP)
        parser.add_argument(
            "--choose",
            action="append",
            default=[],
            metavar="KEY=MEMBER_ID|new",
            help="settle an ambiguous player (repeatable)",
        )

    def handle(
        self, *args, file, list_slug, fmt, dry_run, organiser, draft, choose, encoding, date,
        **options,
    ):  # fmt: skip
        try:
            rating_list = RatingList.objects.get(slug=list_slug)
        except RatingList.DoesNotExist as error:
            raise CommandError(f"no rating list {list_slug!r}") from error
        club = self._organiser(organiser, rating_list, create=False)
        acting = acting_user(options.get("as_user"))
        if acting is not None and organiser is None:
            raise CommandError("Say which club organised it (--organiser) when acting --as a user.")
        require(acting, "club.create_table", club)
        fmt = fmt or (guess_format(file) if file != "-" else None)
        if fmt is None:
            raise CommandError("Please say which format the file is in (--format).")
        dates = parse_dates(date)
        code = encoding_code(encoding) if encoding is not None else None
        if encoding is not None and code is None:
            raise CommandError(f"--encoding: one of {', '.join(ENCODINGS)}, not {encoding!r}")
        max_bytes = settings.RESULTS_UPLOAD_MAX_BYTES
        data = read_upload(file, max_bytes)
        name = Path(file).name if file != "-" else None
        try:
            results = parse(data, fmt, name, max_bytes=max_bytes, encoding=code)
        except FormatError as error:
            raise CommandError(
                "The file cannot be imported:\n" + "\n".join(problems_text(error.problems))
            ) from error
        if not results.details.name and name:
            results = replace(results, details=replace(results.details, name=Path(name).stem))
        if dates is not None:
            results = with_dates(results, *dates)
        self.stdout.write(f"read as {ENCODINGS[results.encoding]}")
        preview = results_preview(results=results, rating_list=rating_list, organiser=club, fmt=fmt)
        self._print(preview)
        choices = parse_choices(choose)
        if dry_run:
            # Refused exactly as the real run would be, with nothing written.
            errors = results_errors(
                results=results, rating_list=rating_list, organiser=club, choices=choices, fmt=fmt
            )
            if errors:
                raise CommandError("Nothing was saved:\n" + "\n".join(errors))
            self.stdout.write("dry run: nothing saved")
            return
        status = Tournament.Status.DRAFT if draft else Tournament.Status.SUBMITTED
        try:
            # One transaction, so that a refused file leaves no organiser club behind either.
            with transaction.atomic():
                club = self._organiser(organiser, rating_list, create=True)
                tournament = results_import(
                    results=results,
                    rating_list=rating_list,
                    organiser=club,
                    by=acting,
                    choices=choices,
                    status=status,
                    fmt=fmt,
                    source=name or "standard input",
                )
        except (ValidationError, PermissionDenied) as error:
            messages = error.messages if isinstance(error, ValidationError) else [str(error)]
            raise CommandError("Nothing was saved:\n" + "\n".join(messages)) from error
        self.stdout.write(f"saved as {tournament.get_status_display()}: {tournament.name}")
        self.stdout.write(f"tournament {tournament.pk}")

    def _organiser(self, slug: str | None, rating_list: RatingList, *, create: bool) -> Club:
        if slug is None:
            return default_organiser(rating_list, create=create)
        try:
            return Club.objects.get(slug=slug)
        except Club.DoesNotExist as error:
            raise CommandError(f"no club {slug!r}") from error

    def _print(self, preview: ImportPreview) -> None:
        write = self.stdout.write
        details = preview.results.details
        write(
            f"{details.name or '(no name)'}: {len(preview.players)} players, "
            f"{len(preview.results.games)} games, {len(preview.results.byes)} byes, "
            f"{details.rounds} rounds ({preview.game})"
        )
        write(
            f"players: {len(preview.matched)} matched, {len(preview.new)} new, "
            f"{len(preview.ambiguous)} ambiguous"
        )
        for match in preview.players:
            player = match.player
            label = f"  {match.status:<9} {player.key:>5}  {player.name}"
            if match.status == "matched" and match.member is not None:
                label += f" → #{match.member.pk} {match.member.full_name} (by {match.matched_by})"
            elif match.status == "ambiguous":
                label += " → one of: " + ", ".join(
                    f"#{m.pk} {m.full_name}" for m in match.candidates
                )
            if match.new_to_list and preview.target is not None:
                label += " [new to the list]"
            write(label)
            for note in match.notes:
                write(f"            {note}")
        if preview.warnings:
            write("warnings:")
            for line in problems_text(preview.warnings):
                write(f"  {line}")
        if preview.checks:
            write("checks:")
            for check in preview.checks:
                write(f"  {check}")
        if preview.errors:
            write("errors:")
            for error in preview.errors:
                write(f"  {error}")
