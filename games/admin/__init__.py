"""The admin, for reviewing games (``games``), classrooms (``classrooms``) and assignments
(``assignments``): Django's autodiscovery imports this package, which registers them."""

from games.admin import assignments, classrooms, games  # noqa: F401  (registers ModelAdmins)
