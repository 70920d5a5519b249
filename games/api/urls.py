from django.urls import path
from rest_framework.routers import SimpleRouter

from .leaderboard import LeaderboardView
from .stream import game_stream
from .views import GameViewSet, HealthView, RulesetViewSet

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")
router.register("rulesets", RulesetViewSet, basename="ruleset")

urlpatterns = [path("health/", HealthView.as_view(), name="health"), *router.urls]
urlpatterns.insert(0, path("games/<uuid:pk>/stream/", game_stream, name="game-stream"))
urlpatterns.append(path("leaderboard/", LeaderboardView.as_view(), name="leaderboard"))
