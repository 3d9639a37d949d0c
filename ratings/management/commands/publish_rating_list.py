import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingList
from ratings.publication import rating_list_publish


class Command(BaseCommand):
    help = "Publish an immutable snapshot of a rating list as it stood on a date."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--date", required=True, type=dt.date.fromisoformat)

    def handle(self, *args, slug, date, **options):
        try:
            rating_list = RatingList.objects.get(slug=slug)
            snapshot = rating_list_publish(rating_list=rating_list, date=date)
        except RatingList.DoesNotExist as error:
            raise CommandError(f"no rating list {slug!r}") from error
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"published {slug} on {date}: {snapshot.entries.count()} players")
