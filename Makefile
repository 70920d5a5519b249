# The two commands:
#   make run    serve the API on http://127.0.0.1:$(PORT)/ (SQLite file db.sqlite3 by default),
#               after building the optimal-strategy tables it offers (once, kept on disk)
#   make test   lint, type-check, check for missing migrations, run the whole test suite (in parallel)
# Besides them:
#   make check  the inner loop (under a minute): lint, the type check and the tests that start
#               no server and no browser
#   make bench  the load benchmark against the local PostgreSQL (see docs/benchmark.md)
# Both need only python3 (3.11 or newer): the first call makes .venv and installs the project;
# later calls reinstall only when pyproject.toml has changed. DATABASE_URL, if set, picks the
# database (postgres://user@host:port/name for PostgreSQL).

PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.DEFAULT_GOAL := run
.PHONY: run test check lint typecheck install clean schema-check bench bench-pieces bench-arena catalogues messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# uv installs (from PyPI, through its cache: seconds where pip takes half a minute) and
# compiles the modules as pip does, so that no process compiles them again; pip installs uv
# first, and does the whole install itself where uv cannot.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
UV := $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python

$(INSTALLED): pyproject.toml | $(BIN)/python
	@echo "Installing the project and its test tools into $(VENV)..."
	{ $(PIP) uv && $(UV) --editable '.[test]'; } || $(PIP) --editable '.[test]'
	touch $@

install: $(INSTALLED)

# The message catalogues (locale/<language>/LC_MESSAGES/<domain>.po, every domain) compiled
# to the .mo files Django reads, with Babel (no GNU gettext needed; config/catalogues.py):
# only those missing or older than their .po. The .mo files are never committed.
catalogues: $(INSTALLED)
	$(BIN)/python -m config.catalogues

# The strings the Python code marks for translation, brought into every language's
# django.po (new ones untranslated, gone ones dropped), and the texts of the pages /play/
# and /teach/ into every language's djangojs.po: see docs/translating.md.
messages: $(INSTALLED)
	$(BIN)/python -m config.catalogues extract
	$(BIN)/python -m config.page_catalogues

# Served by uvicorn from config.asgi: the JSON API in a pool of threads, the live event
# streams on the event loop, one port. Open streams get 3 s to end when the server stops.
# The optimal-strategy tables are built before it serves, once (a few minutes on the first
# start; kept in STRATEGY_DIR, later starts only check them and rebuild a stale one), so no
# request waits for one. The client's address is the connection's (X-Forwarded-For is read
# by the service itself, per NUM_PROXIES). The migration creates the database cache's table
# (the rate-limit counters without REDIS_URL). Beside the server runs one worker (turn
# clocks, assignment closings, webhook deliveries: `manage.py run_worker`), started again
# if it ever exits and stopped with the server; both count their work in .metrics/<PORT>/,
# emptied at each start, which GET /metrics adds up: instances on other ports in the same
# folder (two hosts tried on one laptop) keep their own figures. The service's own protocol
# (games/serving/protocol.py) bounds each request's head in fields, bytes and time.
run: $(INSTALLED) catalogues
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py build_strategy
	rm -rf .metrics/$(PORT) && mkdir -p .metrics/$(PORT); \
	export PROMETHEUS_MULTIPROC_DIR=$(CURDIR)/.metrics/$(PORT); \
	$(BIN)/python manage.py run_worker --keep-alive --interval 0.5 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port $(PORT) \
		--lifespan off --timeout-graceful-shutdown 3 --no-proxy-headers \
		--http games.serving.protocol:HeadBoundedProtocol

# ruff, then the layers of docs/architecture.md ([tool.importlinter] in pyproject.toml: a
# module that imports a layer above its own, or rules that import Django, fail here).
lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

# mypy with the Django and DRF stubs over config/, games/ and scoring/ (settings in
# pyproject.toml). Its cache (.mypy_cache) makes a run after a small change take seconds.
typecheck: $(INSTALLED)
	$(BIN)/mypy

