# The two commands a newcomer needs: `make run` and `make test`; `make check` while editing.
# Each creates .venv with the project's own dependencies on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: run table-night test check lint typecheck unit fast seeded-sample chromium bench seeded \
	record-seeded docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The web app on http://127.0.0.1:8000/ (SQLite by default, or COMPANION_DATABASE_URL).
# `make run HOST=0.0.0.0` serves the phones on the local network too.
HOST := 127.0.0.1
PORT := 8000
run: $(STAMP)
	$(BIN)/companion serve --host $(HOST) --port $(PORT)

# A table night: the web app on every address, so that the phones at the table can join; it
# prints the machine's network address and its QR code.
table-night: $(STAMP)
	$(BIN)/companion serve --host 0.0.0.0 --port $(PORT)

# pytest runs on every core (pytest-xdist); JOBS=1 runs it in one process. The tests are handed
# out two at a time in the order tests/conftest.py gives them (the longest first), so that the
# long ones start early on every worker instead of queueing in one worker's first batch.
JOBS ?= auto
PYTEST := $(BIN)/pytest -q -n $(JOBS) --maxschedchunk 2

# Python may keep its compiled modules (in __pycache__, ignored by git): without them every
# pytest worker rewrites the asserts of the tests and of its plugins (Hypothesis, schemathesis)
# again, some 10 s of CPU each, and every server and command a test starts compiles Companion.
unexport PYTHONDONTWRITEBYTECODE

test: lint typecheck unit

# The edit-test loop: lint, types, the fast unit tests (no browser, server, PostgreSQL,
# fuzzer or property test: `make test` runs those) and the seeded results on a sample.
check: lint typecheck fast seeded-sample

lint: $(STAMP)
	$(BIN)/ruff check src tests bench fuzz
	$(BIN)/ruff format --check src tests bench fuzz

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) chromium
	$(PYTEST)

fast: $(STAMP)
	$(BIN)/pytest -q -n $(JOBS) -m "not slow"

# The seeded requests on a sample, 200 a profile (a few seconds in one process): a change that
# alters a result is caught while editing. `make test` compares all 2,000 recorded.
seeded-sample: $(STAMP)
	COMPANION_SEEDED_HANDS=200 $(BIN)/pytest -q -n 0 tests/test_seeded_hands.py

# The browser tests drive Debian's Chromium (never a browser download). Installed here when it
# is missing and we are root; otherwise those tests are skipped with the reason.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing Debian's chromium (and a CJK font) for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				chromium fonts-wqy-zenhei >/dev/null \
				|| echo "Could not install chromium: the browser tests will be skipped"; \
		else \
			echo "Chromium is missing and this is not root: the browser tests will be skipped"; \
		fi; \
	fi

# The tables of docs/ that say what the code holds (patterns, options, fields, refusal keys),
# written from the code between their `<!-- generated: ... -->` markers; the words a person
# wrote in them stay. tests/test_docs_tables.py (in `make check`) fails while one is stale.
docs: $(STAMP)
	$(BIN)/python -m companion.docs_tables

$(VENV)/.installed-bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

# The engine's claims (decided patterns, summed and unread feature bits) on 50,000 seeded
# requests per profile, and its results against those recorded (the suite runs 2,000).
seeded: $(STAMP)
	COMPANION_SEEDED_HANDS=50000 $(BIN)/pytest -q -n $(JOBS) tests/test_seeded_hands.py

# A change meant to change scoring results records them again (tests/seeded/<profile>.txt, one
# line a request): the diff shows which results moved, and its commit says why.
record-seeded: $(STAMP)
	COMPANION_RECORD_SEEDED=1 $(BIN)/pytest -q -n 0 tests/test_seeded_hands.py

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/shapes.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
