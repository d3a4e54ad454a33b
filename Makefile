# Two commands do everything on a fresh machine with Python 3.11 and pip:
#   make demo   -- set up .venv, then run the main job (a legacy TF1 script, unchanged)
#   make test   -- set up .venv, then run the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test test-py312 bench setup clean oracle oracle-if-available inventory coverage catalog copy-meter

# The TF 1.15 oracle (DESIGN.md, "TF 1.15 as the oracle"): Python 3.7 + tensorflow 1.15.5 in .venv-tf115.
# Found, not hard-coded: python3.7 on PATH, else any pyenv 3.7.x (the pyenv shim refuses a version that is
# not selected, so its real path is asked for). `make PYTHON37=/path/to/python3.7 oracle` overrides.
PYTHON37 ?= $(shell for p in python3.7 $$(pyenv root 2>/dev/null)/versions/3.7*/bin/python3.7; do \
  "$$p" -c 'import sys; assert sys.version_info[:2] == (3, 7)' >/dev/null 2>&1 && { echo "$$p"; break; }; done)
ORACLE       := .venv-tf115
ORACLE_STAMP := $(ORACLE)/.installed

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "need python3.11 (or python3) on PATH, or make PYTHON=/path/to/python"; exit 1; }
	@echo "setup: creating $(VENV) with $(PYTHON)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "setup: upgrading pip"
	@$(PY) -m pip install -qq --disable-pip-version-check --upgrade pip
	@echo "setup: installing tf1clip and its pinned dependencies (TensorFlow 2.21, tf-keras, ...: 1-2 minutes)"
	@$(PY) -m pip install -qq --disable-pip-version-check -c constraints.txt -e ".[test]"
	@echo "setup: done ($$($(PY) -m pip list --disable-pip-version-check 2>/dev/null | tail -n +3 | wc -l) packages in $(VENV))"
	@touch $(STAMP)

# The main job: a 2018-style TF1 script (tf.contrib.rnn, legacy_seq2seq, tf.flags, Saver), unchanged,
# trains a character-level LSTM, then its companion script restores the checkpoint and samples text;
# then a 2018-style tf.estimator script (model_fn, train_and_evaluate, export) prints its falling loss.
# --record-clipping: the script's tf.clip_by_global_norm also writes tf1clip/ summaries, which `tf1clip report`
# plots. Each run starts from scratch (a second `make demo` would otherwise resume the first's checkpoints).
demo: $(STAMP)
	@rm -rf build/char_rnn build/estimator build/report
	$(VENV)/bin/tf1clip run --record-clipping examples/legacy/char_rnn_train.py --save_dir build/char_rnn --log_every 25
	$(VENV)/bin/tf1clip run examples/legacy/char_rnn_sample.py --save_dir build/char_rnn
	$(VENV)/bin/tf1clip run examples/legacy/estimator_train.py --model_dir build/estimator
	$(VENV)/bin/tf1clip report build/char_rnn/logs --out build/report
	@echo "demo: done. Results:"
	@echo "  build/char_rnn    the char-rnn checkpoints and TensorBoard logs (tensorboard --logdir build/char_rnn/logs)"
	@echo "  build/estimator   the estimator's checkpoints, evaluation and exported SavedModel (export/)"
	@echo "  build/report      tf1clip report's figures of the char-rnn run's gradient norm (*.png)"

test: $(STAMP) oracle-if-available
	$(PY) -m pytest -n 2 --dist worksteal -q tests

oracle: $(ORACLE_STAMP)

$(ORACLE_STAMP): constraints-tf115.txt
	@test -n "$(PYTHON37)" || { echo "need a Python 3.7 (python3.7 on PATH or pyenv 3.7.x), or make oracle PYTHON37=/path/to/python3.7"; exit 1; }
	@echo "oracle: TensorFlow 1.15.5 on $(PYTHON37) into $(ORACLE) (about 30 s)"
	test -x $(ORACLE)/bin/python || $(PYTHON37) -m venv $(ORACLE)
	$(ORACLE)/bin/python -m pip install -qq --disable-pip-version-check -r constraints-tf115.txt
	touch $(ORACLE_STAMP)

# TF 1.15's public API, what it warned about as deprecated and its module paths, written by TF 1.15 itself
# (tf1clip/tf115/api.tsv, deprecations.tsv, modules.tsv.gz: the last reads api.tsv, so it comes after).
inventory: $(ORACLE_STAMP)
	env -u TF2_BEHAVIOR $(ORACLE)/bin/python tf1clip/tf115/generate.py > tf1clip/tf115/api.tsv
	env -u TF2_BEHAVIOR $(ORACLE)/bin/python tf1clip/tf115/generate.py --deprecations > tf1clip/tf115/deprecations.tsv
	env -u TF2_BEHAVIOR $(ORACLE)/bin/python tf1clip/tf115/generate_modules.py --out tf1clip/tf115/modules.tsv.gz

# What every TF 1.15 tf.contrib name is under tf1clip, collected from the packages' declarations
# (tf1clip/contrib/catalog.tsv, read by `tf1clip check` and `explain`), docs/contrib.md's tables written from it,
# and BUILD written from the tree. Tests fail when any of the three is stale.
catalog: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=3 $(PY) -m tf1clip.contrib --write
	$(PY) -m tf1clip.tools.contrib_docs --write
	$(PY) -m tf1clip.tools.build_file --write

# How much of each file in tf1clip/ is verbatim TF 1.15 source (DESIGN.md: our own code, every file at most 30%).
# The meter is the project's shared tool beside the checkout (../shared/tools/copy_meter.py, or COPY_METER=...);
# it reads TF 1.15's source from the oracle venv. tests/test_own_code.py runs the same measure.
COPY_METER ?= $(firstword $(wildcard ../shared/tools/copy_meter.py))
copy-meter: $(ORACLE_STAMP)
	@test -n "$(COPY_METER)" || { echo "copy-meter: no ../shared/tools/copy_meter.py here (make copy-meter COPY_METER=/path/to/copy_meter.py)"; exit 1; }
	python3 $(COPY_METER) $(ORACLE)/lib/python3.7/site-packages .

coverage: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=3 $(PY) -m tf1clip.tools.api_coverage --write docs/api-coverage.md

# `make test` builds the oracle where a Python 3.7 exists; elsewhere the oracle tests skip, saying why.
oracle-if-available:
	@if [ -n "$(PYTHON37)" ]; then $(MAKE) --no-print-directory oracle; \
	else echo "no Python 3.7 here: the TF 1.15 oracle tests will skip (make oracle PYTHON37=... to build it)"; fi

# Python 3.12 (pyproject allows 3.11-3.12): the same install in its own venv and a cross-section of the
# suite (clipping, wrappers, the runner, the facade, contrib, check). CI runs it when python3.12 exists.
PYTHON312 ?= $(shell command -v python3.12)
VENV312   := .venv312

test-py312:
	@test -n "$(PYTHON312)" || { echo "need python3.12 on PATH, or make test-py312 PYTHON312=/path/to/python3.12"; exit 1; }
	test -x $(VENV312)/bin/python || $(PYTHON312) -m venv $(VENV312)
	$(VENV312)/bin/python -m pip install -qq --upgrade pip
	$(VENV312)/bin/python -m pip install -qq -c constraints.txt -e ".[test]"
	$(VENV312)/bin/python -m pytest -n 2 -q tests/test_clipping_dense.py tests/test_optimizer.py \
	  tests/test_facade.py tests/test_runner.py tests/contrib/test_served.py tests/test_check.py

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(VENV312) $(ORACLE) build *.egg-info
