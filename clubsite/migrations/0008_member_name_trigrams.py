"""Trigram indexes on the upper-cased names the name searches compare (issue 18).

Django's `icontains` is `UPPER(name) LIKE UPPER('%word%')` on PostgreSQL: no b-tree helps a
match inside a name, and a search of the EGD list read all 90,000 members (60 ms). A GIN
index of pg_trgm's trigrams answers it. PostgreSQL only (the extension ships with it);
nothing elsewhere.
"""

from django.db import migrations

COLUMNS = ("family_name", "given_name", "native_name")


def _create(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for column in COLUMNS:
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS member_{column}_trgm ON clubsite_member "
                f"USING gin (upper({column}::text) gin_trgm_ops)"
            )


def _drop(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for column in COLUMNS:
            cursor.execute(f"DROP INDEX IF EXISTS member_{column}_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("clubsite", "0007_member_name_statistics"),
    ]

    operations = [migrations.RunPython(_create, _drop)]
