"""The tables: games with their seats, boxes and log; classrooms with their students,
keys, assignments and bots.

Django finds models through this package, so each model is named here.
"""

from games.models.assignment import Assignment, AssignmentStatus
from games.models.bot import Bot, KeyNotice
from games.models.classroom import ApiKey, Classroom, Student
from games.models.game import (
    STATUS_CHOICES,
    Event,
    Game,
    IdempotencyRecord,
    Player,
    ScoreEntry,
)
from games.models.lti import LtiCourse, LtiLearner, LtiLink, LtiSpent
from games.models.lti_grades import LtiScore
from games.models.strategy import StrategyTable
from games.models.tournament import Entrant, Tournament
from games.models.webhook import Delivery, Webhook

__all__ = [
    "STATUS_CHOICES",
    "ApiKey",
    "Assignment",
    "AssignmentStatus",
    "Bot",
    "Classroom",
    "Delivery",
    "Entrant",
    "Event",
    "Game",
    "IdempotencyRecord",
    "KeyNotice",
    "LtiCourse",
    "LtiLearner",
    "LtiLink",
    "LtiScore",
    "LtiSpent",
    "Player",
    "ScoreEntry",
    "StrategyTable",
    "Student",
    "Tournament",
    "Webhook",
]
