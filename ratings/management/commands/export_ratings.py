import datetime as dt
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db.models import F
from django.utils import timezone

from clubsite.views.csv_output import SafeWriter
from ratings.list_files import file_formats, rating_list_text
from ratings.models import PublishedList, RatingEntry, RatingList
from ratings.selectors import active_q

COLUMNS = [
    "player", "name", "rating", "provisional", "grade", "tournaments", "last_played",
    "egd_pin", "fide_id",
]  # fmt: skip


def player_key(member) -> str:
    """The external key the player came with: import key, else EGD PIN, FIDE ID, member id."""
    return member.import_key or member.egd_pin or member.fide_id or str(member.pk)


class Command(BaseCommand):
    help = (
        "Write a rating list as JSON or CSV to standard output: the live list as the public "
        "page shows it (players out for inactivity left out), or everyone with --all. "
        "--format egd (the EGF rating list OpenGotha and Pairgoth read) or fide (FIDE's TXT "
        "list) writes everyone the live list rates, or the publication of --date."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv", "egd", "fide"], default="json")
        parser.add_argument(
            "--date",
            type=dt.date.fromisoformat,
            help="egd and fide: the list published on this date instead of the live one",
        )
        parser.add_argument(
            "--output",
            help="egd and fide: write this file in ISO-8859-1, as the pairing programs read it",
        )
        parser.add_argument(
            "--all",
            action="store_true",
            dest="everyone",
            help="include the players out of the live list for inactivity (EGF)",
        )

    def handle(self, *args, slug, format, everyone=False, **options):
        try:
            rating_list = RatingList.objects.get(slug=slug)
        except RatingList.DoesNotExist as error:
            raise CommandError(f"no rating list {slug!r}") from error
        if format in ("egd", "fide"):
            self._pairing_file(rating_list, format, options.get("date"), options.get("output"))
            return
        if options.get("date") or options.get("output"):
            raise CommandError("--date and --output go with --format egd or fide")
        entries = RatingEntry.objects.filter(rating_list=rating_list).select_related("member")
        if not everyone:
            entries = entries.filter(active_q(timezone.localdate()))
        # Unrated players (an ORR newcomer who has not scored yet) come last on every database.
        entries = entries.order_by(
            F("rating").desc(nulls_last=True), "member__family_name", "member_id"
        )
        players = [
            {
                "player": player_key(entry.member),
                "name": entry.member.full_name,
                "rating": entry.rating,
                "provisional": entry.provisional,
                "grade": str(entry.grade) if entry.grade is not None else None,
                "tournaments": entry.tournaments,
                "last_played": entry.last_played.isoformat() if entry.last_played else None,
                # so a federation can check the list against its own
                "egd_pin": entry.member.egd_pin or None,
                "fide_id": entry.member.fide_id or None,
            }
            for entry in entries
        ]
        if format == "json":
            document = {"list": rating_list.slug, "system": rating_list.system, "players": players}
            self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
            return
        writer = SafeWriter(self.stdout, lineterminator="\n")  # no BOM: a pipe, not a download
        writer.writerow(COLUMNS)
        for player in players:
            writer.writerow(["" if player[k] is None else player[k] for k in COLUMNS])

    def _pairing_file(self, rating_list, fmt, date, output) -> None:
        if fmt not in file_formats(rating_list):
            raise CommandError(f"{rating_list.slug} is not a Go list: the EGF list is for Go")
        snapshot = None
        if date is not None:
            snapshot = PublishedList.objects.filter(rating_list=rating_list, date=date).first()
            if snapshot is None:
                raise CommandError(f"{rating_list.slug} has no list published on {date}")
        text = rating_list_text(rating_list=rating_list, fmt=fmt, snapshot=snapshot)
        if output:
            Path(output).write_bytes(text.encode("iso-8859-1"))
            return
        self.stdout.write(text, ending="")
