"""manage.py import_ratings FILE --list SLUG --format egd|fide|csv --date YYYY-MM-DD

Starts a rating list from a published list (its baseline). Prints the preview (rows
matched / new / ambiguous, the file's warnings by line) and, unless --dry-run, saves it;
the last line printed is `baseline <n> players`. An ambiguous row (several members could
be him) stops the import with the list of such rows, unless each is settled with
`--match KEY=MEMBER_ID` (or `KEY=new`) or all are made new members with
`--new-for-ambiguous`. KEY is the row's key: EGD PIN, FIDE ID, the CSV's key or `line N`.
"""

from __future__ import annotations

import datetime as dt
import gzip
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings.baselines.matching import BaselinePreview, Choice
from ratings.baselines.services import baseline_errors, baseline_import, baseline_preview
from ratings.management.acting import HELP, acting_user, require
from ratings.models import RatingList
from tournaments.formats import FormatError
from tournaments.formats.rating_lists import LIST_FORMATS, MAX_LIST_BYTES, parse_rating_list
from tournaments.importing import problems_text

SHOWN_ROWS = 50  # matched and new rows listed; every ambiguous row is listed


def parse_matches(values: list[str]) -> dict[str, Choice]:
    choices: dict[str, Choice] = {}
    for value in values:
        key, sep, target = value.rpartition("=")
        if not sep or not key or not (target == "new" or target.isdigit()):
            raise CommandError(f"--match takes KEY=MEMBER_ID or KEY=new, not {value!r}")
        choices[key] = "new" if target == "new" else int(target)
    return choices


def read_list(path: str) -> bytes:
    file = Path(path)
    if not file.is_file():
        raise CommandError(f"no such file: {path}")
    if file.stat().st_size > MAX_LIST_BYTES:
        raise CommandError("The file is too large; it was not read.")
    data = file.read_bytes()
    if file.suffix == ".gz":
        data = gzip.decompress(data)
    return data


class Command(BaseCommand):
    help = "Start a rating list from a published rating list (EGD, FIDE TXT, CSV)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the rating list (.gz is read too)")
        parser.add_argument("--list", dest="list_slug", required=True, help="rating list slug")
        parser.add_argument("--format", dest="fmt", required=True, choices=sorted(LIST_FORMATS))
        parser.add_argument(
            "--date", required=True, type=dt.date.fromisoformat, help="the list's date"
        )
        parser.add_argument("--dry-run", action="store_true", help="show the preview only")
        parser.add_argument(
            "--match", action="append", default=[], metavar="KEY=MEMBER_ID|new",
            help="settle an ambiguous row (repeatable)",
        )  # fmt: skip
        parser.add_argument(
            "--new-for-ambiguous",
            action="store_true",
            help="make every ambiguous row a new member",
        )
        parser.add_argument("--verbose-rows", action="store_true", help="list every row")
        parser.add_argument("--as", dest="as_user", metavar="USERNAME", help=HELP)

    def handle(self, *args, file, list_slug, fmt, date, dry_run, match, **options):
        try:
            rating_list = RatingList.objects.get(slug=list_slug)
        except RatingList.DoesNotExist as error:
            raise CommandError(f"no rating list {list_slug!r}") from error
        acting = acting_user(options.get("as_user"))
        # As a list's referee: his list only, and the numbers of members he does not keep
        # are proposed to their keepers instead of written.
        require(acting, "list.baseline", rating_list)
        try:
            listfile = parse_rating_list(read_list(file), fmt, Path(file).name)
        except FormatError as error:
            raise CommandError(
                "The file cannot be imported:\n" + "\n".join(problems_text(error.problems))
            ) from error
        preview = baseline_preview(listfile=listfile)
        self._print(preview, every=options["verbose_rows"])
        choices = parse_matches(match)
        new_for_ambiguous = options["new_for_ambiguous"]
        if dry_run:
            errors = baseline_errors(
                listfile=listfile, rating_list=rating_list, preview=preview, choices=choices,
                new_for_ambiguous=new_for_ambiguous,
            )  # fmt: skip
            if errors:
                raise CommandError("Nothing would be saved:\n" + "\n".join(errors))
            self.stdout.write("dry run: nothing saved")
            return
        try:
            baseline = baseline_import(
                listfile=listfile, rating_list=rating_list, date=date, by=acting, choices=choices,
                new_for_ambiguous=new_for_ambiguous, filename=Path(file).name, preview=preview,
            )  # fmt: skip
        except ValidationError as error:
            raise CommandError("Nothing was saved:\n" + "\n".join(error.messages)) from error
        self.stdout.write(f"baseline of {rating_list.slug} on {baseline.date}")
        self.stdout.write(f"baseline {baseline.rows.count()} players")

    def _print(self, preview: BaselinePreview, *, every: bool) -> None:
        write = self.stdout.write
        listfile = preview.listfile
        write(f"{listfile.source} list: {len(listfile.rows)} players")
        write(
            f"players: {len(preview.matched)} matched, {len(preview.new)} new, "
            f"{len(preview.ambiguous)} ambiguous"
        )
        shown = 0
        for match in preview.rows:
            if match.status != "ambiguous" and not every and shown >= SHOWN_ROWS:
                continue
            shown += match.status != "ambiguous"
            label = f"  {match.status:<9} {match.key:>10}  line {match.row.line}  {match.row.name}"
            if match.member is not None:
                label += f" → #{match.member.pk} {match.member.full_name} (by {match.matched_by})"
            elif match.candidates:
                label += " → one of: " + ", ".join(
                    f"#{m.pk} {m.full_name}" for m in match.candidates
                )
            write(label)
            if match.note:
                write(f"            {match.note}")
        if shown < len(preview.rows) - len(preview.ambiguous):
            write(f"  … {len(preview.rows) - len(preview.ambiguous) - shown} more rows")
        if listfile.left_out:
            write(
                f"left out: {len(listfile.left_out)} rows cannot be read; the rest can be imported"
            )
            for problem in listfile.left_out:
                write(f"  {problem}")
        if listfile.warnings:
            write("warnings:")
            for line in problems_text(listfile.warnings):
                write(f"  {line}")
