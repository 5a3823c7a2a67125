# The README's commands. Everything runs inside .venv, created on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
# games/web's node_modules is installed afresh (npm ci) by make lint while the browser tests may
# run Lighthouse from it (tests/browser/test_budgets.py): both hold this lock meanwhile.
WEB_NPM_LOCK := $(if $(shell command -v flock),flock $(CURDIR)/var/web-npm.lock,)

.PHONY: run test test-fast test-sqlite system-packages lint lighthouse clients messages bench bench-tournament bench-api bench-sweep profile-moves move-instructions stack-costs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

## make messages: compile the message catalogues (locale/<lang>/LC_MESSAGES/*.po to .mo), those
## that changed; GNU gettext's msgfmt checks them where installed (docs/i18n.md)
messages: $(STAMP)
	$(BIN)/python -m config.catalogues

## make run: migrate and serve the API with working bots on embedded defaults
run: $(STAMP) messages
	$(BIN)/python scripts/run_local.py --port $(PORT)

## make test: the whole suite (PostgreSQL and Redis when DATABASE_URL / CELERY_BROKER_URL are
## set) in up to four pytest processes (pytest-xdist), each on a database and a Redis database
## number of its own, with the checks below (make lint, make clients) run at the same time and
## printed when they end (scripts/test_suite.py); it fails when any of them does. The system
## packages the tests need come from make system-packages.
test: $(STAMP) messages
	$(BIN)/python scripts/test_suite.py --alongside "$(MAKE) -s --no-print-directory lint clients test-sqlite"

## make test-fast: the inner loop, under two minutes (two processes, about two minutes of CPU):
## the tests of the pure game packages (the engines, the clocks' arithmetic, Nim the fourth game
## and its matches over HTTP, the engines' hidden-information checks) and of the module
## layers (tests/test_layers.py), on SQLite and without Redis, a browser or a worker process,
## whatever DATABASE_URL and CELERY_BROKER_URL say. Not in it: the bots (their level-4 searches
## take minutes) and the API, services, notifications, browser and integration tests.
FAST_TESTS := tests/engines tests/clocks tests/fourth_game tests/test_layers.py \
  tests/hidden/test_engine_invariance.py tests/hidden/test_variants.py
test-fast: $(STAMP)
	env -u DATABASE_URL -u CELERY_BROKER_URL -u EVENTS_REDIS_URL -u CACHE_URL \
	  $(BIN)/python -m pytest -q -n 2 $(FAST_TESTS)

## make test-sqlite: matches played over HTTP on the embedded defaults make run uses (SQLite,
## no Redis): the suite itself runs on PostgreSQL, where some queries are built differently
test-sqlite: $(STAMP)
	env -u DATABASE_URL -u CELERY_BROKER_URL -u EVENTS_REDIS_URL -u CACHE_URL \
	  $(BIN)/python -m pytest -q -p no:cacheprovider tests/fourth_game/test_over_http.py

## make system-packages: the Debian packages the tests need (Chromium, the Hangul font
## fonts-noto-cjk, node and npm, gettext), installed where missing (root or sudo);
## .ci/run runs it too
system-packages:
	bash scripts/system-packages.sh

## make clients: the TypeScript client check (needs node and npm): types generated from
## docs/openapi.yaml by openapi-typescript, a small client type-checked by tsc --noEmit. The
## Python client check (openapi-python-client, mypy --strict, a match of every game against a
## bot) is tests/contract/test_generated_clients.py, part of the suite.
## Without npm it is skipped with a note on a developer's machine; in CI (CI=true) it must run.
clients:
	@if command -v npm >/dev/null 2>&1; then \
	  cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error && npm run --silent clients; \
	elif [ "$${CI:-}" = "true" ]; then \
	  echo "make clients: npm is required in CI" >&2; exit 1; \
	else \
	  echo "make clients: skipped (install node and npm to type-check the TypeScript client)"; \
	fi

