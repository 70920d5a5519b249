"""The Scandinavian Yatzy family (``docs/games/yatzy.md``): Yatzy, Forced Yatzy and Maxi Yatzy.

Unlike Yahtzee, a combination box counts only the dice that make the combination, and there
is neither a Yahtzee bonus nor a Joker. A combination of groups "of different faces" (two
and three pairs, full house, villa, tower) needs that many different faces, so five or six
of a kind is none of them; a group may come from more dice of its face than it needs (four
of a kind holds a pair or a triple), and the box takes the best such dice.
"""

from collections.abc import Callable, Sequence

from ..dice import check_dice, counts
from ..errors import gettext_noop
from ..state import Json, JsonObject, Options
from .boxgame import Box, BoxGame, Card
from .faces import UPPER_DESCRIPTIONS, UPPER_IDS, UPPER_NAMES, all_same, face_sum, has_run

Scorer = Callable[[Sequence[int]], int]


def faces_with_at_least(dice: Sequence[int], n: int) -> list[int]:
    """The faces shown by at least ``n`` dice, highest first."""
    tally = counts(dice)
    return [face for face in range(6, 0, -1) if tally[face] >= n]


def one_pair(dice: Sequence[int]) -> int:
    """Two dice of the highest face shown at least twice (a triple or more holds a pair)."""
    faces = faces_with_at_least(dice, 2)
    return 2 * faces[0] if faces else 0


def pairs(n: int) -> Scorer:
    """``n`` pairs of different faces, the highest such: two dice of each face."""

    def score(dice: Sequence[int]) -> int:
        faces = faces_with_at_least(dice, 2)
        return 2 * sum(faces[:n]) if len(faces) >= n else 0

    return score


def of_a_kind(n: int) -> Scorer:
    """``n`` dice of the highest face shown at least ``n`` times: only those dice count."""

    def score(dice: Sequence[int]) -> int:
        faces = faces_with_at_least(dice, n)
        return n * faces[0] if faces else 0

    return score


def group_and_group(big: int, small: int) -> Scorer:
    """``big`` dice of one face and ``small`` dice of another, the best such: those dice.

    Full house is 3 + 2, villa 3 + 3 and tower 4 + 2. With five dice a full house is then
    exactly three and two; with six dice a villa and a tower take all six dice.
    """

    def score(dice: Sequence[int]) -> int:
        best = 0
        for face in faces_with_at_least(dice, big):
            for other in faces_with_at_least(dice, small):
                if other != face:
                    best = max(best, big * face + small * other)
        return best

    return score


def straight(low: int, high: int, points: int) -> Scorer:
    """``points`` if the dice contain every face from ``low`` to ``high``.

    With five dice, containing 1-2-3-4-5 (or 2-3-4-5-6) is being exactly those dice.
    """

    def score(dice: Sequence[int]) -> int:
        return points if has_run(dice, range(low, high + 1)) else 0

    return score


def all_alike(points: int) -> Scorer:
    def score(dice: Sequence[int]) -> int:
        return points if all_same(dice) else 0

    return score


UPPER = tuple(
    Box(box_id, name, "upper", description, face_sum(face))
    for face, (box_id, name, description) in enumerate(
        zip(UPPER_IDS, UPPER_NAMES, UPPER_DESCRIPTIONS, strict=True), start=1
    )
)


def lower(box_id: str, name: str, description: str, score: Scorer) -> Box:
    return Box(box_id, name, "lower", description, score)


YATZY_BOXES = (
    *UPPER,
    lower("one_pair", gettext_noop("One pair"),
        gettext_noop("Sum of the two dice of the highest pair."), one_pair),
    lower("two_pairs", gettext_noop("Two pairs"),
        gettext_noop("Sum of two pairs of different faces."), pairs(2)),
    lower("three_of_a_kind", gettext_noop("Three of a kind"),
        gettext_noop("Sum of three dice showing the same face."), of_a_kind(3)),
    lower("four_of_a_kind", gettext_noop("Four of a kind"),
        gettext_noop("Sum of four dice showing the same face."), of_a_kind(4)),
    lower("small_straight", gettext_noop("Small straight"),
        gettext_noop("15 for exactly 1-2-3-4-5."), straight(1, 5, 15)),
    lower("large_straight", gettext_noop("Large straight"),
        gettext_noop("20 for exactly 2-3-4-5-6."), straight(2, 6, 20)),
    lower("full_house", gettext_noop("Full house"),
        gettext_noop("Sum of all five dice for three of one face and two of another."),
        group_and_group(3, 2)),
    lower("chance", gettext_noop("Chance"),
        gettext_noop("Sum of all five dice."), sum),
    lower("yatzy", gettext_noop("Yatzy"),
        gettext_noop("50 if all five dice show the same face."), all_alike(50)),
)

