"""Game records: a game as one document, and the check of any record."""
