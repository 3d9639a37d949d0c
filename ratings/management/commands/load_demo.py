from django.core.management.base import BaseCommand

from clubsite.models import Member
from ratings.models import RatingEntry
from sampledata.demo import PASSWORDS, demo_load
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Load the demo clubs, members, tournaments and users (idempotent)."

    def handle(self, *args, **options):
        created = demo_load()
        for line in created:
            self.stdout.write(f"  created {line}")
        self.stdout.write(
            f"Demo ready: {Member.objects.count()} members, {Tournament.objects.count()} "
            f"tournaments, {RatingEntry.objects.count()} rating entries."
        )
        self.stdout.write("Demo logins (user / password):")
        roles = {
            "admin": "site administrator (/admin/)",
            "rivne-admin": "club admin, Rivne Go Club",
            "kyiv-admin": "club admin, Kyiv Go Club",
            "chess-admin": "club admin, Moscow chess and Reversi clubs",
            "referee": "referee of every rating list",
            "player": "player (a Rivne member)",
        }
        for username, password in PASSWORDS.items():
            self.stdout.write(f"  {username:12} {password:18} {roles[username]}")
