"""Issue 53: TRF files off the spec, as pairing engines write them (tests/data/thirdparty,
sources.tsv there): placeholders read as empty and results not entered read as not
played, each with a warning naming its line."""

from __future__ import annotations

from pathlib import Path

from tournaments.formats import parse

DATA = Path(__file__).resolve().parent.parent / "data" / "thirdparty" / "trf"


def _read(name: str):
    return parse((DATA / name).read_bytes(), "trf", name)


def test_dubov_placeholders_are_read_as_empty_with_line_numbers() -> None:
    results = _read("dubov__parsing_test.trf")
    assert results.details.city == ""
    assert results.details.federation == ""
    assert all(p.fide_id is None for p in results.players)
    texts = [str(w) for w in results.warnings]
    assert any(t.startswith("line 2, column 5: Record 022 holds a placeholder") for t in texts)
    assert any(t.startswith("line 14, column 58: The FIDE ID '-----------'") for t in texts)


def test_team_file_star_results_are_rounds_not_played() -> None:
    results = _read("chesspairing__trf2026-team.trf")
    assert [b.kind for b in results.byes if b.round == 3] == ["unplayed"] * 8
    assert all(b.points == 0.0 for b in results.byes if b.round == 3)
    texts = [str(w) for w in results.warnings]
    assert (
        "line 30: Round 3: 0 pairings and 8 players without an opponent have no result"
        " entered (blank or '*'); read as not played, not rated." in texts
    )


def test_pairings_without_a_result_are_unplayed_games() -> None:
    results = _read("sharly__trf-team-import-test.trf")
    second = [g for g in results.games if g.round == 2]
    assert second and all((g.kind, g.result) == ("unplayed", "none") for g in second)
    assert not any(g.is_rated for g in second)
    assert any(str(w).startswith("line 20: Round 2: ") for w in results.warnings)
