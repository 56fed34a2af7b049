"""Fixtures of the training tests: the tiny base model (shared with tests/validator)."""

from tests.validator.conftest import tiny_base

__all__ = ["tiny_base"]
