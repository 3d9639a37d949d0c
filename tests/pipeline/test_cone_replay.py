"""A retroactive change replays only its cone, and the list equals a full replay (issue 18)."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ratings.models import ListTournament, RatingEntry, RatingHistory, RecomputeRun
from ratings.recompute import cone, history_write
from ratings.recompute.cone import cone_replay
from ratings.recompute.reads import (
    StatesBefore,
    WalkReads,
    load_game_records,
    read_members,
    walk_reads,
)
from ratings.recompute.replay import replay
from ratings.recompute.services import rating_list_recompute, rating_list_request_recompute
from ratings.submissions.services import tournament_approve_and_rate as tournament_approve
from ratings.submissions.services import tournament_reopen_and_unrate as tournament_reopen
from ratings.systems.model import BadInput
from ratings.systems.registry import SYSTEMS
from tests.factories import ClubFactory, MemberFactory, RatingListFactory
from tests.pipeline.builders import SYSTEM_GAMES, approved_again, members, staff_user, submitted
from tests.pipeline.builders import tournament_with_games as table
from tournaments.models import Game, Participant, RoundSeat, Tournament
from tournaments.services import tournament_submit

pytestmark = pytest.mark.django_db


def every_column(rating_list):
    """The whole stored list: each history row and each live entry, every column."""
    history = sorted(
        RatingHistory.objects.filter(rating_list=rating_list).values_list(
            "member_id", "tournament_id", "date", "sequence", "rating_in", "before", "after",
            "change", "games_count", "rated", "provisional", "anomalous", "reset", "grade",
            "list_grade", "klass", "note", "tournaments_so_far", "games_so_far",
            "best_grade_so_far", "history", "breakdown",
        )
    )  # fmt: skip
    entries = sorted(
        RatingEntry.objects.filter(rating_list=rating_list).values_list(
            "member_id", "rating", "rated", "provisional", "grade", "best_grade", "tournaments",
            "games", "last_played", "active_until", "history",
        )
    )  # fmt: skip
    links = sorted(
        (t_id, applied_class, reason, rated_at is not None)
        for t_id, applied_class, reason, rated_at in ListTournament.objects.filter(
            rating_list=rating_list
        ).values_list("tournament_id", "applied_class", "not_rated_reason", "rated_at")
    )
    return history, entries, links


def assert_equals_a_full_replay(rating_list):
    """The stored list (`every_column`) is the one a full recompute makes of it."""
    incremental = every_column(rating_list)
    rating_list_recompute(
        rating_list_id=rating_list.pk, trigger="full", from_date=dt.date(1900, 1, 1)
    )
    assert incremental == every_column(rating_list)


def _world(rng, system, groups=3, per_group=8, tournaments=12):
    """Players in separate groups that rarely meet, so that a cone does not reach everyone."""
    club = ClubFactory()
    rating_list = RatingListFactory(system=system, game=SYSTEM_GAMES[system], slug=f"c-{system}")
    pools = [members(rng, club, per_group) for _ in range(groups)]
    start = dt.date(2022, 1, 3)
    made = []
    for _index in range(tournaments):
        group = rng.randrange(groups)
        pool = pools[group]
        if groups > 1 and rng.random() < 0.2:  # now and then two groups meet
            pool = pool[:4] + pools[(group + 1) % groups][:4]
        day = start + dt.timedelta(days=rng.randint(0, 400))
        made.append(
            table(rng, club=club, players=pool, system=system, day=day, draws=system != "egf")
        )
    return club, pools, rating_list, made


@pytest.mark.parametrize("system", sorted(SYSTEM_GAMES))
@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("ask_ahead", [True, False])
def test_retroactive_changes_replay_their_cone_and_equal_a_full_replay(
    system, seed, ask_ahead, django_capture_on_commit_callbacks, monkeypatch
):
    """The walk asks for its players' states before the date as it learns which tables it
    will replay, or (looking ahead off) only on coming to each of them."""
    if not ask_ahead:
        monkeypatch.setattr(cone._StoredStates, "next_table", lambda *args: None)
    rng = random.Random(seed)
    club, pools, rating_list, tournaments = _world(rng, system)
    referee = staff_user()
    order = tournaments[:]
    rng.shuffle(order)  # approvals come in any order: most of them are retroactive
    for tournament in order:
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    # A table taken out, fixed and put back in, and another one only taken out.
    fixed, dropped = rng.sample(tournaments, 2)
    for tournament in (fixed, dropped):
        with django_capture_on_commit_callbacks(execute=True):
            tournament_reopen(tournament=tournament, by=referee)
    game = fixed.games.filter(kind="played").first()
    game.result = "black" if game.result == "white" else "white"
    game.save(update_fields=["result"])
    tournament_submit(tournament=fixed, by=referee)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve(tournament=fixed, by=referee)
    # And one more table, well before everything else's end.
    late = table(rng, club=club, players=pools[0], system=system, day=dt.date(2022, 3, 1))
    submitted(late, rating_list)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve(tournament=late, by=referee)

    incremental = every_column(rating_list)
    rating_list_recompute(
        rating_list_id=rating_list.pk, trigger="full", from_date=dt.date(1900, 1, 1)
    )
    full = every_column(rating_list)
    assert incremental[0], "the history is empty"
    assert incremental == full
    # The cone really left tournaments out: some run rated fewer than it would have.
    runs = RecomputeRun.objects.filter(rating_list=rating_list).exclude(trigger="full")
    later = {
        run.pk: sum(1 for t in tournaments + [late] if t.end_date >= run.from_date and t != dropped)
        for run in runs
    }
    assert any(run.tournaments < later[run.pk] for run in runs)


def _rated_in_order(seed, capture, *, groups=2, tournaments=6):
    """A list whose tables were approved (and rated) in date order: the list, its tables
    in that order, the earliest, and the referee."""
    rng = random.Random(seed)
    _club, _pools, rating_list, made = _world(rng, "egf", groups=groups, tournaments=tournaments)
    referee = staff_user()
    in_order = sorted(made, key=lambda t: (t.end_date, t.pk))
    for tournament in in_order:
        submitted(tournament, rating_list)
        with capture(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    return rating_list, in_order, in_order[0], referee


def test_a_coalesced_reopen_and_reapproval_is_replayed(django_capture_on_commit_callbacks):
    """A table reopened, changed and approved again before the list's recompute runs:
    its stored rows look rated, but it must be replayed (and its players' later tables)."""
    capture = django_capture_on_commit_callbacks
    rating_list, _tournaments, first, referee = _rated_in_order(9, capture)
    approved_again(first, referee, capture, games=first.games.filter(kind="played"))
    assert_equals_a_full_replay(rating_list)


def test_a_table_approved_again_unchanged_replays_only_itself(
    django_capture_on_commit_callbacks,
):
    """Its rows come out as they are stored, so none of its players differs and none of
    their later tables is replayed, though every one of them could be reached."""
    capture = django_capture_on_commit_callbacks
    rating_list, tournaments, first, referee = _rated_in_order(11, capture)
    players = set(first.participants.values_list("member_id", flat=True))
    assert any(
        players & set(t.participants.values_list("member_id", flat=True))
        for t in tournaments
        if t != first
    ), "no later table to leave out"
    history, entries, _links = every_column(rating_list)
    approved_again(first, referee, capture)
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    assert run.tournaments == 1
    assert every_column(rating_list)[:2] == (history, entries)


def test_a_table_changed_replays_the_later_tables_of_players_whose_rows_changed(
    django_capture_on_commit_callbacks,
):
    """One result turned round: the later tables of its two players are replayed (their
    rows changed), and the list equals a full replay."""
    capture = django_capture_on_commit_callbacks
    rating_list, _tournaments, first, referee = _rated_in_order(12, capture)
    approved_again(first, referee, capture, games=first.games.filter(kind="played")[:1])
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    assert run.tournaments > 1
    assert_equals_a_full_replay(rating_list)


def _baseline_rows(rating_list, named, idle):
    """Baseline rows for `named` (at their live standing, moved a little) and `idle`, a
    member the baseline names who plays no table."""
    rows = []
    for offset, member in enumerate([*named, idle]):
        entry = RatingEntry.objects.filter(rating_list=rating_list, member=member).first()
        rating = (entry.rating if entry and entry.rating is not None else 100.0) + 3 + offset
        grade = getattr(entry.grade, "rank", entry.grade) if entry else None
        history = None
        if rating_list.system == "rivne":
            history = {"above_100": rating >= 100}
        rows.append(
            {
                "member_id": member.pk, "rating": rating, "provisional": False,
                "grade": grade, "best_grade": grade, "tournaments": 4, "games": 20,
                "last_played": None, "history": history,
            }
        )  # fmt: skip
    return rows


@pytest.mark.parametrize("system", sorted(SYSTEM_GAMES))
def test_the_cone_starts_the_baselines_members_from_their_rows_and_equals_a_full_replay(
    system, django_capture_on_commit_callbacks
):
    """Merge of issues 15 and 18: tables approved after a baseline's date replay their
    cone from the members' baseline rows; taking the baseline out replays them all."""
    from ratings.baselines.services import baseline_remove, baseline_replace

    rng = random.Random(21)
    club, pools, rating_list, tournaments = _world(rng, system, tournaments=10)
    referee = staff_user()
    day = dt.date(2022, 7, 1)
    before = [t for t in tournaments if t.end_date <= day]
    after = [t for t in tournaments if t.end_date > day]
    assert before and len(after) >= 3
    for tournament in before:
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    idle = members(rng, club, 1)[0]
    named = pools[0][:5] + pools[1][:2]
    with django_capture_on_commit_callbacks(execute=True):
        baseline_replace(
            rating_list=rating_list,
            date=day,
            source="csv",
            rows=_baseline_rows(rating_list, named, idle),
        )
    rng.shuffle(after)
    for tournament in after:
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    incremental = every_column(rating_list)
    assert RatingEntry.objects.filter(rating_list=rating_list, member=idle).exists()
    rating_list_recompute(
        rating_list_id=rating_list.pk, trigger="full", from_date=dt.date(1900, 1, 1)
    )
    assert incremental == every_column(rating_list)
    # Some approval after the baseline's date replayed a cone, not everything after it.
    runs = RecomputeRun.objects.filter(rating_list=rating_list, trigger__startswith="approval")
    assert any(
        run.tournaments < sum(1 for t in after if t.end_date >= run.from_date)
        for run in runs
        if run.from_date > day
    )

    with django_capture_on_commit_callbacks(execute=True):
        assert baseline_remove(rating_list=rating_list)
    incremental = every_column(rating_list)
    assert not RatingEntry.objects.filter(rating_list=rating_list, member=idle).exists()
    rating_list_recompute(
        rating_list_id=rating_list.pk, trigger="full", from_date=dt.date(1900, 1, 1)
    )
    assert incremental == every_column(rating_list)


def _rounds_swapped(tournament, first_round: int, second_round: int) -> None:
    """Two rounds' labels swapped, games and seats: each player's games stay the same."""
    for model in (Game, RoundSeat):
        rows = model.objects.filter(tournament=tournament)
        rows.filter(round=first_round).update(round=1000)
        rows.filter(round=second_round).update(round=first_round)
        rows.filter(round=1000).update(round=second_round)


def test_players_whose_rows_change_but_not_their_states_do_not_differ(
    django_capture_on_commit_callbacks,
):
    """Two rounds of the first table relabelled: its rows change (each game's round in the
    breakdown), its players' states do not (ratings, totals, grades). None of them
    differs, so none of their later tables is replayed; the list equals a full replay."""
    capture = django_capture_on_commit_callbacks
    rating_list, tournaments, first, referee = _rated_in_order(13, capture)
    players = set(first.participants.values_list("member_id", flat=True))
    later = [t for t in tournaments if t != first]
    assert any(players & set(t.participants.values_list("member_id", flat=True)) for t in later), (
        "no later table of its players to leave out"
    )
    first_rows = RatingHistory.objects.filter(rating_list=rating_list, tournament=first)
    breakdowns = dict(first_rows.values_list("member_id", "breakdown"))
    tournament_reopen(tournament=first, by=referee)
    _rounds_swapped(first, 1, 2)
    tournament_submit(tournament=first, by=referee)
    with capture(execute=True):
        tournament_approve(tournament=first, by=referee)
    assert dict(first_rows.values_list("member_id", "breakdown")) != breakdowns
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    # Before, a player whose row changed differed until a later row of his came out as
    # stored: each of them had his next table replayed.
    assert run.tournaments == 1
    assert_equals_a_full_replay(rating_list)


def test_a_game_of_someone_the_table_does_not_enter_leaves_no_cone(
    django_capture_on_commit_callbacks,
):
    """The walk goes by each table's entries: a table with a game of a player it does not
    enter could be skipped wrongly, so the cone is not drawn (the full replay runs)."""
    rating_list, tournaments, first, _referee = _rated_in_order(
        14, django_capture_on_commit_callbacks
    )
    ListTournament.objects.filter(rating_list=rating_list, tournament=first).update(rated_at=None)
    assert cone_replay(rating_list, first.end_date) is not None
    players = set(first.participants.values_list("member_id", flat=True))
    later = sorted((t for t in tournaments if t != first), key=lambda t: (t.end_date, t.pk))
    other, shared = next(
        (t, sorted(players & set(t.participants.values_list("member_id", flat=True))))
        for t in later
        if len(players & set(t.participants.values_list("member_id", flat=True))) >= 2
    )
    other.participants.filter(member_id=shared[0]).delete()  # his games there stay
    assert cone_replay(rating_list, first.end_date) is None


def test_the_games_and_states_asked_for_a_few_at_a_time_are_those_read_at_once(
    django_capture_on_commit_callbacks,
):
    """The cone asks for the games of the tables it will replay, its players' member cards
    and their states before its date a few at a time (on PostgreSQL the server reads them
    meanwhile, in pipeline mode) and waits for them only when it needs them: they are what
    a read at once gives, each asked for once however often it is, and a failure inside
    the block leaves the connection usable."""
    rating_list, tournaments, _first, _referee = _rated_in_order(
        15, django_capture_on_commit_callbacks
    )
    day = max(t.end_date for t in tournaments)
    member_ids = sorted(
        {m for t in tournaments for m in t.participants.values_list("member_id", flat=True)}
    )
    member_ids.append(member_ids[-1] + 1000)  # nobody: no state
    at_once = StatesBefore(rating_list, day, member_ids).all()
    assert at_once, "no player has a state before the last table"
    table_ids = [t.pk for t in tournaments]
    received, games, cards = {}, {}, {}
    with walk_reads(
        rating_list, day, last_rows=received, games=games, members=cards, handicaps=True
    ) as reads:
        reads.ask(member_ids[:3])
        reads.ask_games(table_ids[:2])
        reads.ask(member_ids[1:4])  # two of them again
        reads.ask_members(member_ids[2:5])
        reads.wait_for(member_ids[3:4], table_ids[0])
        assert set(received) == {m for m in member_ids[:4] if m in at_once}
        assert set(games) == set(table_ids[:2])
        assert set(cards) == set(member_ids[2:5])
        reads.ask(member_ids[:4])  # all asked for already: no probe
        reads.ask_games(table_ids[1:2])
        reads.ask_members(member_ids[3:5])
        assert not reads._awaited and not reads._awaited_tables
        reads.ask(member_ids[4:])
        reads.ask_games(table_ids)
        reads.ask_members(member_ids)
        reads.wait_for(member_ids[:1], table_ids[0])  # come already: nothing to wait for
        reads.wait_for(member_ids[-1:], table_ids[-1])
    assert sorted(reads.asked) == member_ids
    assert StatesBefore(rating_list, day, member_ids, last_rows=received).all() == at_once
    assert games == load_game_records(table_ids)
    # Everyone's card but nobody's (the last id, no member): as read at once.
    assert cards == read_members(member_ids) and len(cards) == len(member_ids) - 1

    with (
        pytest.raises(ZeroDivisionError),
        walk_reads(rating_list, day, last_rows={}, games={}, handicaps=True) as reads,
    ):
        reads.ask(member_ids)
        reads.ask_games(table_ids)
        _ = 1 / 0
    assert RatingHistory.objects.filter(rating_list=rating_list, date__lt=day).exists()


def test_what_is_asked_for_goes_to_the_server_as_one_query_of_each_kind_when_sent(
    django_capture_on_commit_callbacks,
):
    """Asked for a few tables at a time, the games, cards and states wait to be sent: on
    `send`, or when the walk waits for one of them, they go as one query of each kind,
    whatever the number of asks; and what comes is what a read at once gives."""
    _needs_pipeline()
    rating_list, tournaments, _first, _referee = _rated_in_order(
        15, django_capture_on_commit_callbacks
    )
    day = max(t.end_date for t in tournaments)
    table_ids = [t.pk for t in tournaments]
    member_ids = sorted(
        {m for t in tournaments for m in t.participants.values_list("member_id", flat=True)}
    )
    received, games, cards, asked = {}, {}, {}, set(member_ids[-3:])
    with walk_reads(
        rating_list, day, last_rows=received, games=games, members=cards, handicaps=True
    ) as reads:
        for start in range(0, len(table_ids), 2):  # a few at a time
            reads.ask_games(table_ids[start : start + 2])
            reads.ask_members(member_ids[start : start + 2])
            reads.ask(member_ids[start : start + 2])
            asked.update(member_ids[start : start + 2])
        assert not reads._in_flight and reads.unsent_tables == len(table_ids)
        reads.send()
        assert sorted(reading for _cursor, reading in reads._in_flight) == [
            "cards", "games", "rows"
        ]  # fmt: skip
        assert reads.unsent_tables == 0
        reads.ask_games(table_ids[:1])  # asked for already: nothing more to send
        assert reads.unsent_tables == 0
        reads.ask_members(member_ids[-3:])
        reads.ask(member_ids[-3:])
        reads.wait_for(member_ids[-1:], table_ids[-1])  # sends what waits, then takes all in
        assert not reads._in_flight
    assert games == load_game_records(table_ids)
    assert cards == read_members(sorted(asked))
    at_once = StatesBefore(rating_list, day, sorted(asked)).all()
    assert at_once, "no player asked for has a state before the last table"
    assert StatesBefore(rating_list, day, sorted(asked), last_rows=received).all() == at_once


def test_a_game_of_someone_a_table_the_cone_cannot_reach_does_not_enter_leaves_no_cone(
    django_capture_on_commit_callbacks,
):
    """A later table none of whose entrants the change can reach, holding a game of a
    player of the changed table that it does not enter: the walk never looks at it, yet a
    full replay rates that game from his new rating. No cone is drawn: the list still
    equals a full replay."""
    rng = random.Random(21)
    club = ClubFactory()
    rating_list = RatingListFactory(system="egf", game="go", slug="c-unreached")
    ours, theirs = members(rng, club, 6), members(rng, club, 6)
    first = table(rng, club=club, players=ours, system="egf", day=dt.date(2022, 3, 1))
    later = table(rng, club=club, players=theirs, system="egf", day=dt.date(2022, 6, 1))
    referee = staff_user()
    for tournament in (first, later):
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)

    game = first.games.filter(kind="played").first()
    stranger = later.games.filter(kind="played").first()
    Game.objects.filter(pk=stranger.pk).update(white=game.white)  # the database allows it
    Game.objects.filter(pk=game.pk).update(result="black" if game.result == "white" else "white")
    ListTournament.objects.filter(rating_list=rating_list, tournament=first).update(rated_at=None)
    assert cone_replay(rating_list, first.end_date) is None

    with django_capture_on_commit_callbacks(execute=True):  # the request's run: a cone, if any
        rating_list_request_recompute(
            rating_list=rating_list, from_date=first.end_date, trigger="test"
        )
    assert_equals_a_full_replay(rating_list)


