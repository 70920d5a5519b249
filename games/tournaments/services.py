"""Setting and cancelling a tournament (docs/contract.md, "Tournaments"); running it is
``running``'s.

A tournament is checked whole before anything is written: its ruleset and options, its
entrants (the teacher's: any bot of the classroom; a student's scrimmage: their own bots and
computers), and the size of its schedule. Each board's secret is drawn now and only its
commitment shown until the tournament is over.
"""

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from games.db.clock import db_now
from games.models import Entrant, Tournament
from games.play.errors import ServiceCode, ServiceError
from games.play.strategy import strategy_require
from games.tournaments import plan, running
from scoring import ProblemCode, get_ruleset
from scoring.strategy.players import levels_for
from scoring.verifiable import new_secret

DEFAULT_TURN_SECONDS = 30


@dataclass(frozen=True)
class EntrantIn:
    """One entrant as asked: a bot's id, or a computer level."""

    bot: uuid.UUID | None = None
    computer: str | None = None


@dataclass(frozen=True)
class Entered:
    """An entrant checked: what its row will hold."""

    bot_id: uuid.UUID | None
    computer: str | None
    name: str


def tournament_create(
    *,
    classroom_id: uuid.UUID,
    student_id: uuid.UUID | None,
    title: str,
    ruleset_id: str,
    options: dict[str, Any] | None,
    seats: int,
    boards: int,
    entrants: Sequence[EntrantIn],
    turn_seconds: int | None,
    starts_at: dt.datetime | None,
    rated: bool | None,
) -> Tournament:
    """A new tournament of the classroom, set by its teacher (``student_id`` None) or, as a
    scrimmage (never rated), by a student."""
    ruleset = get_ruleset(ruleset_id)
    chosen = ruleset.validate_options(options)
    ruleset.check_seats(seats)
    fewest = 1 if seats == 1 else 2
    if not fewest <= len(entrants) <= plan.MOST_ENTRANTS:
        raise ServiceError(
            ProblemCode.INVALID,
            gettext_noop(
                "a tournament of {seats} seat(s) a game takes {fewest} to {most} entrants"
            ),
            field="entrants", seats=seats, fewest=fewest, most=plan.MOST_ENTRANTS,
        )
    checked = _entrants(classroom_id, student_id, ruleset.id, entrants)
    games = plan.games_count(seats=seats, boards=boards, entrants=len(checked))
    if games > plan.MOST_GAMES:
        raise ServiceError(
            ServiceCode.TOURNAMENT_TOO_LARGE,
            gettext_noop("its schedule holds {games} games: a tournament holds at most {most}"),
            games=games, most=plan.MOST_GAMES,
        )
    computers = [e.computer for e in checked if e.computer is not None]
    if computers:
        ruleset.check_unattended(chosen)
    if "optimal" in computers:
        strategy_require(ruleset_id=ruleset.id, options=chosen)
    now = db_now()
    begins = max(starts_at, now) if starts_at is not None else now
    with transaction.atomic():
        tournament = Tournament.objects.create(
            classroom_id=classroom_id,
            student_id=student_id,
            title=title,
            ruleset=ruleset.id,
            options=chosen,
            seats=seats,
            boards=boards,
            turn_seconds=turn_seconds or DEFAULT_TURN_SECONDS,
            rated=False if student_id is not None else (True if rated is None else rated),
            starts_at=begins,
            games=games,
            secrets=[new_secret().hex() for _ in range(boards)],
            next_step_at=begins,
        )
        Entrant.objects.bulk_create(
            Entrant(tournament=tournament, number=number, computer=e.computer, name=e.name,
                    **running.bot_columns(e.bot_id))
            for number, e in enumerate(checked, start=1)
        )
    return tournament


def _entrants(
    classroom_id: uuid.UUID,
    student_id: uuid.UUID | None,
    ruleset_id: str,
    entrants: Sequence[EntrantIn],
) -> list[Entered]:
    """The entrants checked, in order: each bot the caller's to enter (the teacher: any of
    the classroom's; a student: their own), entered once, playing the ruleset; each
    computer a level of the ruleset."""
    levels = levels_for(ruleset_id)
    asked = [e.bot for e in entrants if e.bot is not None]
    bots = running.bots_by_id(asked)
    seen: set[uuid.UUID] = set()
    found: list[Entered] = []
    for index, entrant in enumerate(entrants):
        where = f"entrants.{index}"
        if entrant.bot is None:
            if entrant.computer not in levels:
                raise ServiceError(
                    ProblemCode.INVALID, gettext_noop("{ruleset} computer players are: {levels}"),
                    field=f"{where}.computer", ruleset=ruleset_id, levels=", ".join(levels),
                )
            found.append(Entered(None, entrant.computer, entrant.computer))
            continue
        bot = bots.get(entrant.bot)
        if bot is None or bot.classroom_id != classroom_id:
            raise ServiceError(
                ProblemCode.INVALID, gettext_noop("no bot of this classroom has this id"),
                field=f"{where}.bot"
            )
        if student_id is not None and bot.student_id != student_id:
            raise ServiceError(
                ProblemCode.INVALID, gettext_noop("a student enters only their own bots"),
                field=f"{where}.bot",
            )
        if bot.id in seen:
            raise ServiceError(
                ProblemCode.INVALID, gettext_noop("a bot is entered at most once"),
                field=f"{where}.bot",
            )
        if ruleset_id not in bot.rulesets:
            raise ServiceError(
                ProblemCode.INVALID, gettext_noop("{bot} does not play {ruleset}"),
                field=f"{where}.bot", bot=bot.name, ruleset=ruleset_id,
            )
        seen.add(bot.id)
        found.append(Entered(bot.id, None, bot.name))
    return found


def tournament_cancel(*, classroom_id: uuid.UUID, tournament_id: uuid.UUID) -> Tournament:
    """Stops a tournament that is not over: its unfinished games are abandoned and every
    board's secret shown. Refused (``tournament_over``) once it is finished or cancelled."""
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update()
            .filter(pk=tournament_id, classroom_id=classroom_id)
            .first()
        )
        if tournament is None:
            raise ServiceError(
                ServiceCode.NOT_FOUND, gettext_noop("no tournament with this id in this classroom")
            )
        if tournament.over:
            raise ServiceError(
                ServiceCode.TOURNAMENT_OVER, gettext_noop("the tournament is {status}"),
                status=tournament.status,
            )
        running.tournament_end(tournament, status=Tournament.Status.CANCELLED)
    return tournament
