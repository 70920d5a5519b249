"""The admin, for reviewing games (``games``) and classrooms (``classrooms``): Django's
autodiscovery imports this package, which registers both."""

from games.admin import classrooms, games  # noqa: F401  (registers their ModelAdmins)
