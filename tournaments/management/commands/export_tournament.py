"""manage.py export_tournament ID --format egd|trf|csv|json [--output FILE]"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.formats import FORMATS, FormatError
from tournaments.importing import problems_text, tournament_export_file
from tournaments.models import Tournament

FORMAT_CHOICES = sorted({*FORMATS, "trf"})


class Command(BaseCommand):
    help = "Write a tournament as a results file (EGD, TRF, CSV or JSON)."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--format", dest="fmt", required=True, choices=FORMAT_CHOICES)
        parser.add_argument("--output", help="write to this file instead of standard output")

    def handle(self, *args, tournament_id, fmt, output, **options):
        try:
            tournament = Tournament.objects.get(pk=tournament_id)
        except Tournament.DoesNotExist as error:
            raise CommandError(f"no tournament {tournament_id}") from error
        keys = "external" if fmt == "json" else "position"
        try:
            # In the format it was imported from, the file's own lines come back in place,
            # in the file's own encoding.
            text, encoding = tournament_export_file(tournament=tournament, fmt=fmt, keys=keys)
        except FormatError as error:
            raise CommandError("\n".join(problems_text(error.problems))) from error
        if output:
            try:
                data = text.encode(encoding)
            except UnicodeEncodeError:  # a name entered since that the file's encoding lacks
                encoding, data = "utf-8", text.encode("utf-8")
            # As bytes: the writers choose their line ends (TRF uses CRLF).
            Path(output).write_bytes(data)
            self.stdout.write(f"wrote {output} ({encoding})")
        else:
            self.stdout.write(text, ending="")
