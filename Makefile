# Two commands on a fresh machine: `make run` and `make test`. Both create
# .venv when it is missing; the install is redone only when pyproject.toml
# changes (the stamp below is keyed on it).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
OUT ?= out
# The suite runs in this many processes (pytest-xdist): every test keeps its
# files under its own tmp path and starts its own Ray, so they run side by side.
TEST_PROCS ?= 2

.PHONY: run test test-slow test-fuzz lint typecheck bench bench-deps venv clean

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
	$(MAKE) --no-print-directory typecheck
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n $(TEST_PROCS)

test-slow: $(STAMP)
	$(PY) -m pytest -n $(TEST_PROCS) -m slow

# Hypothesis with a new random draw each run, 200 examples a property.
test-fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -n $(TEST_PROCS)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m ruff format --check . || true

typecheck: $(STAMP)
	$(VENV)/bin/pyright

# Benchmarks against pooltool (docs/performance.md). pooltool pins numba < 0.63,
# so it gets its own venv, installed --no-deps from a fully pinned list
# (its metadata names a panda3d dev build that PyPI does not have).
PT_VENV := bench/.venv-pooltool
PT_PY := $(PT_VENV)/bin/python
PT_STAMP := $(PT_VENV)/.installed-$(shell cksum bench/requirements-pooltool.txt | cut -d' ' -f1)

$(PT_STAMP): bench/requirements-pooltool.txt
	@test -x $(PT_PY) || $(PYTHON) -m venv $(PT_VENV)
	$(PT_PY) -m pip install -q --upgrade pip
	$(PT_PY) -m pip install -q --no-deps -r bench/requirements-pooltool.txt
	# Verify: version, and one simulated shot (also fills pooltool's numba cache).
	$(PT_PY) -c "import pooltool as pt; assert pt.__version__ == '0.6.0', pt.__version__; s = pt.simulate(pt.System.example()); assert len(s.events) > 2; print('pooltool', pt.__version__, 'ok:', len(s.events), 'events')"
	@rm -f $(PT_VENV)/.installed-*
	@touch $(PT_STAMP)

bench-deps: $(PT_STAMP)

bench: $(STAMP) $(PT_STAMP)
	$(PY) -m bench.physics --pooltool-cold

clean:
	rm -rf $(VENV) $(OUT) build *.egg-info
