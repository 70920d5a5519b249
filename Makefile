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
.PHONY: run test lint install clean schema-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	@echo "Installing the project and its test tools into $(VENV)..."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --editable '.[test]'
	touch $@

install: $(INSTALLED)

# Served under ASGI by uvicorn (the live event streams need it): Django has no lifespan
# events, and open streams get 3 s to end when the server stops.
run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port $(PORT) \
		--lifespan off --timeout-graceful-shutdown 3

lint: $(INSTALLED)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	@command -v chromium >/dev/null 2>&1 || echo "NOTE: Chromium not found: the browser tests" \
		"(tests/live/browser, marker 'browser') will be SKIPPED. Install it: apt-get install chromium"
	$(BIN)/pytest

# The OpenAPI schema as a frontend developer uses it: lint it (Redocly, recommended rules),
# generate TypeScript types from it (openapi-typescript) and compile a client with them
# (tsc --strict). Needs node and npm; tools/openapi/package-lock.json pins the tools.
schema-check: $(INSTALLED)
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file tools/openapi/build/schema.yaml
	cd tools/openapi && npm ci --no-audit --no-fund --loglevel=error \
		&& REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npm run --silent check

clean:
	rm -rf $(VENV) staticfiles tools/openapi/node_modules tools/openapi/build .pytest_cache .ruff_cache .hypothesis *.egg-info
