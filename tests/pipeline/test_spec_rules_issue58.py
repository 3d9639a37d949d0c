"""Issue 58: the last four rules around the engine, each at its boundary, through the commands.

Every test imports hand-made results files with `import_tournament`, approves them with
`approve_tournament` and recomputes with `recompute`, then reads what the database stored
(and, where the rule is about what people are shown, the page that shows it).
"""

from __future__ import annotations

import datetime as dt

import pytest

from clubsite.models import Member
from ratings.models import ListTournament, RatingEntry, RatingHistory
from ratings.recompute.rules import KEPT_BY_TIME_CONTROL, UFGO_ANOMALY
from tests.factories import RatingListFactory
from tests.pipeline.spec_files import event_json, run_json

pytestmark = pytest.mark.django_db

ADULT = "1980-01-01"


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
