from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import GameViewSet, HealthView, RulesetViewSet

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")
router.register("rulesets", RulesetViewSet, basename="ruleset")

urlpatterns = [path("health/", HealthView.as_view(), name="health"), *router.urls]