@pytest.mark.parametrize("seed", [41, 42, 43])
def test_an_egf_cone_lets_the_rows_of_players_who_met_no_change_stand(
    seed, django_capture_on_commit_callbacks, monkeypatch
):
    """egf.md §3 and §6: a player's row hangs only on his own start and his opponents'.
    At a table the cone replays, the row of a player who neither differs nor played one
    who does is the stored one: the cone rates only the games of the others (their
    opponents there start from their stored states), and tells the store that the rows
    of the first stand, which leaves them as they are without comparing them. Such a
    table has no digest of all its rows: the store clears it, and a full recompute
    compares its rows and digests it again. The list still equals a full replay."""
    capture = django_capture_on_commit_callbacks
    rating_list, in_order, _first, _referee = _rated_in_order(
        seed, capture, groups=1, tournaments=14
    )
    changed = in_order[1]
    _changed(rating_list, changed)
    stored = _rows_by_key(rating_list)
    outcome = cone_replay(rating_list, changed.end_date)
    standing = outcome.standing
    assert standing, "no row of the replayed tables was left to stand"
    replayed = {(row.member_id, row.tournament_id): row for row in outcome.rows}
    assert replayed and standing <= stored.keys() and not standing & replayed.keys()
    assert all(t != changed.pk for _m, t in standing)  # the changed table's are all compared
    in_part = outcome.undigested
    assert in_part == {t for _m, t in standing} and changed.pk not in in_part
    assert outcome.games == _games_of_the_others(outcome.scope, standing)
    monkeypatch.setattr(history_write, "fingerprint", _counted(history_write.fingerprint))
    with capture(execute=True):
        rating_list_request_recompute(
            rating_list=rating_list, from_date=changed.end_date, trigger="test"
        )
    after = _rows_by_key(rating_list)
    assert after != stored, "the change changed no row"
    assert {key: after[key] for key in standing} == {key: stored[key] for key in standing}
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    assert run.tournaments == len(outcome.scope)
    if connection.vendor == "postgresql":  # SQLite's store rewrites the scope's rows whole
        # It digested every row the run rated again, none of those standing.
        assert history_write.fingerprint.calls == len(replayed)
    links = ListTournament.objects.filter(rating_list=rating_list)
    assert not links.filter(tournament__in=in_part).exclude(history_digest=None).exists()
    assert_equals_a_full_replay(rating_list)
    if connection.vendor == "postgresql":  # SQLite's store keeps no digests
        assert not links.filter(history_digest=None).exists()  # digested again


