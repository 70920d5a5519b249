"""A tournament run by the worker's steps: its games in the schedule's order on duplicate
dice, bots that never connect played by greedy on time-out, the standings and ratings it
shows (recomputed here with openskill itself), and who sees what while it runs."""

from collections import defaultdict

import pytest
from openskill.models import PlackettLuce

from games.models import Game, Player
from scoring.verifiable import commitment, face
from tests.tournaments.conftest import (
    bot,
    computers,
    run_due_work,
    run_to_the_end,
    time_passes,
)


@pytest.fixture
def cup(arena, room):
    """A round robin on two boards of two bots that never connect and greedy."""
    ann, ben = bot(room, "Ann's bot"), bot(room, "Ben's bot")
    entrants = [{"bot": ann}, {"bot": ben}, *computers("greedy")]
    set_ = arena.set_ok(room, boards=2, entrants=entrants, clock={"turn_seconds": 10})
    return set_


def test_bots_that_never_move_have_every_turn_played_by_greedy_and_it_finishes(
    arena, room, cup
):
    assert cup["progress"] == {"games": 12, "finished": 0} and cup["rated"] is True
    assert [(r["entrant"], r["games"], r["points"]) for r in cup["standings"]] == [
        (1, 0, 0), (2, 0, 0), (3, 0, 0)
    ]
    run_due_work()
    running = arena.read(room, cup["id"]).json()
    assert running["status"] == "running" and running["secrets"] is None
    started = arena.games(room, cup["id"])
    assert 0 < len(started) <= 12
    for game in started:
        assert game["tournament"] == cup["id"] and game["ranked"] is False
        assert game["dice"]["client_seed"] == f"board-{game['board']}"
        assert game["dice"]["commitment"] == cup["commitments"][game["board"] - 1]
        assert game["dice"]["secret"] is None
        assert game["clock"]["turn_seconds"] == 10
        assert all("token" not in seat for seat in game["players"])
    run_to_the_end(cup["id"])
    over = arena.read(room, cup["id"]).json()
    assert over["status"] == "finished" and over["finished_at"] is not None
    assert over["progress"] == {"games": 12, "finished": 12}
    assert [commitment(bytes.fromhex(s)) for s in over["secrets"]] == cup["commitments"]
    games = arena.games(room, cup["id"])
    assert [g["tournament_game"] for g in games] == list(range(1, 13))
    assert {g["status"] for g in games} == {"finished"}
    # Nobody left: every seat of a bot played its thirteen turns, each one by greedy.
    by_name = {row["name"]: row for row in over["standings"]}
    assert by_name["Ann's bot"]["timeouts"] == by_name["Ben's bot"]["timeouts"] == 8 * 13
    assert by_name["greedy"]["timeouts"] == 0
    bots = Player.objects.filter(game__tournament_id=cup["id"], computer__isnull=True)
    assert {str(p.bot_id) for p in bots} == {e["bot"] for e in cup["entrants"] if e["bot"]}


def test_the_games_of_a_board_throw_the_same_dice_from_its_revealed_secret(arena, room, cup):
    run_to_the_end(cup["id"])
    secrets = arena.read(room, cup["id"]).json()["secrets"]
    thrown: dict[int, dict[tuple[int, int, int, int], int]] = defaultdict(dict)
    for game in arena.games(room, cup["id"]):
        board = game["board"]
        shown = arena.get(game)
        assert shown["dice"]["secret"] == secrets[board - 1]
        for (seat, turn, roll, position), value in throws(arena.events(game)).items():
            expected = face(bytes.fromhex(secrets[board - 1]), f"board-{board}", seat, turn,
                            roll, position)
            assert value == expected
            assert thrown[board].setdefault((seat, turn, roll, position), value) == value
        record = arena.client.get(f"/api/v1/games/{game['id']}/record/").json()
        verified = arena.client.post("/api/v1/records/verify/", record, format="json").json()
        assert verified["valid"] is True and verified["checked"]["dice"] > 0, verified


def throws(log: list[dict]) -> dict[tuple[int, int, int, int], int]:
    """Each die thrown in a box game's log, by (seat, turn, roll, position)."""
    turns: dict[int, int] = defaultdict(int)
    rolls: dict[int, int] = defaultdict(int)
    found = {}
    for event in log:
        seat = event["seat"]
        if event["type"] == "rolled":
            for position in event["data"]["thrown"]:
                key = (seat, turns[seat], rolls[seat], position)
                found[key] = event["data"]["dice"][position]
            rolls[seat] += 1
        elif event["type"] in ("scored", "scratched"):
            turns[seat] += 1
            rolls[seat] = 0
    return found


