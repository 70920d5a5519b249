import uuid

from django.urls import path, register_converter
from rest_framework.routers import SimpleRouter

from games.api.assignments import views as assignments
from games.api.bots import views as bots
from games.api.bots.stream import me_stream
from games.api.classrooms import keys, roster_sync
from games.api.classrooms import views as classrooms
from games.api.games.stream import game_stream
from games.api.games.views import UUID_RE, GameViewSet
from games.api.leaderboard.views import LeaderboardView
from games.api.operations.health import HealthView
from games.api.records import views as records
from games.api.rulesets.views import RulesetViewSet
from games.api.tournaments import views as tournaments
from games.api.webhooks import views as webhooks


class GameId:
    """A game id in any letter case, as the other game paths accept it."""

    regex = UUID_RE

    def to_python(self, value: str) -> uuid.UUID:
        return uuid.UUID(value)

    def to_url(self, value: uuid.UUID) -> str:
        return str(value)

register_converter(GameId, "game_id")

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")
router.register("rulesets", RulesetViewSet, basename="ruleset")

urlpatterns = [
    path("games/<game_id:pk>/stream/", game_stream, name="game-stream"),
    path("games/<game_id:pk>/record/", records.GameRecordView.as_view(), name="game-record"),
    path("records/verify/", records.RecordVerifyView.as_view(), name="record-verify"),
    path("health/", HealthView.as_view(), name="health"),
    *router.urls,
    path("leaderboard/", LeaderboardView.as_view(), name="leaderboard"),
    # Classrooms (games.api.classrooms.views) and their keys (games.api.classrooms.keys).
    path("classrooms/", classrooms.ClassroomCreateView.as_view(), name="classroom-list"),
    path("me/", keys.KeyOwnerView.as_view(), name="key-owner"),
    # Bots (games.api.bots) and the key's own stream of their games.
    path("me/stream/", me_stream, name="key-stream"),
    path("bots/", bots.BotsView.as_view(), name="bots"),
    path("bots/<game_id:pk>/", bots.BotView.as_view(), name="bot"),
    path("webhooks/", webhooks.WebhooksView.as_view(), name="webhooks"),
    path("webhooks/<game_id:pk>/", webhooks.WebhookView.as_view(), name="webhook"),
    path(
        "webhooks/<game_id:pk>/deliveries/",
        webhooks.DeliveriesView.as_view(),
        name="webhook-deliveries",
    ),
    path("classrooms/join/", classrooms.ClassroomJoinView.as_view(), name="classroom-join"),
    path("classrooms/<game_id:pk>/", classrooms.ClassroomView.as_view(), name="classroom-detail"),
    path(
        "classrooms/<game_id:pk>/join-code/",
        classrooms.JoinCodeView.as_view(),
        name="classroom-join-code",
    ),
    path(
        "classrooms/<game_id:pk>/lti-sync/",
        roster_sync.RosterSyncView.as_view(),
        name="classroom-lti-sync",
    ),
    path(
        "classrooms/<game_id:pk>/games/",
        classrooms.ClassroomGamesView.as_view(),
        name="classroom-games",
    ),
    path(
        "classrooms/<game_id:pk>/leaderboard/",
        classrooms.ClassroomLeaderboardView.as_view(),
        name="classroom-leaderboard",
    ),
    path(
        "classrooms/<game_id:pk>/assignments/",
        assignments.AssignmentsView.as_view(),
        name="classroom-assignments",
    ),
    path(
        "classrooms/<game_id:pk>/assignments/<game_id:assignment_id>/",
        assignments.AssignmentView.as_view(),
        name="classroom-assignment",
    ),
    path(
        "classrooms/<game_id:pk>/assignments/<game_id:assignment_id>/games/",
        assignments.AssignmentGamesView.as_view(),
        name="classroom-assignment-games",
    ),
    path(
        "classrooms/<game_id:pk>/assignments/<game_id:assignment_id>/results/",
        assignments.AssignmentResultsView.as_view(),
        name="classroom-assignment-results",
    ),
    path(
        "classrooms/<game_id:pk>/tournaments/",
        tournaments.TournamentsView.as_view(),
        name="classroom-tournaments",
    ),
    path(
        "classrooms/<game_id:pk>/tournaments/<game_id:tournament_id>/",
        tournaments.TournamentView.as_view(),
        name="classroom-tournament",
    ),
    path(
        "classrooms/<game_id:pk>/tournaments/<game_id:tournament_id>/cancel/",
        tournaments.TournamentCancelView.as_view(),
        name="classroom-tournament-cancel",
    ),
    path(
        "classrooms/<game_id:pk>/tournaments/<game_id:tournament_id>/games/",
        tournaments.TournamentGamesView.as_view(),
        name="classroom-tournament-games",
    ),
    path(
        "classrooms/<game_id:pk>/tournaments/<game_id:tournament_id>/standings/",
        tournaments.TournamentStandingsView.as_view(),
        name="classroom-tournament-standings",
    ),
    path(
        "classrooms/<game_id:pk>/students/<game_id:student_id>/revoke/",
        keys.StudentRevokeView.as_view(),
        name="classroom-student-revoke",
    ),
    path(
        "classrooms/<game_id:pk>/students/<game_id:student_id>/rotate/",
        keys.StudentRotateView.as_view(),
        name="classroom-student-rotate",
    ),
]
