"""Tournaments: bots and the built-in computers against each other on duplicate dice
(docs/contract.md, "Tournaments"). The schedule and the standings are plain functions
(``plan``, ``standings``); the services set, cancel and run tournaments; the worker runs
them (``games.work.sweeps``)."""
