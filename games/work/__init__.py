"""Work outside requests: turn clocks, assignment closings and webhook deliveries, done by
worker processes (``manage.py run_worker``).

What is due is read from the rows themselves, by the database's clock: a clock is due
because its game's deadline has passed, a closing because its assignment's ``due_at`` has,
a delivery because its ``next_attempt_at`` has. No task row holds a second copy that could
be lost or left behind: every worker sweeps for due work every fraction of a second, takes
what nobody holds (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite runs one writer at a
time), and does it. A clock's firing and a closing happen inside the transaction that holds
their row, so a worker that dies mid-way leaves nothing half done and the row free for the
next sweep; a webhook attempt happens outside any transaction, under a lease that runs out
if its worker dies. See ``worker`` for the loops, ``sweeps`` for the due work,
``housekeeping`` for what is pruned, ``queue`` for what is due as ``/metrics`` counts it.
"""
