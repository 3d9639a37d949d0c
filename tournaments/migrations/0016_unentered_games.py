"""The played games of someone their table does not enter, kept by triggers (issue 18).

On every change of games or entries the database itself rechecks what changed: a
statement's new games, or every game of a table whose entries changed. PostgreSQL runs a
trigger once per statement (its transition tables hold the rows); SQLite once per row.
"""

import django.db.models.deletion
from django.db import migrations, models

# Which of a set of games (alias g) are played by someone their table does not enter.
UNENTERED = (
    "g.kind = 'played' AND ("
    "NOT EXISTS (SELECT 1 FROM tournaments_participant p "
    "WHERE p.tournament_id = g.tournament_id AND p.member_id = g.white_id) "
    "OR NOT EXISTS (SELECT 1 FROM tournaments_participant p "
    "WHERE p.tournament_id = g.tournament_id AND p.member_id = g.black_id))"
)

FILL = (
    "INSERT INTO tournaments_unenteredgame (game_id, tournament_id) "
    f"SELECT g.id, g.tournament_id FROM tournaments_game g WHERE {UNENTERED}"
)

POSTGRESQL = [
    f"""CREATE FUNCTION tournaments_unentered_games_check() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tournaments_unenteredgame u USING changed_games g WHERE u.game_id = g.id;
        INSERT INTO tournaments_unenteredgame (game_id, tournament_id)
        SELECT g.id, g.tournament_id FROM changed_games g WHERE {UNENTERED};
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION tournaments_unentered_games_gone() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tournaments_unenteredgame u USING gone_games g WHERE u.game_id = g.id;
        RETURN NULL;
    END $$""",
    f"""CREATE FUNCTION tournaments_unentered_games_recheck(tables bigint[]) RETURNS void
    LANGUAGE sql AS $$
        DELETE FROM tournaments_unenteredgame WHERE tournament_id = ANY(tables);
        INSERT INTO tournaments_unenteredgame (game_id, tournament_id)
        SELECT g.id, g.tournament_id FROM tournaments_game g
        WHERE g.tournament_id = ANY(tables) AND {UNENTERED};
    $$""",
    """CREATE FUNCTION tournaments_unentered_entries_added() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM tournaments_unentered_games_recheck(
            ARRAY(SELECT DISTINCT tournament_id FROM added_entries));
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION tournaments_unentered_entries_removed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM tournaments_unentered_games_recheck(
            ARRAY(SELECT DISTINCT tournament_id FROM removed_entries));
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION tournaments_unentered_entries_changed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM tournaments_unentered_games_recheck(ARRAY(
            SELECT tournament_id FROM removed_entries
            UNION SELECT tournament_id FROM added_entries));
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER unentered_games_added AFTER INSERT ON tournaments_game
    REFERENCING NEW TABLE AS changed_games FOR EACH STATEMENT
    EXECUTE FUNCTION tournaments_unentered_games_check()""",
    """CREATE TRIGGER unentered_games_changed AFTER UPDATE ON tournaments_game
    REFERENCING NEW TABLE AS changed_games FOR EACH STATEMENT
    EXECUTE FUNCTION tournaments_unentered_games_check()""",
    """CREATE TRIGGER unentered_games_gone AFTER DELETE ON tournaments_game
    REFERENCING OLD TABLE AS gone_games FOR EACH STATEMENT
    EXECUTE FUNCTION tournaments_unentered_games_gone()""",
    """CREATE TRIGGER unentered_entries_added AFTER INSERT ON tournaments_participant
    REFERENCING NEW TABLE AS added_entries FOR EACH STATEMENT
    EXECUTE FUNCTION tournaments_unentered_entries_added()""",
    """CREATE TRIGGER unentered_entries_removed AFTER DELETE ON tournaments_participant
    REFERENCING OLD TABLE AS removed_entries FOR EACH STATEMENT
    EXECUTE FUNCTION tournaments_unentered_entries_removed()""",
    """CREATE TRIGGER unentered_entries_changed AFTER UPDATE ON tournaments_participant
    REFERENCING OLD TABLE AS removed_entries NEW TABLE AS added_entries FOR EACH STATEMENT
    EXECUTE FUNCTION tournaments_unentered_entries_changed()""",
]

