"""Checking records of games played through the engine alone (``scoring.records``): lobbies,
seats that leave, abandoned games, computers of every kind; a record verifies exactly when
it is the game that was played."""

import copy
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import DerivedDice, get_ruleset
from scoring.commands import Command, Join, Leave, Start
from scoring.match import Match, Seat, status
from scoring.record_format import NotARecord
from scoring.records import PROBLEM_CODES, verify
from scoring.strategy.players import computer_command

SECRET = bytes(range(32))
CLIENT_SEED = "table-1"


class Table:
    """A game played through a :class:`Match`, logged as the service logs it."""

    def __init__(self, ruleset_id: str, seats: list[Seat], folder: Path, *, open_seats: int = 0,
                 options: dict | None = None) -> None:
        self.ruleset = get_ruleset(ruleset_id)
        self.options = self.ruleset.validate_options(options or {})
        self.folder = folder
        self.mind = random.Random(ruleset_id)
        self.dice = DerivedDice(SECRET, CLIENT_SEED)
        self.match = Match(self.ruleset, self.options, seats, self.strategy)
        listed = [{"seat": s, "name": p.name, "computer": p.computer} for s, p in enumerate(seats)]
        created = {"ruleset": ruleset_id, "options": self.options, "seed": None,
                   "players": listed, "open_seats": open_seats}
        self.events = [{"type": "created", "seat": None, "data": created}]
        self.apply(self.match.new(open_seats=open_seats, dice=self.dice, mind=self.mind))

    def strategy(self, ruleset, state, level, options, rng):
        return computer_command(ruleset, state, level, options, rng, folder=self.folder)

    def apply(self, outcome) -> None:
        self.state = outcome.state
        self.events.extend(
            {"type": e.type, "seat": e.seat, "data": e.data} for e in outcome.events
        )

    def play(self, seat: int | None, command: Command) -> None:
        self.apply(self.match.play(
            self.state, seat=seat, command=command, dice=self.dice, mind=self.mind
        ))
        if isinstance(command, Join):
            self.match = Match(self.ruleset, self.options, [*self.match.seats, Seat(command.name)],
                               self.strategy)

    def play_greedily(self, moves: int) -> None:
        """The current person seats move as the greedy computer would."""
        for _ in range(moves):
            if self.state["finished"]:
                return
            seat = self.state["current"]
            self.play(seat, self.strategy(self.ruleset, self.state, "greedy", self.options,
                                          self.mind))

    def record(self) -> dict:
        view = self.ruleset.view(self.state, options=self.options)
        over = status(self.state) in ("finished", "abandoned")
        return {
            "format": "dice-games-record/1",
            "id": "a game",
            "ruleset": self.ruleset.id,
            "options": self.options,
            "players": [
                {"seat": s, "name": p.name, "computer": p.computer}
                for s, p in enumerate(self.match.seats)
            ],
            "dice": {"algorithm": "hmac-sha256-v1", "commitment": self.dice.commitment,
                     "client_seed": CLIENT_SEED, "secret": SECRET.hex() if over else None},
            "events": [
                {"seq": seq, **event, "created_at": "2026-11-25T10:00:00Z"}
                for seq, event in enumerate(self.events, start=1)
            ],
            "status": str(status(self.state)),
            "totals": view.totals,
            "winners": view.winners,
        }


def valid(record: dict) -> bool:
    verdict = verify(record)
    assert verdict.valid, verdict.problems
    return True


@pytest.mark.parametrize("ruleset_id", ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy"])
def test_a_game_of_computers_only_verifies(ruleset_id, tmp_path):
    seats = [Seat("A", "random"), Seat("B", "greedy"), Seat("C", "random")]
    table = Table(ruleset_id, seats, tmp_path)
    assert table.state["finished"] and valid(table.record())
    assert verify(table.record()).moves == sum(
        e["type"] in ("rolled", "held", "scored", "scratched") for e in table.events
    )


def test_a_lobby_a_join_a_start_and_a_seat_that_leaves_verify(tmp_path):
    table = Table("ten-thousand", [Seat("Ann"), Seat("Bot", "classic")], tmp_path,
                  open_seats=2, options={"target": 1500})
    table.play(None, Join("Ben"))
    table.play(0, Start())
    table.play_greedily(7)
    table.play(2, Leave())
    table.play_greedily(2000)
    record = table.record()
    assert [e["type"] for e in record["events"][:3]] == ["created", "joined", "started"]
    assert any(e["type"] == "left" for e in record["events"])
    assert record["status"] == "finished" and valid(record)


def test_an_abandoned_game_verifies(tmp_path):
    table = Table("yahtzee", [Seat("Ann"), Seat("Ben")], tmp_path)
    table.play_greedily(9)
    table.apply(table.match.abandon(table.state, by="idle"))
    record = table.record()
    assert record["status"] == "abandoned" and valid(record)
    record["status"] = "finished"
    assert verify(record).problems[0].code == "status_mismatch"


def test_a_game_still_played_verifies_its_moves_without_the_secret(tmp_path):
    table = Table("maxi-yatzy", [Seat("Ann"), Seat("Bot", "greedy")], tmp_path)
    table.play_greedily(5)
    record = table.record()
    assert record["dice"]["secret"] is None
    verdict = verify(record)
    assert verdict.valid and verdict.dice is None and verdict.moves > 5


def test_a_log_cut_short_or_padded_is_found(tmp_path):
    table = Table("yatzy", [Seat("Ann"), Seat("Bot", "random")], tmp_path)
    table.play_greedily(3000)
    record = table.record()
    cut = {**record, "events": record["events"][:-1]}
    assert verify(cut).problems[0].code == "illegal_move"  # the moves wrote more
    extra = {"seq": len(record["events"]) + 1, "type": "passed", "seat": 0, "data": {},
             "created_at": "2026-11-25T10:00:00Z"}
    padded = {**record, "events": [*record["events"], extra]}
    assert verify(padded).problems[0].code == "illegal_move"


def test_a_computer_move_taken_out_is_found(tmp_path):
    table = Table("yahtzee", [Seat("Ann"), Seat("Bot", "greedy")], tmp_path)
    table.play_greedily(40)
    record = table.record()
    bot = next(i for i, e in enumerate(record["events"]) if (e["seat"] == 1 and e["type"] == "held")
               or (e["seat"] == 1 and e["type"] == "rolled" and i > 5))
    del record["events"][bot]
    for seq, event in enumerate(record["events"], start=1):
        event["seq"] = seq
    assert not verify(record).valid


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6,
)


def _places(value, path=()):
    """Every place in a JSON document, as a path of keys and indices."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_change_to_a_record_is_judged_or_refused_never_a_crash(data, tmp_path_factory):
    record = copy.deepcopy(_small_game(tmp_path_factory.mktemp("tables")).record())
    places = [p for p in _places(record) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(places))
        target = record
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = data.draw(JSON)
        places = [p for p in _places(record) if p]
    try:
        verdict = verify(record)
    except NotARecord:
        return
    assert verdict.valid or verdict.problems[0].code in PROBLEM_CODES


_SMALL: dict[str, Table] = {}


def _small_game(folder: Path) -> Table:
    """A short finished game, played once per test process."""
    if "game" not in _SMALL:
        table = Table("ten-thousand", [Seat("Ann"), Seat("Bot", "greedy")], folder,
                      options={"target": 500})
        table.play_greedily(500)
        _SMALL["game"] = table
    return _SMALL["game"]
