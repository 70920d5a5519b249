"""The games admin: a review tool over games made and played through the services."""

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.admin.game_display import engine_view
from games.api.games.bodies import render_game
from games.models import Event, Game, Player, ScoreEntry
from games.play.analysis import game_analysis
from games.play.errors import REFUSALS
from games.play.services import Played, game_create, game_play
from scoring import get_ruleset
from scoring.boxgames.strategy import build_table
from scoring.commands import command_for
from scoring.match import GameStatus, Seat

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:games_game_changelist")
NAMES = ("Ann", "Ben", "Cid", "Dee")


# -- helpers -----------------------------------------------------------------------------


def new_game(*names: str, seed: int = 1) -> Played:
    return game_create(
        ruleset_id="yahtzee", options=None, players=[Seat(name) for name in names], seed=seed
    )


def move(created: Played, seat: int, action: str, **args: Any) -> dict[str, Any]:
    played = game_play(
        game_id=created.game.pk, token=created.tokens[seat], command=command_for(action, args)
    )
    return render_game(played.game, played.players)


def play_turn(created: Played, seat: int) -> tuple[str, int]:
    """Roll once and fill the first box offered; the box and its points."""
    body = move(created, seat, "roll")
    box, points = next(iter(body["choices"].items()))
    move(created, seat, "score", category=box)
    return box, points


def finished_game(name: str = "Solo") -> Game:
    created = new_game(name)
    for _ in range(13):
        play_turn(created, 0)
    game = Game.objects.get(pk=created.game.pk)
    assert game.status == GameStatus.FINISHED
    return game


def change_url(game: Game) -> str:
    return reverse("admin:games_game_change", args=[game.pk])


def listed(client: Client, **query: str) -> set[Any]:
    response = client.get(CHANGELIST, query)
    assert response.status_code == 200
    return {game.pk for game in response.context["cl"].result_list}


