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
    exported = json.loads("\n".join(call("export_tournament", str(tournament.pk), "--format", "json")))
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