## make lint: ruff, the architecture contracts (import-linter) and mypy, all set in pyproject.toml;
## then the web client (games/web/package.json): tsc over its JSDoc types (strict, no emit) and
## eslint. Without npm the client's part is skipped with a note on a developer's machine; in CI
## (CI=true) it must run.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	@if command -v npm >/dev/null 2>&1; then \
	  mkdir -p var && cd games/web && $(WEB_NPM_LOCK) npm ci --no-audit --no-fund --loglevel=error >/dev/null \
	  && npm run --silent check; \
	elif [ "$${CI:-}" = "true" ]; then \
	  echo "make lint: npm is required in CI" >&2; exit 1; \
	else \
	  echo "make lint: web client skipped (install node and npm to type-check and lint it)"; \
	fi

## make lighthouse: Lighthouse (games/web's npm packages) in Debian's Chromium under mobile
## emulation on the home page, a match page of each game and the inbox, each loaded cold:
## performance at least 90 and accessibility 100 (scripts/lighthouse.py), on a PostgreSQL
## database of its own, made afresh
LIGHTHOUSE_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/boardpost_lighthouse
lighthouse: $(STAMP) messages
	mkdir -p var && cd games/web && $(WEB_NPM_LOCK) npm ci --no-audit --no-fund --loglevel=error >/dev/null
	dropdb -h 127.0.0.1 -U postgres --if-exists boardpost_lighthouse 2>/dev/null || true
	createdb -h 127.0.0.1 -U postgres boardpost_lighthouse 2>/dev/null || true
	LIGHTHOUSE_DATABASE_URL=$(LIGHTHOUSE_DATABASE_URL) $(BIN)/python scripts/lighthouse.py

## make bench: rules-engine benchmarks
bench: $(STAMP)
	$(BIN)/python manage.py bench_engines

## make bench-tournament: Swiss pairing of a 1,000-player field round by round, and a whole
## 64-player, 7-round Swiss played by level-1 bots through the engines, with its standings
## (no database, no HTTP)
bench-tournament: $(STAMP)
	$(BIN)/python manage.py bench_tournament

## make bench-api: 16 concurrent HTTP clients against gunicorn and PostgreSQL, in interleaved
## rounds of one run: the bare floor (games.benchmarks.bare: Django and DRF alone, raw SQL), the
## stack floor (games.benchmarks.floor: the project's settings, middleware and ORM) and the move
## path, printed with their ratios to the bare floor
## (Celery's broker and the wake-ups in a Redis database of the benchmarks' own, as deployed;
## the commands purge the tasks they leave there; BENCH_API_ARGS for others, e.g.
## "--server both": each mode under gunicorn and under Granian, interleaved)
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/boardpost_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/4
BENCH_API_ARGS ?=
bench-api: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) CELERY_BROKER_URL=$(BENCH_REDIS_URL) \
	  EVENTS_REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python manage.py bench_api --clients 16 --bare --floor \
	  $(BENCH_API_ARGS)

## make profile-moves: where one move's CPU time goes, the move path and the floor (cProfile)
profile-moves: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) CELERY_BROKER_URL=$(BENCH_REDIS_URL) \
	  EVENTS_REDIS_URL=$(BENCH_REDIS_URL) THROTTLE_USER=1000000/min DJANGO_DEBUG=false \
	  $(BIN)/python manage.py profile_moves

## make move-instructions: machine instructions per move in the Django process, counted by
## callgrind (valgrind) over the move path of profile_moves (scripts/move_instructions.py;
## about five minutes): unlike CPU time, the count does not move with the machine's load
move-instructions: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) CELERY_BROKER_URL=$(BENCH_REDIS_URL) \
	  EVENTS_REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python scripts/move_instructions.py

## make stack-costs: what each middleware and DRF piece costs an API call in CPU, a token look-up
## in SQL and through the ORM, a floor move's work both ways (in one process, no profiler; about
## 5 minutes of one core)
stack-costs: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) CELERY_BROKER_URL=$(BENCH_REDIS_URL) \
	  EVENTS_REDIS_URL=$(BENCH_REDIS_URL) THROTTLE_USER=1000000/min THROTTLE_ANON=1000000/min \
	  DJANGO_DEBUG=false $(BIN)/python manage.py stack_costs