MAXI_BOXES = (
    *UPPER,
    lower("one_pair", gettext_noop("One pair"),
        gettext_noop("Sum of the two dice of the highest pair."), one_pair),
    lower("two_pairs", gettext_noop("Two pairs"),
        gettext_noop("Sum of the best two pairs of different faces."), pairs(2)),
    lower("three_pairs", gettext_noop("Three pairs"),
        gettext_noop("Sum of all six dice for three pairs of different faces."), pairs(3)),
    lower("three_of_a_kind", gettext_noop("Three of a kind"),
        gettext_noop("Sum of three dice showing the same face."), of_a_kind(3)),
    lower("four_of_a_kind", gettext_noop("Four of a kind"),
        gettext_noop("Sum of four dice showing the same face."), of_a_kind(4)),
    lower("five_of_a_kind", gettext_noop("Five of a kind"),
        gettext_noop("Sum of five dice showing the same face."), of_a_kind(5)),
    lower("small_straight", gettext_noop("Small straight"),
        gettext_noop("15 if the dice contain 1-2-3-4-5."), straight(1, 5, 15)),
    lower("large_straight", gettext_noop("Large straight"),
        gettext_noop("20 if the dice contain 2-3-4-5-6."), straight(2, 6, 20)),
    lower("full_straight", gettext_noop("Full straight"),
        gettext_noop("21 for 1-2-3-4-5-6."), straight(1, 6, 21)),
    lower("full_house", gettext_noop("Full house"),
        gettext_noop("Sum of the best three of one face and two of another."),
        group_and_group(3, 2)),
    lower("villa", gettext_noop("Villa"),
        gettext_noop("Sum of all six dice for two triples of different faces."),
        group_and_group(3, 3)),
    lower("tower", gettext_noop("Tower"),
        gettext_noop("Sum of all six dice for four of one face and two of another."),
        group_and_group(4, 2)),
    lower("chance", gettext_noop("Chance"),
        gettext_noop("Sum of all six dice."), sum),
    lower("maxi_yatzy", gettext_noop("Maxi Yatzy"),
        gettext_noop("100 if all six dice show the same face."), all_alike(100)),
)


class Yatzy(BoxGame):
    id = "yatzy"
    name = gettext_noop("Yatzy")
    description = gettext_noop(
        "Scandinavian Yatzy: five dice, 15 boxes, three rolls a turn; combinations count only "
        "their own dice, 50-point upper bonus at 63, no Yahtzee bonus and no Joker."
    )
    dice = 5
    rolls_per_turn = 3
    boxes = YATZY_BOXES
    upper_bonus_threshold = 63
    upper_bonus_points = 50


class ForcedYatzy(Yatzy):
    id = "forced-yatzy"
    name = gettext_noop("Forced Yatzy")
    description = gettext_noop(
        "Yatzy with the boxes filled in a fixed order: each turn scores or scratches the next "
        "open box of the card, from ones down to yatzy."
    )

    def legal(self, card: Card, dice: Sequence[int], options: Options) -> dict[str, int]:
        for box in self.boxes:
            if card[box.id] is None:
                return {box.id: box.score(dice)}
        return {}

    def calculate(self, body: JsonObject, *, options: Options) -> dict[str, Json]:
        # Given a scorecard, the calculator answers as a turn would: the next open box only.
        # Without one it values the dice in every box, as the Yatzy calculator does.
        if body.get("scorecard") is not None:
            return super().calculate(body, options=options)
        dice = check_dice(body.get("dice"), self.dice)
        return {"scores": {box.id: box.score(dice) for box in self.boxes}}


class MaxiYatzy(BoxGame):
    id = "maxi-yatzy"
    name = gettext_noop("Maxi Yatzy")
    description = gettext_noop(
        "Yatzy with six dice and 20 boxes; rolls left unused at the end of a turn are saved for "
        "the player's later turns. 100-point upper bonus at 84."
    )
    dice = 6
    rolls_per_turn = 3
    saves_rolls = True
    boxes = MAXI_BOXES
    upper_bonus_threshold = 84
    upper_bonus_points = 100

