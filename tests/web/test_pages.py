"""Home, player profile, tournaments, clubs, calculator, my profile."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from ratings.models import RatingHistory
from tests.factories import MemberFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_home_shows_lists_recent_and_waiting(client, world):
    TournamentFactory(name="Pending Open", status=Tournament.Status.SUBMITTED)
    TournamentFactory(name="Secret Draft", status=Tournament.Status.DRAFT)
    html = client.get(reverse("home")).content.decode()
    assert "Ukraine Go" in html and "Autumn Cup" in html and "Pending Open" in html
    assert "Secret Draft" not in html


def test_player_profile(client, world):
    player = world.players[1]
    response = client.get(reverse("player_detail", args=[player.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert player.full_name in html
    assert "Spring Cup" in html and "Autumn Cup" in html
    # the breakdown names each opponent with his rating, result and expectation
    assert world.players[0].full_name in html and "0.500" in html
    chart = json.loads(
        html.split('id="rating-chart-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    )
    (dataset,) = chart["datasets"]
    assert [p["x"] for p in dataset["data"]] == ["2024-03-01", "2024-09-01"]
    history = RatingHistory.objects.filter(member=player).order_by("date")
    assert [p["y"] for p in dataset["data"]] == [round(h.after) for h in history]
    # head to head: lost to player 0 twice (the earlier player wins every game)
    h2h = {h.opponent_id: h for h in response.context["profile"].head_to_head}
    assert (h2h[world.players[0].pk].wins, h2h[world.players[0].pk].losses) == (0, 2)


def test_profile_rows_are_the_history_and_tournaments_as_stored(client, world):
    """The profile reads his history and tournaments as values (`selectors.ProfileRow`,
    `TournamentBrief`): each row carries the stored row's fields and its tournament's."""
    from ratings.selectors import _PROFILE_ROW_FIELDS

    player = world.players[1]
    RatingHistory.objects.filter(member=player, tournament=world.tournaments[1]).update(
        klass="B", note="Rated twice", reset=True
    )
    profile = client.get(reverse("player_detail", args=[player.pk])).context["profile"]
    lines = [line for section in profile.sections for line in section.lines]
    assert len(lines) == 2
    for line in lines:
        stored = RatingHistory.objects.select_related("tournament").get(pk=line.row.pk)
        assert {f: getattr(line.row, f) for f in _PROFILE_ROW_FIELDS} == {
            f: getattr(stored, f) for f in _PROFILE_ROW_FIELDS
        }
        shown = line.row.tournament
        assert (shown.pk, shown.name, shown.end_date, shown.tournament_class) == (
            stored.tournament.pk, stored.tournament.name, stored.tournament.end_date,
            stored.tournament.tournament_class,
        )  # fmt: skip
        assert line.row.rating_list == stored.rating_list
    assert (lines[0].row.klass, lines[0].row.note, lines[0].row.reset) == ("B", "Rated twice", True)


def test_player_profile_numbers_use_the_readers_decimal_separator(client, world):
    """Changes and expectations are formatted with the separator looked up once a page."""
    import re

    url = reverse("player_detail", args=[world.players[1].pk])
    uk = client.get(url, HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "0,500" in uk and "0.500" not in uk
    assert "0.500" in en and "0,500" not in en
    assert re.search(r"[+−]\d+,\d<", uk) and not re.search(r"[+−]\d+\.\d<", uk)
    assert re.search(r"[+−]\d+\.\d<", en)


def test_breakdown_opponents_named_from_the_record_or_else_by_key(
    client, world, django_assert_num_queries
):
    """The breakdowns' opponents are named from his head-to-head record, one query less;
    an opponent the record leaves out (no played game with him) is read by key."""
    player = world.players[1]
    url = reverse("player_detail", args=[player.pk])
    # member, entries, history, tournaments, breakdowns, head to head, grades, and the
    # list's ratings by country for his rank (issue 56; cached for the next request)
    with django_assert_num_queries(8):
        html = client.get(url).content.decode()
    assert f'<a href="/players/{world.players[0].pk}/">{world.players[0].full_name}</a>' in html
    ghost = MemberFactory(given_name="Ghost", family_name="Opponent")
    row = RatingHistory.objects.filter(member=player).latest("date")
    row.breakdown = [*row.breakdown, {**row.breakdown[0], "opponent": ghost.pk, "round": 9}]
    row.save()
    with django_assert_num_queries(8):  # the ghost by key; the ranks from the cache
        html = client.get(url).content.decode()
    assert f'<a href="/players/{ghost.pk}/">Ghost Opponent</a>' in html


def test_player_head_to_head_games(client, world):
    player, other = world.players[1], world.players[0]
    response = client.get(reverse("player_detail", args=[player.pk]), {"vs": other.pk})
    assert len(response.context["versus_games"]) == 2


def test_unknown_player_404(client, db):
    assert client.get(reverse("player_detail", args=[999999])).status_code == 404


def test_profile_query_count(client, world, django_assert_max_num_queries):
    with django_assert_max_num_queries(10):
        client.get(reverse("player_detail", args=[world.players[0].pk]))


def test_tournament_list_hides_drafts_and_filters(client, world):
    TournamentFactory(name="Secret Draft", status=Tournament.Status.DRAFT)
    TournamentFactory(name="Waiting Cup", status=Tournament.Status.SUBMITTED)
    html = client.get(reverse("tournament_list")).content.decode()
    assert "Spring Cup" in html and "Waiting Cup" in html and "Secret Draft" not in html
    html = client.get(reverse("tournament_list"), {"status": "submitted"}).content.decode()
    assert "Waiting Cup" in html and "Spring Cup" not in html
    html = client.get(reverse("tournament_list"), {"q": "autumn"}).content.decode()
    assert "Autumn Cup" in html and "Spring Cup" not in html


def test_tournament_crosstable_and_changes(client, world):
    tournament = world.tournaments[1]  # 4 players, round robin, earlier player wins
    response = client.get(reverse("tournament_detail", args=[tournament.pk]))
    html = response.content.decode()
    table = response.context["crosstable"]
    assert [row.points for row in table.rows] == [3, 2, 1, 0]
    first = table.rows[0]
    assert [c.text for c in first.cells] == ["2+/w", "3+/w", "", "4+/w", "", ""] or all(
        c.result in ("+", "") for c in first.cells
    )
    assert "Rated." in html
    assert first.changes[0].change == 30.0
    assert "+30.0" in html


def test_rejected_tournament_shows_reason(client, db):
    tournament = TournamentFactory(
        status=Tournament.Status.REJECTED, decision_comment="Round 3 is missing."
    )
    html = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert "Rejected by the referee." in html and "Round 3 is missing." in html


def test_waiting_tournament(client, db):
    tournament = TournamentFactory(status=Tournament.Status.SUBMITTED)
    html = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert "Waiting for a referee." in html


def test_draft_is_404_for_the_public_but_seen_by_its_admin(client, db):
    tournament = TournamentFactory(status=Tournament.Status.DRAFT)
    url = reverse("tournament_detail", args=[tournament.pk])
    assert client.get(url).status_code == 404
    admin = UserFactory()
    tournament.organiser.admins.add(admin)
    client.force_login(admin)
    assert client.get(url).status_code == 200


def test_unknown_tournament_404(client, db):
    assert client.get(reverse("tournament_detail", args=[424242])).status_code == 404


def test_tournament_query_count(client, world, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        client.get(reverse("tournament_detail", args=[world.tournaments[0].pk]))


def test_club_page(client, world, django_assert_max_num_queries):
    club = world.clubs[0]
    with django_assert_max_num_queries(8):
        response = client.get(reverse("club_detail", args=[club.slug]))
    html = response.content.decode()
    for p in world.players:
        assert (p.full_name in html) == (p.club_id == club.pk)
        assert (f'<a href="/players/{p.pk}/">{p.full_name}</a>' in html) == (p.club_id == club.pk)
    spring = next(t for t in world.tournaments if t.name == "Spring Cup")
    assert f'href="/tournaments/{spring.pk}/"' in html and "Spring Cup" in html
    home = client.get(reverse("home")).content.decode()  # the same short list of tournaments
    assert f'href="/tournaments/{spring.pk}/"' in home
    assert client.get(reverse("club_detail", args=["no-such-club"])).status_code == 404


def test_club_home_and_tournament_rows_escape_what_people_typed(client, world):
    """The club's member rows, the tournaments' short lists and the tournament list's rows
    are drawn in Python: every name, city and list name in them is escaped, the ratings
    shown as the list gives them."""
    from ratings.models import RatingEntry
    from tests.factories import RatingListFactory

    evil = '<script>alert("x")</script>'
    club = world.clubs[0]
    club.name = f"Club {evil}"
    club.save()
    member = next(m for m in world.players if m.club_id == club.pk)
    member.family_name = f"Doe {evil}"
    member.save()
    rating_list = RatingListFactory(name=f"List {evil}", slug="evil", system="egf", game="go")
    RatingEntry.objects.create(rating_list=rating_list, member=member, rating=2104.5)
    TournamentFactory(
        name=f"Cup {evil}", city=f"Town {evil}", organiser=club, status=Tournament.Status.SUBMITTED
    )
    pages = [reverse("club_detail", args=[club.slug]), reverse("home"), reverse("tournament_list")]
    for url in pages:
        html = client.get(url).content.decode()
        assert evil not in html, url
        assert "Cup &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html, url
        assert "Town &lt;script&gt;" in html and "Club &lt;script&gt;" in html, url
    html = client.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert f'<a href="/players/{member.pk}/">{member.given_name} Doe &lt;script&gt;' in html
    assert (
        '<span class="muted">List &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;:</span> '
        "<strong>2105</strong>"
    ) in html


def test_calculator_with_ratings(client, db):
    response = client.get(
        reverse("calculator"), {"game": "go", "rating_a": 2100, "rating_b": 2000, "handicap": 0}
    )
    answer = response.context["answer"]
    assert [r.system for r in answer.results] == ["egf", "ufgo", "rivne"]
    egf = answer.results[0]
    assert 0.6 < egf.a < 0.8 and egf.a + egf.b < 1  # epsilon
    assert "%" in response.content.decode()


def test_calculator_with_players(client, world):
    a, b = world.players[0], world.players[3]
    response = client.get(reverse("calculator"), {"game": "go", "a": a.pk, "b": b.pk})
    answer = response.context["answer"]
    assert [r.system for r in answer.results] == ["egf"]
    assert set(answer.missing) == {"ufgo", "rivne"}
    assert answer.results[0].a > 0.5


def test_calculator_needs_two_sides(client, db):
    # submitted from the form (its button sends go=1); a link with one side only fills the form
    response = client.get(reverse("calculator"), {"game": "chess", "rating_a": 1500, "go": "1"})
    assert response.context["answer"] is None
    assert response.context["form"].errors


def test_my_profile_requires_login_and_edits_only_contacts(client, world):
    url = reverse("my_profile")
    assert client.get(url).status_code == 302
    user = UserFactory()
    member = world.players[0]
    member.user = user
    member.save()
    client.force_login(user)
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"email": "me@example.org", "phone": "+380 50 000", "family_name": "Hacker"}
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert (member.email, member.phone) == ("me@example.org", "+380 50 000")
    assert member.family_name != "Hacker"


def test_my_profile_email_is_the_accounts_so_reset_mail_goes_there(client, world, mailoutbox):
    user = UserFactory(email="old@example.org")
    member = world.players[0]
    member.user, member.email = user, "club-records@example.org"
    member.save()
    client.force_login(user)
    form = client.get(reverse("my_profile")).context["form"]
    assert form.initial["email"] == "old@example.org"  # the account's, not the member's
    client.post(reverse("my_profile"), {"email": "new@example.org", "phone": ""})
    user.refresh_from_db()
    member.refresh_from_db()
    assert user.email == member.email == "new@example.org"
    client.logout()
    client.post(reverse("password_reset"), {"email": "new@example.org"})
    assert [m.to for m in mailoutbox] == [["new@example.org"]]


def test_my_profile_refuses_another_accounts_email(client, world):
    UserFactory(email="taken@example.org")
    user = UserFactory(email="mine@example.org")
    client.force_login(user)
    response = client.post(reverse("my_profile"), {"email": "TAKEN@example.org"})
    assert "Another account uses this e-mail" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "mine@example.org"


def test_my_profile_without_member(client, db):
    user = UserFactory()
    client.force_login(user)
    assert "not linked" in client.get(reverse("my_profile")).content.decode()
    client.post(reverse("my_profile"), {"email": "solo@example.org"})
    user.refresh_from_db()
    assert user.email == "solo@example.org"


def test_auth_pages_render(client, db):
    for name in ("login", "password_reset"):
        assert client.get(reverse(name)).status_code == 200
    client.force_login(UserFactory())
    assert client.get(reverse("password_change")).status_code == 200


def test_role_links_in_nav(client, world):
    user = UserFactory()
    world.rating_list.referees.add(user)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "My profile" in html
    assert "My tournaments" not in html  # not a club admin


def test_language_switch_translates(client, world):
    client.post(reverse("set_language"), {"language": "uk", "next": "/"})
    html = client.get(reverse("rating_lists")).content.decode()
    assert 'lang="uk"' in html and "Рейтинг" in html
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    html = client.get(reverse("rating_lists")).content.decode()
    assert 'lang="ru"' in html and "Рейтинг" in html
    member = MemberFactory()
    assert client.get(reverse("player_detail", args=[member.pk])).status_code == 200


def test_profile_queries_do_not_grow_with_tournaments(client, db):
    """A regular's profile costs the same number of queries as a newcomer's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import MemberFactory, ParticipantFactory

    def queries_for(tournaments: int) -> int:
        member = MemberFactory()
        for _ in range(tournaments):
            ParticipantFactory(member=member, tournament=TournamentFactory(status="approved"))
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("player_detail", args=[member.pk])).status_code == 200
        return len(captured.captured_queries)

    assert queries_for(25) == queries_for(1)


