# The two commands of the README: `make run` starts the bot, `make test` runs every check.
# Both create the virtual environment in .venv and install what they need on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench play clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot run

play: $(STAMP)
	$(BIN)/python -m bot play

lint: $(STAMP)
	$(BIN)/ruff check bot tests bench migrations discord_emulator
	$(BIN)/ruff format --check bot tests bench migrations discord_emulator

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
