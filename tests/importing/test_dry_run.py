"""import_tournament --dry-run is refused exactly as the real run, with nothing saved."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Club, Member
from ratings.models import ListTournament
from tests.factories import MemberFactory, RatingListFactory
from tournaments.models import Game, Participant, Tournament

from .helpers import FORMATS_DATA, table_paths

pytestmark = pytest.mark.django_db
MODELS = (Tournament, Member, Participant, Game, ListTournament, Club)
TRF = FORMATS_DATA / "all_codes.trf16"


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def _refusal(*args: str) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", *args, stdout=io.StringIO())
    return str(refused.value)


def test_a_chess_file_into_a_go_list_fails_the_dry_run_as_the_real_run():
    RatingListFactory(slug="go", system="egf", game="go")
    before = _counts()
    dry = _refusal(str(TRF), "--list", "go", "--format", "trf16", "--dry-run")
    real = _refusal(str(TRF), "--list", "go", "--format", "trf16")
    assert "rates go, but this file is a chess table" in dry
    assert dry == real
    assert _counts() == before


def test_an_undecided_player_fails_the_dry_run_until_chosen():
    RatingListFactory(slug="egf", system="egf", game="go")
    table = table_paths()[0]
    first = next(line for line in table.read_text().splitlines() if line.strip() and line[0] != ";")
    family, given = first.split()[1:3]
    # Two members with his name, in no club: the file cannot say which one he is.
    twins = [MemberFactory(family_name=family, given_name=given, country="", club=None)]
    twins.append(MemberFactory(family_name=family, given_name=given, country="", club=None))
    before = _counts()
    message = _refusal(str(table), "--list", "egf", "--format", "egd", "--dry-run")
    assert "could be:" in message
    out = io.StringIO()
    args = ("--list", "egf", "--format", "egd", "--dry-run", "--choose", f"1={twins[0].pk}")
    call_command("import_tournament", str(table), *args, stdout=out)
    assert out.getvalue().splitlines()[-1] == "dry run: nothing saved"
    assert _counts() == before
