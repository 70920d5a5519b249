"""No secret is ever in a ``repr``: a traceback logger or a debugger prints reprs, and a
live dice secret, a key or a seat token printed there is a secret kept in a log."""

import datetime as dt
import uuid

import pytest

from games.classrooms.services import Joined, Opened
from games.models import Assignment, Classroom, Game, Student, Webhook
from games.play.dice import Committed, commit
from games.play.services import Assigned, Played
from scoring import get_ruleset
from scoring.record_format import Record
from scoring.verifiable import DerivedDice

SECRET = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7"
KEY = "dk_Ab3dEf7hJk_v0XbH3kQ9mR2tY5wZ8cF1gJ4nP7sU0xA3dG6jL9oR2uX5"


def test_the_dice_of_a_new_game_keep_their_secret_out_of_their_repr():
    committed = commit(seed=None, client_seed=None)
    assert committed.secret not in repr(committed)
    assert SECRET not in repr(Committed(SECRET, "seed"))
    assert SECRET not in repr(DerivedDice(bytes.fromhex(SECRET), "seed"))
    game_k = Assigned(uuid.uuid4(), 3, SECRET, dt.datetime.now(dt.UTC))
    assert SECRET not in repr(game_k) and "number=3" in repr(game_k)


def test_keys_and_tokens_made_once_stay_out_of_reprs():
    room = Classroom(name="5B", join_code="K7QXM2PD")
    assert KEY not in repr(Opened(room, KEY))
    assert KEY not in repr(Joined(room, Student(name="Ann"), KEY))
    assert "a-seat-token" not in repr(Played(Game(), [], {0: "a-seat-token"}))


def test_a_records_secret_stays_out_of_its_repr():
    record = Record(get_ruleset("yahtzee"), {}, [], [], "hmac-sha256-v1", None, "s", SECRET,
                    [], "finished", [], [])
    assert SECRET not in repr(record)


@pytest.mark.parametrize(
    "row",
    [
        Game(dice_secret=SECRET),
        Assignment(title="Week 3", ruleset="yahtzee", games=1, secrets=[SECRET]),
        Webhook(url="https://example.org/", events=["game.finished"], secret=SECRET),
    ],
    ids=["game", "assignment", "webhook"],
)
def test_rows_holding_a_secret_show_none_in_their_repr(row):
    assert SECRET not in repr(row) and SECRET not in str(row)
