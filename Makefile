# Floorman. `make run` starts everything on one machine; `make test` is what CI runs.
#
# The virtualenv is rebuilt only when a requirements file changes: a stamp file
# inside .venv records the last successful install.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	@# The compiled catalogues are committed; rebuild them only where gettext is installed.
	@if command -v msgfmt >/dev/null 2>&1; then $(BIN)/python manage.py compilemessages -v 0 --ignore .venv --ignore var; fi
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n auto --dist loadfile

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Needs PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres make bench
# (with REDIS_URL, clock_ws and hands also measure the Redis channel layers; clock_api
# and seating use wrk when installed)
bench: $(VENV)/.installed-dev
	$(BIN)/python bench/registration.py
	$(BIN)/python bench/asgi_vs_wsgi.py
	$(BIN)/python bench/clock_ws.py
	$(BIN)/python bench/clock_api.py
	$(BIN)/python bench/seating.py
	$(BIN)/python bench/hands.py

clean-venv:
	rm -rf $(VENV)
