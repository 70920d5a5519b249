"""The admin shows bots and tournaments as they stand: whose bot, which tournaments it
entered; a tournament's entrants, progress, standings and its games (each with every move),
its secrets only once it is over."""

from django.urls import reverse

from games.models import Game
from tests.tournaments.conftest import bot, computers, run_due_work, run_to_the_end


def test_the_admin_shows_a_tournament_its_bots_standings_and_games(arena, room, admin_client):
    gus = bot(room, "Gus")
    set_ = arena.set_ok(room, boards=1, entrants=[{"bot": gus}, *computers("greedy")])
    run_due_work()
    page = admin_client.get(reverse("admin:games_tournament_change", args=[set_["id"]]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Gus" in text and "round robin" in text
    assert "hidden until the tournament is over" in text
    assert set_["commitments"][0] in text

    listing = admin_client.get(reverse("admin:games_tournament_changelist")).content.decode()
    assert set_["title"] in listing and "of 2 (" in listing

    bot_page = admin_client.get(reverse("admin:games_bot_change", args=[gus])).content.decode()
    assert "Gus" in bot_page and "the teacher" in bot_page and set_["title"] in bot_page

    run_to_the_end(set_["id"])
    text = admin_client.get(
        reverse("admin:games_tournament_change", args=[set_["id"]])
    ).content.decode()
    assert "hidden until" not in text
    assert arena.read(room, set_["id"]).json()["secrets"][0] in text
    standings = arena.read(room, set_["id"]).json()["standings"]
    gus_row = next(row for row in standings if row["name"] == "Gus")
    assert f"<td>Gus</td><td>{gus_row['games']}</td><td>{gus_row['points']:g}</td>" in text
    # Its games, in the games' own list, and only its.
    games = admin_client.get(
        reverse("admin:games_game_changelist") + f"?tournament__id__exact={set_['id']}"
    )
    assert games.status_code == 200
    shown = games.context["cl"].result_count
    assert shown == Game.objects.filter(tournament_id=set_["id"]).count() == 2
