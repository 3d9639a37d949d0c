"""What a replay reads from the database: members' stored states before a date, the
tournaments from it, their games and participants, members' cards, FIDE ratings and the
list's published grades. Raw driver rows where a million games pass through."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from functools import cached_property
from itertools import chain, groupby, repeat
from operator import itemgetter
from typing import Any, NamedTuple

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import CharField, F, Lookup, Q, Value
from django.db.models.functions import Cast

from clubsite.members import effective_birth_date
from clubsite.models import FideRating, Member
from ratings.models import ListTournament, PublishedEntry, RatingHistory, RatingList, counted_links
from ratings.recompute import rules
from ratings.recompute.baseline_starts import baseline_starts
from ratings.recompute.pipeline import binary_cursor, pipeline_mode, stream_chunks
from ratings.recompute.state import Card, MemberState, rank_of
from ratings.systems.model import Game as EngineGame
from tournaments.models import Game as GameRow
from tournaments.models import Participant, Tournament, UnenteredGame


def states_before(
    rating_list: RatingList, day: dt.date, member_ids: list[int] | None = None
) -> dict[int, MemberState]:
    """Members' states in the list just before `day`: each one's last stored row before it
    (which carries his running totals), or his baseline row where he has none; of all of
    them, or only of `member_ids` (a replay needs only the players it rates)."""
    return StatesBefore(rating_list, day, member_ids).all()


class StatesBefore:
    """`states_before`, each state built when asked: a cone reads the last rows of the
    25,000 players it may reach and starts about a fifth of them."""

    def __init__(
        self,
        rating_list: RatingList,
        day: dt.date,
        member_ids: list[int] | None = None,
        *,
        last_rows: dict[int, tuple[Any, ...]] | None = None,
        baseline: bool = True,
    ) -> None:
        """`last_rows`: their last rows before the day, when read already
        (`WalkReads.last_rows`). `baseline`: False when the caller knows the list has none."""
        self.rows = _last_rows(rating_list, day, member_ids) if last_rows is None else last_rows
        self.starts = baseline_starts(rating_list, member_ids) if baseline else {}
        self.json_text = connection.vendor == "postgresql"  # see `fast_rows`

    def get(self, member_id: int) -> MemberState | None:
        """His state, a new object at each call (a replay moves it on); None: he has
        none, a newcomer."""
        row = self.rows.get(member_id)
        if row is not None:
            state = state_of(row, json_text=self.json_text)
            # Named by the baseline, he has moved on from its row: his running totals
            # count the baseline's already.
            state.from_baseline = member_id in self.starts
            return state
        start = self.starts.get(member_id)
        if start is None:
            return None
        return MemberState(
            rating=start.rating,
            provisional=start.provisional,
            history=start.history,
            best_grade=start.best_grade,
            grade=start.grade,
            tournaments=start.tournaments,
            games=start.games,
            last_played=start.last_played,
            from_baseline=True,
        )

    def named(self, member_id: int) -> bool:
        """Whether the list's baseline names him."""
        return member_id in self.starts

    def all(self) -> dict[int, MemberState]:
        members = [*self.rows, *(m for m in self.starts if m not in self.rows)]
        return {member_id: self.get(member_id) for member_id in members}


# A member's state as his history row holds it: the columns of the index
# `history_list_state`, so that reading a state touches only the index.
STATE_COLUMNS = (
    "member_id", "after", "provisional", "history", "list_grade", "tournaments_so_far",
    "games_so_far", "best_grade_so_far", "date",
)  # fmt: skip


def state_of(row: Sequence[Any], *, json_text: bool) -> MemberState:
    """The state after a history row read as `STATE_COLUMNS` (`json_text`: its history as
    the text PostgreSQL sends, see `fast_rows`)."""
    _member, after, provisional, history, list_grade, tournaments, games, best, day = row
    if json_text and history is not None:
        history = json.loads(history)
    # A row not rated may still carry his rating on (a UFGO player kept by 1.7). The fields
    # in their order, not by name: a cone builds 12,000 states a year back, each in half
    # the time so.
    return MemberState(
        after, provisional, history, rank_of(best), rank_of(list_grade), tournaments, games, day
    )


