"""The closed sets of ids that requests and responses use: the schema lists them as enums
(settings' ``ENUM_NAME_OVERRIDES`` names them), so generated clients get exact types."""

from scoring import RULESETS
from scoring.match import GameStatus

BOX_IDS = sorted({box.id for ruleset in RULESETS.values() for box in ruleset.categories})
RULESET_IDS = list(RULESETS)
GAME_STATUSES = [status.value for status in GameStatus]
MOVES = sorted({move.action for ruleset in RULESETS.values() for move in ruleset.moves})
COMPUTERS = ["random", "greedy", "optimal", "classic"]
EVENT_TYPES = [
    "created", "joined", "started", "rolled", "held", "scored", "scratched", "set_aside",
    "banked", "busted", "passed", "left", "finished", "abandoned",
]
ANALYSIS_METHODS = ["optimal"]
