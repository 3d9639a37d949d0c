"""A recompute that replays only what a change can reach: its cone (issue 18).

A table approved (or taken out) on day D changes the states of its players; a player
whose state changed carries the change into his later tables, and so on. Walking the
list's tournaments from D in replay order, a tournament is replayed when it changed
itself or one of its players already differs from what is stored; a player differs from
the first table after which his state does not equal his stored one (a new row, a row
gone, or other state columns: rating, totals, grades, history) until it equals the stored
one again. A row carries his state after it, so only its state columns count here: a row
that changed elsewhere (an opponent's rating in the breakdown, the rating he came in
with) is rewritten, but his later tables do not move (a player who gained or lost a table
differs to the end, his totals do). Every other tournament keeps its stored rows: none of
its players' states before it moved, so the engine would give them again. A player who
does not differ plays a replayed table from his stored state just before it.

Rows carry the rating to three decimals (egf.md §5), so a change reaches only some of
its players' opponents: a table put in a year back at EGD scale changes the states of
about 700 players by the year's end and has about 200 of the year's 900 tables replayed,
where every opponent of an opponent would have been 820 of them.

Where a player's row hangs only on his own start and his opponents' (egf: egf.md §3, §6;
`rules.OPPONENTS_ONLY_SYSTEMS`), the stored row of a player who neither differs nor plays
one who does at a replayed table is the one the replay would give: the store leaves it
as it is, uncompared (`ReplayOutcome.standing`), and the games of two such players are
not rated again; the others' opponents there start from their stored states. A table put
in a year back at EGD scale has 209 tables replayed, 208 of them so in part: 5,500 games
and 1,450 rows rated again, where the whole tables hold about 25,000 games, and 8,200
rows standing.

What changed is read from the data, not remembered: an approved tournament of the list
the last run did not rate (`rated_at` empty: new, re-approved after a reopening, or not
rated at all; or approved after that run read the data) and a tournament with stored rows
that is no longer approved in the list. A recompute forced from a date (rules or
parameters changed) replays everything instead.
"""

from __future__ import annotations

import datetime as dt
import json
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from operator import itemgetter
from typing import Any

from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper

from ratings.models import (
    ListTournament,
    RatingHistory,
    RatingList,
    counted_links,
    rated_since_decided,
)
from ratings.recompute.baseline_starts import baseline_date
from ratings.recompute.bulk import as_json
from ratings.recompute.history_write import EarlyWrites
from ratings.recompute.reads import (
    STATE_COLUMNS,
    GameRecord,
    ReplayedTournament,
    StatesBefore,
    WalkReads,
    any_unentered_game,
    engine_games,
    fast_rows,
    fide_history,
    player_ids,
    published_grades,
    read_professed,
    replayed_tournaments,
    state_of,
    walk_reads,
)
from ratings.recompute.replay import rate_tournament, restarts_baseline
from ratings.recompute.rules import GO_SYSTEMS, OPPONENTS_ONLY_SYSTEMS
from ratings.recompute.state import Card, HistoryRow, MemberState, ReplayOutcome, rank_of