def test_standings_and_ratings_are_those_openskill_gives_for_the_games(arena, room, cup):
    run_to_the_end(cup["id"])
    over = arena.read(room, cup["id"]).json()
    entrant_of = {e["name"]: e["entrant"] for e in over["entrants"]}
    model = PlackettLuce()
    ratings = {e: model.rating() for e in entrant_of.values()}
    points: dict[int, float] = defaultdict(float)
    scores: dict[int, list[int]] = defaultdict(list)
    for game in sorted(arena.games(room, cup["id"]), key=lambda g: g["tournament_game"]):
        seats = [entrant_of[p["name"]] for p in game["players"]]
        totals = [p["total"] for p in game["players"]]
        for entrant, total, other in zip(seats, totals, reversed(totals), strict=True):
            scores[entrant].append(total)
            points[entrant] += 1 if total > other else 0.5 if total == other else 0
        ranks = [1 + sum(t > mine for t in totals) for mine in totals]
        rated = model.rate([[ratings[e]] for e in seats], ranks=ranks)
        for entrant, team in zip(seats, rated, strict=True):
            ratings[entrant] = team[0]
    rows = over["standings"]
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    for row in rows:
        entrant = row["entrant"]
        assert row["points"] == points[entrant] and row["games"] == 8
        assert row["wins"] + row["draws"] + row["losses"] == 8
        assert row["mean_score"] == round(sum(scores[entrant]) / 8, 2)
        mine = ratings[entrant]
        assert row["rating"]["mu"] == pytest.approx(mine.mu)
        assert row["rating"]["sigma"] == pytest.approx(mine.sigma)
        assert row["rating"]["ordinal"] == pytest.approx(mine.mu - 3 * mine.sigma)
        assert row["mean_accuracy"] is not None  # yahtzee's analysis covers every seat
    assert arena.read(room, cup["id"], "standings/").json() == rows


def test_a_field_compares_each_board_with_every_other_entrant(arena, room):
    set_ = arena.set_ok(
        room, seats=1, boards=3, entrants=computers("greedy", "random", "optimal", "greedy"),
    )
    assert set_["progress"]["games"] == 12
    run_to_the_end(set_["id"])
    over = arena.read(room, set_["id"]).json()
    games = arena.games(room, set_["id"])
    assert [(g["board"], len(g["players"])) for g in games] == [
        (b, 1) for b in (1, 2, 3) for _ in range(4)
    ]
    score = {(g["board"], g["tournament_game"] - 4 * (g["board"] - 1)): g["players"][0]["total"]
             for g in games}
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(4)]
    for board in (1, 2, 3):
        totals = [score[(board, e)] for e in range(1, 5)]
        ranks = [1 + sum(t > mine for t in totals) for mine in totals]
        ratings = [team[0] for team in model.rate([[r] for r in ratings], ranks=ranks)]
    for row in over["standings"]:
        e = row["entrant"]
        mine = [score[(b, e)] for b in (1, 2, 3)]
        others = [score[(b, o)] for b in (1, 2, 3) for o in range(1, 5) if o != e]
        wins = sum(score[(b, e)] > score[(b, o)] for b in (1, 2, 3) for o in range(1, 5)
                   if o != e)
        draws = sum(score[(b, e)] == score[(b, o)] for b in (1, 2, 3) for o in range(1, 5)
                    if o != e)
        assert (row["wins"], row["draws"], row["losses"]) == (wins, draws, 9 - wins - draws)
        assert row["points"] == wins + draws / 2 and len(others) == 9
        assert row["mean_score"] == round(sum(mine) / 3, 2)
        assert row["rating"]["mu"] == pytest.approx(ratings[e - 1].mu)
    # The two greedy entrants play alike on the same dice.
    assert [score[(b, 1)] for b in (1, 2, 3)] == [score[(b, 4)] for b in (1, 2, 3)]


def test_at_most_eight_games_of_one_bot_are_played_at_once(arena, room):
    lone = bot(room, "Lone")
    set_ = arena.set_ok(room, boards=1, entrants=[{"bot": lone}, *computers(*["random"] * 5)])
    run_due_work()
    open_games = Game.objects.filter(tournament_id=set_["id"], status="active")
    assert open_games.count() == 8
    # The computers' games among themselves do not wait for the bot's.
    assert Game.objects.filter(tournament_id=set_["id"], status="finished").exists()
    run_to_the_end(set_["id"])
    assert Game.objects.filter(tournament_id=set_["id"]).count() == 30


