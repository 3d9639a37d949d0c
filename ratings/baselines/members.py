"""The members a baseline names, written: the new ones created (with the clubs the list
names), the matched ones given the EGD PIN or FIDE ID the list knows and they lack, when
the one importing keeps their identity (issue 54: his club's members, a registrar's, the
operator's command); for anyone else those numbers are proposed (`MemberProposal`
without a table), to wait for the member's club admins or a registrar.

A full EGD list is 45,000 rows, so everything here is a handful of set-based statements,
whatever the number of rows: on PostgreSQL the new members' ids come from their sequence
in one query and the rows go in with COPY; the numbers go in with one UPDATE per batch.
`services.py` calls `members_for` inside the import's transaction.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Case, CharField, Q, Value, When
from django.utils.translation import gettext as _

from clubsite.authority import members_kept_by
from clubsite.fields import parse_grade
from clubsite.input_checks import country_or_blank
from clubsite.models import Club, GameKind, Member
from ratings.baselines import matching
from ratings.baselines.matching import club_slug, name_key, row_country
from ratings.recompute.bulk import insert_rows
from tournaments.formats.list_model import ListRow
from tournaments.models import MemberProposal

MAX_SMALL = 32767


def members_for(
    *,
    resolved: list[tuple[ListRow, int | None]],
    game: str,
    by: AbstractBaseUser | None = None,
    source: str = "",
) -> list[int]:
    """The member id of each row (None in `resolved`: a new member, created with the club
    the row names); the matched members get the numbers they lack, or, where `by` does not
    keep them, those numbers are proposed."""
    new_rows = [row for row, member_id in resolved if member_id is None]
    clubs = _clubs_for(new_rows)
    values = []
    for row in new_rows:
        club = clubs.get(club_slug(row)) if row.club else None
        values.append(_new_member(row, None if club is None else club.pk, game))
    created = iter(_create(values))
    ids = [member_id if member_id is not None else next(created) for _r, member_id in resolved]
    matched = [(row, member_id) for row, member_id in resolved if member_id is not None]
    matched, others = _split_kept(matched, by)
    _fill_blank(matched, "egd_pin", lambda row: row.egd_pin)
    _fill_blank(matched, "fide_id", lambda row: row.fide_id)
    _propose(others, by, source)
    return ids


def _split_kept(
    matched: list[tuple[ListRow, int]], by: AbstractBaseUser | None
) -> tuple[list[tuple[ListRow, int]], list[tuple[ListRow, int]]]:
    """The rows whose member `by` keeps (all of them for the operator's command) and the rest."""
    if by is None:
        return matched, []
    kept_filter = members_kept_by(by)
    if not kept_filter:  # staff, a registrar of the whole site
        return matched, []
    kept = set(Member.objects.filter(kept_filter).values_list("pk", flat=True))
    return (
        [(row, m) for row, m in matched if m in kept],
        [(row, m) for row, m in matched if m not in kept],
    )


def _propose(matched: list[tuple[ListRow, int]], by: AbstractBaseUser | None, source: str) -> None:
    """The numbers the rows name that their members lack, proposed (one each), replacing
    what an earlier baseline proposed and is still waiting."""
    if not matched:
        return
    numbers = dict(
        (m, (egd, fide))
        for m, egd, fide in Member.objects.filter(pk__in=[m for _r, m in matched]).values_list(
            "pk", "egd_pin", "fide_id"
        )
    )
    proposals = []
    for row, member_id in matched:
        egd, fide = numbers.get(member_id, ("", ""))
        for field, have, value in (("egd_pin", egd, row.egd_pin), ("fide_id", fide, row.fide_id)):
            if value and not have:
                proposals.append(
                    MemberProposal(
                        member_id=member_id,
                        field=field,
                        value=str(value)[:12],
                        proposed_by=by,
                        source=source[:200],
                    )  # fmt: skip
                )
    MemberProposal.objects.filter(
        tournament=None, decision="", member_id__in=[p.member_id for p in proposals]
    ).filter(field__in=("egd_pin", "fide_id")).delete()
    MemberProposal.objects.bulk_create(proposals)


NUMBER_LABELS = {"egd_pin": "EGD PIN", "fide_id": "FIDE ID", "import_key": "key"}


def new_member_clashes(resolved: list[tuple[ListRow, int | None]], game: str) -> list[str]:
    """Why the new members (rows resolved to None) cannot be created: a number (PIN, FIDE
    ID, key) another member or another new row already holds, which the database refuses.
    A referee's "new" for a row whose number is taken was a 500 (issue 54)."""
    wanted: dict[str, dict[str, str]] = {field: {} for field in NUMBER_LABELS}
    errors: list[str] = []
    for row, member_id in resolved:
        if member_id is not None:
            continue
        values = _new_member(row, None, game)
        for field, by_value in wanted.items():
            value = values[field]
            if not value:
                continue
            if value in by_value:
                errors.append(
                    _("Rows %(a)s and %(b)s would both be new members with %(what)s %(value)s.")
                    % {"a": by_value[value], "b": row.key, "what": NUMBER_LABELS[field],
                       "value": value}
                )  # fmt: skip
            else:
                by_value[value] = row.key
    for field, by_value in wanted.items():
        if not by_value:
            continue
        holders = Member.objects.exclude(**{field: ""})
        if len(by_value) <= matching.SMALL:
            holders = holders.filter(**{f"{field}__in": list(by_value)})
        for value, pk in holders.values_list(field, "pk").iterator(chunk_size=20000):
            if value in by_value:
                errors.append(
                    _("Row %(key)s: member #%(id)s already has %(what)s %(value)s; choose him, "
                      "not a new member.")
                    % {"key": by_value[value], "id": pk, "what": NUMBER_LABELS[field],
                       "value": value}
                )  # fmt: skip
    return errors


def _new_member(row: ListRow, club_id: int | None, game: str) -> dict[str, Any]:
    """A new member's fields (database values: the grade as its rank)."""
    country = row_country(row)
    is_fide = row.fide_id is not None and game == GameKind.CHESS
    grade = parse_grade(row.grade)
    return {
        "family_name": row.family_name[:100],
        "given_name": row.given_name[:100],
        "native_name": row.native_name[:200],
        "country": country_or_blank(country),
        "federation": (row.federation or "")[:3],
        "club_id": club_id,
        "egd_pin": (row.egd_pin or "")[:12],
        "fide_id": (row.fide_id or "")[:12],
        "fide_rating": round(row.rating) if is_fide and 0 < row.rating <= MAX_SMALL else None,
        "fide_title": (row.title or "")[:3],
        "import_key": row.key[:60]
        if row.key != row.egd_pin and row.key != row.fide_id and not row.key.startswith("line ")
        else "",  # fmt: skip
        "sex": row.sex or "",
        "birth_year": row.birth_year,
        "grade": None if grade is None else grade.rank,
    }


def _create(values: list[dict[str, Any]]) -> list[int]:
    """Insert the members; their ids, in order. Fields not given take their defaults."""
    if not values:
        return []
    if connection.vendor != "postgresql":
        members = [Member(**v) for v in values]
        return [m.pk for m in Member.objects.bulk_create(members, batch_size=2000)]
    pk = Member._meta.pk
    fields = [f for f in Member._meta.concrete_fields if f is not pk]
    given = set(values[0])
    assert given <= {f.attname for f in fields}, given
    defaults = {
        f.attname: f.get_db_prep_save(f.get_default(), connection)
        for f in fields
        if f.attname not in given
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [Member._meta.db_table, pk.column, len(values)],
        )
        ids = sorted(row[0] for row in cursor.fetchall())
    columns = [pk.column, *(f.column for f in fields)]
    insert_rows(
        Member,
        columns,
        (
            (member_id, *(v[f.attname] if f.attname in given else defaults[f.attname]
                          for f in fields))
            for member_id, v in zip(ids, values, strict=True)
        ),
    )  # fmt: skip
    return ids


def _fill_blank(matched: list[tuple[ListRow, int]], field: str, number: Any) -> None:
    """Give each matched member the number (`field`) his row names, when he has none and no
    member has it yet; the first row naming a number takes it."""
    wanted = [(number(row), member_id) for row, member_id in matched if number(row)]
    if not wanted:
        return
    numbered = Member.objects.exclude(**{field: ""})
    if len(wanted) <= matching.SMALL:
        numbered = numbered.filter(
            Q(**{f"{field}__in": [v for v, _m in wanted]}) | Q(pk__in=[m for _v, m in wanted])
        )
    # Else every number members have, in one pass rather than many long `IN` lists.
    current: dict[int, str] = {}  # a member left out has none
    for value, member_id in numbered.values_list(field, "pk").iterator(chunk_size=20000):
        current[member_id] = value
    taken = set(current.values())
    updates: dict[int, str] = {}
    for value, member_id in wanted:
        if value in taken or current.get(member_id, "") != "":
            continue
        updates[member_id] = value
        taken.add(value)
    _set(field, sorted(updates.items()))


def _set(field: str, pairs: list[tuple[int, str]]) -> None:
    """Each member `id` of `pairs` gets his value in `field`, where it is still blank."""
    if not pairs:
        return
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(Member._meta.db_table)
        column = connection.ops.quote_name(Member._meta.get_field(field).column)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS m SET {column} = v.value "
                "FROM unnest(%s::bigint[], %s::text[]) AS v(id, value) "
                f"WHERE m.id = v.id AND m.{column} = ''",
                [[m for m, _v in pairs], [v for _m, v in pairs]],
            )
        return
    for at in range(0, len(pairs), 300):
        chunk = pairs[at : at + 300]
        Member.objects.filter(pk__in=[m for m, _v in chunk], **{field: ""}).update(
            **{
                field: Case(
                    *(When(pk=m, then=Value(v)) for m, v in chunk), output_field=CharField()
                )
            }
        )


def _clubs_for(rows: list[ListRow]) -> dict[str, Club]:
    """The club of each new member, by the list's slug for it: matched (slug, or name in
    the same country) or created."""
    wanted = {club_slug(row): row for row in rows if row.club}
    if not wanted:
        return {}
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=list(wanted))}
    by_name = {(name_key(c.name), c.country): c for c in Club.objects.all()}
    missing = []
    for slug, row in wanted.items():
        if slug in clubs:
            continue
        country = row_country(row)
        same = by_name.get((name_key(row.club or ""), country)) or by_name.get(
            (name_key(row.club or ""), "")
        )
        if same is not None:
            clubs[slug] = same
            continue
        missing.append(
            Club(slug=slug, name=(row.club or "")[:200], country=country_or_blank(country))
        )
    for club in Club.objects.bulk_create(missing, batch_size=2000):
        clubs[club.slug] = club
    return clubs
