"""The one training recipe: ``kgqa train`` rebuilds every shipped asset from one config file
(``training/recipe.toml``), in dependency order (:data:`STEPS`).

* ``ranker``: the local backend's candidate ranker (``assets/ranker.json``, :mod:`training.ranker`);
* ``validator``: the cross-encoder fine-tuned on the backend's labelled candidates and a
  first calibrated gate (``assets/validator``, :func:`training.build.run`; one training
  loop, :func:`training.finetune.train`);
* ``records``: every bench string through the new backend and validator, its first
  candidates labelled (:func:`training.records.collect`);
* ``gate``: the rank weight and threshold that transfer to sources not seen, chosen on the
  records by leaving each source out (``config.json``, :mod:`training.transfer`);
* ``probability``: the gate's answer model, one calibrated chance of being right per reading
  (``gate.json``, :mod:`training.probability`).

The accelerator path reads the same recipe and runs the same loop: ``kgqa train --device
cuda`` where the whole project runs beside a GPU, or, on a lent GPU that gets only the
working tree and a small payload, ``python -m training.device train`` (the ``[validator]``
section, :func:`training.finetune.train` on the device).  A :class:`Workspace` says where things are and, for tests,
which backend and KG to use (tests/training/test_recipe.py runs the recipe end to end on the
tiny KG and the tiny model).
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from training.finetune import TrainConfig

RECIPE_PATH = Path(__file__).with_name("recipe.toml")
DEVICES: tuple[str, ...] = ("cpu", "cuda", "auto")
"""Where the validator trains (:func:`training.finetune.resolve_device`; ``auto``: CUDA when there is one)."""
STEPS: tuple[str, ...] = ("ranker", "validator", "records", "gate", "probability")
"""The steps in dependency order: each needs what the ones before it wrote."""


@dataclass(frozen=True)
class RankerStep:
    """``[ranker]``: how the candidate ranker is trained."""

    model: str = "trees"
    per_question: int = 250
    limit: int = 0


@dataclass(frozen=True)
class ValidatorStep:
    """``[validator]``: the fine-tuning run and the first calibration."""

    layers: int = 8
    epochs: int = 2
    lr: float = 5e-5
    head_lr: float = 1e-3
    batch_size: int = 32
    max_length: int = 80
    max_minutes: float = 22.0
    seed: int = 13
    balance: str = "up"
    negatives_per_item: int = 4
    min_precision: float = 0.9
    complex_boost: int = 4
    synthetic: bool = True
    onehop: bool = True
    limit: int = 0
    threads: int = 2
    device: str = "cpu"

    def train_config(self) -> TrainConfig:
        """The :class:`training.finetune.TrainConfig` of this section."""
        from training.finetune import TrainConfig  # torch: only when training

        return TrainConfig(layers=self.layers, max_length=self.max_length, epochs=self.epochs,
                           batch_size=self.batch_size, lr=self.lr, head_lr=self.head_lr, seed=self.seed,
                           max_minutes=self.max_minutes, threads=self.threads, device=self.device)


@dataclass(frozen=True)
class RecordsStep:
    """``[records]``: which strings the records cover."""

    synthetic: bool = True
    limit: int = 0


@dataclass(frozen=True)
class GateStep:
    """``[gate]``: the precision every left-out source must keep."""

    target_precision: float = 0.92


@dataclass(frozen=True)
class Recipe:
    """A parsed ``recipe.toml``."""

    steps: tuple[str, ...] = STEPS
    ranker: RankerStep = RankerStep()
    validator: ValidatorStep = ValidatorStep()
    records: RecordsStep = RecordsStep()
    gate: GateStep = GateStep()


class RecipeError(ValueError):
    """A recipe file that names an unknown step or key, or gives a value of the wrong type."""


def _section(cls: type, table: Mapping[str, Any], name: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    unknown = set(table) - set(known)
    if unknown:
        raise RecipeError(f"[{name}]: unknown keys {sorted(unknown)}")
    default = cls()
    for key, value in table.items():
        expected = type(getattr(default, key))
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            continue
        if not isinstance(value, expected):
            raise RecipeError(f"[{name}] {key}: expected {expected.__name__}, got {value!r}")
    return cls(**{k: float(v) if type(getattr(default, k)) is float else v for k, v in table.items()})


def load_recipe(path: Path = RECIPE_PATH) -> Recipe:
    """Read and check a recipe file."""
    with path.open("rb") as stream:
        data = tomllib.load(stream)
    steps = tuple(data.pop("steps", STEPS))
    if unknown := [s for s in steps if s not in STEPS]:
        raise RecipeError(f"unknown steps {unknown}; the steps are {list(STEPS)}")
    sections = {"ranker": RankerStep, "validator": ValidatorStep, "records": RecordsStep, "gate": GateStep}
    parsed = {name: _section(cls, data.pop(name, {}), name) for name, cls in sections.items()}
    data.pop("probability", None)
    if data:
        raise RecipeError(f"unknown sections {sorted(data)}")
    if parsed["validator"].device not in DEVICES:
        raise RecipeError(f"[validator] device: expected one of {list(DEVICES)}, got {parsed['validator'].device!r}")
    return Recipe(steps=steps, **parsed)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``kgqa train``'s own flags."""
    parser.add_argument("--recipe", type=Path, default=RECIPE_PATH, help="the recipe file (default: %(default)s)")
    parser.add_argument("--only", nargs="+", choices=STEPS, default=(), help="run only these steps (in order)")
    parser.add_argument("--bench", nargs="*", type=Path, default=(), help="bench files (default: every shared one)")
    parser.add_argument("--work-dir", type=Path, help="where candidates and balanced data go")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--device", choices=DEVICES,
                        help="where the validator trains (overrides the recipe's [validator] device)")
