"""Issue 53's "done when", for the facts: every third-party file that imports is approved
and exported in its own format, and a reading of both files independent of the
application's readers finds the same dates, time-control text, class (where the file
gives one), federation and names in their own letters.

Files refused for what the other half of issue 53 handles (OpenGotha's blank places and
`?` results, placeholder FIDE IDs, `*` results) are skipped with the refusal's reason.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.factories import RatingListFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
THIRDPARTY = Path(__file__).resolve().parents[1] / "data" / "thirdparty"
FILES = sorted(p for p in THIRDPARTY.glob("*/*") if p.suffix not in (".md", ".tsv"))
GIVEN = dt.date(2001, 2, 3)  # the dates a person gives where a file has none
EGD_TAG = re.compile(r"^;\s*([A-Z]{2})\[([^\]]*)\]", re.M)


def _text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso8859_15")  # OpenGotha's own export (README.md there)


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _egd_facts(text: str) -> dict[str, str]:
    tags = dict(EGD_TAG.findall(text))
    return {code: " ".join(tags[code].split()) for code in ("DT", "TM", "CL") if code in tags}


def _trf_facts(text: str) -> dict[str, str]:
    records = {}
    for line in text.splitlines():
        if line[:3] in ("032", "122") and line[4:].strip():
            records[line[:3]] = " ".join(line[4:].split())
        if line[:3] in ("042", "052") and line[4:].strip():
            records[line[:3]] = _trf_day(line[4:].strip())
    return records


def _trf_day(text: str) -> str:
    for pattern in ("%Y/%m/%d", "%b %d, %Y"):  # the two notations these files use
        try:
            return dt.datetime.strptime(text, pattern).date().isoformat()
        except ValueError:
            continue
    return text


def _own_letters(text: str) -> set[str]:
    return {w for w in re.findall(r"[^\W\d_]*[^\x00-\x7f][^\W\d_]*", text) if w.isalpha()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_file_facts_come_back(path: Path) -> None:
    egd = path.parent.name == "egd"
    RatingListFactory(slug="list", system="egf" if egd else "orr", game="go" if egd else "chess")
    fmt = "egd" if egd else "trf"
    args = ["import_tournament", str(path), "--list", "list", "--format", fmt]
    try:
        out = _run(*args)
    except CommandError as error:
        if "give the tournament's start and end dates" not in str(error):
            first = next(line for line in str(error).splitlines() if "error:" in line)
            pytest.skip(f"refused (the other half of issue 53): {first.strip()[:150]}")
        out = _run(*args, "--date", GIVEN.isoformat())
    tournament = Tournament.objects.get(pk=int(out.splitlines()[-1].split()[1]))
    _run("approve_tournament", str(tournament.pk))
    original = _text(path)
    exported = _run("export_tournament", str(tournament.pk), "--format", fmt)
    if egd:
        before, after = _egd_facts(original), _egd_facts(exported)
        assert after.get("DT", f"{GIVEN},{GIVEN}") == before.get("DT", f"{GIVEN},{GIVEN}")
        assert after.get("TM") == before.get("TM")  # none invented where the file gave none
        if "CL" in before:
            assert after["CL"] == before["CL"]
    else:
        before, after = _trf_facts(original), _trf_facts(exported)
        for code in ("042", "052"):  # a date the file did not give is not written into it
            assert after.get(code) == before.get(code)
        assert after.get("122") == before.get("122")
        assert after.get("032") == before.get("032")
    # The players' names in their own letters (é, ï, Cyrillic…), not another encoding's.
    assert _name_letters(original, egd) <= _own_letters(exported)


def _name_letters(text: str, egd: bool) -> set[str]:
    if egd:
        lines = [line.partition(";")[0] for line in text.splitlines()]
    else:
        lines = [line[:48] for line in text.splitlines() if line.startswith("001")]
    return _own_letters("\n".join(lines))