def cone_replay(
    rating_list: RatingList, from_date: dt.date, *, write_changed: bool = False
) -> ReplayOutcome | None:
    """The replay of the tournaments from `from_date` that a change can reach, or None
    when this list's cone cannot be drawn (the caller then replays everything).
    `write_changed` (a recompute about to store the outcome): on PostgreSQL, the stored
    rows of each table it replays are compared and the changed ones written as it goes
    (`history_write.EarlyWrites`); the store then leaves them (`ReplayOutcome.standing`)."""
    if published_grades(rating_list):
        return None  # published grades reach players between tournaments: not modelled here
    baseline_day = baseline_date(rating_list)
    if restarts_baseline(baseline_day, from_date):
        # A baseline on or after the date (new, replaced, or its tables changed) moves the
        # start of every member it names, and its own tables leave them as they are: the
        # full replay restarts them (replay.before_baseline); no cone of tables covers it.
        return None
    # The tables that count in this list (approved for it: ratings.submissions.list_approval)
    # from the date: each one's stored digest, and whether the last run rated it after the
    # last decision on it. One not so rated (new, re-approved after a reopening, not rated
    # at all, or approved after that run read the data) has changed.
    links = ListTournament.objects.filter(
        counted_links(), rating_list=rating_list, tournament__end_date__gte=from_date
    ).annotate(rated=ExpressionWrapper(rated_since_decided(), output_field=BooleanField()))
    stored_digests: dict[int, int | None] = {}
    changed: set[int] = set()
    for t_id, digest, rated in links.values_list("tournament_id", "history_digest", "rated"):
        stored_digests[t_id] = digest
        if not rated:
            changed.add(t_id)
    approved = stored_digests.keys()
    # Every stored row from the date, read once: which tables have rows, which rows are
    # gone, and each player's stored states along the way.
    by_table, by_member = _stored_rows(rating_list, from_date)
    removed = by_table.keys() - approved
    tournaments = replayed_tournaments(approved)
    if any_unentered_game([t.pk for t in tournaments]):
        # A table the change cannot reach through its entries may still hold a game of a
        # player it reaches, whom that table does not enter, and a full replay would rate
        # that game; nor could a replayed table start such a player from his state.
        return None  # no cone to trust
    professed = read_professed([t.pk for t in tournaments])
    players = {t_id: entries.keys() for t_id, entries in professed.items()}  # as sets

    # Rows that are gone: those of a table taken out, and of a player a changed table no
    # longer enters. Their players differ from the start. (A changed table's other players
    # differ only if their rows come out otherwise.)
    gone = {(m, t) for t in removed for m in by_table[t]} | {
        (m, t) for t in changed for m in by_table.get(t, ()) if m not in players[t]
    }  # (member, tournament)
    differs = {member_id for member_id, _t in gone}
    for member_id, t in gone:  # his states from the date go without it
        by_member[member_id] = [row for row in by_member[member_id] if row[0] != t]
    # The tables a change could reach at all (through every player of a table it reaches):
    # their players' cards are read up front, their states before the date as the walk
    # learns that it will replay a table where they first play. Which tables are
    # replayed is found as the walk goes.
    reach = set(differs)
    candidates: list[ReplayedTournament] = []
    for tournament in tournaments:
        entrants = players[tournament.pk]
        if tournament.pk in changed or not entrants.isdisjoint(reach):
            candidates.append(tournament)
            reach.update(entrants)
    member_ids = sorted(reach)
    # Read before the walk: from there on the server reads the games, cards and states it
    # asks for (below), and the connection is not free until the walk ends.
    fide_dated = fide_history(member_ids) if rating_list.system == "orr" else {}
    received: dict[int, tuple[Any, ...]] = {}  # their last rows before the date, as asked
    games: dict[int, list[GameRecord]] = {}  # the games of the tables replayed, as asked
    members: dict[int, Card] = {}  # the cards of their players, as asked
    before = StatesBefore(
        rating_list, from_date, member_ids, last_rows=received, baseline=baseline_day is not None
    )
    stored_states = _StoredStates(before, by_member, by_table)
    outcome = ReplayOutcome(from_date=from_date)
    replayed: list[int] = []
    compared: dict[int, dict[int, tuple[int, int | None]]] = {}  # `_stored_keys` made early
    handicaps = rating_list.system in GO_SYSTEMS
    opponents_only = rating_list.system in OPPONENTS_ONLY_SYSTEMS
    with (
        walk_reads(
            rating_list,
            from_date,
            last_rows=received,
            games=games,
            members=members,
            handicaps=handicaps,
        ) as reads,
        _early_writes(rating_list, reads, enabled=write_changed) as early,
    ):
        ahead = _AskAhead(reads, stored_states, players, candidates)
        # The tables known to be replayed: the changed ones, and the first of each player
        # who differs from the start. Their games, their players' cards, and the states
        # before the date of the players they start from there, are asked for now; the walk
        # asks for the others' as it learns which tables it will replay.
        ahead.will_replay(changed)
        ahead.will_replay(stored_states.next_table(m, None) for m in differs)
        for tournament in candidates:
            entrants = players[tournament.pk]
            if tournament.pk not in changed and entrants.isdisjoint(differs):
                continue  # its stored rows stand
            ahead.will_replay([tournament.pk])  # known already, as a rule
            if reads.wait_for(entrants, tournament.pk) and early is not None:
                early.send()  # behind nothing the walk waits for: see `EarlyWrites`
            place = _table_place(tournament)
            table_games = games.pop(tournament.pk, [])  # let go once rated, while in cache
            kept: AbstractSet[int] = frozenset()
            if opponents_only and tournament.pk not in changed:
                # Its players whose stored rows stand; only the games of the others are
                # rated again (their opponents there start from their stored states).
                kept = stored_states.rows_that_stand(
                    tournament.pk, _not_met(entrants, differs, table_games)
                )
                outcome.standing.update((m, tournament.pk) for m in kept)
                # No game left (who differs did not play there): all are rated, and the
                # rows of those kept still stand.
                table_games = _games_of_others(table_games, kept) or table_games
            engine_table = engine_games(table_games)
            playing = player_ids(engine_table)
            for member_id in map(int, playing) if kept else entrants:
                if member_id not in outcome.states:  # not replayed since he began to differ
                    state = stored_states.just_before(member_id, place)
                    if state is not None:
                        outcome.states[member_id] = state
            first_row = len(outcome.rows)
            rate_tournament(
                outcome,
                rating_list,
                tournament,
                engine_table,
                professed[tournament.pk],
                members,
                fide_history=fide_dated,
                kept=frozenset(kept),
                players=playing,
                partial=bool(kept),
            )
            replayed.append(tournament.pk)
            # Its rows all as stored (the same digest): so is each of them, unread.
            digest = outcome.table_digests.get(tournament.pk)
            as_stored = digest is not None and digest == stored_digests.get(tournament.pk)
            rows = {row.member_id: row for row in outcome.rows[first_row:]}
            if early is not None and not as_stored:
                keys = compared[tournament.pk] = _stored_keys(by_table.get(tournament.pk, {}))
                early.table([row for member_id, row in rows.items() if member_id not in kept], keys)
                # Its rows with a stored one are settled now (written, or standing): the
                # store needs only the new ones. The others go while still in the cache;
                # a year back, 9,500 rows let go at the end took 40 ms.
                outcome.rows[first_row:] = [
                    row for row in rows.values() if row.member_id not in keys
                ]
            for member_id in entrants:
                row = rows.get(member_id)
                if row is None and member_id in differs:
                    continue  # no row to compare (a zero-score ORR debut): he still differs
                if (
                    as_stored
                    or member_id in kept
                    or stored_states.state_as_stored(member_id, tournament.pk, row)
                ):
                    # His state after it is his stored one: later tables read it there.
                    outcome.states.pop(member_id, None)
                    outcome.touched.discard(member_id)
                    differs.discard(member_id)
                else:
                    differs.add(member_id)
            # A player who still differs carries the change into his next table, which is
            # replayed then.
            ahead.will_replay(stored_states.next_table(m, place) for m in entrants & differs)
    if early is not None:
        outcome.standing |= early.settled
        outcome.written_early = early.written
    outcome.scope = sorted({*replayed, *removed})
    # The stored rows of the tables it rewrites, for the store to compare (its gone rows
    # included: the store takes them out).
    outcome.stored_keys = {
        t: compared[t] if t in compared else _stored_keys(by_table[t])
        for t in outcome.scope
        if t in by_table
    }
    return outcome