def test_running_tournaments_share_the_services_bound_on_games_under_way(
    arena, room, settings
):
    settings.TOURNAMENT_GAMES_AT_ONCE = 6
    entrants = [{"bot": bot(room, f"Big {n}")} for n in range(6)]
    big = arena.set_ok(room, boards=1, entrants=entrants)
    run_due_work()
    under_way = Game.objects.filter(status="active")
    assert under_way.filter(tournament_id=big["id"]).count() == 6  # alone: the whole bound
    entrants = [{"bot": bot(room, f"Small {n}")} for n in (1, 2)]
    small = arena.set_ok(room, boards=1, entrants=entrants)
    run_due_work()
    assert under_way.filter(tournament_id=small["id"]).count() == 0  # the bound is full
    for _ in range(100):  # the big one's games end, its turns played by greedy on time-out
        time_passes(big["id"])
        run_due_work()
        assert under_way.count() <= 6
        if under_way.filter(tournament_id=small["id"]).exists():
            break
    # Each now has at most its share, 3 of 6: the small one its two games.
    assert under_way.filter(tournament_id=small["id"]).count() == 2
    assert under_way.filter(tournament_id=big["id"]).count() <= 3
    run_to_the_end(small["id"])
    run_to_the_end(big["id"])
    assert Game.objects.filter(tournament_id=big["id"], status="finished").count() == 30


def test_games_of_computers_only_take_no_room_under_the_bound(arena, room, settings):
    settings.TOURNAMENT_GAMES_AT_ONCE = 1
    entrants = [*computers("random"), {"bot": bot(room, "Lone")}, *computers("random", "random")]
    set_ = arena.set_ok(room, boards=1, entrants=entrants)
    run_due_work()
    games = Game.objects.filter(tournament_id=set_["id"])
    # The first game (two computers) was over as it started; the second (the bot's) fills
    # the bound.
    assert games.filter(status="finished").count() == 1
    assert games.filter(status="active").count() == 1


def test_the_classroom_follows_it_live_and_anyone_else_once_it_is_over(arena, room, cup):
    student = arena.join(room, "Cleo")["api_key"]
    run_due_work()
    game = arena.games(room, cup["id"])[0]
    for key in (room.teacher_key, student):
        assert arena.read(room, cup["id"], key=key).status_code == 200
        seen = arena.client.get(f"/api/v1/games/{game['id']}/", HTTP_X_API_KEY=key)
        assert seen.status_code == 200 and "token" not in str(seen.json()["players"])
    other = arena.open("6C")
    outsiders = [
        {}, {"HTTP_X_API_KEY": other.teacher_key},
    ]
    for headers in outsiders:
        for tail in ("", "games/", "standings/"):
            path = arena.path(room, f"{cup['id']}/{tail}")
            assert arena.client.get(path, **headers).status_code == 404
        assert arena.client.get(f"/api/v1/games/{game['id']}/", **headers).status_code == 404
    listed = arena.client.get("/api/v1/games/?page_size=100").json()["results"]
    assert game["id"] not in {g["id"] for g in listed}
    run_to_the_end(cup["id"])
    for tail in ("", "games/", "standings/"):
        assert arena.client.get(arena.path(room, f"{cup['id']}/{tail}")).status_code == 200
    assert arena.client.get(f"/api/v1/games/{game['id']}/").status_code == 200


def test_a_bot_plays_its_seats_from_its_owners_stream_which_hears_the_status(arena, room):
    from games.arena.feed import Feed
    from games.arena.registry import owner_of_caller
    from games.classrooms.keys import caller_for_key
    from tests.bots.test_key_stream import parsed

    cleo = arena.join(room, "Cleo")["api_key"]
    registered = arena.client.post("/api/v1/bots/", {"name": "Hers", "rulesets": ["yahtzee"]},
                                   format="json", HTTP_X_API_KEY=cleo)
    assert registered.status_code == 201, registered.json()
    hers = registered.json()["id"]
    cup = arena.set_ok(room, cleo, entrants=[{"bot": hers}, *computers("greedy")])
    caller = caller_for_key(cleo)
    stream = Feed(owner=owner_of_caller(caller), key_id=caller.key_id)  # open from now on

    def heard() -> list[tuple[str, dict]]:
        return parsed(stream.read_all())

    assert heard() == []
    run_due_work()
    sent = heard()
    seated = [data for event, data in sent if event == "seated"]
    assert len(seated) == 2
    assert {d["tournament"] for d in seated} == {cup["id"]} and {d["bot"] for d in seated} == {
        hers
    }
    for seat in seated:
        # Its seat's token shows the bot its game, private to the classroom until the end.
        game = arena.client.get(f"/api/v1/games/{seat['game']}/",
                                HTTP_AUTHORIZATION=f"Bearer {seat['token']}").json()
        while game["status"] == "active":
            assert game["current_seat"] == seat["seat"]  # greedy has played its turns
            game = arena.ok(game, "roll", token=seat["token"])
            game = arena.ok(game, "score", {"category": next(iter(game["choices"]))},
                            token=seat["token"])
    run_to_the_end(cup["id"], most=1)
    over = arena.read(room, cup["id"]).json()
    assert over["status"] == "finished"
    assert all(row["timeouts"] == 0 for row in over["standings"])
    statuses = [data for event, data in sent + heard() if event == "tournament"]
    assert statuses == [{"tournament": cup["id"], "status": s} for s in ("running", "finished")]
