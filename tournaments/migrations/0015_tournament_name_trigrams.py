"""Trigram indexes on the upper-cased name and city the tournament search compares
(issue 18), as `clubsite.0008` for members' names.

`icontains` is `UPPER(name) LIKE UPPER('%word%')` on PostgreSQL: the public list's search
read all 9,000 tournaments twice (its count and its page). PostgreSQL only; nothing
elsewhere.
"""

from django.db import migrations

COLUMNS = ("name", "city")


def _create(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for column in COLUMNS:
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS tournament_{column}_trgm ON tournaments_tournament "
                f"USING gin (upper({column}::text) gin_trgm_ops)"
            )


def _drop(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for column in COLUMNS:
            cursor.execute(f"DROP INDEX IF EXISTS tournament_{column}_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_fide_rating_proposal"),
    ]

    operations = [migrations.RunPython(_create, _drop)]