def _last_rows(
    rating_list: RatingList, day: dt.date, member_ids: list[int] | None
) -> dict[int, tuple[Any, ...]]:
    """Each member's last row before `day` as `STATE_COLUMNS` (all members, or
    `member_ids`), as `fast_rows` reads it."""
    earlier = _rows_before(rating_list, day)
    if not earlier.exists():  # a replay from the list's start
        return {}
    if member_ids is not None and connection.vendor == "postgresql":
        with binary_cursor() as cursor:
            # Streamed in small chunks: the server goes on probing while the rows it has
            # sent are taken in here.
            params = [id_array(member_ids), rating_list.pk, day]
            chunks = stream_chunks(cursor, _PROBE_LAST_ROWS, params, size=2000, binary=True)
            return {row[0]: row for rows in chunks for row in rows}
    newest_first = earlier.order_by("member_id", "-date", "-sequence")
    if connection.vendor == "postgresql":
        newest_first = newest_first.distinct("member_id")
    queries = (
        [newest_first] if member_ids is None else with_ids(newest_first, "member_id", member_ids)
    )
    last: dict[int, tuple[Any, ...]] = {}
    for queryset in queries:
        for row in fast_rows(queryset.values_list(*STATE_COLUMNS)):
            last.setdefault(row[0], row)  # SQLite: a member's rows after his first are older
    return last


def _rows_before(rating_list: RatingList, day: dt.date) -> Any:
    """The list's history rows before `day` (none: a replay from the list's start)."""
    return RatingHistory.objects.filter(rating_list=rating_list, date__lt=day)


# PostgreSQL: one probe of the index `history_list_state` per member, from his newest row
# down: tens of thousands of players take a fraction of a sweep over everyone's rows.
_PROBE_LAST_ROWS = (
    f"SELECT m.id, {', '.join(f'h.{c}' for c in STATE_COLUMNS[1:])} "
    "FROM unnest(%s::bigint[]) AS m(id) CROSS JOIN LATERAL "
    f"(SELECT {', '.join(STATE_COLUMNS[1:])} FROM ratings_ratinghistory "
    "WHERE rating_list_id = %s AND member_id = m.id AND date < %s "
    "ORDER BY date DESC, sequence DESC LIMIT 1) h"
)


@contextmanager
def walk_reads(
    rating_list: RatingList,
    day: dt.date,
    *,
    last_rows: dict[int, tuple[Any, ...]],
    games: dict[int, list[GameRecord]],
    members: dict[int, Card] | None = None,
    handicaps: bool,
) -> Iterator[WalkReads]:
    """A `WalkReads` for the block, putting what it receives into the dicts given.

    On PostgreSQL the block runs in psycopg's pipeline mode: the server reads what is
    asked for while the block goes on in Python. The block should query nothing else (a
    query waits for what is in flight; only an error's message looks up a member)."""
    rows_before = _rows_before(rating_list, day).exists()  # none: a replay from the start
    reads = WalkReads(
        rating_list,
        day,
        last_rows,
        games,
        {} if members is None else members,
        handicaps=handicaps,
        rows_before=rows_before,
    )
    if connection.vendor != "postgresql":
        yield reads
        return
    with pipeline_mode() as reads.driver:
        yield reads


