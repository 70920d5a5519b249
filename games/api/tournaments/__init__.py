"""Tournaments over HTTP (docs/contract.md, "Tournaments")."""
