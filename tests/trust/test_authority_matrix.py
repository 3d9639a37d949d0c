"""Issue 54: the permission matrix, generated. Every URL pattern of the site (its GET and
its POST) × every role × every object relation, each expected answer read from the table
of docs/authority.md, so the written model and the site cannot drift apart: a URL the
table does not name fails, and so does any answer that differs from it."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubsite.models import MemberClaim, MemberMerge, Registrar
from ratings.merging import members_merge
from ratings.models import PublishedList, RatingHistory
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import (
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    TournamentFactory,
    UserFactory,
)
from tests.trust.world import World, build
from tests.web.manage_data import FAST_HASHERS
from tournaments.models import MemberProposal, Tournament

pytestmark = pytest.mark.django_db
TABLE = Path(__file__).resolve().parents[2] / "docs" / "authority.md"
ROLES = ("anyone", "player", "club admin own", "club admin rival", "referee his list",
         "referee another list", "registrar", "registrar elsewhere", "staff")  # fmt: skip
USERS = {"player": "player", "club admin own": "kyiv-admin", "club admin rival": "rivne-admin",
         "referee his list": "egf-gor-referee", "referee another list": "ufgo-referee",
         "registrar": "registrar", "registrar elsewhere": "ru-registrar", "staff": "staff"}  # fmt: skip
LOGINS = ("/accounts/login/", "/admin/login/")
URL = re.compile(r"^([\w:]+)(?:\((\w+)\))?$")


@dataclass(frozen=True)
class Case:
    action: str
    url_name: str
    obj: str
    method: str
    expected: dict[str, bool]  # role -> let in


def read_table(path: Path = TABLE) -> list[Case]:
    """The rows of the table whose header starts `| action | urls | method |`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| action | urls |"))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    assert header[3:] == list(ROLES), header
    cases = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        action, urls, method, answers = cells[0], cells[1], cells[2], cells[3:]
        assert len(answers) == len(ROLES) and set(answers) <= {"yes", "no"}, line
        for url in (u.strip() for u in urls.split(",")):
            match = URL.match(url)
            assert match, url
            cases.append(Case(action, match[1], match[2] or "", method,
                              dict(zip(ROLES, (a == "yes" for a in answers), strict=True))))  # fmt: skip
    return cases


CASES = read_table()


def _url_names(patterns: list[Any], namespace: str = "") -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= _url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(namespace + pattern.name)
    return names