class WalkReads:
    """What a cone's walk reads as it learns which tables it will replay (issue 18): their
    games (`games`), their players' member cards (`members`, as `read_members` gives
    them), and the last rows before the day of the players they start from there
    (`last_rows`, as `StatesBefore` takes them). Asked for a few at a time, sent together
    (`send`: a query of each kind), waited for only when the walk comes to them;
    elsewhere than on PostgreSQL, read when asked for.

    A cone may reach 25,000 players and 900 tables, and replays about 150 of the tables,
    which start about 3,600 players from their states before its date: reading all the
    tables' games took 60 ms at EGD scale, and probing for all the players' states kept
    the server busy longer than the walk (it waited 40-60 ms); asked for as the walk
    learns of them, they are read while it rates the tables before. Likewise the cards of
    the 7,000 players of the tables it replays, not the 25,000 it may reach (40-60 ms)."""

    def __init__(
        self,
        rating_list: RatingList,
        day: dt.date,
        last_rows: dict[int, tuple[Any, ...]],
        games: dict[int, list[GameRecord]],
        members: dict[int, Card],
        *,
        handicaps: bool,
        rows_before: bool,
    ) -> None:
        self.rating_list, self.day, self.handicaps = rating_list, day, handicaps
        self.last_rows, self.games, self.members = last_rows, games, members  # what has come
        self.rows_before = rows_before  # False: nobody has a row before the day
        self.driver: Any = None  # PostgreSQL's connection, in pipeline mode
        self.asked: set[int] = set()  # players whose last rows were asked for
        self.carded: set[int] = set()  # players whose cards were asked for
        self.tables: set[int] = set()  # tables
        self._in_flight: list[tuple[Any, str]] = []  # cursors sent, each with what it reads
        self._awaited: set[int] = set()  # players asked for (rows or cards), not yet come
        self._awaited_tables: set[int] = set()
        # Asked for, not sent yet (`send`): tables, players' cards, players' last rows.
        self._unsent: dict[str, list[int]] = {"games": [], "cards": [], "rows": []}

    def ask(self, member_ids: Iterable[int]) -> None:
        """Ask for these members' last rows before the day (once each)."""
        new = [m for m in member_ids if m not in self.asked]
        if not new or not self.rows_before:
            return
        self.asked.update(new)
        if self.driver is None:
            self.last_rows.update(_last_rows(self.rating_list, self.day, new))
            return
        self._unsent["rows"] += new
        self._awaited.update(new)

    def ask_members(self, member_ids: Iterable[int]) -> None:
        """Ask for these members' cards (once each)."""
        new = [m for m in member_ids if m not in self.carded]
        if not new:
            return
        self.carded.update(new)
        if self.driver is None:
            self.members.update(read_members(new))
            return
        self._unsent["cards"] += new
        self._awaited.update(new)

    def ask_games(self, tournament_ids: Iterable[int]) -> None:
        """Ask for these tables' games (once each)."""
        new = [t for t in tournament_ids if t not in self.tables]
        if not new:
            return
        self.tables.update(new)
        if self.driver is None:
            self.games.update(load_game_records(new, handicaps=self.handicaps))
            return
        self._unsent["games"] += new
        self._awaited_tables.update(new)

    @property
    def unsent_tables(self) -> int:
        """How many tables were asked for since the last `send`."""
        return len(self._unsent["games"])

    def send(self) -> None:
        """Send what was asked for since the last send: a query of each kind."""
        tables, cards, rows = self._unsent["games"], self._unsent["cards"], self._unsent["rows"]
        if tables:
            self._send_for(self._compiled_games, tables, "games")
        if cards:
            self._send_for(self._compiled_members, cards, "cards")
        if rows:
            self._send(_PROBE_LAST_ROWS, [id_array(rows), self.rating_list.pk, self.day], "rows")
        self._unsent = {"games": [], "cards": [], "rows": []}

    def wait_for(self, member_ids: Iterable[int], tournament_id: int) -> bool:
        """Have what was asked for of these members and of this table come (sends what
        was asked for and not sent, and waits for all in flight, when one of them is).
        Whether it waited: nothing is in flight then."""
        if tournament_id not in self._awaited_tables and self._awaited.isdisjoint(member_ids):
            return False
        self.send()
        for cursor, reading in self._in_flight:  # psycopg receives them all at the first fetch
            with cursor:
                if reading == "games":
                    for t_id, records in groupby(cursor.fetchall(), _TOURNAMENT):
                        self.games[t_id] = list(records)
                elif reading == "cards":
                    self.members.update(map(_card, cursor.fetchall()))
                else:
                    self.last_rows.update((row[0], row) for row in cursor.fetchall())
        self._in_flight.clear()
        self._awaited.clear()
        self._awaited_tables.clear()
        return True

    @cached_property
    def _compiled_games(self) -> tuple[str, tuple[Any, ...], int]:
        """The games query compiled once (PostgreSQL's): Django takes 0.3 ms to build it,
        and a walk asks for games about a hundred times."""
        return _compiled(_game_query([0], handicaps=self.handicaps))

    @cached_property
    def _compiled_members(self) -> tuple[str, tuple[Any, ...], int]:
        """The cards query compiled once (see `_compiled_games`)."""
        (cards,) = with_ids(Member.objects.order_by(), "pk", [0])
        return _compiled(cards.values_list(*_CARD_COLUMNS))

    def _send_for(
        self, compiled: tuple[str, tuple[Any, ...], int], ids: list[int], reading: str
    ) -> None:
        """Send a query compiled once (`_compiled`) for these ids."""
        sql, params, ids_at = compiled
        params = list(params)
        params[ids_at] = id_array(ids)
        self._send(sql, params, reading)

    def _send(self, sql: str, params: Sequence[Any], reading: str) -> None:
        cursor = binary_cursor()  # on `driver`: Django's connection
        cursor.execute(sql, params, binary=True)
        self._in_flight.append((cursor, reading))


