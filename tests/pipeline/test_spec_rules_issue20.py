"""Issue 20: the rules around the engine, each at its boundary, through the commands.

Every test imports hand-made results files with `import_tournament`, approves them with
`approve_tournament`, recomputes with `recompute` (or publishes with
`publish_rating_list`) and reads what the database stored.
"""

from __future__ import annotations

import json

import pytest

from clubsite.models import Member
from ratings.models import RatingEntry
from tests.factories import RatingListFactory
from tests.pipeline.spec_files import call, event_json, run_json
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
    """Each of `strong` loses LOSSES games against newcomers at 2000."""
    players = [{"id": k, "name": f"Strong {k}"} for k in strong]
    games = []
    for k_index, k in enumerate(strong):
        for r in range(LOSSES):
            weak = f"{name}-{k}-{r}"
            players.append({"id": weak, "name": f"Weak {weak}", "rating": 2000, "grade": "1k"})
            games.append((k_index * LOSSES + r + 1, k, weak, "black"))
    return run_json(
        tmp_path, "ufgo", event_json(system="ufgo", date=date, players=players, games=games,
                                     name=name), name=name
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
