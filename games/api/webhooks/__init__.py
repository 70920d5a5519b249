"""Webhooks: the events of an API key's games, POSTed to a URL."""