def tables_with_rows(rating_list_id: int, from_date: dt.date) -> Any:
    """The list's tables with stored rows from `from_date` on (a query of their ids, one
    a row). Found in the index alone (the tables of the list's rows from a date,
    `history_list_date_rows`), not in the rows."""
    return (
        RatingHistory.objects.filter(rating_list_id=rating_list_id, date__gte=from_date)
        .order_by()
        .values_list("tournament_id")
        .distinct()
    )


@contextmanager
def read_meanwhile(query: Any) -> Iterator[list[tuple[Any, ...]]]:
    """`query`'s rows (a `values_list` one), read while the block goes on in Python: the
    list yielded has them after the block (on the same connection, in the same
    transaction; at READ COMMITTED a statement sees what was committed when it began).

    On PostgreSQL the query is sent at once in psycopg's pipeline mode and its rows taken
    in at the block's end: the server works on the other core meanwhile. The block should
    not query, to gain: an ORM query there waits for what is in flight, a streamed read
    (`fast_rows`) or a COPY is refused, and a query that fails there raises when the rows
    are taken in. Elsewhere the rows are read after the block."""
    rows: list[tuple[Any, ...]] = []
    if connection.vendor != "postgresql":
        yield rows
        rows.extend(fast_rows(query))
        return
    try:
        sql, params = query.query.sql_with_params()
    except EmptyResultSet:  # an empty `__in`: nothing to read
        yield rows
        return
    with pipeline_mode() as driver, driver.cursor() as cursor:
        cursor.execute(sql, params)
        yield rows
        rows.extend(cursor.fetchall())


def any_unentered_game(tournament_ids: list[int]) -> bool:
    """Whether one of these tables holds a played game of someone it does not enter (the
    database keeps them: `tournaments.models.UnenteredGame`)."""
    return UnenteredGame.objects.filter(any_of("tournament_id", tournament_ids)).exists()


def fast_rows(queryset: Any) -> Iterable[tuple[Any, ...]]:
    """A `values_list` query's rows: on PostgreSQL as the driver returns them (dates as
    dates, grades as ranks, JSON as text), without Django's per-row converters; elsewhere
    (SQLite returns dates as text) through them."""
    if connection.vendor == "postgresql":
        return _raw_rows(queryset)
    return queryset.iterator(chunk_size=5000)


def stored_table_digests(
    rating_list_id: int, day: dt.date, tournament_ids: list[int] | None = None
) -> dict[int, int | None]:
    """The digest of each linked table's stored rows (`ListTournament.history_digest`)
    for the tables ending on or after `day` (of `tournament_ids` only, unless None)."""
    links = ListTournament.objects.filter(
        rating_list_id=rating_list_id, tournament__end_date__gte=day
    )
    if tournament_ids is not None:
        links = links.filter(tournament_id__in=tournament_ids)
    return dict(links.values_list("tournament_id", "history_digest"))