def test_a_recomputes_cone_writes_the_changed_rows_of_each_table_as_it_goes(
    django_capture_on_commit_callbacks,
):
    """Asked to (the recompute does), the walk compares each table it replays with the
    stored rows and sends the changed ones on its pipelined connection, between what it
    waits for: when it ends, they are written; the store leaves them (and those that came
    out as stored) and writes the rest: the list equals a full replay."""
    _needs_pipeline()
    capture = django_capture_on_commit_callbacks
    rating_list, in_order, _first, _referee = _rated_in_order(51, capture, groups=1)
    changed = in_order[1]
    _changed(rating_list, changed)
    before = _rows_by_key(rating_list)
    with transaction.atomic():
        outcome = cone_replay(rating_list, changed.end_date, write_changed=True)
        during = _rows_by_key(rating_list)
        rewritten = {key for key in before if during[key] != before[key]}
        assert rewritten and outcome.written_early == len(rewritten)
        assert rewritten <= outcome.standing <= before.keys()
        # It left to the store only new rows (none here: the table kept its players).
        left = {(row.member_id, row.tournament_id) for row in outcome.rows}
        assert not left & before.keys()
        transaction.set_rollback(True)
    assert _rows_by_key(rating_list) == before  # nothing outside the transaction
    with capture(execute=True):
        rating_list_request_recompute(
            rating_list=rating_list, from_date=changed.end_date, trigger="test"
        )
    assert_equals_a_full_replay(rating_list)


