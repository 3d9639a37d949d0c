"""manage.py import_tournament: preview, dry run, refusals, and nothing half-saved."""

from __future__ import annotations

import io
import sys

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Club, Member
from ratings.models import ListTournament
from tests.factories import ClubFactory, MemberFactory, RatingListFactory
from tournaments.formats import MAX_UPLOAD_BYTES
from tournaments.importing import saving
from tournaments.models import Game, Participant, RoundSeat, Tournament, TournamentLog

from .helpers import table_paths

pytestmark = pytest.mark.django_db
MODELS = (Tournament, Member, Participant, Game, RoundSeat, TournamentLog, ListTournament, Club)
TABLE = table_paths()[0]


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def _run(*args, stdin: bytes | None = None) -> list[str]:
    out = io.StringIO()
    if stdin is not None:
        real = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
        try:
            call_command("import_tournament", *args, stdout=out)
        finally:
            sys.stdin = real
    else:
        call_command("import_tournament", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def egf_list():
    return RatingListFactory(slug="egf", system="egf", game="go")


def test_preview_then_saved_last_line_is_the_id(egf_list):
    lines = _run(str(TABLE), "--list", "egf", "--format", "egd")
    assert lines[-1].startswith("tournament ")
    tournament = Tournament.objects.get(pk=int(lines[-1].split()[1]))
    assert tournament.status == Tournament.Status.SUBMITTED
    assert any(line.startswith("players: 0 matched, 25 new, 0 ambiguous") for line in lines)
    assert any("line 31: The grade '11' has no k/d/p" in line for line in lines)
    # The organiser defaults to a club made on demand (the list has no owner).
    assert tournament.organiser.slug == "imported-results"
    again = _run(str(TABLE), "--list", "egf", "--format", "egd")
    assert any(line.startswith("players: 25 matched, 0 new") for line in again)


def test_organiser_is_the_list_owner_or_the_one_named(egf_list):
    owner = ClubFactory(slug="owner")
    egf_list.owner_club = owner
    egf_list.save()
    first = _run(str(TABLE), "--list", "egf", "--format", "egd", "--draft")
    tournament = Tournament.objects.get(pk=int(first[-1].split()[1]))
    assert (tournament.organiser, tournament.status) == (owner, Tournament.Status.DRAFT)
    other = ClubFactory(slug="other")
    second = _run(str(TABLE), "--list", "egf", "--format", "egd", "--organiser", "other")
    assert Tournament.objects.get(pk=int(second[-1].split()[1])).organiser == other


def test_stdin(egf_list):
    lines = _run("-", "--list", "egf", "--format", "egd", stdin=TABLE.read_bytes())
    assert lines[-1].startswith("tournament ")


def test_dry_run_saves_nothing(egf_list):
    before = _counts()
    lines = _run(str(TABLE), "--list", "egf", "--format", "egd", "--dry-run")
    assert lines[-1] == "dry run: nothing saved"
    assert any("25 new" in line for line in lines)
    assert _counts() == before


def test_a_file_with_errors_saves_nothing_and_lists_every_problem(egf_list, tmp_path):
    broken = TABLE.read_text().splitlines()
    players = [i for i, line in enumerate(broken) if line.strip() and not line.startswith(";")]
    broken[players[2]] = broken[players[2]].replace("+/", "*/", 1)  # not a result
    broken[players[5]] = " 6 Nameless"  # no grade or country
    path = tmp_path / "broken.h9"
    path.write_text("\n".join(broken))
    before = _counts()
    with pytest.raises(CommandError) as refused:
        _run(str(path), "--list", "egf", "--format", "egd")
    message = str(refused.value)
    assert f"line {players[5] + 1}:" in message
    assert f"line {players[2] + 1}:" in message
    assert message.count("error: line") == 2
    assert _counts() == before


def test_a_failure_half_way_saves_nothing(egf_list, monkeypatch):
    """Round 3 fails after rounds 1 and 2, members and participants were written."""
    real = saving.round_replace

    def failing(*, tournament, round_number, pairings, by):
        if round_number == 3:
            raise RuntimeError("disk full")
        return real(tournament=tournament, round_number=round_number, pairings=pairings, by=by)

    monkeypatch.setattr(saving, "round_replace", failing)
    before = _counts()
    with pytest.raises(RuntimeError):
        _run(str(TABLE), "--list", "egf", "--format", "egd")
    assert _counts() == before


def test_ambiguous_players_refused_then_chosen(egf_list):
    twins = [
        MemberFactory(family_name="Chwedyna", given_name="Kamil", country="PL", club=None)
        for _ in range(2)
    ]
    before = _counts()
    with pytest.raises(CommandError) as refused:
        _run(str(TABLE), "--list", "egf", "--format", "egd")
    assert "Chwedyna Kamil (number 1 in the file) could be" in str(refused.value)
    assert _counts() == before
    lines = _run(str(TABLE), "--list", "egf", "--format", "egd", "--choose", f"1={twins[0].pk}")
    tournament = Tournament.objects.get(pk=int(lines[-1].split()[1]))
    assert tournament.participants.get(place=1).member == twins[0]
    twins[0].refresh_from_db()
    assert twins[0].egd_pin == ""  # issue 14: the file proposes it with the table ...
    call_command("approve_tournament", str(tournament.pk), stdout=io.StringIO())
    twins[0].refresh_from_db()
    assert twins[0].egd_pin == ""  # ... the approval does not apply it (issue 54) ...
    from tests.factories import UserFactory
    from tournaments.models import MemberProposal
    from tournaments.review.proposals import proposal_decide

    proposal = MemberProposal.objects.get(member=twins[0], field="egd_pin")
    proposal_decide(proposal=proposal, by=UserFactory(is_staff=True), accept=True)
    twins[0].refresh_from_db()
    assert twins[0].egd_pin == "13513786"  # ... one who keeps him records it on the chosen one


def test_five_megabytes_refused_before_parsing(egf_list, tmp_path, monkeypatch):
    def must_not_parse(*args, **kwargs):
        raise AssertionError("the parser was called")

    monkeypatch.setattr("ratings.management.commands.import_tournament.parse", must_not_parse)
    big = tmp_path / "big.h9"
    big.write_bytes(b";" + b" " * (5 * 1024 * 1024))
    assert big.stat().st_size > MAX_UPLOAD_BYTES
    before = _counts()
    with pytest.raises(CommandError, match="larger than 2 MB"):
        _run(str(big), "--list", "egf", "--format", "egd")
    with pytest.raises(CommandError, match="larger than 2 MB"):
        _run("-", "--list", "egf", "--format", "egd", stdin=big.read_bytes())
    assert _counts() == before


def test_the_upload_entry_point_refuses_five_megabytes_too():
    from tournaments.formats import FormatError, parse

    with pytest.raises(FormatError, match="larger than"):
        parse(b"x" * (5 * 1024 * 1024), "egd")


def test_unknown_list_or_club(egf_list):
    with pytest.raises(CommandError, match="no rating list"):
        _run(str(TABLE), "--list", "nope", "--format", "egd")
    with pytest.raises(CommandError, match="no club"):
        _run(str(TABLE), "--list", "egf", "--format", "egd", "--organiser", "nope")


def test_export_to_a_file(egf_list, tmp_path):
    lines = _run(str(TABLE), "--list", "egf", "--format", "egd")
    output = tmp_path / "out.h9"
    call_command(
        "export_tournament", lines[-1].split()[1], "--format", "egd", "--output", str(output),
        stdout=io.StringIO(),
    )  # fmt: skip
    assert "|13513786" in output.read_text(encoding="utf-8")
