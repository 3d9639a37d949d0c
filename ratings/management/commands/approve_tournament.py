import time

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ratings.management.acting import HELP, acting_user, require
from ratings.models import RatingList, RecomputeRun
from ratings.submissions.services import tournament_approve_and_rate
from tournaments.models import Tournament

SYSTEM_REFEREE = "system-referee"


def system_referee():
    user, _ = get_user_model().objects.get_or_create(
        username=SYSTEM_REFEREE, defaults={"is_staff": True, "is_active": False}
    )
    return user


class Command(BaseCommand):
    help = (
        "Approve a submitted tournament as the system referee (or --as a referee: his lists "
        "only) and queue its recompute."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument(
            "--wait", action="store_true", help="return only when the recompute has finished"
        )
        parser.add_argument("--timeout", type=float, default=600.0)
        parser.add_argument("--as", dest="as_user", metavar="USERNAME", help=HELP)

    def handle(self, *args, tournament_id, wait, timeout, as_user=None, **options):
        acting = acting_user(as_user)
        try:
            tournament = Tournament.objects.get(pk=tournament_id)
        except Tournament.DoesNotExist as error:
            raise CommandError(f"no tournament {tournament_id}") from error
        require(acting, "table.decide", tournament)
        try:
            with transaction.atomic():
                tournament_approve_and_rate(tournament=tournament, by=acting or system_referee())
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from error
        except PermissionDenied as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"tournament {tournament_id} approved")
        if wait:
            self._wait(tournament, timeout)

    def _wait(self, tournament, timeout):
        deadline = time.monotonic() + timeout
        lists = list(tournament.rating_lists.values_list("pk", flat=True))
        while time.monotonic() < deadline:
            states = RatingList.objects.filter(pk__in=lists)
            failed = states.filter(state=RatingList.State.FAILED)
            if failed.exists():
                run = RecomputeRun.objects.filter(rating_list__in=failed).first()
                raise CommandError(
                    f"recompute failed: {run.error if run else failed[0].last_error}"
                )
            if not states.filter(pending_from__isnull=False).exists():
                self.stdout.write("ratings recomputed")
                return
            time.sleep(0.2)
        raise CommandError("timed out waiting for the recompute")