def _games_of_the_others(tournament_ids, standing):
    """How many games of these tables a player not `standing` there plays (all of a
    table's, where every game is between two who stand)."""
    count = 0
    for t_id in tournament_ids:
        games = Game.objects.filter(tournament_id=t_id, kind="played")
        pairs = list(games.values_list("white_id", "black_id"))
        others = [
            (w, b) for w, b in pairs if (w, t_id) not in standing or (b, t_id) not in standing
        ]
        count += len(others) or len(pairs)
    return count


def _counted(function):
    def counted(*args, **kwargs):
        counted.calls += 1
        return function(*args, **kwargs)

    counted.calls = 0
    return counted


def _rows_by_key(rating_list):
    """The list's history rows, every column, by (member, tournament)."""
    rows = RatingHistory.objects.filter(rating_list=rating_list).values()
    return {(row["member_id"], row["tournament_id"]): row for row in rows}


def _changed(rating_list, tournament):
    """One of the table's games turned the other way, as if edited and approved again."""
    game = tournament.games.filter(kind="played").first()
    Game.objects.filter(pk=game.pk).update(result="black" if game.result == "white" else "white")
    ListTournament.objects.filter(rating_list=rating_list, tournament=tournament).update(
        rated_at=None
    )


def _needs_pipeline():
    if connection.vendor != "postgresql":
        pytest.skip(
            "the pipeline is PostgreSQL's; elsewhere what the walk asks for is read at once"
        )


