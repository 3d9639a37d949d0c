"""Statistics on the upper-cased names the list's name search compares (issue 18).

Django's `icontains` is `UPPER(name) LIKE UPPER(%s)` on PostgreSQL; without statistics on
that expression the planner guesses a few matching members, and a search that matches
many (a common name) joined and sorted all of them: 340 ms at EGD scale, 4 ms once it
knows. PostgreSQL 14 and later (expression statistics); nothing elsewhere.
"""

from django.db import migrations

CREATE = (
    "CREATE STATISTICS IF NOT EXISTS member_names_upper ON (upper(family_name::text)), "
    "(upper(given_name::text)), (upper(native_name::text)) FROM clubsite_member"
)


def _create(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql" and connection.pg_version >= 140000:
        with connection.cursor() as cursor:
            cursor.execute(CREATE)
            cursor.execute("ANALYZE clubsite_member")


def _drop(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql" and connection.pg_version >= 140000:
        with connection.cursor() as cursor:
            cursor.execute("DROP STATISTICS IF EXISTS member_names_upper")


class Migration(migrations.Migration):
    dependencies = [
        ("clubsite", "0006_member_history"),
    ]

    operations = [migrations.RunPython(_create, _drop)]
