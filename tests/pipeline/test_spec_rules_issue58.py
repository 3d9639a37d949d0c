"""Issue 58: the last four rules around the engine, each at its boundary, through the commands.

Every test imports hand-made results files with `import_tournament`, approves them with
`approve_tournament` and recomputes with `recompute`, then reads what the database stored
(and, where the rule is about what people are shown, the page that shows it).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from clubsite.models import Member
from ratings.models import ListTournament, RatingEntry, RatingHistory
from ratings.recompute.rules import KEPT_BY_TIME_CONTROL, UFGO_ANOMALY
from ratings.systems import rate_json
from ratings.systems.grades import Grade
from tests.factories import MemberFactory, RatingListFactory, UserFactory
from tests.pipeline.spec_files import call, event_json, rate, run_json, run_text
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

ADULT = "1980-01-01"


# --- 1. Rivne: a grade the table omits is derived from the rating (rivne.md B3) --------


def _rivne_first_event(tmp_path):
    """P enters the list as 5k (start 1600), W as 10k (1100); an even game, a draw."""
    players = [{"id": "p", "name": "Petrenko P", "grade": "5k"},
               {"id": "w", "name": "Weak W", "grade": "10k"}]  # fmt: skip
    run_json(tmp_path, "rivne", event_json(system="rivne", date="2024-03-01", players=players,
             games=[(1, "p", "w", "draw")], name="first"), name="first")  # fmt: skip


def _rivne_oracle(p_grade, *, date, p_id, w_id, w_grade="10k"):
    """The engine's answer for the second event, from what the list stored after the first:
    P (White) gives W four stones and loses."""
    stored = {
        row.member.import_key: row
        for row in RatingHistory.objects.select_related("member").filter(date="2024-03-01")
    }
    players = [
        {"id": p_id, "rating": stored["p"].after, "grade": p_grade, "history": stored["p"].history},
        {"id": w_id, "rating": stored["w"].after, "grade": w_grade, "history": stored["w"].history},
    ]
    event = {
        "system": "rivne",
        "event": {"id": "second", "date": date},
        "players": players,
        "games": [{"round": 1, "white": p_id, "black": w_id, "result": "black", "handicap": 4}],
    }
    (result,) = [r for r in rate_json(event)["players"] if r["id"] == p_id]
    return result["change"]


@pytest.mark.parametrize("fmt", ["json-1d", "json-none", "csv"])
def test_rivne_missing_grade_is_derived_from_the_rating_not_the_member_record(tmp_path, fmt):
    RatingListFactory(slug="rivne", system="rivne", game="go")
    _rivne_first_event(tmp_path)
    # His club records him as 1d; in the Rivne list he never professed it.
    Member.objects.filter(import_key="p").update(grade="1d")
    p, w = Member.objects.get(import_key="p"), Member.objects.get(import_key="w")
    if fmt == "csv":  # a CSV of games has no grade column at all
        text = f"round,white,black,result,handicap\n1,{p.pk},{w.pk},black,4\n"
        second = run_text(tmp_path, "rivne", text, "csv", name="second", date="2024-04-01")
        date, professed, w_grade = second.end_date.isoformat(), None, None  # W's as well
    else:
        professed = "1d" if fmt == "json-1d" else None
        player = {"id": "p", "name": "Petrenko P"}
        if professed:
            player["grade"] = professed
        data = event_json(system="rivne", date="2024-04-01", name="second",
                          players=[player, {"id": "w", "grade": "10k"}], games=[])  # fmt: skip
        data["games"] = [{"round": 1, "white": "p", "black": "w", "result": "black", "handicap": 4}]
        second = run_json(tmp_path, "rivne", data, name="second")
        date, w_grade = "2024-04-01", "10k"
    row = RatingHistory.objects.get(tournament=second, member=p)
    ids = {"date": date, "p_id": str(p.pk), "w_id": str(w.pk), "w_grade": w_grade}
    as_given = _rivne_oracle(professed, **ids)
    assert row.change == pytest.approx(as_given, rel=1e-12)
    entry = RatingEntry.objects.get(member=p)
    if professed is None:
        # The record's 1d would give d = 10 (SE 0.5, Kф 0.1): a far smaller loss.
        with_record = _rivne_oracle("1d", **ids)
        assert abs(row.change) > 5 * abs(with_record)
        assert row.grade is None  # he professed none here
        assert entry.grade == Grade("k", 5)  # the list shows what he last professed in it
    else:
        assert row.grade == Grade("d", 1) and entry.grade == Grade("d", 1)


def test_rivne_newcomer_without_a_grade_in_the_file_starts_from_his_record(tmp_path):
    """B4/D2: a newcomer starts from his grade; the file gives none, his record does."""
    RatingListFactory(slug="rivne", system="rivne", game="go")
    _rivne_first_event(tmp_path)
    known = Member.objects.get(import_key="w")
    newcomer = MemberFactory(grade="2k")
    text = f"round,white,black,result\n1,{newcomer.pk},{known.pk},white\n"
    second = run_text(tmp_path, "rivne", text, "csv", name="second", date="2024-04-01")
    row = RatingHistory.objects.get(tournament=second, member=newcomer)
    assert row.rating_in is None and row.before == pytest.approx(1900)  # start(2k)


@pytest.mark.parametrize("professed", ["2k", None])
def test_ufgo_known_player_without_a_grade_plays_at_his_ik_alone(tmp_path, professed):
    """ufgo.md B1: a grade is only a newcomer's start; a known player's record is not
    what he professed at the table."""
    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    players = [{"id": "p", "name": "Petrenko P", "rating": 1500, "grade": "5k"},
               {"id": "w", "name": "Weak W", "rating": 1400, "grade": "6k"}]  # fmt: skip
    run_json(tmp_path, "ufgo", event_json(system="ufgo", date="2024-03-01", players=players,
             games=[(1, "p", "w", "draw")], name="first"), name="first")  # fmt: skip
    ik = RatingEntry.objects.get(member__import_key="p").rating
    Member.objects.filter(import_key="p").update(grade="1d")
    player = {"id": "p", **({"grade": professed} if professed else {})}
    second = run_json(tmp_path, "ufgo", event_json(system="ufgo", date="2024-04-01", name="second",
                      players=[player, {"id": "w"}], games=[(1, "w", "p", "white")]), name="second")  # fmt: skip
    row = RatingHistory.objects.get(tournament=second, member__import_key="p")
    assert row.grade == (Grade("k", 2) if professed else None)
    assert row.before == ik and row.rated  # his IK, whatever the grade


@pytest.mark.parametrize(("system", "game"), [("orr", "chess"), ("uscf", "reversi")])
def test_a_go_grade_on_the_member_record_is_no_grade_in_chess_or_reversi(tmp_path, system, game):
    RatingListFactory(slug="l", system=system, game=game)
    players = [{"id": k, "name": f"Player {k}", "rating": 1500, "birth_date": ADULT} for k in "pw"]
    run_json(tmp_path, "l", event_json(system=system, date="2024-03-01", players=players,
             games=[(1, "p", "w", "draw")], name="first"), name="first")  # fmt: skip
    Member.objects.filter(import_key="p").update(grade="1d")  # he plays Go as well
    second = run_json(tmp_path, "l", event_json(system=system, date="2024-04-01", name="second",
                      players=[{"id": "p"}, {"id": "w"}], games=[(1, "w", "p", "white")]),
                      name="second")  # fmt: skip
    row = RatingHistory.objects.get(tournament=second, member__import_key="p")
    assert row.rated and row.grade is None and row.list_grade is None
    assert RatingEntry.objects.get(member__import_key="p").grade is None


# --- 2. ORR: a declared count below the players listed (orr.md Part D) ------------------

ORR_RATED = [
    {"id": k, "name": f"Rated {k}", "rating": r, "birth_date": ADULT}
    for k, r in (("a", 2400), ("b", 2300), ("c", 2200))
]
ORR_NEW = [{"id": f"n{i}", "name": f"Newcomer N{i}", "birth_date": ADULT} for i in range(13)]
ORR_GAMES = [
    (1, "a", "n0", "white"),
    (1, "b", "c", "draw"),
    (2, "n1", "a", "draw"),
    (2, "c", "n2", "white"),
    (3, "b", "n3", "black"),
    *[(4, f"n{i}", f"n{i + 1}", "white") for i in range(4, 12, 2)],
    (5, "n12", "n4", "draw"),
]  # fmt: skip  -- 16 players: 3 rated (i = 3), so Np 16 (n = 4) and Np 9 (n = 3) rate apart


def _orr_file(tmp_path, declared, name):
    event = {"participants": declared} if declared is not None else {}
    data = event_json(system="orr", date="2024-05-01", players=[*ORR_RATED, *ORR_NEW],
                      games=ORR_GAMES, name=name, **event)  # fmt: skip
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _orr_ratings():
    return dict(RatingEntry.objects.values_list("member__import_key", "rating"))


def _orr_engine(np):
    """The ratings the engine gives with Np as given (the file's ids; zero debuts left out)."""
    players = [{"id": p["id"], "rating": p.get("rating"), "birth_date": ADULT}
               for p in [*ORR_RATED, *ORR_NEW]]  # fmt: skip
    event = event_json(system="orr", date="2024-05-01", players=players, games=ORR_GAMES,
                       participants=np)  # fmt: skip
    del event["event"]["name"]
    return {r["id"]: r["after"] for r in rate_json(event)["players"] if r["rated"]}


CONTRADICTION = "declares %d participants but lists 16 players"


@pytest.mark.parametrize(
    ("declared", "contradicts"), [(9, True), (15, True), (16, False), (17, False)]
)
def test_orr_declared_count_below_the_listed_is_a_contradiction_and_the_listed_is_sent(
    tmp_path, client, declared, contradicts
):
    RatingListFactory(slug="orr", system="orr", game="chess")
    assert _orr_engine(9) != _orr_engine(16)  # the count sent can move a rating here
    preview = "\n".join(call("import_tournament", str(_orr_file(tmp_path, declared, "x")),
                             "--list", "orr", "--format", "json", "--dry-run"))  # fmt: skip
    assert (CONTRADICTION % declared in preview) == contradicts
    printed = call("import_tournament", str(_orr_file(tmp_path, declared, "t")), "--list", "orr",
                   "--format", "json")  # fmt: skip
    tournament = Tournament.objects.get(pk=int(printed[-1].split()[1]))
    client.force_login(UserFactory(username="referee", is_staff=True))
    review = client.get(f"/referee/{tournament.pk}/").content.decode()
    assert (CONTRADICTION % declared in review) == contradicts
    rate(tournament, "orr")
    # Np as sent: the listed 16 whenever the file declares fewer, else the declared count.
    assert _orr_ratings() == _orr_engine(max(declared, 16))
    assert tournament.participants_declared == (17 if declared == 17 else None)
    assert tournament.participants_declared_below_listed == (declared if contradicts else None)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert ("(of 17 participants)" in page) == (declared == 17)
    assert f"(of {declared} participants)" not in page or declared == 17


TRF_16 = "012 Many\n042 2024/05/01\n052 2024/05/01\n062 {declared}\n" + "".join(
    f"001 {n:>4} m    {'Player' + str(n) + ', A':<33} {'2000' if n <= 3 else '    '} UKR"
    f"    {14200000 + n:>8} 1980/01/01  {'1.0' if n % 2 else '0.0'} {n:>4}  "
    f"{n + 1 if n % 2 else n - 1:>4} {'w' if n % 2 else 'b'} {'1' if n % 2 else '0'}\n"
    for n in range(1, 17)
)


@pytest.mark.parametrize(("declared", "contradicts"), [(6, True), (16, False)])
def test_orr_trf_record_062_below_the_listed_is_a_contradiction(tmp_path, client, declared,
                                                               contradicts):  # fmt: skip
    from tournaments.formats import parse

    RatingListFactory(slug="orr", system="orr", game="chess")
    text = TRF_16.format(declared=declared)
    assert len(parse(text.encode(), "trf16").players) == 16
    path = tmp_path / "many.trf16"
    path.write_text(text, encoding="utf-8")
    printed = call("import_tournament", str(path), "--list", "orr", "--format", "trf16")
    assert any(CONTRADICTION % declared in line for line in printed) == contradicts
    tournament = Tournament.objects.get(pk=int(printed[-1].split()[1]))
    client.force_login(UserFactory(username="referee", is_staff=True))
    review = client.get(f"/referee/{tournament.pk}/").content.decode()
    assert (CONTRADICTION % declared in review) == contradicts
    rate(tournament, "orr")
    assert RatingHistory.objects.filter(tournament=tournament).count() == 16 - 7  # 7 zero debuts


# --- 3. EGF: the 1996 cutoff goes by the start date (egf.md §8) -------------------------


@pytest.mark.parametrize(
    ("start", "end", "rated"),
    [
        ("1995-12-30", "1995-12-31", False),
        ("1995-12-31", "1996-01-01", False),  # ended in 1996, started in 1995: not rated
        ("1996-01-01", "1996-01-02", True),
    ],
)
def test_egf_1996_cutoff_goes_by_the_start_date(tmp_path, start, end, rated):
    RatingListFactory(slug="egf", system="egf", game="go")
    players = [{"id": "a", "name": "Andriy A", "grade": "5k"},
               {"id": "b", "name": "Bohdan B", "grade": "5k"}]  # fmt: skip
    data = event_json(system="egf", date=end, start_date=start, players=players,
                      games=[(1, "a", "b", "white")], time_control={"basic_minutes": 90})  # fmt: skip
    tournament = run_json(tmp_path, "egf", data)
    assert tournament.start_date == dt.date.fromisoformat(start)
    assert RatingHistory.objects.filter(tournament=tournament).exists() == rated
    link = ListTournament.objects.get(tournament=tournament)
    assert ("1996" in link.not_rated_reason) == (not rated)
    assert RatingEntry.objects.filter(rating__isnull=False).exists() == rated


# --- 4. UFGO: a player kept out by 1.7 is not "anomalous" -------------------------------


@pytest.mark.parametrize(("basic", "kept"), [(59.99, True), (60, False)])
def test_ufgo_player_kept_by_the_time_control_is_not_anomalous(tmp_path, client, basic, kept):
    RatingListFactory(slug="ufgo", system="ufgo", game="go")
    # s brings 2101 (> 2100: kept under 60 minutes); his win over w at 2100 is anomalous
    # when rated (4.4: a win over a near-equal gains 10·0.5 > 0.45·10).
    players = [{"id": "s", "name": "Strong S", "rating": 2101, "grade": "1d"},
               {"id": "w", "name": "Weak W", "rating": 2100, "grade": "1d"}]  # fmt: skip
    data = event_json(system="ufgo", date="2024-05-01", players=players,
                      games=[(1, "s", "w", "white")], time_control={"basic_minutes": basic})  # fmt: skip
    tournament = run_json(tmp_path, "ufgo", data)
    row = RatingHistory.objects.get(tournament=tournament, member__import_key="s")
    page = client.get(Member.objects.get(import_key="s").get_absolute_url()).content.decode()
    if kept:
        assert not row.rated and not row.anomalous and row.note == KEPT_BY_TIME_CONTROL
        assert "not rated: time control (1.7)" in page
        assert ">anomalous<" not in page
    else:
        assert row.rated and row.anomalous and row.note == UFGO_ANOMALY
        assert ">anomalous<" in page
    other = RatingHistory.objects.get(tournament=tournament, member__import_key="w")
    assert other.rated