POSTGRESQL_REVERSE = [
    "DROP TRIGGER unentered_games_added ON tournaments_game",
    "DROP TRIGGER unentered_games_changed ON tournaments_game",
    "DROP TRIGGER unentered_games_gone ON tournaments_game",
    "DROP TRIGGER unentered_entries_added ON tournaments_participant",
    "DROP TRIGGER unentered_entries_removed ON tournaments_participant",
    "DROP TRIGGER unentered_entries_changed ON tournaments_participant",
    "DROP FUNCTION tournaments_unentered_games_check()",
    "DROP FUNCTION tournaments_unentered_games_gone()",
    "DROP FUNCTION tournaments_unentered_entries_added()",
    "DROP FUNCTION tournaments_unentered_entries_removed()",
    "DROP FUNCTION tournaments_unentered_entries_changed()",
    "DROP FUNCTION tournaments_unentered_games_recheck(bigint[])",
]


def _game_check(row: str) -> str:
    """SQLite: recheck the game `row` (NEW)."""
    return (
        "INSERT INTO tournaments_unenteredgame (game_id, tournament_id) "
        f"SELECT g.id, g.tournament_id FROM tournaments_game g WHERE g.id = {row}.id "
        f"AND {UNENTERED};"
    )


def _table_recheck(row: str) -> str:
    """SQLite: recheck every game of the table of the entry `row` (NEW or OLD)."""
    return (
        f"DELETE FROM tournaments_unenteredgame WHERE tournament_id = {row}.tournament_id; "
        "INSERT INTO tournaments_unenteredgame (game_id, tournament_id) "
        "SELECT g.id, g.tournament_id FROM tournaments_game g "
        f"WHERE g.tournament_id = {row}.tournament_id AND {UNENTERED};"
    )


SQLITE = [
    "CREATE TRIGGER unentered_games_added AFTER INSERT ON tournaments_game "
    f"BEGIN {_game_check('NEW')} END",
    "CREATE TRIGGER unentered_games_changed AFTER UPDATE ON tournaments_game "
    "BEGIN DELETE FROM tournaments_unenteredgame WHERE game_id = OLD.id; "
    f"{_game_check('NEW')} END",
    "CREATE TRIGGER unentered_games_gone AFTER DELETE ON tournaments_game "
    "BEGIN DELETE FROM tournaments_unenteredgame WHERE game_id = OLD.id; END",
    "CREATE TRIGGER unentered_entries_added AFTER INSERT ON tournaments_participant "
    f"BEGIN {_table_recheck('NEW')} END",
    "CREATE TRIGGER unentered_entries_removed AFTER DELETE ON tournaments_participant "
    f"BEGIN {_table_recheck('OLD')} END",
    "CREATE TRIGGER unentered_entries_changed AFTER UPDATE ON tournaments_participant "
    f"BEGIN {_table_recheck('OLD')} {_table_recheck('NEW')} END",
]

SQLITE_REVERSE = [
    f"DROP TRIGGER {name}"
    for name in (
        "unentered_games_added", "unentered_games_changed", "unentered_games_gone",
        "unentered_entries_added", "unentered_entries_removed", "unentered_entries_changed",
    )
]  # fmt: skip


def create_triggers(apps, schema_editor):
    postgresql = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRESQL if postgresql else SQLITE:
        schema_editor.execute(statement)
    schema_editor.execute(FILL)


def drop_triggers(apps, schema_editor):
    postgresql = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRESQL_REVERSE if postgresql else SQLITE_REVERSE:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_tournament_name_trigrams"),
    ]

    operations = [
        migrations.CreateModel(
            name="UnenteredGame",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tournaments.game",
                    ),
                ),
                ("tournament_id", models.BigIntegerField(db_index=True)),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
