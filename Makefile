# The two commands:
#   make run    serve the API on http://127.0.0.1:$(PORT)/ (SQLite file db.sqlite3 by default)
#   make test   lint, check for missing migrations, run the whole test suite
# Both need only python3 (3.11 or newer): the first call makes .venv and installs the project;
# later calls reinstall only when pyproject.toml has changed. DATABASE_URL, if set, picks the
# database (postgres://user@host:port/name for PostgreSQL).

PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.DEFAULT_GOAL := run
.PHONY: run test lint install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	@echo "Installing the project and its test tools into $(VENV)..."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --editable '.[test]'
	touch $@

install: $(INSTALLED)

# Served under ASGI by uvicorn (the live event streams need it): Django has no lifespan
# events, and open streams get 3 s to end when the server stops. The client's address is
# the connection's (X-Forwarded-For is read by the service itself, per NUM_PROXIES). The
# migration creates the database cache's table (the rate-limit counters without REDIS_URL).
run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port $(PORT) \
		--lifespan off --timeout-graceful-shutdown 3 --no-proxy-headers

lint: $(INSTALLED)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis *.egg-info
