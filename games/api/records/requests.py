"""A record's query string."""

from rest_framework import serializers


class RecordQuery(serializers.Serializer):
    download = serializers.ChoiceField(
        choices=["0", "1"],
        default="0",
        help_text="`1`: answer as a file to save (`Content-Disposition: attachment`).",
    )
