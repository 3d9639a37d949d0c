"""`egf` against the EGD: real tournaments of 2015-2018 rated from published ratings.

Each table in shared/refdata/egd/tables/ is rated from the rating-list snapshot
before it; our `after` is compared with the snapshot after it, for the players
the README's pairing rule makes comparable.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ratings.systems import rate_json

from .egd_realdata import TOLERANCE, load_cases, opponents

MIN_SHARE_KNOWN_OPPONENTS = 0.95
MIN_SHARE_ALL = 0.90
SUMMARY_PROPERTY = "egd_realdata_summary"  # tests/conftest.py prints it in the run's summary


def test_egf_matches_published_egd_ratings(record_property: Callable[[str, object], None]) -> None:
    cases = load_cases()
    close_all = total_all = close_known = total_known = 0
    lines = []
    for case in cases:
        result = {player["id"]: player for player in rate_json(case.event)["players"]}
        played = opponents(case.event)
        close = known = close_k = 0
        for player_id, published in sorted(case.published.items()):
            within = abs(result[player_id]["after"] - published) <= TOLERANCE
            close += within
            if played[player_id] <= case.known_inputs:
                known += 1
                close_k += within
        close_all += close
        total_all += len(case.published)
        close_known += close_k
        total_known += known
        lines.append(
            f"  {case.table.name} ({case.table.code}, class {case.table.klass}): "
            f"{close}/{len(case.published)} within {TOLERANCE:g}; known opponents {close_k}/{known}"
        )

    share_all = close_all / total_all
    share_known = close_known / total_known
    summary = (
        f"EGD real data: {len(cases)} tournaments; players whose opponents' inputs are all "
        f"known: {close_known}/{total_known} = {share_known:.1%} within {TOLERANCE:g} points; "
        f"all comparable players: {close_all}/{total_all} = {share_all:.1%}"
    )
    print("\n".join([summary, *lines]))
    record_property(SUMMARY_PROPERTY, [summary, *lines])
    assert len(cases) >= 10 and total_all >= 200 and total_known >= 20, summary
    assert share_known >= MIN_SHARE_KNOWN_OPPONENTS, summary
    assert share_all >= MIN_SHARE_ALL, summary


def test_reader_reads_a_table_consistently() -> None:
    from .egd_realdata import EGD_DIR, read_table

    table = read_table(EGD_DIR / "tables" / "kpmc2016.txt")
    assert (table.code, table.klass, table.end_date) == ("W160905A", "B", "2016-09-07")
    first = table.rows[0]
    assert (first.place, first.grade, first.pin) == (1, "7d", "18025403")
    assert [(e.opponent, e.symbol) for e in first.entries][:3] == [(4, "+"), (9, "+"), (36, "+")]
    # every game appears on both players' lines with opposite results
    by_place = {row.place: row for row in table.rows}
    opposite = {"+": "-", "-": "+", "=": "="}
    for row in table.rows:
        for round_index, entry in enumerate(row.entries):
            if entry.opponent:
                other = by_place[entry.opponent].entries[round_index]
                assert (other.opponent, other.symbol) == (row.place, opposite[entry.symbol])


@pytest.mark.parametrize("name", ["wagc2017.txt", "mpj2018.txt"])
def test_reader_handles_colour_and_extra_columns(name: str) -> None:
    from .egd_realdata import EGD_DIR, read_table

    table = read_table(EGD_DIR / "tables" / name)
    rounds = {len(row.entries) for row in table.rows}
    assert len(rounds) == 1 and rounds.pop() >= 4
    assert all(row.pin for row in table.rows)