def tournaments_from(
    rating_list: RatingList,
    day: dt.date,
    *,
    include: Tournament | None = None,
    exclude: Iterable[int] = (),
) -> list[ReplayedTournament]:
    """Tournaments the list approved, ending on or after `day`, in replay order."""
    ids = set(
        ListTournament.objects.filter(
            counted_links(), rating_list=rating_list, tournament__end_date__gte=day
        ).values_list("tournament_id", flat=True)
    )
    if include is not None:
        ids.add(include.pk)
    ids -= set(exclude)
    return replayed_tournaments(ids)


class ReplayedTournament(NamedTuple):
    """A tournament as a replay reads it: what `replay.rate_tournament` and
    `rules.event_verdict` read of it (the EGF's class from its time control, UFGO 1.7; the
    name for an error's message). A tuple, not a Django model: 9,000 of them read in 38 ms
    at EGD scale, as models with only these fields in 183 ms."""

    pk: int
    name: str
    start_date: dt.date
    end_date: dt.date
    board_size: int
    tournament_class: str
    official: bool
    participants_declared: int | None
    basic_time_minutes: Decimal
    overtime_kind: str
    overtime_seconds: int | None
    overtime_moves: int | None
    time_control_known: bool


REPLAY_FIELDS = ReplayedTournament._fields[1:]  # the model's fields, after its id


def replayed_tournaments(ids: Iterable[int]) -> list[ReplayedTournament]:
    """These tournaments in replay order (end date, then id)."""
    rows = (
        Tournament.objects.filter(any_of("pk", sorted(ids)))
        .order_by("end_date", "pk")
        .values_list("pk", *REPLAY_FIELDS)
    )
    return list(map(ReplayedTournament._make, rows))


def load_games(tournament_ids: list[int], *, handicaps: bool = True) -> dict[int, list[EngineGame]]:
    """Each tournament's played games as the engine takes them (players' ids as text), in
    round order, then as entered; handicaps zeroed where the list's system has none."""
    tables = groupby(_game_rows(tournament_ids, handicaps=handicaps), _TOURNAMENT)
    return {t_id: engine_games(table) for t_id, table in tables}


def load_game_records(
    tournament_ids: list[int], *, handicaps: bool = True
) -> dict[int, list[GameRecord]]:
    """Each tournament's played games as read (`GameRecord`), in round order, then as
    entered.

    A million games pass through here at EGD scale, so each is built once, straight from
    the driver's row."""
    tables = groupby(_game_rows(tournament_ids, handicaps=handicaps), _TOURNAMENT)
    return {t_id: list(table) for t_id, table in tables}


def _game_rows(tournament_ids: list[int], *, handicaps: bool) -> Iterable[GameRecord]:
    """The games as `GameRecord`s, table after table, each in round order, then as entered.

    PostgreSQL reads them in that order along the index `game_table_order`, sending the
    first table's games at once, and goes on while Python takes in the rows it has sent;
    sorting each table here took longer (issue 18)."""
    return _raw_rows(_game_query(tournament_ids, handicaps=handicaps))


def _game_query(tournament_ids: list[int], *, handicaps: bool) -> Any:
    """The query of `_game_rows`."""
    return (
        GameRow.objects.filter(any_of("tournament_id", tournament_ids), kind=GameRow.Kind.PLAYED)
        .order_by("tournament_id", "round", "pk")
        .annotate(
            white_text=Cast("white_id", CharField()),
            black_text=Cast("black_id", CharField()),
            stones=F("handicap") if handicaps else Value(0),
        )
        .values_list("tournament_id", "round", "white_text", "black_text", "result", "stones")
    )


