"""Issue 54: junk posted to every form field of every POST handler, as every role, finds
no 5xx (DEBUG off, as in production).

Nothing is hand-listed that the site can say itself: the POST handlers are the URL patterns
(from the URLconf, as the GET crawler finds them) that a page's form posts to, or that do
not answer an empty POST with 405, 200 or 404; their fields are read from the forms the
site's pages show (every `<form method="post">` of every page as the club admin, a referee
and staff see it, the merge page with its other member chosen, and the previews of a
results import and of a baseline upload), grouped by the URL each form posts to.

For each of seven roles and each handler: each field in turn takes each of SHARPEST (the
other fields as the page offers them) with the rest of JUNK as further values of it, unless
the role is turned away at the door; then Hypothesis posts a few forms that mix offered
values and junk (unicode digits, huge, negative, empty, NUL, very long, direction marks,
dates near year 9999) in several fields at once. A handler no page shows a form for is
posted junk under every field name seen anywhere. Each post meets the world as built (a
savepoint rolled back), and a confirm page's token comes from the role's own upload.
Its figures (handlers, roles, posts, 5xx) are recorded as a test property.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from contextlib import contextmanager
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsite.models import Member
from ratings.models import ListTournament
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World, build
from tests.web.manage_data import FAST_HASHERS
from tests.web.test_crawler import fill, url_patterns

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
UPLOADS = {  # pages whose forms show after an upload: the upload is made first, as the role
    "manage_import_confirm": "manage_import",
    "list_baseline": "list_baseline",
}

ROLES = {
    "anonymous": None,
    "player": "player",
    "club admin": "kyiv-admin",
    "rival club admin": "rivne-admin",
    "referee of the list": "egf-gor-referee",
    "referee of another list": "chess-referee",
    "staff": "staff",
}
JUNK = [
    "²", "①", "١٢", "1" + "0" * 20, "-99999999999999999999", "-1", "0", "", "\x00", "a\x00b",
    "9" * 400, "x" * 5000, "1e308", "-1e308", "NaN", "Infinity", "1.5", " ", "new", "on",
    "\u202eevil", "a\r\nb", "<script>alert(1)</script>", "9999-12-31", "0000-00-00",
    "2024-02-30", "1\u00a0000", "٣", "𝟗", "-0", "+5", "0x10", "1_000",
]  # fmt: skip
# The values most likely to break a view, each posted alone in each field (the others as
# the page offers them); the rest of JUNK goes in with them as extra values of the field.
SHARPEST = ["²", "99999999999999999999999", "\x00", "1e308", "9999-12-31"]
EXAMPLES_PER_HANDLER = 3
JUNK_FILES = [junk.encode() for junk in JUNK] + [
    b'{"system": "egf", "event": {"date": "9999-12-31"}, "players": [], "games": []}',
    b"key,family_name,rating,games,last_played\nr1,A,1e308,\xc2\xb2,9999-12-31\n",
]


class _Forms(HTMLParser):
    """The POST forms of a page: (action, {field: [values the page offers]}, file fields)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, list[str]], set[str]]] = []
        self._current: tuple[str, dict[str, list[str]], set[str]] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):  # noqa: ANN001, ANN201
        attrs = dict(attrs)
        if tag == "form":
            if (attrs.get("method") or "get").lower() == "post":
                self._current = (attrs.get("action") or "", defaultdict(list), set())
            return
        if self._current is None:
            return
        name = attrs.get("name")
        if tag in ("input", "textarea", "select", "button") and name:
            fields = self._current[1]
            if attrs.get("type") == "file":
                self._current[2].add(name)
            value = attrs.get("value")
            fields[name] += [value] if value is not None else []
            self._select = name if tag == "select" else None
        elif tag == "option" and self._select and attrs.get("value") is not None:
            self._current[1][self._select].append(attrs["value"])

    def handle_endtag(self, tag):  # noqa: ANN001, ANN201
        if tag == "form" and self._current is not None:
            self.forms.append(self._current)
            self._current = None
        elif tag == "select":
            self._select = None


def _world() -> tuple[World, dict]:
    world = build()
    kyiv = [MemberFactory(club=world.kyiv, grade=g) for g in ("3k", "4k", "5k", "6k")]
    rivne = [MemberFactory(club=world.rivne, grade=g) for g in ("2k", "7k")]
    player = world.users["player"]
    Member.objects.filter(pk=kyiv[0].pk).update(user=player)
    tables = {}
    for status, lists in (("draft", ["egf-gor"]), ("submitted", ["egf-gor", "ufgo"])):
        table = TournamentFactory(organiser=world.kyiv, status=status, rounds=2,
                                  basic_time_minutes=60, start_date=dt.date(2024, 5, 1))  # fmt: skip
        for member in kyiv:
            ParticipantFactory(tournament=table, member=member)
        GameFactory(tournament=table, round=1, white=kyiv[0], black=kyiv[1])
        GameFactory(tournament=table, round=1, white=kyiv[2], black=kyiv[3])
        for slug in lists:
            ListTournament.objects.create(rating_list=world.lists[slug], tournament=table)
        tables[status] = table
    objects = {"kyiv": kyiv, "rivne": rivne, "tables": tables}
    return world, objects


