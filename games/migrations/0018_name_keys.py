"""Students' names keep the rule of games.names: stored NFKC-normalised, without the
characters it refuses (those that show nothing or pass for others), and unique in their
classroom by name_key (case, width and Unicode form ignored) rather than by lower case.

Existing students are brought under the rule (as games.names has it when this runs) in the
order they joined: a name the rule refuses is repaired (the refused characters dropped;
"Student" if nothing is left), and a name whose key an earlier student of the classroom
already holds gets " (2)", " (3)", ... Nobody is removed, and keys, games and results stay
with the same student; the teacher sees the suffix on the roster and can tell the two
apart. Seats and classrooms keep the names they have: a finished game's names are part of
its record.

Reversible: going back sets each key by the previous rule (the lower-cased name) and keeps
the names as they now are, which the previous release serves as it would any name.
"""

import unicodedata

from django.db import migrations, models

from games.names import NameRefused, allowed_in_name, name_clean, name_key

MOST = 50  # the name column's length
PREVIOUS_RULE_LENGTH = 50  # the key column's length before


def _repaired(name: str) -> str:
    """The name as the rule stores it, its refused characters dropped (white space of any
    kind kept as a space); "Student" if nothing acceptable is left."""
    text = " ".join("".join(c for c in unicodedata.normalize("NFKC", name) if _kept(c)).split())
    while text and unicodedata.category(text[0]).startswith("M"):
        text = text[1:]
    try:
        return name_clean(text[:MOST])
    except NameRefused:
        return "Student"


def _kept(character: str) -> bool:
    return allowed_in_name(character) or character.isspace()


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while name_key(candidate) in taken:
        n += 1
        suffix = f" ({n})"
        candidate = name[: MOST - len(suffix)].rstrip() + suffix
    return candidate


def _rewrite(Student, keys_of) -> None:
    """Every student's name and key at once, through temporary keys (the student's id), so
    that no intermediate state breaks the classroom's unique key."""
    students = list(Student.objects.order_by("classroom_id", "joined_at", "id"))
    for student in students:
        student.name_key = f"#{student.id}"
    Student.objects.bulk_update(students, ["name_key"], batch_size=500)
    for student in students:
        student.name, student.name_key = keys_of(student)
    Student.objects.bulk_update(students, ["name", "name_key"], batch_size=500)


def keys_by_the_rule(apps, schema_editor):
    Student = apps.get_model("games", "Student")
    taken: dict[object, set[str]] = {}

    def keys_of(student) -> tuple[str, str]:
        held = taken.setdefault(student.classroom_id, set())
        name = _unique(_repaired(student.name), held)
        held.add(name_key(name))
        return name, name_key(name)

    _rewrite(Student, keys_of)


def keys_by_the_previous_rule(apps, schema_editor):
    Student = apps.get_model("games", "Student")
    _rewrite(Student, lambda s: (s.name, s.name.casefold()[:PREVIOUS_RULE_LENGTH]))
    if schema_editor.connection.vendor == "postgresql":
        # The key column is shortened next, in this transaction: PostgreSQL alters no table
        # with foreign-key checks of its updated rows still pending, so they are done now.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [("games", "0017_strategy_tables")]

    operations = [
        migrations.AlterField(
            model_name="student",
            name="name_key",
            field=models.CharField(editable=False, max_length=200),
        ),
        migrations.RunPython(keys_by_the_rule, keys_by_the_previous_rule),
    ]
