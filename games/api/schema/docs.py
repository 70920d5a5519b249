"""Schema declarations shared by the views: error responses and examples."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, PolymorphicProxySerializer

from games.api.schema.responses import ProblemOut
from games.http.problems import PROBLEM_TYPES, problem
from scoring import ProblemCode


def box_or_ten_thousand(name: str, box: type, ten_thousand: type) -> PolymorphicProxySerializer:
    """A body that is the box games' shape or Ten Thousand's: ``oneOf`` the two (the advice's
    operations are then split by ruleset, each with its own: ``hooks.split_by_ruleset``)."""
    return PolymorphicProxySerializer(
        component_name=name, serializers=[box, ten_thousand], resource_type_field_name=None
    )


# Codes that the descriptions below shared by every operation leave out: each is named
# where it arises (a wrong API key in its own words, the analysis and classroom paths, the
# operations that need a strategy table).
DOCUMENTED_APART = {"invalid_api_key", "analysis_unavailable", "name_taken", "strategy_unavailable"}


def codes(status: int) -> str:
    """The codes of ``status`` as a description lists them, in the registry's order."""
    return ", ".join(
        f"`{code}`"
        for code, kind in PROBLEM_TYPES.items()
        if kind.status == status and code not in DOCUMENTED_APART
    )


WHEN = {
    400: f"Malformed JSON or invalid input ({codes(400)}). A field the body does not "
    "take is `unknown_field` and a value of the wrong JSON type `invalid`; `errors` names "
    "each field at fault.",
    401: f"Missing or wrong seat token ({codes(401)}), or a wrong or revoked `X-API-Key` "
    "(`invalid_api_key`).",
    403: f"The `X-API-Key` is not this classroom's teacher key ({codes(403)}).",
    404: f"No such game or ruleset ({codes(404)}).",
    405: f"The path does not take this method ({codes(405)}).",
    406: f"The client accepts no JSON ({codes(406)}).",
    409: f"The move breaks the rules now ({codes(409)}).",
    412: f"`If-Match` named another version ({codes(412)}).",
    413: f"The body is larger than the service accepts ({codes(413)}).",
    415: f"The body is not `application/json` ({codes(415)}).",
    422: f"The `Idempotency-Key` was used for a different request ({codes(422)}).",
    429: f"Too many requests from this API key or address ({codes(429)}); see `Retry-After`.",
    503: f"The database cannot be reached ({codes(503)}); try again after `Retry-After` "
    "seconds.",
}
# Operations that read an optimal-strategy table (hints, advice, `optimal` computer seats).
STRATEGY_503 = (
    "The database cannot be reached (`database_unavailable`), or the optimal-strategy table "
    "this request needs is not built yet (`strategy_unavailable`: a worker builds it once, "
    "usually within a minute; tables are built before the service starts, so this is rare "
    "but for Ten Thousand's unusual bank minimums, of which a client may have a few built "
    "an hour: past that, nothing is queued and `detail` says so). Nothing else has "
    "changed; try again after `Retry-After` seconds."
)
# Any operation may find the database gone, and any path refuses other methods and non-JSON.
ALWAYS = (405, 406, 503)


def problems(*statuses: int, strategy: bool = False) -> dict[tuple[int, str], OpenApiResponse]:
    """The problem answers of an operation; ``strategy``: it may need a strategy table."""

    def when(status: int) -> str:
        return STRATEGY_503 if strategy and status == 503 else WHEN[status]

    return {
        (status, "application/problem+json"): OpenApiResponse(ProblemOut, description=when(status))
        for status in sorted({*statuses, *ALWAYS})
    }


PROBLEM_EXAMPLE = OpenApiExample(
    "A refused move",
    value=problem(ProblemCode.NO_ROLLS_LEFT, "no rolls are left this turn: fill a box"),
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
    "dice": {
        "algorithm": "hmac-sha256-v1",
        "commitment": "9f2b5c0e1d7a4e3b8c6f0a2d4e6b8c0a1e3f5d7b9c1e3a5f7d9b1c3e5a7f9d1b",
        "client_seed": "5e0c7a3b9d1f2e4a",
        "secret": None,
    },
    "clock": None,
    "open_seats": 0,
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
            "bot": None,
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
            "left": False,
        }
    ],
    "winners": [],
    "created_at": "2026-11-21T10:00:00Z",
    "updated_at": "2026-11-21T10:01:30Z",
    "finished_at": None,
    "classroom": None,
    "student": None,
    "assignment": None,
    "assignment_game": None,
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
                "type": "string",
                "values": ["forced", "free", "none"],
                "default": "forced",
                "description": "forced: the official Joker...",
            }
        },
    },
)
