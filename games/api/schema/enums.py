"""The closed sets of ids that requests and responses use: the schema lists them as enums
(settings' ``ENUM_NAME_OVERRIDES`` names them), so generated clients get exact types."""

from scoring import RULESETS
from scoring.match import GameStatus
from scoring.records import PROBLEM_CODES
from scoring.strategy.players import levels_for

BOX_IDS = sorted({box.id for ruleset in RULESETS.values() for box in ruleset.categories})
RULESET_IDS = list(RULESETS)
GAME_STATUSES = [status.value for status in GameStatus]
MOVES = sorted({move.action for ruleset in RULESETS.values() for move in ruleset.moves})
# Every ruleset's computer levels, each once, in the order the rulesets offer them.
COMPUTERS = list(dict.fromkeys(level for ruleset in RULESETS for level in levels_for(ruleset)))
EVENT_TYPES = [
    "created", "joined", "started", "rolled", "held", "scored", "scratched", "set_aside",
    "banked", "busted", "passed", "left", "finished", "abandoned", "timed_out",
]
ANALYSIS_METHODS = ["optimal"]
# What a record's check may find wrong (``scoring.records``).
RECORD_PROBLEMS = list(PROBLEM_CODES)
# An assignment's statuses (``games.models.AssignmentStatus``).
ASSIGNMENT_STATUSES = ["scheduled", "open", "closed"]