@contextmanager
def _early_writes(
    rating_list: RatingList, reads: WalkReads, *, enabled: bool
) -> Iterator[EarlyWrites | None]:
    """`EarlyWrites` on the walk's pipelined connection, if asked for and there is one."""
    if not enabled or reads.driver is None:
        yield None
        return
    with EarlyWrites(rating_list.pk, reads.driver) as early:
        yield early


def _not_met(
    entrants: AbstractSet[int], differs: AbstractSet[int], games: list[GameRecord]
) -> set[int]:
    """The table's entrants who neither differ nor play one who does."""
    met = entrants & differs
    if not met:
        return set(entrants)
    met_ids = {str(m) for m in met}  # as the games give them: one int() per opponent met
    reached = set(met)
    for _table, _round, white, black, _result, _stones in games:
        if white in met_ids:
            reached.add(int(black))
        if black in met_ids:
            reached.add(int(white))
    return entrants - reached


def _games_of_others(games: list[GameRecord], kept: AbstractSet[int]) -> list[GameRecord]:
    """The games of a table that a player not `kept` plays, in their order."""
    if not kept:
        return games
    kept_ids = {str(m) for m in kept}  # as the games give them
    return [game for game in games if game[2] not in kept_ids or game[3] not in kept_ids]


class _AskAhead:
    """Asks for a table's games, its players' cards, and the states before the date of
    the players it will start from there (those with no stored row from the date before
    it), as soon as the walk knows that it will replay the table: the server reads them
    while the walk rates the tables before. Told of a table only on coming to it, it asks
    then."""

    # Tables asked for before the asks go to the server (one query of each kind for all):
    # a table is asked for, as a rule, many tables before the walk comes to it, and each
    # query sent costs the walk as much as a few tables' worth of ids in it.
    SEND_AFTER_TABLES = 4

    def __init__(
        self,
        reads: WalkReads,
        stored: _StoredStates,
        players: dict[int, AbstractSet[int]],
        candidates: list[ReplayedTournament],
    ) -> None:
        self.reads, self.stored, self.players = reads, stored, players
        self.candidates = {t.pk: t for t in candidates}
        self.told: set[int] = set()

    def will_replay(self, tournament_ids: Iterable[int | None]) -> None:
        """Tables the walk will replay (None, or a table it does not walk: ignored)."""
        tables: list[int] = []
        players: list[int] = []
        starting: list[int] = []
        for t_id in tournament_ids:
            tournament = self.candidates.get(t_id) if t_id not in self.told else None
            if tournament is not None:
                self.told.add(tournament.pk)
                tables.append(tournament.pk)
                place = _table_place(tournament)
                entrants = self.players[tournament.pk]
                players += entrants
                starting += (
                    m
                    for m in entrants
                    if m not in self.reads.asked and not self.stored.has_row_before(m, place)
                )
        self.reads.ask_games(tables)
        self.reads.ask_members(players)
        self.reads.ask(starting)
        if self.reads.unsent_tables >= self.SEND_AFTER_TABLES:
            self.reads.send()


