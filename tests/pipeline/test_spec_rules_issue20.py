"""Issue 20: the rules around the engine, each at its boundary, through the commands.

Every test imports hand-made results files with `import_tournament`, approves them with
`approve_tournament`, recomputes with `recompute` (or publishes with
`publish_rating_list`) and reads what the database stored.
"""

from __future__ import annotations

import json

import pytest

from clubsite.models import Member
from ratings.models import RatingEntry, RatingHistory
from tests.factories import RatingListFactory
from tests.pipeline.spec_files import call, event_json, run_json, run_text
from tournaments.formats import parse

pytestmark = pytest.mark.django_db

ADULT = "1980-01-01"


# --- 1. ORR: event.participants (orr.md B.2) ----------------------------------------

ORR_PLAYERS = [
    {"id": "a", "name": "Adamenko A", "rating": 2400, "birth_date": ADULT},
    {"id": "b", "name": "Bondar B", "rating": 2300, "birth_date": ADULT},
    {"id": "c", "name": "Chorny C", "rating": 2200, "birth_date": ADULT},
    {"id": "n", "name": "Novak N", "birth_date": ADULT},
    {"id": "m", "name": "Melnyk M", "birth_date": ADULT},
    {"id": "o", "name": "Oliynyk O", "birth_date": ADULT},
]
ORR_GAMES = [
    (1, "a", "n", "black"), (1, "b", "c", "white"), (1, "m", "o", "draw"),
    (2, "n", "b", "white"), (2, "a", "c", "white"), (2, "o", "m", "black"),
    (3, "c", "n", "draw"), (3, "a", "m", "white"), (3, "b", "o", "black"),
]  # fmt: skip


def _orr_event(**event):
    return event_json(
        system="orr", date="2024-05-01", players=ORR_PLAYERS, games=ORR_GAMES, **event
    )


@pytest.mark.parametrize(
    ("declared", "melnyk"),
    [(None, 1916), (6, 1916), (26, 1802)],  # Np 6 → n 2 ≤ i 3; Np 26 → n 5 > i 3: Kt 24 → 15
)
def test_orr_sends_the_declared_number_of_participants(tmp_path, declared, melnyk):
    RatingListFactory(slug="orr", system="orr", game="chess")
    extra = {"participants": declared} if declared else {}
    tournament = run_json(tmp_path, "orr", _orr_event(**extra))
    assert tournament.participants_declared == (26 if declared == 26 else None)
    member = Member.objects.get(import_key="m")
    assert RatingEntry.objects.get(member=member).rating == melnyk
    exported = json.loads(
        "\n".join(call("export_tournament", str(tournament.pk), "--format", "json"))
    )
    assert exported["event"].get("participants") == (26 if declared == 26 else None)


def test_trf_record_062_is_kept_shown_and_exported(tmp_path, client):
    RatingListFactory(slug="orr", system="orr", game="chess")
    tournament = run_json(tmp_path, "orr", _orr_event(participants=26))
    trf = "\n".join(call("export_tournament", str(tournament.pk), "--format", "trf16"))
    assert "062 26" in trf.splitlines()
    assert parse(trf.encode(), "trf16").details.participants == 26
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "(of 26 participants)" in page
    assert client.get(f"/api/tournaments/{tournament.pk}/").json()["participants"] == 26


# --- 2, 3, 6. UFGO publications (ufgo.md 1.5, 2.6, 2.7, B9) ----------------------------

LOSSES = 60  # 60 lost games against 2000s take a 2500 down by ~264, a 2400 by ~264


def _ufgo_start(tmp_path, date, strong, rating, name="start"):
    """Each of `strong` enters the list at `rating` (a start the file gives, D2)."""
    players = [{"id": k, "name": f"Strong {k}", "rating": rating, "grade": "3d"} for k in strong]
    players.append({"id": "pal", "name": "Pal P", "rating": rating, "grade": "3d"})
    games = [(i + 1, k, "pal", "draw") for i, k in enumerate(strong)]
    return run_json(
        tmp_path, "ufgo", event_json(system="ufgo", date=date, players=players, games=games,
                                     name=name), name=name
    )  # fmt: skip