def _compiled(query: Any) -> tuple[str, tuple[Any, ...], int]:
    """A query filtered on the ids `[0]` (`any_of`) as SQL, its parameters, and the place
    among them of the ids (`id_array`), for other ids to take."""
    sql, params = query.query.sql_with_params()
    return sql, params, params.index(id_array([0]))


def engine_games(records: Iterable[GameRecord]) -> list[EngineGame]:
    """One table's game records (as `load_game_records` gives them) as the engine takes
    them, in the same order."""
    return list(map(tuple.__new__, repeat(EngineGame), map(_GAME, records)))


# A game as read: (tournament, round, white, black, result, handicap), players' ids as
# text; after the tournament's id, its fields as the engine takes them.
GameRecord = tuple[int, int, str, str, str, int]
_TOURNAMENT, _GAME = itemgetter(0), itemgetter(slice(1, 6))


def player_ids(games: Sequence[EngineGame]) -> set[str]:
    """The ids of everyone who played one of `games`."""
    return set(map(_WHITE, games)).union(map(_BLACK, games))


_WHITE, _BLACK = itemgetter(1), itemgetter(2)


def _raw_rows(queryset: Any) -> Iterable[tuple[Any, ...]]:
    """A `values_list` query's rows as the driver returns them, in batches: a million games
    through Django's per-row converters cost more than reading them. Only for columns
    whose database value is the Python one (ids, numbers, text; a grade as its rank)."""
    return chain.from_iterable(_raw_chunks(queryset))


def _raw_chunks(queryset: Any) -> Iterator[list[tuple[Any, ...]]]:
    """`_raw_rows`, a batch at a time.

    On PostgreSQL the rows stream in chunks as the server produces them, so it goes on
    reading and sending (on the other core) while Python builds objects from the last
    chunk; a plain fetch waits for the whole result first (twice as long for the games)."""
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:  # an empty `__in`: nothing to read
        return
    if connection.vendor == "postgresql":
        with binary_cursor() as cursor:
            yield from stream_chunks(cursor, sql, params, size=STREAM_CHUNK, binary=True)
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while batch := cursor.fetchmany(50000):
            yield batch


# Rows per chunk PostgreSQL sends (psycopg's chunked mode, libpq 17+). Python starts on a
# query's rows once the first chunk is in: a year's games, stored rows and entries at EGD
# scale came in 63, 73 and 22 ms in chunks of 2,000 rows, against 72, 90 and 28 in chunks
# of 20,000.
STREAM_CHUNK = 2000


# A table's participants: member -> (grade rank professed there, rating declared there).
Entries = dict[int, tuple[int | None, int | None]]
Professed = dict[int, Entries]  # tournament -> its participants


def read_professed(tournament_ids: list[int]) -> Professed:
    """Each tournament's participants (`Entries`), every tournament asked for included."""
    professed: Professed = {t_id: {} for t_id in tournament_ids}
    for queryset in with_ids(Participant.objects.order_by(), "tournament_id", tournament_ids):
        for t_id, m_id, grade, declared in _raw_rows(
            queryset.values_list("tournament_id", "member_id", "grade", "rating_declared")
        ):
            professed[t_id][m_id] = (grade, declared)  # a raw row's grade is its rank
    return professed


# Rows read by id at once (members, entries), without first counting the whole table to
# see whether reading it whole would be quicker.
FEW_IDS = 5000


def read_members(member_ids: list[int]) -> dict[int, Card]:
    """member -> his `Card`.

    For most of the members (a full recompute) the table is read whole and the others left
    out here: matching 45,000 ids in the query took six times as long as the reading."""
    cards: dict[int, Card] = {}
    everyone = Member.objects.order_by()
    wanted = set(member_ids)
    whole = len(wanted) > FEW_IDS and len(wanted) * 2 >= everyone.count()
    for queryset in [everyone] if whole else with_ids(everyone, "pk", member_ids):
        rows = fast_rows(queryset.values_list(*_CARD_COLUMNS))
        cards.update(_card(row) for row in rows if row[0] in wanted)
    return cards


