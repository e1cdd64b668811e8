# Floorman. `make run` starts everything on one machine; `make test` is what CI runs.
#
# The virtualenv is rebuilt only when a lock file changes: a stamp file inside .venv
# records the last successful install. requirements*.txt name what Floorman asks for;
# requirements*.lock (make lock, pip-compile) pin every package installed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench simulate clean-venv lock restore

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

$(VENV)/.installed-dev: requirements.lock requirements-dev.lock | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.lock
	touch $@ $(VENV)/.installed

# After changing requirements*.txt: pin every transitive dependency again.
PIP_COMPILE := $(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links
lock: $(VENV)/.installed-dev
	$(PIP_COMPILE) --output-file requirements.lock requirements.txt
	$(PIP_COMPILE) --constraint requirements.lock --output-file requirements-dev.lock requirements-dev.txt

run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	@# The compiled catalogues are committed; rebuild them only where gettext is installed.
	@if command -v msgfmt >/dev/null 2>&1; then $(BIN)/python manage.py compilemessages -v 0 --ignore .venv --ignore var; fi
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/pytest -n auto --dist loadfile --durations=15

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Needs PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres make bench
# (with REDIS_URL, clock_ws and hands also measure the Redis channel layers; clock_api
# and seating use wrk when installed)
# One table of all figures at the end, with the machine they came from (bench/run_all.py).
bench: $(VENV)/.installed-dev
	$(BIN)/python bench/run_all.py

# A whole tournament of 10,000 entries through Floorman's services, invariants checked at
# every step, with the time each kind of operation took (SEED=… ENTRIES=… DEAL=1 to vary).
# FLIGHTS=3: a festival's main event instead, the entries over three flights, bag and
# tag, a satellite feeding the last flight with tickets, Day 2 to the end (issue 17).
# It writes the event into the configured database: run it on PostgreSQL, e.g.
# DATABASE_URL=postgres://postgres@127.0.0.1:5432/floorman_sim make simulate
# (the embedded SQLite works, but slowly).
ENTRIES ?= 10000
SEED ?= 2026
simulate: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input -v 0
	$(BIN)/python manage.py simulate --entries $(ENTRIES) --seed $(SEED) $(if $(DEAL),--deal) $(if $(FLIGHTS),--flights $(FLIGHTS)) $(if $(BOUNTY),--bounty $(BOUNTY))

clean-venv:
	rm -rf $(VENV)

# Restore a dump of deploy/backup.sh into a fresh database (created when missing; one
# holding tables is refused): DATABASE_URL=postgres://.../floorman_restored make restore FILE=...
restore:
	@test -n "$(FILE)" || { echo "usage: DATABASE_URL=postgres://.../new_db make restore FILE=dump"; exit 2; }
	sh deploy/restore.sh "$(FILE)"
