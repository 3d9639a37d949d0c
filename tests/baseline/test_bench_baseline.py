"""`bench_baseline` runs end to end on a small list and prints its figures beside the list
`--compare` names (benchmarks print figures; nothing here asserts a speed)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from ratings.models import Baseline, RatingEntry
from tests.baseline.test_baseline import EGD_LIST
from tests.factories import RatingListFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _bench(*args: str) -> str:
    out = io.StringIO()
    call_command("bench_baseline", *args, stdout=out)
    return out.getvalue()


def test_bench_baseline_imports_and_times_both_lists_pages() -> None:
    with pytest.raises(CommandError):
        _bench(str(EGD_LIST), "--pages-only", "--runs", "1")
    RatingListFactory(slug="other", system="egf")
    printed = _bench(str(EGD_LIST), "--runs", "2", "--compare", "other")
    count = Baseline.objects.get().rows.count()
    assert count > 1000
    assert f"baseline of {count} players (0 matched, {count} new" in printed
    assert f"{count} entries, list rated" in printed
    assert RatingEntry.objects.filter(rating_list__slug="bench-egd-baseline").count() == count
    timed = re.findall(r"list '([\w-]+)' \((\d+) entries\) ([^:]+): median", printed)
    assert {(slug, label) for slug, _n, label in timed} == {
        (slug, label)
        for slug in ("bench-egd-baseline", "other")
        for label in ("page 1", "everyone, page 1", "country=DE by rating")
    }
    again = _bench("--pages-only", "--runs", "1", "--compare", "missing")
    assert "no list missing in this database" in again and "baseline of" not in again
