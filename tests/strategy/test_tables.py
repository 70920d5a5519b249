"""Tables on disk: built into a folder, loaded back, and rebuilt when stale."""

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from scoring import RuleError
from scoring.boxgames.strategy import (
    FORMAT_VERSION,
    StaleTable,
    advise,
    build_table,
    load_table,
    unload_all,
)
from scoring.boxgames.strategy.model import model_for
from scoring.boxgames.strategy.table import engine_digest, solver_for


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    unload_all()
    yield
    unload_all()


def rewrite_meta(path: Path, **changes: object) -> None:
    with np.load(path) as npz:
        values, meta = npz["values"], json.loads(str(npz["meta"]))
    meta.update(changes)
    np.savez(path, values=values, meta=np.array(json.dumps(meta)))


def test_forced_yatzy_matches_the_published_value(tmp_path: Path) -> None:
    path = build_table("forced-yatzy", {}, tmp_path)
    assert path.parent == tmp_path and path.suffix == ".npz"
    assert abs(load_table("forced-yatzy", None, tmp_path).start_value - 122.5585) < 0.001
    assert abs(advise("forced-yatzy", {}, None, 0, None, None, tmp_path).expected_final
               - 122.5585) < 0.001


def test_a_table_carries_what_it_was_solved_for(tmp_path: Path) -> None:
    table = load_table("forced-yatzy", {}, build_table("forced-yatzy", {}, tmp_path).parent)
    meta = table.meta
    assert meta["format_version"] == FORMAT_VERSION
    assert (meta["ruleset"], meta["options"], meta["order"]) == ("forced-yatzy", {}, "forced")
    assert meta["forced_order"][0] == "ones" and meta["forced_order"][-1] == "yatzy"
    assert table.values.dtype == np.float32 and list(table.values.shape) == meta["shape"]


def test_a_loaded_table_is_read_back_not_rebuilt(tmp_path: Path) -> None:
    path = build_table("forced-yatzy", {}, tmp_path)
    stamp = path.stat().st_mtime_ns
    unload_all()
    table = load_table("forced-yatzy", {}, tmp_path, build_missing=False)
    assert path.stat().st_mtime_ns == stamp
    assert table.path == path and not table.values.flags.writeable


def test_advice_builds_a_missing_table_on_first_use(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "yet"
    advise("forced-yatzy", {}, {}, 0, [1, 1, 2, 3, 4], 2, folder)
    assert [p.name for p in folder.glob("*.npz")] == ["forced-yatzy.npz"]


def test_a_missing_table_is_an_error_when_building_is_not_allowed(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_table("forced-yatzy", {}, tmp_path, build_missing=False)


@pytest.mark.parametrize(
    "changes",
    [{"format_version": FORMAT_VERSION - 1}, {"engine_digest": "0" * 64},
     {"options": {"joker": "free"}}, {"ruleset": "yatzy"}, {"shape": [1, 1, 1]}],
)
def test_a_stale_table_is_detected_and_rebuilt(tmp_path: Path, changes: dict) -> None:
    path = build_table("forced-yatzy", {}, tmp_path)
    rewrite_meta(path, **changes)
    unload_all()
    with pytest.raises(StaleTable):
        load_table("forced-yatzy", {}, tmp_path, build_missing=False)
    table = load_table("forced-yatzy", {}, tmp_path)
    assert abs(table.start_value - 122.5585) < 0.001
    with np.load(path) as npz:
        assert json.loads(str(npz["meta"]))["format_version"] == FORMAT_VERSION


def test_a_corrupt_file_is_stale(tmp_path: Path) -> None:
    path = build_table("forced-yatzy", {}, tmp_path)
    path.write_bytes(b"not a table")
    unload_all()
    with pytest.raises(StaleTable):
        load_table("forced-yatzy", {}, tmp_path, build_missing=False)
    assert load_table("forced-yatzy", {}, tmp_path).values.shape == (16, 1, 64)


def test_options_get_their_own_file_and_digest(tmp_path: Path) -> None:
    digests = set()
    for joker in ("forced", "free", "none"):
        model = model_for("yahtzee", {"joker": joker})
        digests.add(engine_digest(model, solver_for(model)))
    assert len(digests) == 3


@pytest.mark.parametrize(
    ("ruleset", "options", "field"),
    [("maxi-yatzy", {}, "ruleset"), ("ten-thousand", {}, "ruleset"), ("nope", {}, "ruleset"),
     ("yahtzee", {"joker": "sometimes"}, "options.joker"), ("yatzy", {"joker": "free"},
                                                           "options.joker")],
)
def test_unsupported_rulesets_and_bad_options_are_refused(
    tmp_path: Path, ruleset: str, options: dict, field: str
) -> None:
    with pytest.raises(RuleError) as caught:
        advise(ruleset, options, None, 0, None, None, tmp_path)
    assert caught.value.field == field
    assert list(tmp_path.iterdir()) == []


def test_forced_yatzy_refuses_a_card_that_skips_a_box(tmp_path: Path) -> None:
    with pytest.raises(RuleError) as caught:
        advise("forced-yatzy", {}, {"ones": 3, "threes": 9}, 0, None, None, tmp_path)
    assert (caught.value.code, caught.value.field) == ("invalid", "scorecard")
    answer = advise("forced-yatzy", {}, {"ones": 3, "twos": 0}, 0, [3, 3, 1, 2, 5], 0, tmp_path)
    assert [(o["category"], o["points"]) for o in answer.options] == [("threes", 6)]