def _values(world: World, objects: dict, table_status: str, member_index: int) -> dict:
    """What `fill` puts in a route's parameters: a member where the route names one."""
    members = objects["kyiv"] + objects["rivne"]
    table = objects["tables"][table_status]
    values = {
        "pk": table.pk, "slug": "egf-gor", ("club_detail", "slug"): world.kyiv.slug,
        "date": "2024-06-30", "row": 1, "number": 1, "code": "egf", "uidb64": "MQ",
        "token": "set-password", "member_pk": members[member_index % len(members)].pk,
        "fmt": "egd",  # issue 56: the list for pairing programs
    }  # fmt: skip
    for name in ("player_detail", "player_breakdown", "member_history", "member_merge",
                 "api_player", "member_claim"):  # fmt: skip
        values[(name, "pk")] = members[member_index % len(members)].pk
    return values


def _url_name(path: str) -> str | None:
    try:
        return resolve(urlsplit(path).path).url_name
    except Resolver404:
        return None


def _read_forms(page, own_name: str | None, fields: dict, files: dict) -> None:
    """Add the POST forms of a page to `fields` (URL name → field → offered values)."""
    if page.status_code != 200 or "html" not in page.get("Content-Type", ""):
        return
    parser = _Forms()
    parser.feed(page.content.decode(errors="replace"))
    for action, named, uploads in parser.forms:
        name = _url_name(action) if action else own_name
        if name is None:
            continue
        for field, offered in named.items():
            fields[name][field] += offered
        files[name] |= uploads


def _discover(world: World, objects: dict) -> tuple[list[tuple[str, str]], dict, dict]:
    """The POST handlers (route, name), and per URL name the fields its forms post (with
    the values the pages offer) and which of them are files."""
    fields: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    files: dict[str, set[str]] = defaultdict(set)
    routes = url_patterns()
    viewers = [world.client(who) for who in ("staff", "kyiv-admin", "egf-gor-referee")]
    for status in ("draft", "submitted"):
        values = _values(world, objects, status, 0)
        for route, name in routes:
            url = fill(route, name, values)
            for client in viewers:
                _read_forms(client.get(url), name, fields, files)
    # Pages whose POST form shows once a GET chose something: the merge with its other member.
    merge = f"/players/{objects['kyiv'][0].pk}/merge/?other={objects['kyiv'][1].pk}"
    _read_forms(viewers[0].get(merge), "member_merge", fields, files)
    for name in UPLOADS:
        _read_forms(_upload(world, world.client("staff"), name), name, fields, files)
    staff = world.client("staff")
    posts = []
    for route, name in routes:
        url = fill(route, name, _values(world, objects, "draft", 0))
        # A page no form posts to is a POST handler when an empty POST is not refused
        # (405), answered as a GET (200) or about an object the fixture lacks (404).
        if name in fields or staff.post(url, {}).status_code not in (405, 200, 404):
            posts.append((route, name))
    return posts, fields, files


def _upload(world: World, client: Client, name: str):
    """The upload whose preview holds the forms of `name` (made as `client`)."""
    if UPLOADS[name] == "manage_import":
        return client.post("/manage/import/", _import_form(world))
    baseline = {"file": SimpleUploadedFile("l.csv", b"key,family_name,rating\nr1,Bondar,1500\n"),
                "fmt": "csv", "date": "2024-01-01"}  # fmt: skip
    return client.post("/ratings/egf-gor/baseline/", baseline)


def _import_form(world: World) -> dict:
    event = {
        "system": "egf",
        "event": {"name": "Kyiv Cup", "start_date": "2024-05-01", "date": "2024-05-02",
                  "class": "B", "time_control": {"basic_minutes": 60}},
        "players": [{"id": "a", "name": "Petrenko Ivan", "grade": "3k"},
                    {"id": "b", "name": "Bondar Oleh", "grade": "4k"}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "white"}],
    }  # fmt: skip
    return {"file": SimpleUploadedFile("cup.json", json.dumps(event).encode()),
            "organiser": world.kyiv.pk, "rating_list": world.lists["egf-gor"].pk}  # fmt: skip