## make bench-sweep: the deadline (expiry and reminders) and due-work sweeps over 100,000
## matches (PostgreSQL)
bench-sweep: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py bench_sweep --matches 100000

clean:
	rm -rf $(VENV) .pytest_cache var

## make bench-longpoll: 1,000, 2,000 and 5,000 waiting long-poll clients on one events process,
## one match watched by all and 100 matches moved at once, each run preceded by the same against
## the bare ASGI floor (games.benchmarks.bare.longpoll) and printed beside it, under Granian (as
## deployed) and under uvicorn, each with its ratios to uvicorn's floor and to its own
## (BENCH_LONGPOLL_SERVER=granian or uvicorn for one; BENCH_LONGPOLL_ARGS for others, e.g.
## "--clients 1000 --case broadcast"; "--transport sse": the streams, the floor's too)
BENCH_LONGPOLL_ARGS ?=
BENCH_LONGPOLL_FLOOR ?= --floor
BENCH_LONGPOLL_SERVER ?= both
.PHONY: bench-longpoll
bench-longpoll: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) CELERY_BROKER_URL=$(BENCH_REDIS_URL) \
	  EVENTS_REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python manage.py bench_longpoll $(BENCH_LONGPOLL_FLOOR) \
	  --server $(BENCH_LONGPOLL_SERVER) $(BENCH_LONGPOLL_ARGS)

## make bench-bots: bot moves per worker pool process and per core, for every game and level
## (the service a worker's task runs, timed; wall and CPU time, the database backend's CPU)
BENCH_BOTS_ARGS ?= --moves 100
.PHONY: bench-bots
bench-bots: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py bench_bots $(BENCH_BOTS_ARGS)

## make scale-out: the compose services, two web, two events and two worker processes started
## by their own start scripts on one PostgreSQL and one Redis, with SCALE_OUT_MATCHES matches
## racing at once (tests/integration/test_scale_out.py with bigger numbers; needs
## DATABASE_URL and CELERY_BROKER_URL as for the integration tests)
SCALE_OUT_MATCHES ?= 16
.PHONY: scale-out
scale-out: $(STAMP)
	SCALE_OUT_MATCHES=$(SCALE_OUT_MATCHES) $(BIN)/python -m pytest -q -p no:cacheprovider \
	  tests/integration/test_scale_out.py

## make pooled-figures: moves/s (bench_api, 16 clients) with 1, 2 and 4 gunicorn processes and
## long-poll wake-ups (bench_longpoll, 1,000 clients) with every process going through a
## PgBouncer it starts (docker/start-pgbouncer.sh), and the PostgreSQL and PgBouncer connections
## each used (scripts/pooled_figures.py; about five minutes)
.PHONY: pooled-figures
pooled-figures: $(STAMP)
	createdb -h 127.0.0.1 -U postgres boardpost_bench 2>/dev/null || true
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) CELERY_BROKER_URL=$(BENCH_REDIS_URL) \
	  $(BIN)/python scripts/pooled_figures.py

## make bots-level4: the level-4 strength measurements of docs/bots.md (engine-only arena, 200
## games each, seats alternated; long: run it on an idle machine or under nice). ARENA_JOBS
## processes play at once; the results do not depend on it or on the machine's load.
ARENA_JOBS ?= 2
.PHONY: bots-level4
bots-level4: $(STAMP)
	$(BIN)/python manage.py bot_arena --game nibble --a 4 --b 3 --games 200 --jobs $(ARENA_JOBS)
	$(BIN)/python manage.py bot_arena --game nibble --a 4 --b reference --games 200 --jobs $(ARENA_JOBS)
	$(BIN)/python manage.py bot_arena --game nimble --a 4 --b 3 --games 200 --jobs $(ARENA_JOBS)
	$(BIN)/python manage.py bot_arena --game nimalia --a 4 --b 3 --games 200 --jobs $(ARENA_JOBS)
