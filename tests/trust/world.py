"""Two clubs, their admins, three lists and their referees: issue 14's new users.

kyiv-admin and rivne-admin each run a club; `rivne` is Rivne's own list (Go, Rivne
system), `egf-gor` and `ufgo` are open Go lists, `chess` an open chess (ORR) list; each
list has its own referee.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubsite.models import Club, Member
from ratings.models import RatingList
from tests.factories import ClubFactory, MemberFactory, RatingListFactory, UserFactory
from tournaments.models import Tournament


@dataclass
class World:
    kyiv: Club
    rivne: Club
    lists: dict[str, RatingList]
    users: dict[str, object] = field(default_factory=dict)

    def client(self, who: str) -> Client:
        client = Client()
        client.force_login(self.users[who])
        return client


def build() -> World:
    kyiv = ClubFactory(name="Kyiv Go Club", slug="kyiv-go", country="UA")
    rivne = ClubFactory(name="Rivne Go Club", slug="rivne-go", country="UA")
    lists = {
        "rivne": RatingListFactory(name="Rivne club", slug="rivne", system="rivne",
                                   owner_club=rivne),
        "egf-gor": RatingListFactory(name="EGF GoR", slug="egf-gor", system="egf"),
        "ufgo": RatingListFactory(name="UFGO", slug="ufgo", system="ufgo"),
        "chess": RatingListFactory(name="Chess", slug="chess", system="orr", game="chess"),
    }  # fmt: skip
    world = World(kyiv, rivne, lists)
    for name in ("kyiv-admin", "rivne-admin", "staff", "player"):
        world.users[name] = UserFactory(username=name, is_staff=name == "staff")
    kyiv.admins.add(world.users["kyiv-admin"])
    rivne.admins.add(world.users["rivne-admin"])
    for slug, rating_list in lists.items():
        referee = UserFactory(username=f"{slug}-referee")
        world.users[f"{slug}-referee"] = referee
        rating_list.referees.add(referee)
    return world


def rivne_member(**values) -> Member:
    return MemberFactory(**{"club": Club.objects.get(slug="rivne-go"), **values})


def trf(*players: tuple[str, str, str, str]) -> bytes:
    """A two-round TRF16 of these players (name "Family, Given", title, FIDE ID, birth):
    1 beats 2 in round 1, draws in round 2."""
    lines = ["012 Kyiv Open", "022 Kyiv", "042 2024/05/01", "052 2024/05/02", "062 2",
             "122 90'+30''", "XXR 2"]  # fmt: skip
    opponents = {1: (2, "w", "1", "b", "="), 2: (1, "b", "0", "w", "=")}
    for rank, (name, title, fide, birth) in enumerate(players, start=1):
        other, c1, r1, c2, r2 = opponents[rank]
        lines.append(
            f"001 {rank:4d} m{title:>3} {name:<33} 2400 UKR {fide:>11} {birth:<10} "
            f"{'1.5' if rank == 1 else '0.5':>4} {rank:4d}"
            f"  {other:4d} {c1} {r1}  {other:4d} {c2} {r2}"
        )
    return ("\n".join(lines) + "\n").encode()


def upload(
    client: Client,
    data: bytes,
    name: str,
    organiser: Club,
    rating_list: RatingList | None,
    status: str = "draft",
    choices: dict[str, str] | None = None,
    **extra: object,
) -> Tournament | None:
    """The import's two pages: upload (preview), confirm. The new table, or None."""
    form = {"file": SimpleUploadedFile(name, data), "organiser": organiser.pk,
            "rating_list": rating_list.pk if rating_list else "", **extra}  # fmt: skip
    preview = client.post(reverse("manage_import"), form)
    assert preview.status_code == 200, preview.content[:500]
    token = preview.context["confirm"].initial["token"]
    before = set(Tournament.objects.values_list("pk", flat=True))
    response = client.post(
        reverse("manage_import_confirm"),
        {"token": token, "status": status, **(choices or {})},
    )
    made = set(Tournament.objects.values_list("pk", flat=True)) - before
    if response.status_code != 302:
        return None
    return Tournament.objects.get(pk=made.pop()) if made else None
