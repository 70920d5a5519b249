"""A classroom's assignments: set by the teacher, played by the students from shared
secrets, ranked in the results."""
