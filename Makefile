# The two commands of the README: `make run` starts the bot, `make test` runs every check.
# Both create the virtual environment in .venv and install what they need on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The gettext catalogues are text; the compiled .mo files are built here (and by the package build).
LOCALES := bot/locales
CATALOGUES := $(wildcard $(LOCALES)/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGUES:.po=.mo)

.PHONY: run test lint typecheck bench play clean translations i18n-extract i18n-check

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres]'
	$(BIN)/pybabel -q compile -d $(LOCALES) -D messages
	touch $(STAMP)

$(LOCALES)/%/LC_MESSAGES/messages.mo: $(LOCALES)/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel -q compile -i $< -o $@ -l $*

translations: $(COMPILED)

# Collect new messages from the code into the template and every catalogue (then translate them).
i18n-extract: $(STAMP)
	$(BIN)/python -m bot.i18n.tooling extract

# Fails when a catalogue lacks a message, keeps a stale or fuzzy one, or breaks placeholders or markup.
i18n-check: $(STAMP)
	$(BIN)/python -m bot.i18n.tooling check

run: $(STAMP) translations
	$(BIN)/python -m bot run

play: $(STAMP) translations
	$(BIN)/python -m bot play

lint: $(STAMP)
	$(BIN)/ruff check bot tests bench migrations discord_emulator
	$(BIN)/ruff format --check bot tests bench migrations discord_emulator

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck i18n-check translations
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP) translations
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
