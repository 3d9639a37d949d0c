import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingList
from ratings.recompute.services import rating_list_recompute, recompute_priority_lower


class Command(BaseCommand):
    help = "Recompute a rating list now, in this process (from a date, or from the start)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--from", dest="from_date", type=dt.date.fromisoformat)
        parser.add_argument(
            "--nice",
            action="store_true",
            help="run below the web workers' priority, as the Celery worker does "
            "(settings.RECOMPUTE_NICENESS)",
        )

    def handle(self, *args, slug, from_date, nice=False, **options):
        if nice:
            recompute_priority_lower()
        try:
            rating_list = RatingList.objects.get(slug=slug)
        except RatingList.DoesNotExist as error:
            raise CommandError(f"no rating list {slug!r}") from error
        run = rating_list_recompute(
            rating_list_id=rating_list.pk,
            trigger="manage.py recompute",
            from_date=from_date or dt.date(1900, 1, 1),
        )
        if run is None:
            self.stdout.write("nothing to recompute")
            return
        if run.outcome != run.Outcome.SUCCESS:
            raise CommandError(f"recompute failed: {run.error}")
        self.stdout.write(
            f"recomputed {slug} from {run.from_date}: {run.tournaments} tournaments, "
            f"{run.games} games in {run.duration_ms} ms"
        )