def test_tournament_list_newest_first_and_the_header_says_so(client, db):
    import datetime as dt

    for year in (2020, 2022, 2021):
        day = dt.date(year, 5, 1)
        TournamentFactory(name=f"Cup {year}", start_date=day, end_date=day, status="approved")
    url = reverse("tournament_list")

    def names(response):  # noqa: ANN001, ANN202
        return [t.name for t in response.context["table"].data]

    def header_class(response):  # noqa: ANN001, ANN202
        column = response.context["table"].columns["end_date"]
        return column.attrs["th"].get("class", "")

    default = client.get(url)
    assert names(default) == ["Cup 2022", "Cup 2021", "Cup 2020"]
    assert "desc" in header_class(default)
    ascending = client.get(url, {"sort": "end_date"})
    assert names(ascending) == ["Cup 2020", "Cup 2021", "Cup 2022"]
    assert "asc" in header_class(ascending) and "desc" not in header_class(ascending)
    descending = client.get(url, {"sort": "-end_date"})
    assert names(descending) == ["Cup 2022", "Cup 2021", "Cup 2020"]


def test_profile_chart_jumps_at_a_reset_and_the_breakdown_says_so(client, world):
    player = world.players[1]
    autumn = RatingHistory.objects.get(member=player, tournament__name="Autumn Cup")
    came_in = autumn.rating_in
    autumn.before, autumn.reset = came_in + 300, True
    autumn.after = autumn.before + autumn.change
    autumn.save()
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    chart = json.loads(
        html.split('id="rating-chart-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    )
    (dataset,) = chart["datasets"]
    points = [(p["x"], p["y"], p.get("k")) for p in dataset["data"]]
    assert points[1:] == [
        ("2024-09-01", round(came_in), "in"),
        ("2024-09-01", round(came_in + 300), "start"),
        ("2024-09-01", round(autumn.after), None),
    ]
    assert chart["labels"]["start"] == "start raised"
    expected = f"Start raised from {round(came_in)} to {round(came_in + 300)}: reset."
    assert html.count(expected) == 2  # in the history row and in its breakdown
    # an anomaly restart says so; an unchanged start adds no point
    autumn.reset, autumn.anomalous = False, True
    autumn.save()
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert ": anomaly." in html
    spring = client.get(reverse("player_detail", args=[world.players[5].pk])).content.decode()
    assert "Start raised" not in spring and '"k"' not in spring


def test_profile_labels_the_lists_grade_and_the_professed_grades(client, world):
    from ratings.models import RatingEntry
    from tests.factories import RatingListFactory

    player = world.players[2]  # professes 2k at his tournaments
    ufgo = RatingListFactory(name="UFGO", slug="ufgo", system="ufgo", game="go")
    RatingEntry.objects.create(rating_list=ufgo, member=player, rating=2000, grade="1k")
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert "UFGO grade 1k" in html
    assert "Grades professed at tournaments" in html and "declared grade 2k" in html


def test_home_title_once_and_a_favicon(client, db):
    from django.contrib.staticfiles import finders

    html = client.get(reverse("home")).content.decode()
    assert "<title>Club ratings</title>" in html
    assert 'rel="icon"' in html and "favicon.svg" in html
    assert finders.find("favicon.svg")
    html = client.get(reverse("tournament_list")).content.decode()
    assert "<title>Tournaments · Club ratings</title>" in html


def test_cards_and_tables_use_the_same_short_date(client, world):
    import datetime as dt

    from django.utils.formats import date_format

    short = date_format(dt.date(2024, 9, 1), "SHORT_DATE_FORMAT")
    long = date_format(dt.date(2024, 9, 1), "DATE_FORMAT")
    home = client.get(reverse("home")).content.decode()  # the recent tournaments card
    assert short in home and long not in home
    profile = client.get(reverse("player_detail", args=[world.players[0].pk])).content.decode()
    assert f"last played {short}" in " ".join(profile.split())


def test_participants_table_shows_given_then_family_name(client, world):
    from tests.web.manage_data import build

    setup = build()
    client.force_login(setup.user("admin"))
    html = client.get(reverse("manage_participants", args=[setup.draft.pk])).content.decode()
    member = setup.players[0]
    assert f"{member.given_name} {member.family_name}" in html
    assert f"{member.family_name} {member.given_name}" not in html


def test_club_page_lists_each_members_ratings_in_one_order(client, world):
    from ratings.models import RatingEntry
    from tests.factories import RatingListFactory

    first = RatingListFactory(name="A Club List", slug="a-club", system="rivne", game="go")
    last = RatingListFactory(name="Zed UFGO", slug="zed", system="ufgo", game="go")
    club = world.clubs[0]
    members = [m for m in world.players if m.club_id == club.pk]
    for m in members:  # created in a different order for each member
        for rl in (last, first) if m.pk % 2 else (first, last):
            RatingEntry.objects.create(rating_list=rl, member=m, rating=1500)
    response = client.get(reverse("club_detail", args=[club.slug]))
    for m in response.context["members"]:
        assert [e.rating_list.name for e in m.entries] == ["A Club List", "Ukraine Go", "Zed UFGO"]
    assert 'class="text-nowrap"><a href="/players/' in response.content.decode()


def test_older_breakdowns_open_on_their_own_page(client, db):
    """A regular's profile shows the newest breakdowns in place and links the older ones."""
    import datetime as dt

    from ratings.models import RatingHistory
    from ratings.selectors import INLINE_BREAKDOWNS
    from tests.factories import MemberFactory, RatingListFactory

    member, opponent = MemberFactory(), MemberFactory(family_name="Opponentova")
    rating_list = RatingListFactory()
    rows = []
    for index in range(INLINE_BREAKDOWNS + 3):
        day = dt.date(2020, 1, 1) + dt.timedelta(days=7 * index)
        tournament = TournamentFactory(status="approved", start_date=day, end_date=day)
        rows.append(
            RatingHistory.objects.create(
                rating_list=rating_list,
                member=member,
                tournament=tournament,
                date=tournament.end_date,
                sequence=index + 1,
                rating_in=1500.0,
                before=1500.0,
                after=1510.0,
                change=10.0,
                games_count=1,
                breakdown=[
                    {
                        "round": 1,
                        "opponent": opponent.pk,
                        "opponent_rating": 1480.0,
                        "score": 1.0,
                        "expected": 0.53,
                        "change": 10.0,
                    }
                ],
            )
        )
    page = client.get(reverse("player_detail", args=[member.pk])).content.decode()
    oldest, newest = rows[0], rows[-1]
    assert f'id="bd-{newest.pk}"' in page
    assert f'id="bd-{oldest.pk}"' not in page
    link = reverse("player_breakdown", args=[member.pk, oldest.pk])
    assert link in page
    detail = client.get(link).content.decode()
    assert "Opponentova" in detail and "1480" in detail
    stranger = MemberFactory()
    assert client.get(reverse("player_breakdown", args=[stranger.pk, oldest.pk])).status_code == 404


def test_tournament_list_rows_say_who_held_them_on_every_page_and_sort(client, db):
    import datetime as dt

    from tests.factories import ClubFactory, ParticipantFactory

    organiser = ClubFactory(name="Entering <Club>")
    host = ClubFactory(name="Host Club")
    day = dt.date(2024, 5, 1)
    hosted = TournamentFactory(
        name="A Hosted Cup", organiser=organiser, host=host, status="approved", game="chess",
        start_date=day, end_date=day,
    )  # fmt: skip
    abroad = TournamentFactory(
        name="A Abroad Cup", organiser=organiser, host_external=True, status="submitted",
        start_date=day, end_date=day,
    )  # fmt: skip
    for days_before in range(1, 61):  # a second page, and more
        earlier = day - dt.timedelta(days=days_before)
        TournamentFactory(
            organiser=organiser, status="approved", start_date=earlier, end_date=earlier
        )
    ParticipantFactory.create_batch(3, tournament=hosted)
    ParticipantFactory(tournament=abroad)
    url = reverse("tournament_list")

    def row_of(html, name):  # noqa: ANN001, ANN202
        return html.split(f">{name}</a>", 1)[1].split("</tr>", 1)[0]

    for query in ({}, {"sort": "name", "page": 1}, {"sort": "-players"}):
        html = client.get(url, query).content.decode()
        hosted_row = row_of(html, "A Hosted Cup")
        assert f'href="/clubs/{host.slug}/">Host Club</a>' in hosted_row
        assert "entered by Entering &lt;Club&gt;" in hosted_row
        assert f"<td>{hosted.get_game_display()}</td>" in hosted_row
        assert f">{hosted.get_status_display()}</span>" in hosted_row
        assert '<td class="num">3</td>' in hosted_row
        abroad = row_of(html, "A Abroad Cup")
        assert "external organiser" in abroad and "entered by Entering &lt;Club&gt;" in abroad
    # The tournament's own page says the same (one tag draws both).
    detail = client.get(reverse("tournament_detail", args=[hosted.pk])).content.decode()
    assert (
        f'<span class="organised-by"><a href="/clubs/{host.slug}/">Host Club</a> '
        '<span class="muted small">(entered by Entering &lt;Club&gt;)</span></span>'
    ) in detail
    # Past page 1 by name: found on the keys without the players' counts, drawn with them.
    deep = client.get(url, {"sort": "-name", "page": 2}).content.decode()
    assert deep.count("<tr><td>") == 12 and '<td class="num">0</td>' in deep
    assert "A Abroad Cup" in deep and "A Hosted Cup" in deep  # by name, descending


def test_club_pages_show_every_member_once_in_name_order(client, db):
    """A big club's pages, past the middle read from the end of the name order: walking
    them all shows each member once, namesakes included, by name then id."""
    from clubsite.models import Club
    from tests.factories import MemberFactory

    club = Club.objects.create(name="Big Club", slug="big-club")
    for i in range(250):
        MemberFactory(club=club, family_name=f"Name{i % 70:02d}", given_name="Ann")
    shown = []
    for page in (1, 2, 3):
        response = client.get(reverse("club_detail", args=["big-club"]), {"page": page})
        shown += list(response.context["members"])
    assert len(shown) == 250
    assert [m.pk for m in shown] == [
        m.pk for m in sorted(shown, key=lambda m: (m.family_name, m.given_name, m.pk))
    ]
    assert len({m.pk for m in shown}) == 250


def test_a_club_without_members_has_its_page(client, db):
    from clubsite.models import Club

    Club.objects.create(name="Empty Club", slug="empty-club")
    response = client.get(reverse("club_detail", args=["empty-club"]), {"page": 3})
    assert response.status_code == 200
    assert list(response.context["members"]) == []
