# warbench: the few targets a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
# Bytecode is cached even where the machine says not to (PYTHONDONTWRITEBYTECODE): each
# test worker, and each command and bot process a test starts, would otherwise compile
# every module again (about 10 s of a worker's collection, 0.25 s of each command).
export PYTHONDONTWRITEBYTECODE :=
HOST ?= 127.0.0.1

.PHONY: run test lint typecheck pytest bench clean system

$(STAMP): pyproject.toml setup.py $(shell find src -name "*.c" -o -name "*.h")
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip==26.3
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/warbench serve --host $(HOST) --port $(PORT)

test: lint typecheck pytest

system:
	./scripts/system-packages.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) system
	$(BIN)/pytest -n auto --dist worksteal

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
