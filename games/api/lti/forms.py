"""The deep-linking form: pick one of the course's assignments, or set a new one with the
fields of /teach/'s assignment form and a grade mode."""

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext

from games.lti.deep_links import NewAssignment
from games.models.assignment import GRADE_MODES
from scoring import RULESETS

MOST_GAMES = 100


class DeepLinkForm(forms.Form):
    assignment = forms.UUIDField(required=False)
    title = forms.CharField(required=False, max_length=80)
    ruleset = forms.ChoiceField(
        required=False, choices=[(k, r.name) for k, r in RULESETS.items()]
    )
    games = forms.IntegerField(required=False, min_value=1, max_value=MOST_GAMES)
    opens_at = forms.DateTimeField(required=False, input_formats=["%Y-%m-%dT%H:%M"])
    due_at = forms.DateTimeField(required=False, input_formats=["%Y-%m-%dT%H:%M"])
    # Minutes the browser's clock is behind UTC (JavaScript's getTimezoneOffset); 0: UTC.
    tz_offset = forms.IntegerField(required=False, min_value=-900, max_value=900)
    grade = forms.ChoiceField(required=False, choices=[(g, g) for g in GRADE_MODES])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("assignment"):
            return data
        for name in ("title", "ruleset", "games", "due_at"):
            if not data.get(name):
                self.add_error(name, gettext("Needed for a new assignment."))
        return data

    def _when(self, value: dt.datetime | None) -> dt.datetime | None:
        if value is None:
            return None
        offset = dt.timedelta(minutes=self.cleaned_data.get("tz_offset") or 0)
        return (value.replace(tzinfo=None) + offset).replace(tzinfo=dt.UTC)

    def new_assignment(self) -> NewAssignment | None:
        data = self.cleaned_data
        if data.get("assignment"):
            return None
        due = self._when(data["due_at"])
        assert due is not None
        return NewAssignment(
            title=data["title"].strip(),
            ruleset_id=data["ruleset"],
            options=None,
            games=data["games"],
            opens_at=self._when(data.get("opens_at")),
            due_at=due,
            grade=data.get("grade") or None,
        )
