"""Classrooms: opened by a teacher, joined by students with a code; the teacher's
roster, games, high scores and keys. Beside the three parts of every resource,
``keys`` (the views of a student's key and of whose key this is) and ``examples`` (what
the schema shows on its paths)."""
