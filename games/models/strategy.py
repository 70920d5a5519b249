"""The optimal-strategy tables of a deployment: its registry, its build queue and its store.

A table is solved once per deployment, not once per process or host: the first request
that misses one queues it here (a row without ``data``), a worker takes the row under a
``lease`` and solves it at a low priority, and stores the table file's bytes on the row.
Every process then copies them into its own ``STRATEGY_DIR`` and memory on first use. A
worker that dies mid-build leaves the lease to run out (by the database's clock), and the
next worker takes the row again. Rows are keyed by the table's file name and the
fingerprint of the engine that solves it: code with other rules asks for (and builds) its
own row rather than overwriting another version's table during a rolling deployment.
"""

from django.db import models


class StrategyTable(models.Model):
    name = models.CharField(max_length=200)  # the file's name in STRATEGY_DIR
    fingerprint = models.CharField(max_length=64)  # of what a fresh table's header must say
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict)  # in full (defaults filled in)
    requested_at = models.DateTimeField(auto_now_add=True)
    # Null until built; then the table file, exactly as written to disk.
    data = models.BinaryField(null=True, blank=True, editable=False)
    built_at = models.DateTimeField(null=True, blank=True)
    build_seconds = models.FloatField(null=True, blank=True)
    # A build in progress: which lease, and until when (a dead worker's runs out).
    lease = models.UUIDField(null=True, blank=True, editable=False)
    leased_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name", "fingerprint"], name="strategy_table_once"),
        ]
        indexes = [models.Index(fields=["built_at", "requested_at"], name="strategy_table_queue")]

    def __str__(self) -> str:
        return f"{self.name} ({'built' if self.built_at else 'queued'})"
