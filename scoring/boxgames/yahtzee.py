"""Official Yahtzee (``docs/games/yahtzee.md``), with its Joker and Yahtzee bonus house rules."""

from collections.abc import Callable, Sequence

from ..dice import counts
from ..errors import gettext_noop
from ..ruleset import Option
from ..state import BoxSeat, Options
from .boxgame import Box, BoxGame, Card
from .faces import (
    UPPER_DESCRIPTIONS,
    UPPER_IDS,
    UPPER_NAMES,
    all_same,
    face_sum,
    has_run,
    most_of_a_kind,
)

# Under the Joker these boxes take their fixed points whatever the dice.
JOKER_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40}
YAHTZEE_BONUS = 100


def of_a_kind(n: int) -> Callable[[Sequence[int]], int]:
    def score(dice: Sequence[int]) -> int:
        return sum(dice) if most_of_a_kind(dice) >= n else 0

    return score


def full_house(dice: Sequence[int]) -> int:
    return 25 if sorted(c for c in counts(dice) if c) == [2, 3] else 0


def small_straight(dice: Sequence[int]) -> int:
    return 30 if any(has_run(dice, range(low, low + 4)) for low in (1, 2, 3)) else 0


def large_straight(dice: Sequence[int]) -> int:
    return 40 if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0


def yahtzee(dice: Sequence[int]) -> int:
    return 50 if all_same(dice) else 0


UPPER = tuple(
    Box(box_id, name, "upper", description, face_sum(face))
    for face, (box_id, name, description) in enumerate(
        zip(UPPER_IDS, UPPER_NAMES, UPPER_DESCRIPTIONS, strict=True), start=1
    )
)
LOWER = (
    Box("three_of_a_kind", gettext_noop("Three of a kind"), "lower",
        gettext_noop("Sum of all five dice if at least three show the same face."), of_a_kind(3)),
    Box("four_of_a_kind", gettext_noop("Four of a kind"), "lower",
        gettext_noop("Sum of all five dice if at least four show the same face."), of_a_kind(4)),
    Box("full_house", gettext_noop("Full house"), "lower",
        gettext_noop("25 for three of one face and two of another."), full_house),
    Box("small_straight", gettext_noop("Small straight"), "lower",
        gettext_noop("30 if the dice contain 1-2-3-4, 2-3-4-5 or 3-4-5-6."), small_straight),
    Box("large_straight", gettext_noop("Large straight"), "lower",
        gettext_noop("40 for 1-2-3-4-5 or 2-3-4-5-6."), large_straight),
    Box("yahtzee", gettext_noop("Yahtzee"), "lower",
        gettext_noop("50 if all five dice show the same face."), yahtzee),
    Box("chance", gettext_noop("Chance"), "lower",
        gettext_noop("Sum of all five dice."), sum),
)


class Yahtzee(BoxGame):
    id = "yahtzee"
    name = gettext_noop("Yahtzee")
    description = gettext_noop(
        "Official Yahtzee: five dice, 13 boxes, three rolls a turn; 35-point upper bonus at 63, "
        "100-point Yahtzee bonuses and the Joker rules, with house-rule options."
    )
    dice = 5
    rolls_per_turn = 3
    boxes = UPPER + LOWER
    upper_bonus_threshold = 63
    upper_bonus_points = 35
    bonus_box = "yahtzee"
    bonus_step = YAHTZEE_BONUS
    options = (
        Option(
            "yahtzee_bonus", ("unlimited", "single", "none"), "unlimited",
            gettext_noop(
                "100 points for every further Yahtzee while the Yahtzee box holds 50 (unlimited), "
                "for the first such Yahtzee only (single), or never (none)."
            ),
        ),
        Option(
            "joker", ("forced", "free", "none"), "forced",
            gettext_noop(
                "forced: the official Joker (upper box of the face if open, else any lower box "
                "at fixed points, else 0 in an upper box); free: any open box, fixed points "
                "only once the upper box of the face is filled; none: a Yahtzee scores as its "
                "dice do."
            ),
        ),
    )

    def legal(self, card: Card, dice: Sequence[int], options: Options) -> dict[str, int]:
        scores = super().legal(card, dice, options)
        joker = options["joker"]
        if joker == "none" or not all_same(dice) or card["yahtzee"] is None:
            return scores
        upper_id = UPPER_IDS[dice[0] - 1]
        upper_open = card[upper_id] is None
        if joker == "free":
            if upper_open:
                return scores
            return {box: JOKER_POINTS.get(box, p) for box, p in scores.items()}
        if upper_open:
            return {upper_id: scores[upper_id]}
        lower = {box.id for box in LOWER}
        lower_open = {box: JOKER_POINTS.get(box, p) for box, p in scores.items() if box in lower}
        return lower_open or scores

    def fill_bonus(
        self, card: Card, dice: Sequence[int], options: Options, bonus: int
    ) -> int:
        rule = options["yahtzee_bonus"]
        if rule == "none" or card["yahtzee"] != 50 or not all_same(dice):
            return 0
        if rule == "single" and bonus:
            return 0
        return YAHTZEE_BONUS

    def bonus_ceiling(self, options: Options) -> int:
        """Each bonus fills another box of the card; the house rule may allow one, or none."""
        rule = options["yahtzee_bonus"]
        if rule == "none":
            return 0
        return YAHTZEE_BONUS * (1 if rule == "single" else len(self.boxes) - 1)

    def seat_view(self, card: Card, bonus: int) -> BoxSeat:
        return {**super().seat_view(card, bonus), "yahtzee_bonus": bonus}
