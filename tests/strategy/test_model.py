"""The solver's model of each ruleset agrees with the engine it was asked of."""

import pytest

from scoring.boxgames.strategy.model import ModelError, model_for
from scoring.boxgames.strategy.table import solver_for

YAHTZEE_VARIANTS = [
    {"joker": joker, "yahtzee_bonus": bonus}
    for joker in ("forced", "free", "none")
    for bonus in ("unlimited", "single", "none")
]


@pytest.mark.parametrize("options", YAHTZEE_VARIANTS, ids=lambda o: "-".join(o.values()))
def test_yahtzee_model_matches_the_engine_on_random_cards(options: dict) -> None:
    model = model_for("yahtzee", options)
    model.verify(3000, seed=7)
    # The flag exists exactly when a bonus can be earned.
    assert model.n_flags == (1 if options["yahtzee_bonus"] == "none" else 2)


@pytest.mark.parametrize("ruleset", ["yatzy", "forced-yatzy"])
def test_yatzy_models_match_the_engine_on_random_cards(ruleset: str) -> None:
    model = model_for(ruleset, {})
    solver_for(model).verify(3000, seed=7)
    assert model.n_flags == 1


def test_only_five_of_a_kind_is_special() -> None:
    model = model_for("yahtzee", {})
    assert [model.dice[r] for r in model.special] == [[f] * 5 for f in range(1, 7)]


def test_a_disagreeing_engine_is_caught() -> None:
    model = model_for("yahtzee", {})
    model.points[model.box_index["chance"]] += 1  # pretend the solver scored chance wrong
    with pytest.raises(ModelError):
        model.verify(500)