def test_the_table_names_every_url_of_the_site():
    site = {name for name in _url_names(get_resolver().url_patterns)
            if not name.startswith("admin:")}  # fmt: skip
    named = {case.url_name for case in CASES}
    assert site - named == set(), "URLs docs/authority.md does not name"
    assert named - site == set(), "names in docs/authority.md that are no URL"


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_the_table_names_every_method_each_url_answers(
    method, settings, django_capture_on_commit_callbacks
):  # noqa: ANN001
    """Every GET page and every POST handler of the site has its row: a URL answering a
    method (as staff, anything but 405) that the table does not list for it fails."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.AXES_ENABLED = False
    with django_capture_on_commit_callbacks(execute=True):
        world, objects = _world()
    client = Client()
    listed = {(case.url_name, case.method) for case in CASES}
    objs = {case.url_name: case.obj for case in CASES}
    unlisted = []
    for name in sorted(objs):
        client.force_login(world.users["staff"])  # each time: a logout would sign him out
        url = reverse(name, kwargs=_kwargs(name, objs[name], objects))
        with transaction.atomic():
            response = client.post(url) if method == "POST" else client.get(url)
            transaction.set_rollback(True)
        if response.status_code != 405 and (name, method) not in listed:
            unlisted.append((name, method, response.status_code))
    assert unlisted == [], "\n".join(map(str, unlisted))


def test_the_matrix_size():
    """The figure issue 54 asks for (the closing note gives it)."""
    assert len(CASES) * len(ROLES) == 91 * 9


def _world() -> tuple[World, dict[str, Any]]:
    world = build()
    member = MemberFactory(club=world.kyiv, country="UA", family_name="Kovalchuk", grade="5k")
    others = [MemberFactory(club=world.kyiv, country="UA", grade=g) for g in ("4k", "6k", "7k")]
    world.users["player"].member = MemberFactory(club=None, user=world.users["player"])
    for name, country in (("registrar", "UA"), ("ru-registrar", "RU")):
        world.users[name] = UserFactory(username=name)
        Registrar.objects.create(user=world.users[name], country=country)

    def table(status: str, day: dt.date) -> Tournament:
        t = TournamentFactory(organiser=world.kyiv, status=status, rounds=1, start_date=day,
                              end_date=day, basic_time_minutes=90)  # fmt: skip
        for m in (member, *others):
            ParticipantFactory(tournament=t, member=m)
        GameFactory(tournament=t, round=1, white=member, black=others[0])
        GameFactory(tournament=t, round=1, white=others[1], black=others[2])
        t.list_links.create(rating_list=world.lists["egf-gor"])
        return t

    approved = table("submitted", dt.date(2024, 3, 1))
    tournament_approve_and_rate(tournament=approved, by=world.users["egf-gor-referee"])
    merged = MemberFactory(club=None, country="UA", family_name="Kowalczuk")
    members_merge(keep=member, drop=merged, by=world.users["staff"])
    objects = {
        "member": member,
        "other": MemberFactory(club=None, country="UA", family_name="Kovalchuk"),
        "draft": table("draft", dt.date(2024, 5, 1)),
        "submitted": table("submitted", dt.date(2024, 4, 1)),
        "approved": approved,
        "list": world.lists["egf-gor"],
        "club": world.kyiv,
        "snapshot": PublishedList.objects.create(
            rating_list=world.lists["egf-gor"], date=dt.date(2024, 1, 1)
        ),  # fmt: skip
        "proposal": MemberProposal.objects.create(
            member=member, field="egd_pin", value="99", proposed_by=world.users["rivne-admin"]
        ),  # fmt: skip
        "merge": MemberMerge.objects.get(),
        # "this is me" about the member, by a user of no club
        "claim": MemberClaim.objects.create(user=UserFactory(username="claimant"), member=member),
    }
    return world, objects


def _kwargs(name: str, obj: str, objects: dict[str, Any]) -> dict[str, Any]:
    params = get_resolver().reverse_dict.getlist(name)[0][0][0][1] if ":" not in name else []
    values: dict[str, Any] = {}
    for param in params:
        if param == "pk":
            values[param] = objects[obj or "member"].pk
        elif param == "slug":
            values[param] = objects["club" if obj == "club" else "list"].slug
        elif param == "member_pk":
            values[param] = objects["member"].pk
        elif param == "number":
            values[param] = 1
        elif param == "row":
            history = RatingHistory.objects.filter(member=objects["member"]).first()
            values[param] = history.pk if history else 1
        elif param == "date":
            values[param] = objects["snapshot"].date.isoformat()
        elif param == "code":
            values[param] = "egf"
        elif param == "fmt":
            values[param] = "egd"
        elif param == "uidb64":
            values[param] = "MQ"
        elif param == "token":
            values[param] = "set-password"
        else:
            raise AssertionError(f"{name}: no value for {param}")
    return values


def _post_data(case: Case, objects: dict[str, Any]) -> dict[str, Any]:
    """A POST that asks for the act itself (an empty one would be refused for want of data)."""
    return {
        "member_merge": {
            "other": objects["other"].pk,
            "keep": objects["member"].pk,
            "confirm": "1",
        },
        "proposal_decide": {"decision": "accept"},
        "manage_participants": {"action": "add", "member": objects["other"].pk},
        "referee_reopen": {"reason": "the class is wrong"},
        "set_language": {"language": "en"},
        "member_claims": {"claim": objects["claim"].pk, "decision": "refuse"},
    }.get(case.url_name, {})


def _let_in(response: Any) -> bool | str:
    status = response.status_code
    if status in (403, 404):
        return False
    if status in (301, 302) and response["Location"].startswith(LOGINS):
        return False
    if status >= 405:
        return f"status {status}"
    return True


@pytest.mark.parametrize("role", ROLES)
def test_every_url_for_every_role(role: str, settings, django_capture_on_commit_callbacks):  # noqa: ANN001
    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.AXES_ENABLED = False
    with django_capture_on_commit_callbacks(execute=True):
        world, objects = _world()
    client = Client()
    if role != "anyone":
        client.force_login(world.users[USERS[role]])
    wrong = []
    for case in CASES:
        url = reverse(case.url_name, kwargs=_kwargs(case.url_name, case.obj, objects))
        with transaction.atomic():  # each request sees the same world
            if case.method == "POST":
                response = client.post(url, _post_data(case, objects))
            else:
                response = client.get(url)
            transaction.set_rollback(True)
        if case.url_name == "logout" and role != "anyone":
            client.force_login(world.users[USERS[role]])  # he signed out: sign in again
        answer = _let_in(response)
        if answer != case.expected[role]:
            wrong.append((case.action, case.url_name, case.obj, case.method,
                          response.status_code, "expected", case.expected[role]))  # fmt: skip
    assert wrong == [], "\n".join(map(str, wrong))