def _ufgo_losses(tmp_path, date, strong, name="losses"):
    """Each of `strong` loses LOSSES games against newcomers at 2000: one a round, in two
    events on `date` (a results file holds at most 30 rounds)."""
    rounds_per_event = 30
    for part in range(LOSSES // rounds_per_event):
        event = f"{name}-{part + 1}"
        players = [{"id": k, "name": f"Strong {k}"} for k in strong]
        games = []
        for k in strong:
            for r in range(rounds_per_event):
                weak = f"{event}-{k}-{r}"
                players.append({"id": weak, "name": f"Weak {weak}", "rating": 2000, "grade": "1k"})
                games.append((r + 1, k, weak, "black"))
        run_json(
            tmp_path, "ufgo", event_json(system="ufgo", date=date, players=players, games=games,
                                         name=event), name=event
        )  # fmt: skip


def _published_grade(slug_date, key):
    from ratings.models import PublishedEntry

    return PublishedEntry.objects.get(snapshot__date=slug_date, member__import_key=key).grade


def _publish(date):
    return call("publish_rating_list", "ufgo", "--date", date)


@pytest.mark.parametrize("draw_between", [False, True])
def test_ufgo_each_publication_lowers_from_what_the_previous_one_left(tmp_path, draw_between):
    import datetime as dt

    from ratings.systems.grades import Grade

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    _ufgo_start(tmp_path, "2024-03-10", ["s"], 2500)
    _publish("2024-04-01")
    assert _published_grade(dt.date(2024, 4, 1), "s") == Grade("d", 5)  # 2.5
    _ufgo_losses(tmp_path, "2024-05-10", ["s"])
    ik = RatingEntry.objects.get(member__import_key="s").rating
    assert 2000 < ik <= 2249  # at most 4d's norm - 151 as well as 5d's
    _publish("2024-07-01")
    assert _published_grade(dt.date(2024, 7, 1), "s") == Grade("d", 4)  # one step (2.6)
    if draw_between:  # a zero-change draw between the publications changes nothing
        players = [{"id": "s", "name": "Strong s"}, {"id": "t", "name": "Twin T", "rating": ik,
                   "grade": "2d"}]  # fmt: skip
        run_json(tmp_path, "ufgo", event_json(system="ufgo", date="2024-08-10", players=players,
                 games=[(1, "s", "t", "draw")], name="draw"), name="draw")  # fmt: skip
        assert RatingEntry.objects.get(member__import_key="s").rating == ik
    _publish("2024-10-01")
    # From the 4d the July list left, not from the history's 5d: 4d → 2d (floating again).
    assert _published_grade(dt.date(2024, 10, 1), "s") == Grade("d", 2)
    assert RatingEntry.objects.get(member__import_key="s").grade == Grade("d", 2)
    _publish("2025-01-01")
    assert _published_grade(dt.date(2025, 1, 1), "s") == Grade("d", 2)


def test_ufgo_age_protection_is_the_same_at_publication_and_at_events(tmp_path):
    """2.7, B9: protected from the day after the 60th birthday; a year alone is 1 July."""
    import datetime as dt

    from ratings.systems.grades import Grade

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    strong = ["year64", "year65", "bday-before", "bday-on"]
    _ufgo_start(tmp_path, "2024-03-10", strong, 2400)
    _publish("2024-04-01")
    _ufgo_losses(tmp_path, "2024-05-10", strong)
    assert all(e.rating <= 2249 for e in RatingEntry.objects.filter(member__import_key__in=strong))
    Member.objects.filter(import_key="year64").update(birth_year=1964)  # 60 on 1 July 2024
    Member.objects.filter(import_key="year65").update(birth_year=1965)
    Member.objects.filter(import_key="bday-before").update(birth_date=dt.date(1964, 9, 30))
    Member.objects.filter(import_key="bday-on").update(birth_date=dt.date(1964, 10, 1))
    _publish("2024-10-01")
    day = dt.date(2024, 10, 1)
    assert _published_grade(day, "year64") == Grade("d", 4)  # protected: a year alone
    assert _published_grade(day, "year65") == Grade("d", 2)
    assert _published_grade(day, "bday-before") == Grade("d", 4)  # 60 the day before
    assert _published_grade(day, "bday-on") == Grade("d", 2)  # his 60th birthday itself


def test_ufgo_publication_dates_are_quarter_days_never_in_the_future(tmp_path):
    import datetime as dt

    from django.core.management import CommandError

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    _ufgo_start(tmp_path, "2024-03-10", ["s"], 2400)
    with pytest.raises(CommandError, match="1 January, 1 April"):
        _publish("2024-05-15")
    with pytest.raises(CommandError, match="1 January, 1 April"):
        _publish("2024-04-02")
    assert "published ufgo on 2024-04-01: 2 players" in _publish("2024-04-01")
    today = dt.date.today()
    future = dt.date(today.year + 1, 1, 1)
    with pytest.raises(CommandError, match="future"):
        _publish(future.isoformat())
    with pytest.raises(CommandError, match="must come after"):
        _publish("2024-01-01")
    with pytest.raises(CommandError, match="already published"):
        _publish("2024-04-01")


def test_ufgo_past_dated_publication_reaches_the_live_list_at_once(tmp_path):
    """A player who played after the date shows the publication's grade at once, and the
    live list equals a from-scratch replay."""
    from ratings.systems.grades import Grade

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    _ufgo_start(tmp_path, "2024-03-10", ["s"], 2400)
    players = [{"id": "s", "name": "Strong s"}, {"id": "pal", "name": "Pal P"}]
    run_json(tmp_path, "ufgo", event_json(system="ufgo", date="2024-04-10", players=players,
             games=[(1, "s", "pal", "draw")], name="april"), name="april")  # fmt: skip
    assert RatingEntry.objects.get(member__import_key="s").grade == Grade("d", 3)
    _publish("2024-04-01")  # published on 12 April, dated 1 April
    assert RatingEntry.objects.get(member__import_key="s").grade == Grade("d", 4)
    live = list(
        RatingEntry.objects.order_by("member_id").values_list("member_id", "rating", "grade")
    )
    call("recompute", "ufgo")
    assert live == list(
        RatingEntry.objects.order_by("member_id").values_list("member_id", "rating", "grade")
    )


# --- 4, 7, 12. EGF class from the time control; exact minutes; the applied class shown -

TWO_KYU = [{"id": "a", "name": "Andriy A", "grade": "5k"}, {"id": "b", "name": "Bohdan B", "grade": "5k"}]  # fmt: skip


def _egf_event(basic, overtime=None, klass="A", name="egf"):
    time = {"basic_minutes": basic}
    if overtime is not None:
        time["overtime"] = overtime
    return event_json(system="egf", date="2024-05-01", players=TWO_KYU, name=name,
                      games=[(1, "a", "b", "white")], time_control=time, **{"class": klass})  # fmt: skip


def _link(tournament):
    from ratings.models import ListTournament

    return ListTournament.objects.get(tournament=tournament)


@pytest.mark.parametrize(
    ("basic", "overtime", "applied"),
    [
        (40, "byoyomi 5x1min", "B"),  # 40 + 45·60 s = 85 (was read as 1 s: class C)
        (40, "byoyomi 5x14s", "B"),  # 40 + 10.5 = 50.5
        (40, "byoyomi 5x13s", "C"),  # 40 + 9.75 = 49.75
        (60, "canadian 25/300s", "B"),  # 60 + 60·12 s = 72 (was 30 s a stone: class A)
        (60, "canadian 25/375s", "A"),  # 60 + 60·15 s = 75
        (60, "canadian 25/5min", "B"),
        (60, "byoyomi 10s", "B"),  # the application's own export: 60 + 7.5 = 67.5
    ],
)
def test_egf_class_follows_every_overtime_form(tmp_path, basic, overtime, applied):
    RatingListFactory(slug="egf", system="egf", game="go")
    tournament = run_json(tmp_path, "egf", _egf_event(basic, overtime))
    assert _link(tournament).applied_class == applied
    row = RatingHistory.objects.filter(tournament=tournament).first()
    assert row.klass == applied


def test_egf_class_survives_the_applications_own_export(tmp_path):
    RatingListFactory(slug="egf", system="egf", game="go")
    first = run_json(tmp_path, "egf", _egf_event(60, "byoyomi 10s"))
    exported = "\n".join(call("export_tournament", str(first.pk), "--format", "json"))
    assert json.loads(exported)["event"]["time_control"]["overtime"] == "byoyomi 10s"
    again = run_json(tmp_path, "egf", {**json.loads(exported), "event": {
        **json.loads(exported)["event"], "id": "again", "name": "again"}}, name="again")  # fmt: skip
    assert (again.overtime_kind, again.overtime_seconds) == ("byoyomi", 10)
    assert _link(again).applied_class == _link(first).applied_class == "B"


EGD_TWO = """; CL[A]
; EV[Short {tm}]
; PC[UA, Kyiv]
; DT[2024-05-01,2024-05-01]
; TM[{tm}]
;
  1 Andriyenko Andriy  5k UA Kyiv 0 1 0 0 0   2+/w |
  2 Bondarenko Bohdan  5k UA Kyiv 0 0 0 0 0   1-/b |
"""


@pytest.mark.parametrize(("tm", "rated"), [("29.5", False), ("29.99", False), ("30", True)])
def test_egf_minutes_are_compared_exactly(tmp_path, tm, rated):
    from tournaments.formats import parse as parse_file

    RatingListFactory(slug="egf", system="egf", game="go")
    text = EGD_TWO.format(tm=tm)
    assert len(parse_file(text.encode(), "egd").games) == 1
    tournament = run_text(tmp_path, "egf", text, "egd")
    assert str(tournament.basic_time_minutes).rstrip("0").rstrip(".") == tm
    assert RatingHistory.objects.filter(tournament=tournament).exists() == rated
    link = _link(tournament)
    assert link.applied_class == ("C" if rated else "")
    assert (link.not_rated_reason != "") == (not rated)


@pytest.mark.parametrize(("basic", "rated"), [(44.6, False), (44.99, False), (45, True)])
def test_ufgo_minutes_are_compared_exactly(tmp_path, basic, rated):
    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    data = event_json(system="ufgo", date="2024-05-01", players=TWO_KYU,
                      games=[(1, "a", "b", "white")], time_control={"basic_minutes": basic})  # fmt: skip
    tournament = run_json(tmp_path, "ufgo", data)
    assert RatingHistory.objects.filter(tournament=tournament).exists() == rated


def test_egf_pages_and_api_show_the_applied_class(tmp_path, client):
    RatingListFactory(slug="egf", system="egf", game="go")
    tournament = run_json(tmp_path, "egf", _egf_event(60, "canadian 25/300s", klass="A"))
    member = Member.objects.get(import_key="a")
    page = client.get(member.get_absolute_url()).content.decode()
    assert "B <span" in page and "(entered A)" in page
    api = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert (api["class"], api["class_entered"], api["class_by_list"]) == ("B", "A", {"egf": "B"})
    detail = client.get(tournament.get_absolute_url()).content.decode()
    assert "rates it as class B" in detail
    row = RatingHistory.objects.get(tournament=tournament, member=member)
    weighted = sum(g["change"] for g in row.breakdown)
    assert row.change == pytest.approx(weighted)  # the breakdown is at class B weight


# --- 5, 13. UFGO 1.7: the IK tested is the one he brings; what the row says ----------


@pytest.mark.parametrize(("basic", "kept"), [(50, True), (59.99, True), (60, False)])
def test_ufgo_newcomer_above_2100_is_not_rated_under_60_minutes(tmp_path, basic, kept):
    from ratings.recompute.rules import KEPT_BY_TIME_CONTROL

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    players = [{"id": "d3", "name": "Dan Three", "grade": "3d"},  # start 2300 > 2100
               {"id": "d1", "name": "Dan One", "grade": "1d"}]  # start 2100: not above  # fmt: skip
    data = event_json(system="ufgo", date="2024-05-01", players=players,
                      games=[(1, "d3", "d1", "white")], time_control={"basic_minutes": basic})  # fmt: skip
    tournament = run_json(tmp_path, "ufgo", data)
    three = RatingHistory.objects.get(tournament=tournament, member__import_key="d3")
    one = RatingHistory.objects.get(tournament=tournament, member__import_key="d1")
    assert one.rated and one.after is not None
    if kept:
        assert not three.rated and three.after is None and three.note == KEPT_BY_TIME_CONTROL
        assert RatingEntry.objects.get(member__import_key="d3").rating is None
    else:
        assert three.rated and three.after > 2300 and three.note == ""


def test_ufgo_kept_player_row_says_why_and_does_not_contradict_itself(tmp_path, client):
    from ratings.recompute.rules import KEPT_BY_TIME_CONTROL

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    players = [{"id": "s", "name": "Strong S", "rating": 2440, "grade": "3d"},
               {"id": "w", "name": "Weak W", "rating": 1500, "grade": "5k"}]  # fmt: skip
    run_json(tmp_path, "ufgo", event_json(system="ufgo", date="2024-03-01", players=players,
             games=[(1, "s", "w", "white")], name="first"), name="first")  # fmt: skip
    ik = RatingEntry.objects.get(member__import_key="s").rating
    short = event_json(system="ufgo", date="2024-04-01", players=[{"id": "s"}, {"id": "w"}],
                       games=[(1, "w", "s", "white")], time_control={"basic_minutes": 50},
                       name="short")  # fmt: skip
    tournament = run_json(tmp_path, "ufgo", short, name="short")
    row = RatingHistory.objects.get(tournament=tournament, member__import_key="s")
    assert (row.before, row.after, row.change, row.rated) == (ik, ik, 0.0, False)
    assert not row.reset and row.note == KEPT_BY_TIME_CONTROL
    assert RatingEntry.objects.get(member__import_key="s").rating == ik
    page = client.get(Member.objects.get(import_key="s").get_absolute_url()).content.decode()
    assert "not rated: time control (1.7)" in page


def test_ufgo_anomaly_restart_is_no_reset(tmp_path):
    """An anomaly (a start raised by 4.4/B6) is not the EGF's reset, and says so."""
    from ratings.recompute.rules import UFGO_ANOMALY

    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    players = [{"id": "s", "name": "S S", "rating": 2700, "grade": "7d"},
               {"id": "w", "name": "W W", "rating": 2000, "grade": "1k"}]  # fmt: skip
    tournament = run_json(tmp_path, "ufgo", event_json(system="ufgo", date="2024-03-10",
                          players=players, games=[(1, "s", "w", "black")]))  # fmt: skip
    row = RatingHistory.objects.get(tournament=tournament, member__import_key="w")
    assert row.anomalous and row.before > 2000 and not row.reset and row.note == UFGO_ANOMALY
    other = RatingHistory.objects.get(tournament=tournament, member__import_key="s")
    assert not other.anomalous and other.note == "" and not other.reset


# --- 8. A declared rating starts a newcomer only under UFGO D2 and ORR D22 -----------


@pytest.mark.parametrize(
    ("system", "game", "uses"), [("uscf", "chess", False), ("egf", "go", False),
                                 ("ufgo", "go", True), ("orr", "chess", True)],
)  # fmt: skip
def test_declared_rating_is_a_start_only_where_the_spec_allows(tmp_path, system, game, uses):
    RatingListFactory(slug="l", system=system, game=game)
    players = [{"id": "n", "name": "New N", "rating": 2000, "grade": "5k", "birth_date": ADULT},
               {"id": "o", "name": "Old O", "rating": 2000, "grade": "5k", "birth_date": ADULT}]  # fmt: skip
    data = event_json(system=system, date="2024-05-01", players=players,
                      games=[(1, "n", "o", "draw")])  # fmt: skip
    tournament = run_json(tmp_path, "l", data)
    row = RatingHistory.objects.get(tournament=tournament, member__import_key="n")
    if uses:
        assert row.before == pytest.approx(2000)
    else:  # USCF: 1600 (U9); EGF: his grade's value, 5k = 1600 (§1)
        assert row.before == pytest.approx(1600)


def test_the_preview_says_a_declared_rating_is_not_used(tmp_path):
    RatingListFactory(slug="l", system="uscf", game="chess")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(event_json(system="uscf", date="2024-05-01",
        players=[{"id": "n", "name": "N N", "rating": 2000}, {"id": "o", "name": "O O"}],
        games=[(1, "n", "o", "draw")])))  # fmt: skip
    printed = "\n".join(call("import_tournament", str(path), "--list", "l", "--format", "json",
                             "--dry-run"))  # fmt: skip
    assert "does not use it" in printed


