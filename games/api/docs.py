"""Schema declarations shared by the views: error responses and examples."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from .serializers import ProblemOut

WHEN = {
    400: "Malformed JSON or invalid input (`invalid`, `parse_error`, `unknown_category`, "
    "`unknown_ruleset`, `invalid_dice`).",
    401: "Missing or wrong seat token (`not_authenticated`, `invalid_token`), or a wrong or "
    "revoked `X-API-Key` (`invalid_api_key`).",
    403: "The `X-API-Key` is not this classroom's teacher key (`forbidden`).",
    404: "No such game or ruleset (`not_found`).",
    405: "The path does not take this method (`method_not_allowed`).",
    406: "The client accepts no JSON (`not_acceptable`).",
    409: "The move breaks the rules now (`not_your_turn`, `game_not_active`, `no_rolls_left`, "
    "`roll_first`, `category_filled`, `category_not_allowed`, `not_scoring`, `bank_too_low`, "
    "`game_full`).",
    412: "`If-Match` named another version (`version_mismatch`).",
    413: "The body is larger than the service accepts (`request_too_large`).",
    415: "The body is not `application/json` (`unsupported_media_type`).",
    422: "The `Idempotency-Key` was used for a different request (`idempotency_key_reused`).",
    429: "Too many requests from this API key or address (`throttled`); see `Retry-After`.",
    503: "The database cannot be reached (`database_unavailable`).",
}
ALWAYS = (405, 406)


def problems(*statuses: int) -> dict[tuple[int, str], OpenApiResponse]:
    return {
        (status, "application/problem+json"): OpenApiResponse(ProblemOut, description=WHEN[status])
        for status in sorted({*statuses, *ALWAYS})
    }


PROBLEM_EXAMPLE = OpenApiExample(
    "A refused move",
    value={
        "type": "urn:dice-games:problem:no_rolls_left",
        "title": "Move not allowed",
        "status": 409,
        "detail": "no rolls are left this turn: fill a box",
        "code": "no_rolls_left",
    },
    response_only=True,
    status_codes=["409"],
)

TURN = {
    "dice": [3, 3, 5, 1, 6],
    "held": [True, True, False, False, False],
    "rolls_used": 1,
    "rolls_left": 2,
}
GAME = {
    "id": "3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10",
    "ruleset": "yahtzee",
    "options": {"yahtzee_bonus": "unlimited", "joker": "forced"},
    "status": "active",
    "ranked": True,
    "seed": None,
    "version": 4,
    "round": 2,
    "current_seat": 0,
    "turn": TURN,
    "choices": {
        "ones": 1,
        "threes": 6,
        "fives": 5,
        "sixes": 6,
        "three_of_a_kind": 0,
        "four_of_a_kind": 0,
        "full_house": 0,
        "small_straight": 0,
        "large_straight": 0,
        "yahtzee": 0,
        "chance": 18,
    },
    "players": [
        {
            "seat": 0,
            "name": "Ann",
            "computer": None,
            "scorecard": {
                "ones": None,
                "twos": 6,
                "threes": None,
                "fours": None,
                "fives": None,
                "sixes": None,
                "three_of_a_kind": None,
                "four_of_a_kind": None,
                "full_house": None,
                "small_straight": None,
                "large_straight": None,
                "yahtzee": None,
                "chance": None,
            },
            "upper_total": 6,
            "upper_bonus": 0,
            "yahtzee_bonus": 0,
            "total": 6,
        }
    ],
    "winners": [],
    "created_at": "2026-11-21T10:00:00Z",
    "updated_at": "2026-11-21T10:01:30Z",
    "finished_at": None,
    "classroom": None,
    "student": None,
}
GAME_EXAMPLE = OpenApiExample("A game in its second round", value=GAME, response_only=True)

RULESET_EXAMPLE = OpenApiExample(
    "Yahtzee",
    response_only=True,
    value={
        "id": "yahtzee",
        "name": "Yahtzee",
        "description": "Official Yahtzee: five dice, 13 boxes...",
        "dice": 5,
        "rolls_per_turn": 3,
        "min_players": 1,
        "max_players": 8,
        "moves": ["hold", "roll", "scratch", "score"],
        "categories": [
            {
                "id": "ones",
                "name": "Ones",
                "section": "upper",
                "description": "Sum of the dice showing 1.",
            }
        ],
        "options": {
            "joker": {
                "values": ["forced", "free", "none"],
                "default": "forced",
                "description": "forced: the official Joker...",
            }
        },
    },
)

ADVICE_REQUEST = OpenApiExample(
    "Two rolls left with three 3s",
    request_only=True,
    value={
        "scorecard": {"threes": None, "chance": 22},
        "yahtzee_bonus": 0,
        "dice": [3, 3, 5, 1, 3],
        "rolls_left": 2,
        "options": {},
    },
)
ADVICE = {
    "method": "optimal",
    "expected_final": 243.4106,
    "best": {"action": "roll", "hold": [0, 1, 4], "expected_final": 243.4106},
    "options": [
        {"action": "roll", "hold": [0, 1, 4], "expected_final": 243.4106},
        {"action": "score", "category": "threes", "points": 9, "expected_final": 236.0712},
    ],
}
ADVICE_EXAMPLE = OpenApiExample("The advice", value=ADVICE, response_only=True)
HINT_EXAMPLE = OpenApiExample("A hint", value={"seat": 0, **ADVICE}, response_only=True)