def test_the_cone_reads_in_as_many_queries_however_many_tables_it_replays(
    django_capture_on_commit_callbacks, monkeypatch
):
    """The walk rates its tables without a query of its own, while the server reads the
    games and states it will need (pipeline mode): a query there would wait for them. It
    asks for the games of exactly the tables it replays, and for the states before the
    date of exactly the players it starts from there: those of its tables with no stored
    row from the date before them; and for the cards of exactly those tables' players."""
    _needs_pipeline()
    in_pipeline = []
    rate = cone.rate_tournament
    monkeypatch.setattr(
        cone,
        "rate_tournament",
        lambda *args, **kwargs: (
            in_pipeline.append(bool(connection.connection.pgconn.pipeline_status)),
            rate(*args, **kwargs),
        ),
    )
    asked, tables, carded = [], [], []
    ask, ask_games, ask_members = WalkReads.ask, WalkReads.ask_games, WalkReads.ask_members
    monkeypatch.setattr(
        WalkReads, "ask", lambda self, ids: (asked.extend(ids := list(ids)), ask(self, ids))
    )
    monkeypatch.setattr(
        WalkReads,
        "ask_games",
        lambda self, ids: (tables.extend(ids := list(ids)), ask_games(self, ids)),
    )
    monkeypatch.setattr(
        WalkReads,
        "ask_members",
        lambda self, ids: (carded.extend(ids := list(ids)), ask_members(self, ids)),
    )
    rating_list, in_order, _first, _referee = _rated_in_order(
        31, django_capture_on_commit_callbacks, groups=1, tournaments=14
    )
    counts = []
    for changed in (in_order[-1], in_order[1]):  # the last table, then the second
        _changed(rating_list, changed)
        in_pipeline.clear()
        asked.clear()
        tables.clear()
        carded.clear()
        with CaptureQueriesContext(connection) as queries:
            outcome = cone_replay(rating_list, changed.end_date)
        assert outcome is not None
        assert in_pipeline and all(in_pipeline), "the walk did not run beside the probes"
        assert set(asked) == _started_from_before(rating_list, changed.end_date, outcome.scope)
        assert sorted(tables) == sorted(outcome.scope)  # the games of the tables it replays
        assert set(carded) == set(
            Participant.objects.filter(tournament_id__in=outcome.scope).values_list(
                "member_id", flat=True
            )
        )
        counts.append((len(outcome.scope), len(queries)))
    (few, few_queries), (many, many_queries) = counts
    assert many >= few + 10, counts
    assert many_queries == few_queries, counts