_CARD_COLUMNS = ("id", "birth_date", "birth_year", "fide_rating", "grade")


def _card(row: tuple[Any, ...]) -> tuple[int, Card]:
    """A row of `_CARD_COLUMNS` as (member id, his card)."""
    m_id, birth, birth_year, fide, grade = row
    return m_id, (effective_birth_date(birth, birth_year), fide, rank_of(grade))


def any_of(field: str, ids: Iterable[int]) -> Any:
    """A filter `field` in `ids`, for ids that may run to tens of thousands (a list's
    tables, a replay's players): on PostgreSQL one array (`AnyOf`), elsewhere `__in`."""
    if connection.vendor == "postgresql":
        return AnyOf(F(field), list(ids))
    return Q(**{f"{field}__in": list(ids)})


class AnyOf(Lookup):
    """PostgreSQL: `field = ANY(ids)`, the ids sent as the text of one array (`id_array`).

    Django's `__in` sends a parameter per id (9,000 tables: 20-60 ms to build the SQL),
    and `IN (SELECT unnest(...))` lets the planner hash-join where it could walk an index
    in order: the games of a year's 820 tables came at 120 ms instead of 50 ms."""

    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        return f"{lhs} = ANY(%s::bigint[])", [*lhs_params, id_array(self.rhs)]


def id_array(ids: Iterable[int | None]) -> str:
    """PostgreSQL's text of an array of ids (`%s::bigint[]`), None as NULL: the driver
    quotes a list one element at a time (12 ms for 25,000 ids, five times this)."""
    return "{" + ",".join("NULL" if i is None else str(int(i)) for i in ids) + "}"


def with_ids(queryset: Any, field: str, ids: list[int]) -> list[Any]:
    """`queryset` filtered on `field__in=ids`, for tens of thousands of ids: on PostgreSQL
    one query with the ids as one array (a list of 20,000 parameters costs more to build
    and parse than to run); elsewhere in chunks, under SQLite's limit on parameters."""
    if connection.vendor == "postgresql":
        return [queryset.filter(any_of(field, ids))]
    return [queryset.filter(**{f"{field}__in": chunk}) for chunk in id_chunks(ids)]


def id_chunks(ids: list[int], size: int = 20000) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def fide_history(member_ids: list[int]) -> dict[int, list[tuple[dt.date, int]]]:
    """Each member's FIDE ratings with the day each became valid, oldest first."""
    history: dict[int, list[tuple[dt.date, int]]] = defaultdict(list)
    for queryset in with_ids(FideRating.objects.all(), "member_id", member_ids):
        rows = queryset.order_by("member_id", "valid_from").values_list(
            "member_id", "valid_from", "rating"
        )
        for member_id, valid_from, rating in rows:
            history[member_id].append((valid_from, rating))
    return history


def fide_ratings_on(history: dict[int, list[tuple[dt.date, int]]], day: dt.date) -> dict[int, int]:
    """The FIDE rating each member had on `day` (the latest valid from then or before);
    members with none known by then are not FIDE-rated for that tournament (issue 20)."""
    ratings: dict[int, int] = {}
    for member_id, dated in history.items():
        valid = [rating for valid_from, rating in dated if valid_from <= day]
        if valid:
            ratings[member_id] = valid[-1]
    return ratings


def published_grades(rating_list: RatingList) -> list[tuple[dt.date, dict[int, int]]]:
    """Grades the list has published (UFGO gives 4-7 dan only there, 2.5), oldest first.

    A published snapshot is a fact: a replay hands its grades on to every player whose
    last tournament came before it."""
    if not rules.has_floating_grades(rating_list.system):
        return []
    grades: dict[dt.date, dict[int, int]] = defaultdict(dict)
    rows = PublishedEntry.objects.filter(
        snapshot__rating_list=rating_list, grade__isnull=False
    ).values_list("snapshot__date", "member_id", "grade")
    for date, member_id, grade in rows:
        rank = rank_of(grade)
        if rank is not None:
            grades[date][member_id] = rank
    return sorted(grades.items())
