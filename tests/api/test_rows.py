"""A game's rows written and read through games/db/gamestore.py (plain SQL, games/db/rows.py)
are those the ORM writes and reads."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.db.gamestore import Change, game_insert, game_lock, game_log, game_update
from games.models import Event, Game, Player, ScoreEntry
from tests.conftest import pins_the_fast_path

pytestmark = pytest.mark.django_db


def new_game() -> tuple[Game, list[Player]]:
    """A game of two seats, the second a computer that filled a box as the game began."""
    game = Game(
        ruleset="yahtzee", options={"jokers": "free"}, state={"dice": [1, 2, 3, 4, 5]}, seed=7,
        last_seq=2,
    )
    ann = Player(game=game, seat=0, name="Ann", token_hash="ab" * 32)
    bot = Player(game=game, seat=1, name="Bot", computer="greedy", total=12)
    game_insert(game, [ann, bot], Change(
        events=[
            Event(game=game, seq=1, type="created", seat=None, data={"seed": 7}),
            Event(game=game, seq=2, type="scored", seat=1, data={"category": "chance"}),
        ],
        entries=[ScoreEntry(game=game, player=bot, category="chance", points=12, round=1)],
    ))
    return game, [ann, bot]


def test_a_new_game_reads_back_as_the_orm_reads_it_and_its_seats_know_their_ids() -> None:
    game, seats = new_game()
    locked = game_lock(game.pk)
    read, players = locked.game, locked.players
    expected = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
        assert getattr(game, field.attname) == getattr(expected, field.attname), field.name
    orm_players = list(Player.objects.filter(game=game).order_by("seat"))
    assert [p.pk for p in seats] == [p.pk for p in orm_players] == [p.pk for p in players]
    for read_player, orm_player in zip(players, orm_players, strict=True):
        for field in Player._meta.concrete_fields:
            assert getattr(read_player, field.attname) == getattr(orm_player, field.attname)
    assert not read._state.adding and read._state.db == "default"
    assert not any(p._state.adding for p in seats) and not game._state.adding
    # The computer's box names the seat inserted with it.
    assert list(ScoreEntry.objects.values_list("player__name", "category", "points")) == [
        ("Bot", "chance", 12)
    ]
    events = Event.objects.filter(game=game).order_by("seq")
    assert [(e.seq, e.type, e.seat, e.data) for e in events] == [
        (1, "created", None, {"seed": 7}), (2, "scored", 1, {"category": "chance"}),
    ]
    assert all(e.created_at is not None for e in events)


def test_a_change_grows_the_version_and_writes_totals_a_joined_seat_events_and_entries() -> None:
    game, _ = new_game()
    locked = game_lock(game.pk)
    game, (ann, bot) = locked.game, locked.players
    before = game.updated_at
    game.state = {"dice": [6, 6, 6, 6, 6], "nested": {"ok": True}}
    game.status, game.winners, game.last_seq = "finished", [0, 2], 4
    ann.total = 50
    cid = Player(game=game, seat=2, name="Cid", total=3)
    game_update(game, Change(
        events=[
            Event(game=game, seq=3, type="joined", seat=2, data={"name": "Cid"}),
            Event(game=game, seq=4, type="scored", seat=2, data={}),
        ],
        entries=[
            ScoreEntry(game=game, player=ann, category="yahtzee", points=50, round=1),
            ScoreEntry(game=game, player=cid, category="ones", points=3, round=1),
        ],
        totals=[ann, cid],
    ), joined=[cid])
    again = Game.objects.get(pk=game.pk)
    assert again.version == game.version == 2
    assert again.state == {"dice": [6, 6, 6, 6, 6], "nested": {"ok": True}}
    assert (again.status, again.winners, again.last_seq) == ("finished", [0, 2], 4)
    assert again.updated_at > before and again.updated_at == game.updated_at
    seats = Player.objects.filter(game=game).order_by("seat")
    assert [(p.pk, p.name, p.total) for p in seats] == [
        (ann.pk, "Ann", 50), (bot.pk, "Bot", 12), (cid.pk, "Cid", 3),
    ]
    entries = ScoreEntry.objects.order_by("id").values_list("player_id", "category")
    assert list(entries) == [(bot.pk, "chance"), (ann.pk, "yahtzee"), (cid.pk, "ones")]
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2, 3, 4]


def test_the_log_is_read_after_a_position_a_batch_at_a_time() -> None:
    game, _ = new_game()
    status, last_seq, events = game_log(game.pk, after=0, limit=1)
    assert (status, last_seq, [e.seq for e in events]) == ("active", 2, [1])
    assert events[0] == Event.objects.get(game=game, seq=1)
    assert [e.type for e in game_log(game.pk, after=1, limit=5)[2]] == ["scored"]
    assert game_log(game.pk, after=2, limit=5)[2] == []


# Fixed ids, so that every test process collects the same tests.
UNKNOWN = uuid.UUID("9b1c3f5e-0d2a-4c7e-8f61-2a4b6c8d0e1f")


@pytest.mark.parametrize("game_id", [UNKNOWN, "not-a-game", str(UNKNOWN).upper()])
def test_an_id_that_is_no_games_finds_nothing(game_id: object) -> None:
    new_game()
    assert game_lock(game_id) is None
    assert game_log(game_id, after=0, limit=5) is None


@pins_the_fast_path
def test_on_postgresql_each_step_is_one_round_trip() -> None:
    """SQLite takes one statement per call: the game, the two seats' insert, the events'
    and the entry's; then the game and its seats; then the game, Ann's total and the event."""
    with CaptureQueriesContext(connection) as inserted:
        game, _ = new_game()
    with CaptureQueriesContext(connection) as locked:
        found = game_lock(game.pk)
        game, (ann, _) = found.game, found.players
    ann.total = 1
    with CaptureQueriesContext(connection) as updated:
        event = Event(game=game, seq=3, type="rolled", seat=0, data={})
        game_update(game, Change(events=[event], totals=[ann]))
    counts = [len(inserted), len(locked), len(updated)]
    assert counts == ([1, 1, 1] if connection.vendor == "postgresql" else [4, 2, 3])
    assert Player.objects.get(pk=ann.pk).total == 1


@pytest.mark.parametrize(
    "state",
    [
        {"big": 2**70, "small": -(2**63)},  # past orjson's 64 bits: the standard library's
        {"long text": "1234567890123456789012", "float": 1e-05, "tiny": 2.5e-300},
        {"1": "keys written as text", "nested": [{"a": [None, True, 0.1]}]},
        {"unicode": "é\u2028😀", "empty": {}, "list": []},
    ],
)
def test_json_columns_read_back_as_the_orm_reads_them(state: dict) -> None:
    game, _ = new_game()
    game.state = state
    game_update(game, Change(events=[]))
    assert game_lock(game.pk).game.state == state
    assert Game.objects.get(pk=game.pk).state == state


def test_a_json_key_that_is_not_text_is_written_as_text_as_the_orm_writes_it() -> None:
    game, _ = new_game()
    game.state = {1: "one"}
    game_update(game, Change(events=[]))
    assert game_lock(game.pk).game.state == {"1": "one"}
