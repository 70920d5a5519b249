"""Registers a learning platform with the LTI 1.3 tool (or updates its registration) and
prints the tool's URLs to give the platform."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.lti.registrations import registration_add, tool_urls
from games.play.errors import ServiceError


class Command(BaseCommand):
    help = "Register an LTI 1.3 platform; prints the tool's login, launch and JWKS URLs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--issuer", required=True, help="the platform's issuer (iss)")
        parser.add_argument("--client-id", required=True, help="the tool's client id there")
        parser.add_argument(
            "--deployment-id", action="append", required=True, dest="deployment_ids",
            help="a deployment id (repeat for several)",
        )
        parser.add_argument("--auth-url", required=True, help="its OIDC authorization endpoint")
        parser.add_argument("--token-url", required=True, help="its OAuth 2 token endpoint")
        parser.add_argument("--keyset-url", required=True, help="its public keys (JWKS)")
        parser.add_argument("--audience", default="", help="the token endpoint's audience")
        parser.add_argument("--name", default="", help="a name for the admin")
        parser.add_argument(
            "--base-url", default="http://localhost:8000",
            help="the scheme and host the tool is reached at (for the URLs printed)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            registered = registration_add(
                issuer=options["issuer"],
                client_id=options["client_id"],
                deployment_ids=options["deployment_ids"],
                auth_url=options["auth_url"],
                token_url=options["token_url"],
                keyset_url=options["keyset_url"],
                audience=options["audience"],
                name=options["name"],
            )
        except ServiceError as refused:
            raise CommandError(refused.detail) from None
        verb = "Registered" if registered.created else "Updated"
        self.stdout.write(
            f"{verb} {registered.registration.issuer} (client {registered.registration.client_id}),"
            f" deployments: {', '.join(registered.deployments)}"
        )
        for name, url in tool_urls(options["base_url"]).items():
            self.stdout.write(f"{name}: {url}")
