# The two commands (see README): `make run` and `make test`.
.PHONY: run test test-fast setup lint

setup:
	scripts/bootstrap.sh

run: setup
	GRADIO_ANALYTICS_ENABLED=False .venv/bin/python app.py

test:  # test files spread over one worker process per core (pytest-xdist), the slowest first (tests/conftest.py)
	scripts/bootstrap.sh --with-browser
	.venv/bin/ruff check .
	GRADIO_ANALYTICS_ENABLED=False .venv/bin/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder

test-fast:  # the development loop: ruff + every test not marked slow (CI still runs them all: make test)
	scripts/bootstrap.sh
	.venv/bin/ruff check .
	GRADIO_ANALYTICS_ENABLED=False .venv/bin/python -m pytest -q -m "not slow" -n auto --dist loadfile --no-loadscope-reorder

lint:
	.venv/bin/ruff check .
