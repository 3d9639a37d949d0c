"""The CSVs the site writes: formula cells neutralised (OWASP), a BOM (issue 16, item 4)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubsite.views.csv_output import safe_cell
from ratings.models import RatingEntry

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil.example","x")'


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        (EVIL, "'" + EVIL),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-12.5", "-12.5"),
        ("-3", "-3"),
        ("+7", "+7"),
        ("1e5", "1e5"),
        ("Tengen", "Tengen"),
        (-12.5, -12.5),
        ("", ""),
    ],
)
def test_safe_cell(cell, expected):
    assert safe_cell(cell) == expected


def test_the_public_csv_has_a_bom_and_no_formula(client, world):
    member = world.players[0]
    member.family_name, member.given_name = EVIL, ""
    member.save()
    other = world.players[1]
    other.family_name = "“Tengen”"
    other.save()
    response = client.get(reverse("rating_list_csv", args=["ukraine-go"]), {"all": "1"})
    assert response.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    names = [r[1] for r in rows[1:]]
    assert not any(n.startswith(("=", "+", "-", "@")) for n in names)
    assert any(
        n.startswith("'") and "HYPERLINK" in n or "HYPERLINK" in n and n.startswith("“")
        for n in names
    )


def test_export_command_neutralises_formulas(world):
    entry = RatingEntry.objects.filter(rating_list=world.rating_list).first()
    entry.member.given_name, entry.member.family_name = "", "@evil"
    entry.member.save()
    out = io.StringIO()
    call_command("export_ratings", world.rating_list.slug, "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert "'@evil" in [r[1] for r in rows[1:]]
    assert all(not r[1].startswith("@") for r in rows[1:])