# --- 9. ORR: the FIDE rating valid when the tournament started ------------------------

TRF_ONE = """012 {name}
042 {day}
052 {day}
001    1 m    Kovalenko, Ivan                   {rating} UKR    14100000 1980/01/01  1.0    1     2 w 1
001    2 m    Petrenko, Petro                        UKR    14100001 1980/01/01  0.0    2     1 b 0
"""


def test_orr_newcomer_gets_the_fide_rating_valid_at_the_start(tmp_path):
    RatingListFactory(slug="orr", system="orr", game="chess")
    # A 2025 file brings his FIDE rating 2000 (rated there), ...
    later = TRF_ONE.format(name="Late", day="2025/03/01", rating="2000")
    run_text(tmp_path, "orr", later, "trf16", name="late")
    kovalenko = Member.objects.get(fide_id="14100000")
    assert list(kovalenko.fide_ratings.values_list("rating", "valid_from")) == [
        (2000, __import__("datetime").date(2025, 3, 1))
    ]
    # ... then a 2023 file without ratings: he was not FIDE-rated then.
    early = TRF_ONE.format(name="Early", day="2023/03/01", rating="    ")
    run_text(tmp_path, "orr", early, "trf16", name="early")
    early_rows = RatingHistory.objects.filter(member=kovalenko, date__year=2023)
    assert not early_rows.filter(before=2000).exists()
    late_row = RatingHistory.objects.get(member=kovalenko, date__year=2025)
    assert late_row.before is not None


