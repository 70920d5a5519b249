"""Rulesets over HTTP: what each offers, a score calculator and optimal advice for any
position, stateless."""

from collections.abc import Callable
from typing import Any, cast

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.rulesets.bodies import (
    AdviceBody,
    AdviceOut,
    RulesetOut,
    ScoreOut,
    TenThousandAdviceBody,
    TenThousandAdviceOut,
    render_advice,
    render_ruleset,
    render_ten_thousand_advice,
)
from games.api.rulesets.requests import AdviceIn, ScoreIn, TenThousandAdviceIn
from games.api.schema import advice_docs, docs
from games.http.throttles import AdviceThrottle
from games.play.advice import ten_thousand_advice
from games.play.strategy import strategy_load
from scoring import RULESETS, Ruleset, family_of
from scoring.boxgames.boxgame import BoxGame
from scoring.boxgames.family import BOX_GAMES
from scoring.boxgames.strategy import advise_with
from scoring.tenthousand.family import TEN_THOUSAND


@extend_schema_view(
    list=extend_schema(
        summary="List the rulesets",
        responses={200: RulesetOut(many=True), **docs.problems()},
        examples=[
            OpenApiExample("All rulesets", value=[docs.RULESET_EXAMPLE.value], response_only=True)
        ],
    ),
    retrieve=extend_schema(
        summary="Get a ruleset",
        responses={200: RulesetOut, **docs.problems(404)},
        examples=[docs.RULESET_EXAMPLE],
    ),
)
class RulesetViewSet(viewsets.ViewSet):
    lookup_value_regex = "[a-z0-9-]+"
    authentication_classes: list = []

    def get_throttles(self) -> list:
        return [AdviceThrottle()] if self.action == "advice" else []

    def list(self, request: Request) -> Response:
        return Response([render_ruleset(r) for r in RULESETS.values()])

    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(render_ruleset(_ruleset(pk)))

    @extend_schema(
        summary="Score calculator",
        description="Box games: without a scorecard, the points every box would take with these "
        "dice; with a scorecard, only the boxes that may legally be filled now, with the points "
        "they would take (Joker and forced order applied). Ten Thousand: the value of a "
        "selection of dice and whether every die of it scores.",
        request=ScoreIn,
        responses={200: ScoreOut, **docs.problems(400, 404, 413, 415)},
        examples=[
            OpenApiExample(
                "A Joker",
                request_only=True,
                value={"dice": [6, 6, 6, 6, 6], "scorecard": {"yahtzee": 50, "sixes": 30}},
            ),
            OpenApiExample(
                "The Joker's answer",
                response_only=True,
                value={
                    "scores": {
                        "three_of_a_kind": 30,
                        "four_of_a_kind": 30,
                        "full_house": 25,
                        "small_straight": 30,
                        "large_straight": 40,
                        "chance": 30,
                    }
                },
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    def score(self, request: Request, pk: str) -> Response:
        ruleset = _ruleset(pk)
        given = ScoreIn(data=request.data)
        given.is_valid(raise_exception=True)
        chosen = ruleset.validate_options(given.validated_data["options"])
        return Response(ruleset.calculate(given.validated_data, options=chosen))

    @extend_schema(
        summary="Optimal advice for any position",
        description="Stateless: every option in a position you describe, valued under optimal "
        "play. Box games (Yahtzee with any options, Yatzy, Forced Yatzy): the expected final "
        "score of solitaire play; `rolls_left` is the number of rolls still allowed after "
        "`dice`; with `dice` null the answer is the value at the start of the turn, with no "
        "options. Ten Thousand: the game's own objective, the chance of winning with two "
        "`totals` or the expected turns with one, for the throw in `dice` (see the "
        "Ten Thousand operation).",
        request=docs.box_or_ten_thousand("AdvicePosition", AdviceIn, TenThousandAdviceIn),
        responses={
            200: docs.box_or_ten_thousand("AdviceAnswer", AdviceOut, TenThousandAdviceOut),
            **docs.problems(400, 404, 413, 415, 429, strategy=True),
            **advice_docs.TEN_THOUSAND_GAME_OVER,
        },
        examples=[
            advice_docs.ADVICE_REQUEST,
            advice_docs.ADVICE_EXAMPLE,
            advice_docs.TEN_THOUSAND_ADVICE_REQUEST,
            advice_docs.TEN_THOUSAND_ADVICE_EXAMPLE,
        ],
    )
    @action(detail=True, methods=["post"])
    def advice(self, request: Request, pk: str) -> Response:
        ruleset = _ruleset(pk)
        return Response(ADVISERS[family_of(ruleset).id](ruleset, request.data))


def _box_advice(ruleset: Ruleset, data: Any) -> AdviceBody:
    given = AdviceIn(data=data)
    given.is_valid(raise_exception=True)
    position = given.validated_data
    options = ruleset.validate_options(position["options"])
    # A position no game reaches is refused before any table is read: its answer is 400
    # whether or not this host has the table yet (never 503, never a build queued for it).
    boxes = cast(BoxGame, ruleset)
    boxes.check_bonus(
        position["yahtzee_bonus"] or 0, boxes.check_card(position.get("scorecard")), options
    )
    advice = advise_with(
        strategy_load(ruleset_id=ruleset.id, options=options),
        position.get("scorecard"),
        position["yahtzee_bonus"],
        position.get("dice"),
        position.get("rolls_left"),
    )
    return render_advice(advice)


def _ten_thousand_advice(ruleset: Ruleset, data: Any) -> TenThousandAdviceBody:
    given = TenThousandAdviceIn(data=data)
    given.is_valid(raise_exception=True)
    position = given.validated_data
    answer = ten_thousand_advice(
        options=ruleset.validate_options(position["options"]),
        totals=position["totals"],
        turn_points=position["turn_points"],
        dice=position.get("dice"),
    )
    return render_ten_thousand_advice(answer)


# Each family's position advice (its request, its service, its answer), by family id.
ADVISERS: dict[str, Callable[[Ruleset, Any], AdviceBody | TenThousandAdviceBody]] = {
    BOX_GAMES.id: _box_advice,
    TEN_THOUSAND.id: _ten_thousand_advice,
}


def _ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in RULESETS:
        raise NotFound(gettext("no ruleset {ruleset!r}").format(ruleset=ruleset_id))
    return RULESETS[ruleset_id]