def _stored_rows(
    rating_list: RatingList, from_date: dt.date
) -> tuple[dict[int, dict[int, tuple[Any, ...]]], dict[int, list[tuple[Any, ...]]]]:
    """The list's stored rows from the date (`_StoredStates.FIELDS`): by table, then
    member; and each member's, in replay order (by date, then table: `_place`).

    PostgreSQL sorts them by table within each day as it reads the days in order (from the
    index `history_list_date_rows`), while the rows it has sent are taken in here; each
    player's rows sorted here took 20 ms at EGD scale."""
    by_table: dict[int, dict[int, tuple[Any, ...]]] = defaultdict(dict)
    by_member: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    rows = (
        RatingHistory.objects.filter(rating_list=rating_list, date__gte=from_date)
        .order_by("date", "tournament_id")
        .values_list(*_StoredStates.FIELDS)
    )
    for row in fast_rows(rows):
        by_table[row[0]][row[3]] = row
        by_member[row[3]].append(row)
    return by_table, by_member


class _StoredStates:
    """Players' stored states at any table from `from_date` on: each one's state after his
    last stored row before that table (the `gone` ones left out), or before the date (his
    rows carry running totals, so a state is one row; see `reads.states_before`)."""

    FIELDS = ("tournament_id", "fingerprint", "sequence", *STATE_COLUMNS)  # of a stored row

    def __init__(
        self,
        before: StatesBefore,
        by_member: dict[int, list[tuple[Any, ...]]],
        by_table: dict[int, dict[int, tuple[Any, ...]]],
    ) -> None:
        """`before`: their states before the date; `by_member`, `by_table`: their stored
        rows from it (`_stored_rows`), the gone ones left out of `by_member`."""
        self.before, self.by_member, self.by_table = before, by_member, by_table
        self.json_text = connection.vendor == "postgresql"

    def state_as_stored(self, member_id: int, tournament_id: int, row: HistoryRow | None) -> bool:
        """Whether his state after the table, as the replayed `row` carries it (None: the
        replay gave him no row), is the one his stored row there carries."""
        stored = self.by_table.get(tournament_id, {}).get(member_id)
        if row is None or stored is None:
            return row is None and stored is None
        after, provisional, history, list_grade, tournaments, games, best, day = stored[4:]
        return (
            (row.after, row.provisional, row.tournaments_so_far, row.games_so_far, row.date)
            == (after, provisional, tournaments, games, day)
            and row.list_grade == rank_of(list_grade)
            and row.best_grade_so_far == rank_of(best)
            and _same_history(row.history, history, json_text=self.json_text)
        )

    def rows_that_stand(self, tournament_id: int, member_ids: Iterable[int]) -> set[int]:
        """Of these players, those whose stored rows at the table stand as they are, where
        a replay that started each of them and all his opponents there from their stored
        states gives them again: rows a recompute wrote (with a fingerprint; one edited
        by anything else has none and is rewritten) in the table's place (`sequence`,
        see `history_write`)."""
        stored = self.by_table.get(tournament_id, {})
        return {
            m
            for m in member_ids
            if (row := stored.get(m)) is not None
            and row[_FINGERPRINT] is not None
            and row[_SEQUENCE] == tournament_id
        }

    def has_row_before(self, member_id: int, place: Place) -> bool:
        """Whether he has a stored row from the date before the table at `place`."""
        rows = self.by_member.get(member_id)
        return bool(rows) and _place(rows[0]) < place

    def next_table(self, member_id: int, place: Place | None) -> int | None:
        """The table of his first stored row from the date after the table at `place`
        (None: of his first), if any."""
        rows = self.by_member.get(member_id, ())
        later = 0 if place is None else bisect_right(rows, place, key=_place)
        return rows[later][0] if later < len(rows) else None

    def just_before(self, member_id: int, place: Place) -> MemberState | None:
        """His state just before the table at `place` (None: he has none, a newcomer)."""
        rows = self.by_member.get(member_id, ())
        earlier = bisect_left(rows, place, key=_place)
        if not earlier:
            return self.before.get(member_id)
        state = state_of(rows[earlier - 1][3:], json_text=self.json_text)
        state.from_baseline = self.before.named(member_id)
        return state