def test_fide_rating_on_a_day_boundary():
    import datetime as dt

    from ratings.recompute.reads import fide_ratings_on

    history = {7: [(dt.date(2025, 3, 1), 2000), (dt.date(2025, 6, 1), 2050)]}
    assert fide_ratings_on(history, dt.date(2025, 2, 28)) == {}
    assert fide_ratings_on(history, dt.date(2025, 3, 1)) == {7: 2000}
    assert fide_ratings_on(history, dt.date(2025, 5, 31)) == {7: 2000}
    assert fide_ratings_on(history, dt.date(2025, 6, 1)) == {7: 2050}


# --- 10, 11. EGF: the last professed grade; inactivity in whole months ---------------


def _egf_pair(tmp_path, date, a, b, name, result="white"):
    data = event_json(system="egf", date=date, players=[a, b], games=[(1, a["id"], b["id"], result)],
                      name=name, time_control={"basic_minutes": 90})  # fmt: skip
    return run_json(tmp_path, "egf", data, name=name)


def test_egf_file_without_a_grade_uses_the_last_professed_one(tmp_path):
    import datetime as dt

    from ratings.systems.grades import Grade

    RatingListFactory(slug="egf", system="egf", game="go")
    rival = {"id": "r", "name": "Rival R", "grade": "1d"}
    _egf_pair(tmp_path, "2024-01-10", {"id": "p", "name": "P P", "grade": "5k"}, rival, "one")
    _egf_pair(tmp_path, "2024-02-10", {"id": "p", "name": "P P", "grade": "1d"}, rival, "two")
    third = _egf_pair(tmp_path, "2024-03-10", {"id": "p", "name": "P P"}, rival, "three")
    assert Member.objects.get(import_key="p").grade == Grade("k", 5)  # as he was created
    row = RatingHistory.objects.get(tournament=third, member__import_key="p")
    assert row.grade == Grade("d", 1) and row.list_grade == Grade("d", 1)
    entry = RatingEntry.objects.get(member__import_key="p")
    assert entry.active_until == dt.date(2026, 12, 31)  # a dan: 24 months, whole years


