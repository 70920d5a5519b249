"""What a key's stream (``GET /me/stream/``) sends, read from the games of its owner's bots.

The stream keeps no log of its own: each read looks at where the games of the owner's bots
stand and sends what changed since the stream's last read.

- ``seated`` once for each seat of a bot in a game not over (with the seat's token); on
  every (re)connection first, for each such game, so a bot that restarts picks it up;
- ``turn`` at the start of each turn of a bot's seat: a turn is its ``(round, seat)``, so a
  roll within the turn sends nothing, and the next turn of a solitaire game sends again;
- ``finished`` once for a game the stream knew that ended (``abandoned`` too: it is over);
- ``tournament``: the owner's notices (``games.arena.owners.tournament_changed``) written
  since the stream opened.

A read of every game of the owner (:meth:`Feed.read_all`: on opening, when the owner's
channel or the listener's reconnection wakes it, and at each heartbeat) takes two queries;
a read of the games a notification named (:meth:`Feed.read_games`), one; a game that ended
costs one more, for its totals. A read runs in a thread with a pooled connection, like the
game streams' reads.
"""

import datetime as dt
import json
import uuid
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from games.arena.owners import Owner
from games.models import ApiKey, Bot, Game, KeyNotice, Player
from games.play.privacy import bot_seat_token
from scoring.match import GameStatus

NOT_OVER = (GameStatus.WAITING, GameStatus.ACTIVE)
OVER = (GameStatus.FINISHED, GameStatus.ABANDONED)
COLUMNS = (
    "seat", "bot_id", "game_id", "game__status", "game__version", "game__state",
    "game__deadline", "game__ruleset", "game__winners",
    # A game's tournament, where games have one (read with the rest, never on its own).
    *(["game__tournament"] if any(f.name == "tournament" for f in Game._meta.get_fields())
      else []),
)


def message(event: str, data: dict[str, Any]) -> bytes:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {event}\ndata: {body}\n\n".encode()


@dataclass
class Feed:
    """One open stream's account of what it has sent to one key."""

    owner: Owner
    key_id: int
    seated: set[tuple[uuid.UUID, int]] = field(default_factory=set)
    turns: dict[tuple[uuid.UUID, int], tuple[Any, Any]] = field(default_factory=dict)
    notices_after: int | None = None

    @property
    def games(self) -> set[uuid.UUID]:
        """The games it follows: those of a seat it has sent, not yet over."""
        return {game for game, _ in self.seated}

    def key_valid(self) -> bool:
        return ApiKey.objects.filter(pk=self.key_id, revoked_at__isnull=True).exists()

    def read_all(self) -> list[bytes]:
        """Every game of the owner's bots not over, and the games it follows."""
        if self.notices_after is None:
            last = KeyNotice.objects.order_by("-id").values_list("id", flat=True).first()
            self.notices_after = last or 0
        seats = Player.objects.filter(
            Q(game__status__in=NOT_OVER) | Q(game_id__in=self.games), bot__in=self._bots()
        )
        return self._sent(_seat_rows(seats)) + self._notices()

    def read_games(self, games: Collection[uuid.UUID]) -> list[bytes]:
        """The games named (those of a notification), if it follows them."""
        followed = set(games) & self.games
        if not followed:
            return []
        return self.take_seats(read_seats(followed))

    def take_seats(self, seats: "Seats") -> list[bytes]:
        """What a read of some games' bot seats (:func:`read_seats`, shared by every stream
        woken for those games) changes for this stream: only the seats it has sent, those of
        its owner's bots, count. A seat it has not sent comes with its owner's channel, and
        a read of everything."""
        return self._sent(
            [p for p in seats.rows if (p.game_id, p.seat) in self.seated], seats.totals
        )

    def _bots(self) -> Any:
        return Bot.objects.filter(self.owner.bots()).values("pk")

    def _sent(
        self, rows: list[Player], totals: dict[uuid.UUID, list[int]] | None = None
    ) -> list[bytes]:
        out: list[bytes] = []
        ended: dict[uuid.UUID, Player] = {}
        for player in rows:
            game, at = player.game, (player.game_id, player.seat)
            if game.status in OVER:
                if at in self.seated:
                    ended.setdefault(game.pk, player)
                    self.seated.discard(at)
                    self.turns.pop(at, None)
                continue
            if at not in self.seated:
                self.seated.add(at)
                out.append(message("seated", {
                    "game": str(game.pk), "seat": player.seat, "bot": str(player.bot_id),
                    "token": bot_seat_token(game.pk, player.seat), "ruleset": game.ruleset,
                    "tournament": _tournament_of(game),
                }))
            turn = (game.state.get("round"), game.state.get("current"))
            if (
                game.status == GameStatus.ACTIVE and turn[1] == player.seat
                and self.turns.get(at) != turn
            ):
                self.turns[at] = turn
                out.append(message("turn", {
                    "game": str(game.pk), "seat": player.seat, "bot": str(player.bot_id),
                    "version": game.version, "deadline": _iso(game.deadline),
                }))
        return out + self._finished(ended, totals)

    def _finished(
        self, ended: dict[uuid.UUID, Player], totals: dict[uuid.UUID, list[int]] | None
    ) -> list[bytes]:
        if not ended:
            return []
        if totals is None:
            totals = _totals(ended)
        return [
            message("finished", {
                "game": str(game_id), "totals": totals.get(game_id, []),
                "winners": list(player.game.winners),
            })
            for game_id, player in ended.items()
        ]

    def _notices(self) -> list[bytes]:
        found = list(
            KeyNotice.objects.filter(
                Q(classroom_id=self.owner.classroom_id, student_id=self.owner.student_id),
                id__gt=self.notices_after or 0,
            ).order_by("id").values_list("id", "event", "data")
        )
        if found:
            self.notices_after = found[-1][0]
        return [message(event, data) for _, event, data in found]


@dataclass(frozen=True)
class Seats:
    """The bot seats of some games, with their games, as one read found them; and the
    totals of those games that are over."""

    rows: list[Player]
    totals: dict[uuid.UUID, list[int]]


def read_seats(games: Collection[uuid.UUID]) -> Seats:
    """Every bot seat of ``games``: one query, and one more for the totals of games over.
    The key streams woken by one notification share it (``games.api.bots.stream``), each
    taking its own seats (:meth:`Feed.take_seats`)."""
    rows = _seat_rows(Player.objects.filter(game_id__in=list(games), bot__isnull=False))
    over = {p.game_id for p in rows if p.game.status in OVER}
    return Seats(rows=rows, totals=_totals(over) if over else {})


def _seat_rows(seats: Any) -> list[Player]:
    return list(seats.select_related("game").only(*COLUMNS).order_by("game_id", "seat"))


def _totals(games: Collection[uuid.UUID]) -> dict[uuid.UUID, list[int]]:
    totals: dict[uuid.UUID, list[int]] = {}
    for game_id, total in (
        Player.objects.filter(game_id__in=list(games)).order_by("game_id", "seat")
        .values_list("game_id", "total")
    ):
        totals.setdefault(game_id, []).append(total)
    return totals


def _tournament_of(game: Any) -> str | None:
    """The tournament a game belongs to, where games have tournaments."""
    tournament = getattr(game, "tournament_id", None)
    return str(tournament) if tournament is not None else None


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None
