"""Game records over HTTP: a game as one document (``GET /games/{id}/record/``) and the
check of any record (``POST /records/verify/``)."""

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.records.bodies import RecordOut, VerdictOut, render_record, render_verdict
from games.api.records.requests import RecordQuery
from games.api.schema import docs
from games.http.permissions import MaySeeGame, ProblemRefusals
from games.http.throttles import RecordThrottle, VerifyThrottle
from games.play.privacy import private_game
from games.play.records import game_record, record_verify
from scoring import ProblemCode
from scoring.record_format import shape as record_shape

# The largest record checked (the contract's 1 MB): a whole game of eight computer seats
# fills a fraction of it, and it bounds the check's work.
MOST_BYTES = 1_000_000


class GameRecordView(ProblemRefusals):
    throttle_classes = [RecordThrottle]
    permission_classes = [MaySeeGame]

    @extend_schema(
        summary="The game's record",
        description="The game as one self-contained document: its seats, its dice (the "
        "secret once the game is over), its whole log, its totals and winners. Check it with "
        "`POST /api/v1/records/verify/`, or without the service (the README's verifier). "
        "Limited per API key or address (`THROTTLE_RECORDS`, by default 30 a minute): 429 "
        "`throttled` beyond it.",
        parameters=[RecordQuery],
        responses={200: RecordOut, **docs.problems(400, 404, 429)},
    )
    def get(self, request: Request, pk: Any) -> Response:
        query = RecordQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        record = game_record(game_id=pk)
        self.check_object_permissions(request, private_game(record.game))
        body = render_record(record)
        headers = {}
        if query.validated_data["download"] == "1":
            headers["Content-Disposition"] = f'attachment; filename="game-{pk}.json"'
        return Response(body, headers=headers)


class RecordVerifyView(APIView):
    authentication_classes: list = []
    most_body_bytes = MOST_BYTES  # read by the parser (games.http.json_bodies)
    throttle_classes = [VerifyThrottle]

    @extend_schema(
        summary="Check a game record",
        description="Checks the commitment against the secret, every thrown die against the "
        "derivation, every move against the rules (each replayed), and the totals and "
        "winners. Answers `valid: false` with the problems found, the first first: "
        "`commitment_mismatch`, `die_mismatch`, `illegal_move`, `score_mismatch`, "
        "`total_mismatch` (totals or winners), `status_mismatch`. While the secret is hidden "
        "only the moves are checked (`dice: unchecked`). A body over 1 MB, or that is not a "
        "record, is refused with 400. Limited per API key or address (`THROTTLE_RECORDS`, by "
        "default 30 a minute, counted apart from the records read): 429 `throttled` beyond it.",
        request={"application/json": record_shape()},
        responses={200: VerdictOut, **docs.problems(400, 415, 429)},
        examples=[
            OpenApiExample(
                "Valid", value={"valid": True, "checked": {"dice": 181, "moves": 74}},
                response_only=True,
            ),
            OpenApiExample(
                "A die that the secret does not give",
                value={
                    "valid": False,
                    "problems": [{"seq": 12, "code": "die_mismatch", "detail": "die 2 of seat "
                                  "0's turn 1, throw 0 shows 6; the secret gives 4"}],
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        # Refused by its declared length, before anything is read or parsed.
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isdigit() or int(declared) > MOST_BYTES:
            raise ValidationError(
                {"record": [gettext("a record is at most {most} bytes").format(most=MOST_BYTES)]},
                code=ProblemCode.INVALID,
            )
        return Response(render_verdict(record_verify(document=request.data)))
