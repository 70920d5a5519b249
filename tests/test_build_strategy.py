"""Building the strategy tables ahead of the first request."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[1]
# The command copies tables from the deployment's database and stores those it builds there.
pytestmark = pytest.mark.django_db


def test_a_table_built_once_is_copied_from_the_database_by_another_host(tmp_path, capsys):
    from games.models import StrategyTable

    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path / "one"))
    assert "1 built" in capsys.readouterr().out
    stored = StrategyTable.objects.get()
    assert stored.built_at is not None
    assert bytes(stored.data) == (tmp_path / "one" / "forced-yatzy.npz").read_bytes()
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path / "two"))
    out = capsys.readouterr().out
    assert "copied from the database, expected final score 122.5585" in out and "0 built" in out
    call_command(
        "build_strategy", "forced-yatzy", "--folder", str(tmp_path / "three"), "--folder-only"
    )
    assert "1 built" in capsys.readouterr().out


def test_build_strategy_writes_the_named_tables_and_reports_their_values(tmp_path, capsys):
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path))
    out = capsys.readouterr().out
    assert "forced-yatzy" in out and "122.5585" in out
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path))
    assert len(list(tmp_path.glob("forced-yatzy*.npz"))) == 1


def test_build_strategy_checks_ten_thousand_s_tables(tmp_path, capsys, strategy_tables, settings):
    from scoring.tenthousand.strategy.tables import load_tables

    settings.TEN_THOUSAND_BANK_MINIMUMS = [350]
    shutil.copy(load_tables(350, strategy_tables).path, tmp_path)
    call_command("build_strategy", "ten-thousand", "--folder", str(tmp_path))
    out = capsys.readouterr().out
    assert "ten-thousand {'bank_minimum': 350}: ready, first player wins 0.5317" in out
    assert "0 built" in out


@pytest.mark.slow
def test_build_strategy_solves_ten_thousand_from_nothing(tmp_path, capsys, settings):
    settings.TEN_THOUSAND_BANK_MINIMUMS = [350, 500]
    call_command("build_strategy", "ten-thousand", "--folder", str(tmp_path), "--jobs", "2")
    out = capsys.readouterr().out
    assert "2 built" in out and "bank_minimum': 500}: built" in out
    assert len(list(tmp_path.glob("ten-thousand--bank_minimum-*.npz"))) == 2


def test_build_strategy_refuses_a_ruleset_without_a_table(tmp_path):
    with pytest.raises(CommandError, match="maxi-yatzy"):
        call_command("build_strategy", "maxi-yatzy", "--folder", str(tmp_path))


def test_a_second_run_builds_nothing_and_a_stale_table_is_rebuilt(tmp_path, capsys, monkeypatch):
    from scoring.boxgames.strategy import api, unload_all

    builds = []
    real_build = api.build
    monkeypatch.setattr(api, "build", lambda *a, **kw: builds.append(a) or real_build(*a, **kw))
    unload_all()
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path), "--folder-only")
    assert len(builds) == 1 and "1 built" in capsys.readouterr().out
    unload_all()  # a new start: a new process, nothing loaded yet
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path), "--folder-only")
    out = capsys.readouterr().out
    assert len(builds) == 1 and "ready" in out and "0 built" in out

    table = tmp_path / "forced-yatzy.npz"
    with np.load(table) as npz:
        values, meta = npz["values"], json.loads(str(npz["meta"]))
    np.savez(table, values=values, meta=np.array(json.dumps(meta | {"engine_digest": "0" * 64})))
    unload_all()
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path), "--folder-only")
    assert len(builds) == 2 and "1 built" in capsys.readouterr().out
    unload_all()


def run_recipe() -> list[str]:
    """The commands of `make run`, in order."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = lines.index(next(line for line in lines if line.startswith("run:")))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def test_make_run_builds_the_tables_before_it_serves():
    recipe = run_recipe()
    build = next(i for i, line in enumerate(recipe) if "manage.py build_strategy" in line)
    serve = next(i for i, line in enumerate(recipe) if "uvicorn" in line)
    migrate = next(i for i, line in enumerate(recipe) if "manage.py migrate" in line)
    assert migrate < build < serve
    assert recipe[build].split("build_strategy")[1].strip() == "", "every table it offers"


def test_builds_in_parallel_processes_solve_each_table_once(tmp_path, capsys):
    # The same table twice, in two processes at once: the file lock lets one build it and
    # the other read it.
    call_command(
        "build_strategy", "forced-yatzy", "forced-yatzy", "--folder", str(tmp_path), "--jobs", "2"
    )
    out = capsys.readouterr().out
    assert out.count("forced-yatzy : built") == 1 and out.count("forced-yatzy : ready") == 1
    assert "1 built" in out
