"""A tournament of computers alone, run by the worker's steps from start to finish."""

from tests.tournaments.conftest import computers, run_due_work


def test_a_round_robin_of_computers_runs_to_its_end(arena, room):
    set_ = arena.set_ok(room, boards=2, entrants=computers("greedy", "random", "greedy"))
    assert set_["status"] == "scheduled" and set_["progress"] == {"games": 12, "finished": 0}
    assert len(set_["commitments"]) == 2 and set_["secrets"] is None
    run_due_work()
    shown = arena.read(room, set_["id"]).json()
    assert shown["status"] == "finished", shown
    assert shown["progress"] == {"games": 12, "finished": 12}
    assert len(shown["secrets"]) == 2
    games = arena.games(room, set_["id"])
    assert [g["tournament_game"] for g in games] == list(range(1, 13))
    print(shown["standings"])