class FormFields(HTMLParser):
    """The fields a browser would send from the page's game form."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self.submits: set[str] = set()
        self._in_form = False
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form" and attr.get("id") == "game_form":
            self._in_form = True
        if not self._in_form or (not attr.get("name") and tag != "option"):
            return
        if tag == "input":
            kind = attr.get("type", "text")
            if kind == "submit":
                self.submits.add(attr["name"])
            elif kind not in ("checkbox", "radio") or "checked" in attr:
                self.data[attr["name"]] = attr.get("value", "")
        elif tag == "select":
            self._select = attr["name"]
        elif tag == "option" and self._select and "selected" in attr:
            self.data[self._select] = attr["value"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def form_of(client: Client, game: Game) -> FormFields:
    response = client.get(change_url(game))
    assert response.status_code == 200
    fields = FormFields()
    fields.feed(response.content.decode())
    return fields


# -- the list of games -------------------------------------------------------------------


def test_the_changelist_shows_each_game_with_its_players_and_round(admin_client: Client) -> None:
    created = new_game("Ann", "Ben")
    play_turn(created, 0)
    play_turn(created, 1)  # round 2 begins

    response = admin_client.get(CHANGELIST)

    assert response.status_code == 200
    content = response.content.decode()
    assert str(created.game.pk) in content
    assert '<td class="field-player_names">Ann, Ben</td>' in content
    assert '<td class="field-game_round">2</td>' in content
    (row,) = response.context["cl"].result_list
    assert engine_view(row).round == 2


def test_the_changelist_runs_a_bounded_number_of_queries(
    admin_client: Client, django_assert_num_queries: Any
) -> None:
    for i in range(30):
        new_game(*NAMES[: i % 4 + 1])
    admin_client.get(CHANGELIST)  # the session and the user are loaded once

    with django_assert_num_queries(9):
        response = admin_client.get(CHANGELIST)

    assert response.status_code == 200
    assert len(response.context["cl"].result_list) == 30
    assert response.content.decode().count("Ann, Ben, Cid, Dee") == 7


def test_the_changelist_filters_by_ruleset(admin_client: Client) -> None:
    yahtzee = new_game("Ann").game
    # A game of a ruleset the service no longer offers still lists (and opens).
    retired = Game.objects.create(ruleset="yatzy", state={"round": 3})

    assert listed(admin_client) == {yahtzee.pk, retired.pk}
    assert listed(admin_client, ruleset__exact="yahtzee") == {yahtzee.pk}
    assert listed(admin_client, ruleset__exact="yatzy") == {retired.pk}
    content = admin_client.get(CHANGELIST, {"ruleset__exact": "yatzy"}).content.decode()
    assert '<td class="field-game_round">-</td>' in content  # the engine cannot read it
    assert admin_client.get(change_url(retired)).status_code == 200


def test_the_changelist_filters_by_status_ranked_and_date(admin_client: Client) -> None:
    active = new_game("Ann").game
    abandoned = new_game("Ben").game
    Game.objects.filter(pk=abandoned.pk).update(status=GameStatus.ABANDONED)
    finished = finished_game()
    ranked = game_create(ruleset_id="yahtzee", options=None, players=[Seat("Cid")]).game

    assert listed(admin_client, status__exact="active") == {active.pk, ranked.pk}
    assert listed(admin_client, status__exact="abandoned") == {abandoned.pk}
    assert listed(admin_client, status__exact="finished") == {finished.pk}
    assert listed(admin_client, ranked__exact="1") == {ranked.pk}

    # As the date filter's links ask: from midnight, in the current time zone.
    created = timezone.localtime(active.created_at)
    midnight = str(created.replace(hour=0, minute=0, second=0, microsecond=0))
    everything = {active.pk, abandoned.pk, finished.pk, ranked.pk}
    assert listed(admin_client, created_at__gte=midnight) == everything
    assert listed(admin_client, created_at__lt=midnight) == set()
    hierarchy = {"created_at__year": str(created.year), "created_at__month": str(created.month)}
    assert listed(admin_client, **hierarchy) == everything


def test_search_finds_games_by_player_name_and_by_id(admin_client: Client) -> None:
    ann = new_game("Ann", "Ben").game
    other = new_game("Cid", "Dee").game

    assert listed(admin_client, q="ann") == {ann.pk}
    assert listed(admin_client, q="Dee") == {other.pk}
    assert listed(admin_client, q="Zed") == set()
    assert listed(admin_client, q=str(other.pk)) == {other.pk}
    assert listed(admin_client, q=str(ann.pk)[:13]) == {ann.pk}


# -- one game ----------------------------------------------------------------------------


def test_the_change_page_shows_seats_scorecards_entries_and_events(admin_client: Client) -> None:
    created = new_game("Ann", "Ben")
    box, points = play_turn(created, 0)
    move(created, 1, "roll")
    move(created, 1, "hold", hold=[0, 1])
    game = Game.objects.get(pk=created.game.pk)
    view = get_ruleset("yahtzee").view(game.state, options=game.options)

    response = admin_client.get(change_url(game))

    assert response.status_code == 200
    content = response.content.decode()
    assert cells(content, "name") == ["Ann", "Ben"]
    # Ann's card: the box she filled, with its points, in her scorecard table.
    name = {c.id: c.name for c in get_ruleset("yahtzee").categories}[box]
    ann_card = cells(content, "scorecard")[0]
    assert re.search(rf"<th[^>]*>{name}</th><td[^>]*>{points}</td>", ann_card)
    assert ann_card.count(">-</td>") == 12  # the open boxes
    # Totals and bonuses as the engine shows them.
    for field, key in (("upper_total", "upper_total"), ("upper_bonus", "upper_bonus"),
                       ("yahtzee_bonus", "yahtzee_bonus"), ("engine_total", "total")):
        assert cells(content, field) == [str(seat[key]) for seat in view.players]
    assert cells(content, "engine_total")[0] == str(points)
    # The score entry, with its seat and player.
    assert cells(content, "seat_player") == ["0 · Ann"]
    assert cells(content, "category") == [box]
    assert cells(content, "points") == [str(points)]
    # Every event, in order, with its type.
    assert cells(content, "seq") == [str(seq) for seq in range(1, game.last_seq + 1)]
    assert cells(content, "type") == ["created", "rolled", "scored", "rolled", "held"]
    assert cells(content, "seat_display") == ["-", "0 · Ann", "0 · Ann", "1 · Ben", "1 · Ben"]
    assert "&quot;held&quot;:[0,1]" in cells(content, "data_display")[-1]


def cells(content: str, field: str) -> list[str]:
    """The contents of the cells of one column of the inlines."""
    found = re.findall(rf'<td class="field-{field}">\s*<p>(.*?)</p>\s*</td>', content, re.DOTALL)
    return [text.strip() for text in found]


def test_the_change_page_computes_the_engine_view_once(
    admin_client: Client, django_assert_num_queries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = new_game(*NAMES)
    for seat in range(4):
        play_turn(created, seat)
    ruleset = type(get_ruleset("yahtzee"))
    original = ruleset.view
    calls = []

    def counting_view(self: Any, state: Any, *, options: Any) -> Any:
        calls.append(1)
        return original(self, state, options=options)

    monkeypatch.setattr(ruleset, "view", counting_view)
    # The session, the user and the game's content type are loaded once.
    admin_client.get(change_url(created.game))
    calls.clear()

    with django_assert_num_queries(8):
        response = admin_client.get(change_url(created.game))

    assert response.status_code == 200
    assert len(calls) == 1
    assert response.content.decode().count('<td class="field-scorecard">') == 4


def test_the_change_page_shows_the_state_compactly(admin_client: Client) -> None:
    created = new_game("Ann")
    move(created, 0, "roll")

    content = admin_client.get(change_url(created.game)).content.decode()

    assert "rolls_used: 1" in content
    assert "held: [false,false,false,false,false]" in content


# -- what may be changed -----------------------------------------------------------------


def test_nothing_can_be_added(admin_client: Client) -> None:
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    game = new_game("Ann").game

    response = admin_client.get(change_url(game))

    inlines = response.context["inline_admin_formsets"]
    assert [inline.formset.prefix for inline in inlines] == ["players", "score_entries", "events"]
    for inline in inlines:
        assert not inline.has_add_permission
        assert not inline.has_change_permission
        assert not inline.has_delete_permission
    assert reverse("admin:games_game_add") not in admin_client.get(CHANGELIST).content.decode()


def test_a_finished_game_is_view_only(admin_client: Client) -> None:
    game = finished_game("Ann")
    before = Game.objects.values().get(pk=game.pk)

    fields = form_of(admin_client, game)
    assert "_save" not in fields.submits
    assert "status" not in fields.data
    posted = {**fields.data, "status": "active", "_save": "Save"}
    response = admin_client.post(change_url(game), posted)

    assert response.status_code == 403
    assert Game.objects.values().get(pk=game.pk) == before


def test_an_active_game_can_be_abandoned(admin_client: Client) -> None:
    created = new_game("Ann", "Ben")
    play_turn(created, 0)
    before = Game.objects.get(pk=created.game.pk)
    entries = ScoreEntry.objects.count()
    fields = form_of(admin_client, before)
    assert fields.data["status"] == "active"
    assert "_save" in fields.submits

    posted = {**fields.data, "status": "abandoned", "_save": "Save"}
    response = admin_client.post(change_url(before), posted)

    assert response.status_code == 302
    after = Game.objects.get(pk=before.pk)
    assert after.status == GameStatus.ABANDONED
    assert after.state == before.state | {"abandoned": True}
    assert after.version == before.version + 1  # clients' ETags no longer match
    last = Event.objects.get(game=after, seq=after.last_seq)
    assert (last.type, last.seat, last.data) == ("abandoned", None, {"by": "admin"})
    assert ScoreEntry.objects.count() == entries
    assert list(Player.objects.filter(game=after).values_list("name", flat=True)) == ["Ann", "Ben"]
    # Now it is over: the page is view-only, and the seats can no longer move.
    assert "_save" not in form_of(admin_client, after).submits
    with pytest.raises(REFUSALS) as refused:
        move(created, 1, "roll")
    assert refused.value.code == "game_not_active"


def test_an_admin_cannot_finish_a_game_or_change_other_fields(admin_client: Client) -> None:
    created = new_game("Ann")
    before = Game.objects.values().get(pk=created.game.pk)
    fields = form_of(admin_client, created.game)

    refused = admin_client.post(change_url(created.game), {**fields.data, "status": "finished"})
    assert refused.status_code == 200  # the form again, with its error
    assert refused.context["adminform"].form.errors["status"]

    tampered = {**fields.data, "ranked": "on", "seed": "7", "version": "99", "_save": "Save"}
    assert admin_client.post(change_url(created.game), tampered).status_code == 302
    assert Game.objects.values().get(pk=created.game.pk) == before


def test_only_superusers_delete_games(admin_client: Client) -> None:
    game = new_game("Ann", "Ben").game
    move_created = new_game("Cid")
    play_turn(move_created, 0)
    staff = User.objects.create_user("staff", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="games"))
    client = Client()
    client.force_login(staff)
    delete_url = reverse("admin:games_game_delete", args=[game.pk])

    assert client.get(change_url(game)).status_code == 200
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()

    assert admin_client.post(delete_url, {"post": "yes"}).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Player.objects.filter(game_id=game.pk).exists()
    assert not Event.objects.filter(game_id=game.pk).exists()
    assert Game.objects.filter(pk=move_created.game.pk).exists()


def test_staff_who_may_view_games_see_their_seats_and_events() -> None:
    created = new_game("Ann", "Ben")
    play_turn(created, 0)
    staff = User.objects.create_user("viewer", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename="view_game"))
    client = Client()
    client.force_login(staff)

    content = client.get(change_url(created.game)).content.decode()

    assert cells(content, "seat_player") == ["0 · Ann"]
    assert cells(content, "type") == ["created", "rolled", "scored"]
    assert cells(content, "name") == ["Ann", "Ben"]
    assert 'name="_save"' not in content


def test_the_change_page_shows_each_decision_with_its_loss_and_label(
    admin_client: Client, settings: Any, tmp_path: Any
) -> None:
    settings.STRATEGY_DIR = tmp_path
    build_table("forced-yatzy", {}, tmp_path)  # the admin never builds one itself
    created = game_create(
        ruleset_id="forced-yatzy", options=None, seed=3,
        players=[Seat("Ann"), Seat("Bot", "optimal")],
    )
    move(created, 0, "roll")
    move(created, 0, "roll", hold=[])
    move(created, 0, "scratch", category="ones")  # the bot then plays its turn
    review = game_analysis(game_id=created.game.pk, seats="all").analysis
    by_seq = {d.seq: d for d in review.decisions}
    game = Game.objects.get(pk=created.game.pk)

    content = admin_client.get(change_url(game)).content.decode()

    seqs = [int(seq) for seq in cells(content, "seq")]
    assert cells(content, "label") == [
        by_seq[seq].label if seq in by_seq else "-" for seq in seqs
    ]
    losses = cells(content, "loss")
    assert [float(loss) for seq, loss in zip(seqs, losses, strict=True) if seq in by_seq] == [
        by_seq[seq].loss for seq in seqs if seq in by_seq
    ]
    assert len(by_seq) >= 3 and {"best"} < {d.label for d in review.decisions}
    assert cells(content, "analysed_accuracy") == [str(s.accuracy) for s in review.seats]
    assert cells(content, "analysed_accuracy")[1] == "100.0"


def test_without_a_table_the_change_page_shows_the_game_without_analysis(
    admin_client: Client, settings: Any, tmp_path: Any
) -> None:
    settings.STRATEGY_DIR = tmp_path  # empty: nothing is built for the page
    created = game_create(ruleset_id="forced-yatzy", options=None, players=[Seat("Ann")])
    play_turn(created, 0)

    response = admin_client.get(change_url(created.game))

    assert response.status_code == 200
    assert set(cells(response.content.decode(), "label")) == {"-"}
    assert not list(tmp_path.iterdir())
