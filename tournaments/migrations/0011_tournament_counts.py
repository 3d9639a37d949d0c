"""Each tournament's number of players, kept by triggers on the participants (issue 18).

PostgreSQL: statement-level triggers with transition tables (a COPY of 400,000 entrants
adds one grouped UPDATE, not 400,000). SQLite (tests, development): row-level triggers.
A tournament's row goes with it.
"""

import django.db.models.deletion
from django.db import migrations, models

COUNTS = "tournaments_tournamentcounts"
PARTICIPANT = "tournaments_participant"
TOURNAMENT = "tournaments_tournament"

POSTGRESQL = f"""
CREATE FUNCTION tournament_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO {COUNTS} (tournament_id, players)
  SELECT tournament_id, count(*) FROM new_rows GROUP BY tournament_id
  ON CONFLICT (tournament_id) DO UPDATE SET players = {COUNTS}.players + EXCLUDED.players;
  RETURN NULL;
END $$;
CREATE FUNCTION tournament_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE {COUNTS} c SET players = c.players - o.n
  FROM (SELECT tournament_id, count(*) AS n FROM old_rows GROUP BY tournament_id) o
  WHERE c.tournament_id = o.tournament_id;
  RETURN NULL;
END $$;
CREATE FUNCTION tournament_counts_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM {COUNTS} c USING old_rows o WHERE c.tournament_id = o.id;
  RETURN NULL;
END $$;
CREATE TRIGGER tournament_counts_insert AFTER INSERT ON {PARTICIPANT}
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tournament_counts_add();
CREATE TRIGGER tournament_counts_delete AFTER DELETE ON {PARTICIPANT}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tournament_counts_remove();
CREATE TRIGGER tournament_counts_update_old AFTER UPDATE ON {PARTICIPANT}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tournament_counts_remove();
CREATE TRIGGER tournament_counts_update_new AFTER UPDATE ON {PARTICIPANT}
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tournament_counts_add();
CREATE TRIGGER tournament_counts_tournament AFTER DELETE ON {TOURNAMENT}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tournament_counts_drop();
"""
POSTGRESQL_REVERSE = f"""
DROP TRIGGER tournament_counts_insert ON {PARTICIPANT};
DROP TRIGGER tournament_counts_delete ON {PARTICIPANT};
DROP TRIGGER tournament_counts_update_old ON {PARTICIPANT};
DROP TRIGGER tournament_counts_update_new ON {PARTICIPANT};
DROP TRIGGER tournament_counts_tournament ON {TOURNAMENT};
DROP FUNCTION tournament_counts_add();
DROP FUNCTION tournament_counts_remove();
DROP FUNCTION tournament_counts_drop();
"""
SQLITE = [
    f"""CREATE TRIGGER tournament_counts_insert AFTER INSERT ON {PARTICIPANT} BEGIN
  INSERT INTO {COUNTS} (tournament_id, players) VALUES (NEW.tournament_id, 1)
  ON CONFLICT (tournament_id) DO UPDATE SET players = players + 1; END""",
    f"""CREATE TRIGGER tournament_counts_delete AFTER DELETE ON {PARTICIPANT} BEGIN
  UPDATE {COUNTS} SET players = players - 1 WHERE tournament_id = OLD.tournament_id; END""",
    f"""CREATE TRIGGER tournament_counts_update AFTER UPDATE OF tournament_id ON {PARTICIPANT}
  BEGIN
  UPDATE {COUNTS} SET players = players - 1 WHERE tournament_id = OLD.tournament_id;
  INSERT INTO {COUNTS} (tournament_id, players) VALUES (NEW.tournament_id, 1)
  ON CONFLICT (tournament_id) DO UPDATE SET players = players + 1; END""",
    f"""CREATE TRIGGER tournament_counts_tournament AFTER DELETE ON {TOURNAMENT} BEGIN
  DELETE FROM {COUNTS} WHERE tournament_id = OLD.id; END""",
]
SQLITE_REVERSE = [
    f"DROP TRIGGER {name}"
    for name in (
        "tournament_counts_insert",
        "tournament_counts_delete",
        "tournament_counts_update",
        "tournament_counts_tournament",
    )
]
FILL = (
    f"INSERT INTO {COUNTS} (tournament_id, players) "
    f"SELECT tournament_id, count(*) FROM {PARTICIPANT} GROUP BY tournament_id"
)


def _triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(FILL)
        if schema_editor.connection.vendor == "postgresql":
            cursor.execute(POSTGRESQL)
        else:
            for statement in SQLITE:
                cursor.execute(statement)


def _no_triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        if schema_editor.connection.vendor == "postgresql":
            cursor.execute(POSTGRESQL_REVERSE)
        else:
            for statement in SQLITE_REVERSE:
                cursor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_file_facts_host_and_colours"),
    ]

    operations = [
        migrations.CreateModel(
            name="TournamentCounts",
            fields=[
                (
                    "tournament",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        primary_key=True,
                        related_name="counts",
                        serialize=False,
                        to="tournaments.tournament",
                    ),
                ),
                ("players", models.IntegerField(default=0)),
            ],
        ),
        migrations.RunPython(_triggers, _no_triggers),
    ]