@pytest.mark.parametrize(
    ("day", "until"),
    [("2024-05-01", "2024-11-30"), ("2024-05-31", "2024-11-30"), ("2024-06-01", "2024-12-31")],
)
def test_egf_inactivity_counts_whole_months(tmp_path, day, until):
    import datetime as dt

    RatingListFactory(slug="egf", system="egf", game="go")
    _egf_pair(tmp_path, day, {"id": "x", "name": "X X", "grade": "15k"},
              {"id": "y", "name": "Y Y", "grade": "15k"}, "weak")  # fmt: skip
    dates = set(RatingEntry.objects.values_list("active_until", flat=True))
    assert dates == {dt.date.fromisoformat(until)}


# --- 14. ORR: a zero-score debut is not stored and not counted (D15) ----------------


def test_orr_zero_score_debut_is_not_counted(tmp_path):
    RatingListFactory(slug="orr", system="orr", game="chess")
    rated = [{"id": k, "name": f"R {k}", "rating": 2000, "birth_date": ADULT} for k in "abc"]
    debut = {"id": "z", "name": "Zero Z", "birth_date": ADULT}
    lost = event_json(system="orr", date="2024-01-10", players=[*rated, debut], name="lost",
                      games=[(1, "a", "z", "white"), (2, "z", "b", "black"), (3, "c", "z", "white")])  # fmt: skip
    first = run_json(tmp_path, "orr", lost, name="lost")
    assert not RatingHistory.objects.filter(tournament=first, member__import_key="z").exists()
    assert not RatingEntry.objects.filter(member__import_key="z").exists()
    # His games still count for his opponents.
    assert RatingHistory.objects.get(tournament=first, member__import_key="a").games_count == 1
    scored = event_json(system="orr", date="2024-02-10", players=[{"id": "a"}, {"id": "z"}],
                        games=[(1, "a", "z", "draw"), (2, "z", "a", "draw")], name="scored")  # fmt: skip
    second = run_json(tmp_path, "orr", scored, name="scored")
    row = RatingHistory.objects.get(tournament=second, member__import_key="z")
    assert row.rated and row.rating_in is None  # a newcomer again
    entry = RatingEntry.objects.get(member__import_key="z")
    assert (entry.tournaments, entry.games) == (1, 2)