def _started_from_before(rating_list, day, scope):
    """The players of the tables `scope` who have no stored row from `day` before the table."""
    tables = sorted(Tournament.objects.filter(pk__in=scope), key=lambda t: (t.end_date, t.pk))
    rows = RatingHistory.objects.filter(rating_list=rating_list, date__gte=day)
    firsts = {}
    for member_id, t_id, date in rows.values_list("member_id", "tournament_id", "date"):
        firsts[member_id] = min(firsts.get(member_id, (date, t_id)), (date, t_id))
    return {
        m
        for t in tables
        for m in t.participants.values_list("member_id", flat=True)
        if firsts.get(m, (t.end_date, t.pk)) >= (t.end_date, t.pk)
    }


def test_a_cone_refused_for_a_game_of_someone_not_entered_leaves_the_run_to_a_full_replay(
    django_capture_on_commit_callbacks,
):
    """A later table holds a game of someone it does not enter (the database keeps such
    games): the cone is refused, the request's run replays everything, in the same
    transaction, and equals a full replay."""
    rating_list, in_order, _first, _referee = _rated_in_order(
        32, django_capture_on_commit_callbacks, groups=1, tournaments=14
    )
    later, changed = in_order[-1], in_order[1]
    stranger = MemberFactory(club=ClubFactory())
    Game.objects.filter(pk=later.games.filter(kind="played").first().pk).update(white=stranger)
    _changed(rating_list, changed)
    assert cone_replay(rating_list, changed.end_date) is None
    with django_capture_on_commit_callbacks(execute=True):
        rating_list_request_recompute(
            rating_list=rating_list, from_date=changed.end_date, trigger="test"
        )
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    assert run.outcome == RecomputeRun.Outcome.SUCCESS
    assert run.tournaments == len(in_order) - 1  # all from the second table: no cone
    assert_equals_a_full_replay(rating_list)