def test_junk_to_every_post_handler_gives_no_5xx(settings, record_property) -> None:
    assert not settings.DEBUG, "with DEBUG off, as production runs"
    settings.PASSWORD_HASHERS = FAST_HASHERS
    world, objects = _world()
    posts, fields, files = _discover(world, objects)
    names = {name for _route, name in posts}
    # The handlers the issue names must be among those found, with the fields they read.
    assert {
        "referee_decide",
        "member_merge",
        "list_baseline",
        "manage_import",
        "manage_import_confirm",
        "manage_participants",
        "manage_round",
    } <= names, names
    assert {"lists", "decision", "comment"} <= set(fields["referee_decide"])
    assert {"token", "choice-0", "status"} <= set(fields["manage_import_confirm"])
    every_field = sorted({f for named in fields.values() for f in named})
    statuses: list[int] = []
    for role, username in ROLES.items():
        for route, name in posts:
            # Logged in afresh for each handler: junk posted to the logout logs him out.
            client = Client() if username is None else world.client(username)
            client.raise_request_exception = True  # a 500 fails with its traceback
            known = {field: sorted(set(v)) for field, v in (fields.get(name) or {}).items()}
            uploads = files.get(name, set())
            context = (client, role, route, name, world, objects, uploads)
            if not _turned_away(context, known, statuses):
                _sweep(context, known or {field: [] for field in every_field}, statuses)
            _poster(context, known, every_field, statuses)()
    figures = (f"{len(posts)} POST handlers × {len(ROLES)} roles: {len(statuses)} posts, "
               f"{sum(s >= 500 for s in statuses)} 5xx")  # fmt: skip
    record_property("post_fuzz_summary", [figures])
    print(figures)  # shown with -rA
    assert statuses and not [s for s in statuses if s >= 500]


@contextmanager
def _pristine():
    """Each post meets the world as built: what it changed is rolled back (a club admin's
    junk withdraws and deletes tables; a referee after him would see only 404s)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def _fresh(context, known: dict) -> dict:  # noqa: ANN001
    """The offered values, with a confirm page's token from this role's own upload."""
    client, _role, _route, name, world, _objects, _uploads = context
    if name not in UPLOADS:
        return known
    found: dict = defaultdict(lambda: defaultdict(list))
    _read_forms(_upload(world, client, name), name, found, defaultdict(set))
    return {**known, **{f: sorted(set(v)) for f, v in found.get(name, {}).items()}}


def _turned_away(context, known: dict, statuses: list[int]) -> bool:  # noqa: ANN001
    """Does the handler refuse this role at the door (403, or off to the login page) even
    with the form as offered? Then the field-by-field sweep is skipped (the checks of who
    may post come before the form is read); the Hypothesis examples still post junk."""
    client, role, route, name, world, objects, _uploads = context
    url = fill(route, name, _values(world, objects, "submitted", 0))
    with _pristine():
        offered = _fresh(context, known)
        form = {field: values[0] for field, values in offered.items() if values}
        response = client.post(url, form)
    statuses.append(response.status_code)
    assert response.status_code < 500, (role, url, form)
    to_login = response.status_code == 302 and "/accounts/login/" in response["Location"]
    return response.status_code == 403 or to_login


def _sweep(context, known: dict, statuses: list[int]) -> None:  # noqa: ANN001
    """Each field in turn takes each of SHARPEST (the other fields as offered), with the
    rest of JUNK as further values of the same field (what `getlist` reads)."""
    client, role, route, name, world, objects, uploads = context
    url = fill(route, name, _values(world, objects, "submitted", 0))
    for field in sorted(known):
        if field == "csrfmiddlewaretoken":
            continue
        for sharp in SHARPEST:
            with _pristine():
                offered = _fresh(context, known)  # a confirm that succeeded used its upload
                form: dict[str, object] = {f: v[0] for f, v in offered.items() if v and f != field}
                if field in uploads:
                    form[field] = SimpleUploadedFile("junk.csv", sharp.encode())
                else:
                    form[field] = [*JUNK, sharp]
                response = client.post(url, form)
            statuses.append(response.status_code)
            assert response.status_code < 500, (role, url, field, sharp)


def _poster(context, known, every_field, statuses):  # noqa: ANN001, ANN202
    """A Hypothesis test posting junk to one handler: several fields at once."""
    client, role, route, name, world, objects, uploads = context
    names_posted = sorted(known) or every_field

    @settings(max_examples=EXAMPLES_PER_HANDLER, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck), database=None)  # fmt: skip
    @given(data=st.data())
    def post_junk(data) -> None:  # noqa: ANN001
        status = data.draw(st.sampled_from(["draft", "submitted"]), label="table")
        member = data.draw(st.integers(0, 5), label="member")
        url = fill(route, name, _values(world, objects, status, member))
        with _pristine():
            offered = _fresh(context, known)
            response = client.post(url, _junk_form(data, names_posted, offered, uploads))
        statuses.append(response.status_code)
        assert response.status_code < 500, (role, url)

    return post_junk


def _junk_form(data, names_posted, known, uploads) -> dict[str, object]:  # noqa: ANN001
    """Each field: absent, a value the page offered, junk, or several of them."""
    junk = st.one_of(st.sampled_from(JUNK), st.text(max_size=30))
    form: dict[str, object] = {}
    for field in names_posted:
        offered = known.get(field, [])
        value = st.sampled_from(offered) | junk if offered else junk
        kind = data.draw(st.sampled_from(["one", "one", "one", "many", "absent"]), label=field)
        if kind == "absent":
            continue
        if field in uploads:
            content = data.draw(st.binary(max_size=200) | st.sampled_from(JUNK_FILES))
            form[field] = SimpleUploadedFile("junk.json", content)
        elif kind == "many":
            form[field] = data.draw(st.lists(value, min_size=2, max_size=3))
        else:
            form[field] = data.draw(value)
    return form
