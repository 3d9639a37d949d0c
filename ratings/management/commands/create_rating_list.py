import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings.services import rating_list_create
from ratings.systems.registry import SYSTEMS

GAMES = {"egf": "go", "ufgo": "go", "rivne": "go", "orr": "chess", "uscf": "reversi"}


class Command(BaseCommand):
    help = "Create a rating list that uses one rating system."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--system", required=True, choices=sorted(SYSTEMS))
        parser.add_argument("--name", default="")
        parser.add_argument("--game", choices=["go", "chess", "reversi"])
        parser.add_argument(
            "--params",
            type=json.loads,
            default=None,
            help="overrides of the system's constants as JSON, e.g. '{\"epsilon\": 0}'",
        )

    def handle(self, *args, slug, system, name, game, params, **options):
        try:
            rating_list = rating_list_create(
                slug=slug, system=system, name=name, game=game or GAMES[system], params=params
            )
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from error
        self.stdout.write(f"rating list {rating_list.slug} ({rating_list.system}) created")
