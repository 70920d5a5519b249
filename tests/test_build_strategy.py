"""Building the strategy tables ahead of the first request."""

import pytest
from django.core.management import CommandError, call_command


def test_build_strategy_writes_the_named_tables_and_reports_their_values(tmp_path, capsys):
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path))
    out = capsys.readouterr().out
    assert "forced-yatzy" in out and "122.5585" in out
    call_command("build_strategy", "forced-yatzy", "--folder", str(tmp_path))
    assert len(list(tmp_path.glob("forced-yatzy*.npz"))) == 1


def test_build_strategy_refuses_a_ruleset_without_a_table(tmp_path):
    with pytest.raises(CommandError, match="maxi-yatzy"):
        call_command("build_strategy", "maxi-yatzy", "--folder", str(tmp_path))
