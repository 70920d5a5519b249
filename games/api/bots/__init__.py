"""Bots over HTTP: registering and managing them, and the key's own event stream."""