def test_input_the_engine_refuses_inside_the_pipeline_fails_the_run_and_leaves_the_history(
    django_capture_on_commit_callbacks, monkeypatch
):
    """The engine refuses a table while the server probes for states: the run fails with
    the table and the member named (looked up inside the pipeline), the stored history
    stands, and the connection serves the next query."""
    _needs_pipeline()
    rating_list, in_order, _first, _referee = _rated_in_order(
        33, django_capture_on_commit_callbacks, groups=1, tournaments=14
    )
    before = every_column(rating_list)

    class Refusing:
        def rate(self, event_input):
            raise BadInput("players[0].rating", "refused here")

    monkeypatch.setitem(SYSTEMS, "egf", Refusing())
    _changed(rating_list, in_order[1])
    with django_capture_on_commit_callbacks(execute=True):
        rating_list_request_recompute(
            rating_list=rating_list, from_date=in_order[1].end_date, trigger="test"
        )
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    _assert_failed_at(run, in_order[1], "refused here", before)


def test_input_the_engine_refuses_in_a_full_replay_fails_the_run_and_leaves_the_history(
    django_capture_on_commit_callbacks, monkeypatch
):
    """A full replay rates its tables while the server looks for the stored ones
    (`reads.read_meanwhile`); the engine refusing one there fails the run with the table
    and the member named, the stored history stands, and the connection serves on."""
    _needs_pipeline()
    rating_list, in_order, _first, _referee = _rated_in_order(
        34, django_capture_on_commit_callbacks, groups=1, tournaments=6
    )
    before = every_column(rating_list)
    calls = []

    class RefusingTheThird:
        def rate(self, event_input):
            calls.append(bool(connection.connection.pgconn.pipeline_status))
            if len(calls) == 3:
                raise BadInput("players[0].rating", "refused here")
            return egf.rate(event_input)

    egf = SYSTEMS["egf"]
    monkeypatch.setitem(SYSTEMS, "egf", RefusingTheThird())
    run = rating_list_recompute(
        rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1)
    )
    assert calls == [True, True, True], "not rated while the server reads"
    _assert_failed_at(run, in_order[2], "refused here", before)


