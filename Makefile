# The two commands:
#   make run    serve the API on http://127.0.0.1:$(PORT)/ (SQLite file db.sqlite3 by default),
#               after building the optimal-strategy tables it offers (once, kept on disk)
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
# events, and open streams get 3 s to end when the server stops. The optimal-strategy tables
# are built before it serves, once (a few minutes on the first start; kept in STRATEGY_DIR,
# later starts only check them and rebuild a stale one), so no request waits for one.
run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py build_strategy
	$(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port $(PORT) \
		--lifespan off --timeout-graceful-shutdown 3

lint: $(INSTALLED)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis *.egg-info
