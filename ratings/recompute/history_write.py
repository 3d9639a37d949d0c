"""A replay's history rows written, touching only the rows that changed (issue 18).

Each row carries a fingerprint: a 64-bit digest of every column but its key and its
replay position (`sequence`, compared as it is: rows written before it became the
tournament's id still hold a running count, and are rewritten once). Each table's link
to the list carries a digest of all its rows (`ListTournament.history_digest`).

A recompute first digests each table it replayed: a table whose digest is the stored
one keeps its rows untouched, unread. The rows of the other tables are compared one by
one: the recompute reads their stored key, position and fingerprint (three integers a
row), deletes the rows it no longer has, updates those whose fingerprint or position
differ, and COPYs the new ones straight in. A table in the scope it did not replay at
all loses its rows. A full recompute of an unchanged list at EGD scale digests 9,000
tables and writes nothing.

A cone replay may know rows to come out as stored without digesting them (egf, see
`cone.py`): those it leaves as they are.

A row written or edited by anything else has no fingerprint (null), which never equals a
computed one: such a row is rewritten by the next recompute that compares it; whatever
edits rows elsewhere clears their table's digest (`merging.py`), so that it is compared.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain
from typing import Any

from django.db import connection

from ratings.models import RatingHistory
from ratings.recompute.bulk import (
    RowUpdates,
    as_json,
    breakdown_json,
    insert_rows,
)
from ratings.recompute.history_swap import history_swap, stored_ids, swap_pays
from ratings.recompute.reads import (
    fast_rows,
    id_array,
    id_chunks,
    stored_table_digests,
    tables_with_rows,
    with_ids,
)
from ratings.recompute.state import BreakdownGame, HistoryRow, Key, resolved_breakdown
from ratings.systems.model import GameOutput

COLUMNS = [
    "rating_list_id", "member_id", "tournament_id", "date", "sequence", "rating_in", "before",
    "after", "change", "games_count", "rated", "provisional", "anomalous", "reset", "grade",
    "list_grade", "klass", "note", "tournaments_so_far", "games_so_far", "best_grade_so_far",
    "history", "breakdown", "fingerprint",
]  # fmt: skip


def fingerprint(row: HistoryRow, breakdown: tuple[BreakdownGame, ...] | None = None) -> int:
    """The digest of a row's columns but its key and `sequence` (a signed 64-bit integer).

    The values go through `marshal` format 2, which writes numbers in binary (no float
    formatting: the cost of a JSON text) and, unlike later formats, no back-references
    that would depend on which objects happen to be shared, so the same values give the
    same bytes in every process; then an 8-byte BLAKE2b. The breakdown goes in as stored
    (`resolved_breakdown`), so rows written before it was kept as the engine gives it
    keep their fingerprints. `breakdown`: that, when the caller has it already."""
    if breakdown is None:
        breakdown = resolved_breakdown(row)
    values = (row.date.toordinal(), (*row[_AFTER_SEQUENCE:_BREAKDOWN], breakdown))
    digest = hashlib.blake2b(marshal.dumps(values, 2), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


# Stored rows by table, then member: their (sequence, fingerprint).
StoredKeys = dict[int, dict[int, tuple[int, int | None]]]

# A row's columns from `rating_in` on (after its key, date and sequence), in field order.
_AFTER_SEQUENCE = HistoryRow._fields.index("sequence") + 1
_FROM_SEQUENCE = _AFTER_SEQUENCE - 1
_BREAKDOWN = HistoryRow._fields.index("breakdown")


def _values(
    rating_list_id: int,
    row: HistoryRow,
    history: str | None,
    breakdown: tuple[BreakdownGame, ...],
    digest: int,
) -> tuple:
    return (
        rating_list_id, row.member_id, row.tournament_id, row.date, row.sequence,
        row.rating_in, row.before, row.after, row.change, row.games_count, row.rated,
        row.provisional, row.anomalous, row.reset, row.grade, row.list_grade, row.klass,
        row.note, row.tournaments_so_far, row.games_so_far, row.best_grade_so_far, history,
        breakdown_json(breakdown), digest,
    )  # fmt: skip


def table_digest(rows: Sequence[HistoryRow]) -> int:
    """The digest of one table's rows, in the order the replay gave them: every column of
    each but the list and the tournament (a signed 64-bit integer), through `marshal`
    format 2 like `fingerprint`, in one call for the whole table; then the first 8 bytes
    of its SHA-256 (the processor computes it: half BLAKE2b's time on 130 MB a full
    recompute at EGD scale digests).

    The rows go in column by column, and so do their games (each row's `games_count`
    says where its games end), the opponents' ids as one text: no tuple is built per row
    or per game (400,000 and two million at EGD scale), and `marshal` encodes one text
    instead of a text per game. The breakdowns go in as the engine gave them, with the
    table's players' ids and starts (`opponents`, shared by its rows): together they are
    what the stored breakdowns hold."""
    fields = list(zip(*rows, strict=True))
    games: list[Any] = list(zip(*chain.from_iterable(fields[_BREAKDOWN]), strict=True))
    if games:
        games[_OPPONENT] = ",".join(games[_OPPONENT])  # ids are numbers: no comma
    values = (
        rows[0].date.toordinal(),
        fields[_MEMBER],
        fields[_FROM_SEQUENCE:_BREAKDOWN],
        games,
        rows[0].opponents,
    )
    digest = hashlib.sha256(marshal.dumps(values, 2)).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


_MEMBER = HistoryRow._fields.index("member_id")
_OPPONENT = GameOutput._fields.index("opponent")


def history_write(
    rating_list_id: int,
    rows: Iterable[HistoryRow],
    *,
    from_date: dt.date,
    tournament_ids: list[int] | None,
    stored_keys: StoredKeys | None = None,
    standing: AbstractSet[Key] = frozenset(),
    known_digests: dict[int, int] | None = None,
    unchanged: Iterable[int] = (),
    stored_tables: set[int] | None = None,
    undigested: Iterable[int] = (),
) -> tuple[set[int], int, bool]:
    """Make the list's stored rows from `from_date` on (of `tournament_ids` only, unless
    None) equal to `rows`, which must all fall there. `stored_keys`: the stored rows' keys
    by table, when the caller has read them in this transaction (the cone has): of every
    table of `tournament_ids` that has rows (of every table from the date, if None);
    neither the rows nor the tables that have some are read again. `standing`: rows of
    the tables replayed known to be as stored (a cone's, `ReplayOutcome.standing`), left
    as they are without being compared; they may be left out of `rows`.
    Returns the members whose rows were taken out, how many rows were written
    (deleted, updated, added) and whether the history was swapped (`history_swap`: its
    statistics are taken already). `known_digests`: the digests of the tables replayed with
    rows, made already (a replay makes them as it goes): of their rows in `rows` and
    those `standing`. `unchanged`:
    tables replayed whose rows came out as stored (their digest); none of theirs is in
    `rows`, and their stored rows stand. `stored_tables`: the list's tables with stored rows
    from the date (`reads.tables_with_rows`), when the caller has read them in this
    transaction, under the list's lock (a full replay has, while it rated). `undigested`:
    tables replayed whose rows have no digest as a whole (a cone rated them in part: their
    other rows are `standing`); compared, and their stored digest cleared."""
    known_digests = known_digests or {}
    unchanged = set(unchanged)
    if connection.vendor != "postgresql":
        removed, written = _replace(
            rating_list_id,
            rows,
            from_date=from_date,
            tournament_ids=tournament_ids,
            standing=standing,
        )
        return removed, written, False
    by_table: dict[int, list[HistoryRow]] = {}
    for row in rows:
        by_table.setdefault(row.tournament_id, []).append(row)
    stored_digests = stored_table_digests(rating_list_id, from_date, tournament_ids)
    # Those made already, of tables whose rows all stand (a cone's) among them.
    digests = {t_id: table_digest(t) for t_id, t in by_table.items() if t_id not in known_digests}
    digests.update(known_digests)
    digests.update(dict.fromkeys(undigested))  # None: none to compare
    compared = sorted(
        t_id
        for t_id, digest in digests.items()
        if digest is None or stored_digests.get(t_id) != digest
    )
    compared_rows = [row for t_id in compared for row in by_table.get(t_id, ())]
    swapped = not standing and swap_pays(len(compared_rows))
    if swapped:
        removed, written = _swap_rows(rating_list_id, compared_rows, compared)
    else:
        removed, written = _compare_rows(
            rating_list_id, compared_rows, compared, stored_keys, standing
        )
    gone: set[int] = set()
    # The tables whose stored digest no longer holds: compared, or left without rows.
    new_digests = {t_id: digests[t_id] for t_id in compared}
    with connection.cursor() as cursor:
        replayed = unchanged.union(digests)
        if stored_keys is not None:
            with_rows = stored_keys.keys() if tournament_ids is None else tournament_ids
            stale = sorted(t for t in with_rows if t in stored_keys and t not in replayed)
        else:
            stale = _tables_without_rows(
                rating_list_id, from_date, tournament_ids, replayed, stored_tables
            )
        if stale:
            cursor.execute(
                "DELETE FROM ratings_ratinghistory WHERE rating_list_id = %s "
                "AND tournament_id = ANY(%s::bigint[]) RETURNING member_id",
                [rating_list_id, id_array(stale)],
            )
            written += cursor.rowcount
            gone = {member_id for (member_id,) in cursor.fetchall()}
        new_digests.update(
            (t_id, None)
            for t_id, digest in stored_digests.items()
            if digest is not None and t_id not in replayed
        )
        if new_digests:
            cursor.execute(
                "UPDATE ratings_listtournament SET history_digest = d.digest "
                "FROM unnest(%s::bigint[], %s::bigint[]) AS d(tournament_id, digest) "
                "WHERE rating_list_id = %s "
                "AND ratings_listtournament.tournament_id = d.tournament_id",
                [id_array(new_digests), id_array(new_digests.values()), rating_list_id],
            )
    return removed | gone, written, swapped


def _tables_without_rows(
    rating_list_id: int,
    from_date: dt.date,
    tournament_ids: list[int] | None,
    replayed: Iterable[int],
    stored_tables: set[int] | None,
) -> list[int]:
    """The tables of the scope with stored rows that the replay gave none: taken out, not
    rated now, or no longer linked to the list. `stored_tables`: the list's tables with
    rows from the date, when the caller has read them (`reads.tables_with_rows`)."""
    if stored_tables is None:
        query = tables_with_rows(rating_list_id, from_date)
        stored_tables = {t_id for (t_id,) in fast_rows(query)}
    if tournament_ids is not None:
        stored_tables = stored_tables.intersection(tournament_ids)
    return sorted(stored_tables.difference(replayed))


def _compare_rows(
    rating_list_id: int,
    rows: list[HistoryRow],
    tournament_ids: list[int],
    stored_keys: StoredKeys | None,
    standing: AbstractSet[Key],
) -> tuple[set[int], int]:
    """Make the stored rows of these tables equal to `rows`, row by row (see the module),
    but those `standing`, known to be equal already (in `rows` or not)."""
    if not tournament_ids:
        return set(), 0
    if stored_keys is not None:
        stored = {
            (m, t): known for t in tournament_ids for m, known in stored_keys.get(t, {}).items()
        }
    else:
        in_tables = RatingHistory.objects.filter(rating_list_id=rating_list_id).order_by()
        stored = {
            (m, t): (s, f)
            for queryset in with_ids(in_tables, "tournament_id", tournament_ids)
            for m, t, s, f in fast_rows(
                queryset.values_list("member_id", "tournament_id", "sequence", "fingerprint")
            )
        }
    for key in stored.keys() & standing:  # present, as they are
        del stored[key]
    added: list[tuple] = []
    # Each changed row is sent on the moment it is found, and the server updates them while
    # the rest are digested. For every row of a list at EGD scale (a change of rules),
    # 22 s in all where one COPY and one UPDATE after the digests took 32 s.
    with RowUpdates(RatingHistory, COLUMNS, _KEY) as updates:
        for row in rows:
            key = (row.member_id, row.tournament_id)
            was = stored.pop(key, None)
            if key in standing:
                continue
            values = _rewritten(rating_list_id, row, was)
            if values is None:
                continue
            if was is None:
                added.append(values)
            else:
                updates.add(values)
    removed = list(stored)  # in these tables, no longer replayed
    with connection.cursor() as cursor:
        if removed:
            cursor.execute(
                "DELETE FROM ratings_ratinghistory t USING unnest(%s::bigint[], %s::bigint[]) "
                "AS d(member_id, tournament_id) WHERE t.rating_list_id = %s "
                "AND t.member_id = d.member_id AND t.tournament_id = d.tournament_id",
                [
                    id_array(m for m, _t in removed),
                    id_array(t for _m, t in removed),
                    rating_list_id,
                ],
            )
    insert_rows(RatingHistory, COLUMNS, added)
    return {m for m, _t in removed}, len(removed) + updates.count + len(added)


def _swap_rows(
    rating_list_id: int, rows: list[HistoryRow], tournament_ids: list[int]
) -> tuple[set[int], int]:
    """`_compare_rows` for a rewrite of most of the history: the tables' rows written
    afresh into a new table swapped in (`history_swap`), each under its stored id."""
    ids = stored_ids(rating_list_id, tournament_ids)
    kept = {(row.member_id, row.tournament_id) for row in rows}
    removed = ids.keys() - kept

    def values() -> Iterable[tuple]:
        for row in rows:
            breakdown = resolved_breakdown(row)
            digest = fingerprint(row, breakdown)
            pk = ids.get((row.member_id, row.tournament_id))
            yield (*_values(rating_list_id, row, as_json(row.history), breakdown, digest), pk)

    written = history_swap(
        rating_list_id,
        [*COLUMNS, "id"],
        values(),
        tournament_ids,
        new_rows=len(kept - ids.keys()),
    )
    return {m for m, _t in removed}, written + len(removed)


def _rewritten(rating_list_id: int, row: HistoryRow, was: tuple[int, int | None] | None) -> Any:
    """The row's values to write (`COLUMNS`), or None when they are stored already (`was`:
    the stored row's sequence and fingerprint; None: it has none)."""
    breakdown = resolved_breakdown(row)
    digest = fingerprint(row, breakdown)
    if was == (row.sequence, digest):
        return None
    return _values(rating_list_id, row, as_json(row.history), breakdown, digest)


class EarlyWrites:
    """A cone's tables compared with their stored rows as the walk rates each of them
    (PostgreSQL), the changed rows sent on the walk's pipelined connection (`send`): the
    server rewrites them while the walk goes on, where after the walk the store would
    wait for it (a retroactive table a year back at EGD scale rewrites 1,850 rows, about
    150 ms of the server's). Rows new or gone are the store's, as are tables as stored.

    The server answers a pipeline in order, so the walk, waiting for what it read, waits
    for the rows sent before: they are sent just after it has received all it asked for
    (`send`), to be written while it rates the next tables."""

    def __init__(self, rating_list_id: int, driver: Any) -> None:
        """`driver`: psycopg's connection, in pipeline mode for as long as this is used."""
        self.rating_list_id = rating_list_id
        self.updates = RowUpdates(
            RatingHistory, COLUMNS, _KEY, driver=driver, sends_when_full=False
        )
        self.settled: set[Key] = set()  # compared: written now, or stored as they are

    def __enter__(self) -> EarlyWrites:
        self.updates.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is None:
            self.send()
        self.updates.__exit__(*exc)

    def send(self) -> None:
        """Send the changed rows found since the last send."""
        self.updates.flush()

    def table(self, rows: Sequence[HistoryRow], stored: dict[int, tuple[int, int | None]]) -> None:
        """Compare one table's rows with its stored rows' (sequence, fingerprint), by
        member, sending those that changed."""
        for row in rows:
            was = stored.get(row.member_id)
            if was is None:
                continue  # a new row: the store adds it
            values = _rewritten(self.rating_list_id, row, was)
            if values is not None:
                self.updates.add(values)
            self.settled.add((row.member_id, row.tournament_id))

    @property
    def written(self) -> int:
        return self.updates.count


_KEY = ("rating_list_id", "member_id", "tournament_id")


def _replace(
    rating_list_id: int,
    rows: Iterable[HistoryRow],
    *,
    from_date: dt.date,
    tournament_ids: list[int] | None,
    standing: AbstractSet[Key],
) -> tuple[set[int], int]:
    """SQLite (the tests): delete the scope's rows but those `standing` and insert the new
    ones, a row that was there under its old id (pages link to a row by its id, as
    PostgreSQL's update keeps it)."""
    stale = RatingHistory.objects.filter(rating_list_id=rating_list_id, date__gte=from_date)
    if tournament_ids is not None:
        stale = stale.filter(tournament_id__in=tournament_ids)
    ids = {
        (m, t): pk
        for m, t, pk in stale.values_list("member_id", "tournament_id", "id")
        if (m, t) not in standing
    }
    written = sum(
        RatingHistory.objects.filter(pk__in=chunk).delete()[0]
        for chunk in id_chunks(sorted(ids.values()), 500)
    )
    values = []
    for row in rows:
        if (row.member_id, row.tournament_id) in standing:
            continue
        breakdown = resolved_breakdown(row)
        digest = fingerprint(row, breakdown)
        pk = ids.get((row.member_id, row.tournament_id))  # None: a new row, SQLite numbers it
        values.append((*_values(rating_list_id, row, as_json(row.history), breakdown, digest), pk))
    return {m for m, _t in ids}, written + insert_rows(RatingHistory, [*COLUMNS, "id"], values)