def _assert_failed_at(run, tournament, message, before):
    """The run failed with the engine's `message`, naming `tournament` and a member, and
    left the list's history and entries as they were `before` (`every_column`); reading
    them is the connection's next query."""
    assert run.outcome == RecomputeRun.Outcome.FAILED
    assert message in run.error and "(member #" in run.error, run.error
    assert tournament.name in run.error
    history, entries, _links = every_column(run.rating_list)
    assert (history, entries) == before[:2]


def test_a_player_of_several_tables_of_one_day_starts_the_next_one_from_the_one_before(
    django_capture_on_commit_callbacks,
):
    """Tables of one day are replayed in id order: a cone that replays the third of them
    starts a player it has not reached yet from his row in the second, not the first."""
    rng = random.Random(11)
    club = ClubFactory()
    rating_list = RatingListFactory(system="egf", game="go", slug="c-one-day")
    player, newcomer = members(rng, club, 2)
    day = dt.date(2023, 5, 7)
    referee = staff_user()
    same_day = [
        table(rng, club=club, players=[player, *members(rng, club, 3)], system="egf", day=day),
        table(rng, club=club, players=[player, *members(rng, club, 3)], system="egf", day=day),
        table(rng, club=club, players=[player, newcomer, *members(rng, club, 2)], day=day),
    ]
    assert [t.pk for t in same_day] == sorted(t.pk for t in same_day)
    for tournament in same_day:
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    # The newcomer's first table, put in before them: it reaches the third table only.
    earlier = table(
        rng,
        club=club,
        players=[newcomer, *members(rng, club, 3)],
        system="egf",
        day=day - dt.timedelta(days=90),
    )
    submitted(earlier, rating_list)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve(tournament=earlier, by=referee)
    run = RecomputeRun.objects.filter(rating_list=rating_list).latest("pk")
    assert run.tournaments == 2, "the cone should replay the earlier table and the third"

    assert_equals_a_full_replay(rating_list)


@pytest.mark.parametrize("system", sorted(SYSTEM_GAMES))
def test_a_replay_reads_its_tournaments_in_one_query_whatever_the_rules_ask_of_them(
    system, django_capture_on_commit_callbacks
):
    """The replays read only some fields of a tournament (`reads.ReplayedTournament`, a
    tuple: a field the rules or the engine's input asked for beyond them fails at once),
    in one query: none reads a tournament by its id, table after table, for the full
    replay and the cone, in every system."""
    rng = random.Random(7)
    _club, _pools, rating_list, made = _world(rng, system, groups=2, tournaments=6)
    referee = staff_user()
    first, *later = sorted(made, key=lambda t: (t.end_date, t.pk))
    for tournament in later:
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    submitted(first, rating_list)
    with django_capture_on_commit_callbacks(execute=False):  # not rated yet: the cone's
        tournament_approve(tournament=first, by=referee)
    one_by_id = re.compile(
        r'FROM "tournaments_tournament" WHERE "tournaments_tournament"\."id" = (\d|%s)'
    )
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        full = replay(rating_list, dt.date(1900, 1, 1))
        retroactive = cone_replay(rating_list, first.end_date)
    assert full.tournaments == len(made)
    assert retroactive is not None and retroactive.scope  # the cone was drawn and walked
    assert not [q["sql"] for q in queries if one_by_id.search(q["sql"])]
