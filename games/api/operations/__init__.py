"""The service's own paths: its health, its metrics for the operator, and the pages
for people (the web client and the offline API docs)."""