# A table's place in replay order: its end date, then its id.
Place = tuple[dt.date, int]


def _table_place(tournament: ReplayedTournament) -> Place:
    return tournament.end_date, tournament.pk


# A stored row's place: the place of its table (its date is the table's end date), as
# (date, tournament). An `itemgetter`, not a function: `bisect` calls it for each row it
# looks at.
_place: Callable[[tuple[Any, ...]], Place] = itemgetter(-1, 0)


_FINGERPRINT = _StoredStates.FIELDS.index("fingerprint")
_SEQUENCE = _StoredStates.FIELDS.index("sequence")


def _stored_keys(rows: dict[int, tuple[Any, ...]]) -> dict[int, tuple[int, int | None]]:
    """A table's stored rows (`_StoredStates.FIELDS`) as the store compares them: member ->
    (sequence, fingerprint)."""
    return {m: (row[_SEQUENCE], row[_FINGERPRINT]) for m, row in rows.items()}


def _same_history(replayed: Any, stored: Any, *, json_text: bool) -> bool:
    """Whether a replayed row's engine history is the stored one (as text on PostgreSQL,
    see `reads.fast_rows`): compared as JSON values, the form it is stored in."""
    if replayed is None or stored is None:
        return replayed is None and stored is None
    return json.loads(as_json(replayed)) == (json.loads(stored) if json_text else stored)
