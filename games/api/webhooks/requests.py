"""A webhook's registration."""

from rest_framework import serializers

from games.hooks import services
from games.http.strict import StrictListField, StrictSerializer

EVENT_NOTES = (
    "`turn.started`: a seat of this key's games is to move (`{game, seat, version, "
    "deadline}`); `game.finished` (`{game, totals, winners}`); `assignment.closed` "
    "(`{classroom, assignment}`, a teacher's key only); `tournament.finished` "
    "(`{classroom, tournament}`, a teacher's key only). A student's key covers the "
    "student's games; a teacher's key, every game of the classroom's students."
)


class WebhookIn(StrictSerializer):
    url = serializers.URLField(
        max_length=2000, help_text="Where to POST each event: http:// or https://, a public host."
    )
    events = StrictListField(
        child=serializers.ChoiceField(choices=list(services.EVENTS)),
        min_length=1, max_length=len(services.EVENTS), help_text=EVENT_NOTES,
    )
