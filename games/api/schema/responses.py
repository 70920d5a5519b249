"""Shapes that every resource's bodies share: the id and count types, and the problem
document of every refusal (each resource declares its own bodies beside its views).

The ``*Body`` classes type what the views render; the ``*Out`` serializers derived from
them are what the schema states (``games.api.schema.shapes``).
"""

from typing import Annotated

from games.api.schema.enums import BOX_IDS, RULESET_IDS
from games.api.schema.shapes import Bounds, Choice, serializer_for
from games.http.problems import ProblemBody

BoxId = Annotated[str, Choice(BOX_IDS)]
RulesetId = Annotated[str, Choice(RULESET_IDS)]
Face = Annotated[int, Bounds(1, 6)]
Count = Annotated[int, Bounds(0)]
ProblemOut = serializer_for(ProblemBody)