# The suite runs in TEST_WORKERS processes (pytest-xdist; auto: one per core). Tests that share
# a server stay in one process (--dist loadgroup, with the groups of tests/conftest.py), so
# each server starts once; each process has a test database of its own.
TEST_WORKERS ?= auto
PYTEST := $(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup

# The strategy tables the tests play with are solved once per machine, not once per clone:
# they are kept in TEST_TABLES (each table carries the digest of the engine that solved it,
# so a table of another engine is solved again; delete the folder to start from nothing).
# `make run` keeps its own in STRATEGY_DIR (strategy-tables/ by default).
# Python keeps the project's compiled modules (and pytest its rewritten tests) even where the
# shell says otherwise (PYTHONDONTWRITEBYTECODE): else every test process, server and command
# the tests start would compile them again.
TEST_TABLES ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/dice-service/strategy-tables
TEST_ENV := env -u PYTHONDONTWRITEBYTECODE STRATEGY_DIR=$(TEST_TABLES)

# The inner loop, under a minute: lint, the type check and the tests that need no live
# server and no browser (everything outside tests/live/), less those that take seconds each
# (marker slow: whole tables solved, long scenarios). make test runs them all, with the rest.
check: lint typecheck catalogues
	$(TEST_ENV) $(PYTEST) --ignore=tests/live -m "not slow"

test: lint typecheck catalogues
	$(BIN)/python manage.py makemigrations --check --dry-run
	@command -v chromium >/dev/null 2>&1 || echo "NOTE: Chromium not found: the browser tests" \
		"(tests/live/browser, marker 'browser') will be SKIPPED. Install it: apt-get install chromium"
	# axe-core, which the browser tests inject into the pages (.ci/browser/package-lock.json pins it).
	cd .ci/browser && npm ci --no-audit --no-fund --loglevel=error
	@command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || echo "NOTE: HAProxy not" \
		"found: the two-host test (tests/live/test_two_hosts.py, PostgreSQL only) will be" \
		"SKIPPED. Install it: apt-get install haproxy"
	$(TEST_ENV) $(PYTEST)

# The OpenAPI schema as a frontend developer uses it: lint it (Redocly, recommended rules),
# generate TypeScript types from it (openapi-typescript) and compile a client with them
# (tsc --strict). Needs node and npm; .ci/openapi/package-lock.json pins the tools.
schema-check: $(INSTALLED)
	mkdir -p .ci/openapi/build
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file .ci/openapi/build/schema.yaml
	cd .ci/openapi && npm ci --no-audit --no-fund --loglevel=error \
		&& REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npm run --silent check

clean:
	rm -rf $(VENV) staticfiles .metrics .ci/browser/node_modules .ci/openapi/node_modules .ci/openapi/build .pytest_cache .ruff_cache .mypy_cache .hypothesis .import_linter_cache .grimp_cache *.egg-info

# The load benchmark: the service as docker-compose.yml runs it, on a fresh database of the
# PostgreSQL server BENCH_POSTGRES names; needs wrk (apt-get install wrk). Pass options in
# BENCH_ARGS, e.g. make bench BENCH_ARGS="--clients 8 --streams 1000 --deck http://127.0.0.1:8001".
BENCH_POSTGRES ?= postgres://postgres@127.0.0.1:5432/postgres
BENCH_INSTALLED := $(VENV)/.bench-installed

$(BENCH_INSTALLED): pyproject.toml $(INSTALLED)
	{ $(PIP) uv && $(UV) --editable '.[test,bench]'; } || $(PIP) --editable '.[test,bench]'
	touch $@

bench: $(BENCH_INSTALLED)
	BENCH_POSTGRES=$(BENCH_POSTGRES) $(BIN)/python -m tests.bench.run $(BENCH_ARGS)
	BENCH_POSTGRES=$(BENCH_POSTGRES) $(BIN)/python -m tests.bench.pieces $(PIECES_ARGS)

# What each piece of the fast path buys a move (tests/bench/pieces.py; also the end of make
# bench): all on, each off in turn, all off. E.g. make bench-pieces PIECES_ARGS="--rounds 2".
bench-pieces: $(BENCH_INSTALLED)
	BENCH_POSTGRES=$(BENCH_POSTGRES) $(BIN)/python -m tests.bench.pieces $(PIECES_ARGS)

# The bot arena at scale (tests/bench/arena.py): a round robin of 32 starter-kit bots, each
# its own process, on 4 boards (3,968 games), with ordinary players beside it. Takes a
# while; e.g. make bench-arena ARENA_ARGS="--bots 8 --boards 1" for a short one.
bench-arena: $(BENCH_INSTALLED)
	BENCH_POSTGRES=$(BENCH_POSTGRES) $(BIN)/python -m tests.bench.arena $(ARENA_ARGS)
