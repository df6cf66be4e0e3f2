# Two entry points a newcomer needs: `make run` opens the app, `make test` runs
# the lint, format and type checks, then every test. Both build the virtual
# environment on first use, so a fresh clone needs nothing but python3 (3.11+)
# and make.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test browser bench hosts hosts-watch clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/persona-notebook $(ARGS)

# Lint and format checks first (ruff), then the type checker (mypy), both
# configured in pyproject.toml: a violation fails the target before pytest
# starts. pytest runs on every core (pytest-xdist); a `serial` test runs while
# no other does (tests/conftest.py). PYTEST_ARGS adds to the command and wins:
# `-m 'not slow'` is the fast inner loop (no real processes, no browser), `-n0`
# one process (snapshot updates).
test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

# The browser tests (tests/serve) drive Debian's chromium; Playwright's own
# browser download cannot be reached. Installed here when it can be (as root,
# with apt-get, quietly, as on CI); where it cannot, this never fails the
# target: the browser tests then skip saying why (and fail when CI=true).
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1; } || true

# Ours beside toolnexus and hermes-agent; builds the peers' venvs itself.
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py $(ARGS)

# The host goldens: installs Hermes and toolnexus (Python) at their pins and
# Claude Code's npm package (its native binary) and each pinned OpenClaw
# release (npm, under Node 24 from npm) in benchmarks/.peers (reused after, by
# a stamp), runs each one's own loading code, or for Claude Code the real
# `claude -p` against a loopback recorder of its API request, on every case of
# tests/host_corpus.py (Hermes also on tests/hermes_ops.py's store operations,
# then tests/hosts/interop_hermes.py's checks with the real Hermes, whose FAIL
# fails the target) and rewrites tests/hosts/goldens/. Not part of
# `make test`, which only compares with the committed goldens. Needs npm.
# ARGS picks hosts or cases: `make hosts ARGS="claude-code --case=NAME"`.
# A release no pin names (`make hosts ARGS="claude-code@2.1.338"`) is proven:
# its goldens go to tests/hosts/pending/, are compared with its nearest proven
# release's, and the release is recorded as covered when none differ
# (docs/hosts.md, "How a release becomes proven").
hosts: $(STAMP)
	$(BIN)/python tests/hosts/make_goldens.py $(ARGS)

# The releases each host published after its newest proven (registry queries
# only, never installs): what to give `make hosts` next.
hosts-watch: $(STAMP)
	$(BIN)/python tests/hosts/watch_releases.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis benchmarks/.peers benchmarks/.work
