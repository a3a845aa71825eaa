# Two commands on a fresh machine: `make run` and `make test`. Both create
# .venv when it is missing; the install is redone only when pyproject.toml
# changes (the stamp below is keyed on it).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
OUT ?= out

.PHONY: run test test-slow lint typecheck bench bench-deps venv clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# torch first, pinned: an unpinned torch pulls a multi-GB CUDA build.
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[gym,train,dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/piramida demo --out $(OUT)

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest

test-slow: $(STAMP)
	$(PY) -m pytest -m slow

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check . || true

typecheck: $(STAMP)
	$(VENV)/bin/pyright

clean:
	rm -rf $(VENV) $(OUT) build *.egg-info
