# bluffcheck: two commands for a fresh machine with only Python.
#   make demo   set up and run the default suite on the bundled SemEval-2013 slice
#   make test   set up and run the tests
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: demo test setup bench lint clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e ".[all,test]"
	touch $@

setup: $(VENV)/.installed

demo: setup
	$(BIN)/bluffcheck demo

test: setup
	@if [ -x tools/ensure-chromium.sh ]; then tools/ensure-chromium.sh; fi
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/run.py

lint: setup
	$(BIN)/ruff check src tests bench

clean:
	rm -rf $(VENV) runs .pytest_cache
