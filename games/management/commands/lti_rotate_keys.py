"""A new signing key for the LTI 1.3 tool; the previous one stays in the JWKS until the
next rotation, so nothing signed just before breaks (games.lti.keys)."""

from typing import Any

from django.core.management.base import BaseCommand

from games.lti.keys import keys_rotate


class Command(BaseCommand):
    help = "Add a new LTI signing key; keep the previous one listed until the next rotation."

    def handle(self, *args: Any, **options: Any) -> None:
        new, retired = keys_rotate()
        self.stdout.write(f"New key {new.as_jwk()['kid']}; {retired} older key(s) retired.")
