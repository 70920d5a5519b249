"""Bots: computer players that a classroom's students (or its teacher) write and run
themselves, playing over the API (docs/contract.md, "Bots and the key's own stream").

- ``owners``: who a bot belongs to (a student of a classroom, or its teacher), and the
  messages for that owner's keys' streams: :func:`owners.seats_given` (a bot was seated) and
  :func:`owners.tournament_changed` (a tournament of the owner's bots changed status).
- ``registry``: registering, listing, changing and deleting bots.
- ``seating``: bots taking seats in new games and by joining; :func:`seating.bots_for_seats`
  checks the bots a caller seats.
- ``feed``: what a key's stream (``GET /me/stream/``) sends, read from the games.
- ``wakeups``: when a key's stream reads again (its games' and its owner's notifications).
- ``slots``: at most three open streams per key, across every process and host.

Other services that seat bots (a tournament's games) pass ``bots={seat: bot_id}`` to
``games.play.services.game_create`` and then call :func:`owners.seats_given` in the same
transaction; a change of their status is told with :func:`owners.tournament_changed`.
"""
