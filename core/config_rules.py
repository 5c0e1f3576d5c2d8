"""Which values the trainers' settings accept: one table, read by every config.

A config class does not check its fields by hand. Each field has one row in ``RULES``
(field name -> kind, bounds, message), as scikit-learn's ``_parameter_constraints``,
and ``validate(config)`` checks every field of a config against its row. A field
shared by both trainers (``d_model``, ``lr``, ``seed``, ``init_std``) has one row, so
both accept the same values and say the same thing when they refuse one.

Adding a setting: a field with a default in the config, and its row here. A field with
no row is refused at import, when the config's defaults are first built.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy:
...     d_model: int = 4
...     def __post_init__(self):
...         validate(self)
>>> Toy(d_model=0)
Traceback (most recent call last):
core.config_rules.ConfigError: d_model must be a whole number from 1 to 256.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from core.checks import number, whole

MAX_D_MODEL = 256
MAX_STEPS = 20_000
MAX_INIT_STD = 10.0         # larger starting noise overflows the scores before step 1
MAX_LR = 1e6
MAX_SEED = 2**63 - 1        # the largest seed numpy.random.default_rng takes as an int64
MAX_EPOCHS = 2000
MAX_NEGATIVES = 50


class ConfigError(ValueError):
    """Settings that cannot be trained; the message says which and why."""


class ConfigTypeError(ConfigError, TypeError):
    """A setting of the wrong type (``True`` for a width, ``"3"`` for steps): also a TypeError."""


@dataclass(frozen=True)
class Whole:
    """A whole number (not a bool, not a float) from ``low`` to ``high`` (None: no upper end)."""

    low: int
    high: int | None
    message: str

    def check(self, value) -> None:
        whole(value, self.message, self.low, self.high)


@dataclass(frozen=True)
class Real:
    """A finite real number above ``low`` (or from ``low`` when ``low_open`` is False) and at
    most ``high`` (below it when ``high_open``; None: no upper end). ``above``: the message
    for a value past ``high``, when it should name the bound (default: ``message``)."""

    low: float
    high: float | None
    message: str
    low_open: bool = True
    high_open: bool = False
    above: str | None = None

    def check(self, value) -> None:
        x = number(value, self.message, self.low, None, low_open=self.low_open)
        if self.high is not None and (x > self.high or (self.high_open and x == self.high)):
            raise ConfigError(self.above or self.message)


RULES: dict[str, Whole | Real] = {
    # both trainers
    "d_model": Whole(1, MAX_D_MODEL, f"d_model must be a whole number from 1 to {MAX_D_MODEL}."),
    "lr": Real(0, MAX_LR, "The learning rate must be a positive number.",
               above=f"The learning rate must be a positive number of at most {MAX_LR:g}."),
    "seed": Whole(0, MAX_SEED, "The seed must be a whole number from 0 to 2**63 - 1."),
    "init_std": Real(0, MAX_INIT_STD, "The initial standard deviation must be a positive number.",
                     above=f"The initial standard deviation must be a positive number of at most {MAX_INIT_STD:g}."),
    # full softmax (core.skipgram)
    "steps": Whole(0, MAX_STEPS, f"Steps must be a whole number from 0 to {MAX_STEPS:,}."),
    "snapshot_every": Whole(1, None, "snapshot_every must be at least 1."),
    # negative sampling (core.negsampling)
    "epochs": Whole(0, MAX_EPOCHS, f"Epochs must be a whole number from 0 to {MAX_EPOCHS:,}."),
    "batch_size": Whole(1, None, "The batch size must be a whole number of at least 1."),
    "negatives": Whole(1, MAX_NEGATIVES,
                       f"The number of negatives must be a whole number from 1 to {MAX_NEGATIVES}."),
    "power": Real(0, None, "The power must be 0 or more.", low_open=False),
}


def validate(config, rules: dict[str, Whole | Real] = RULES) -> None:
    """Check every field of the dataclass ``config`` against its row of ``rules`` (a trainer
    with settings of its own, such as core.word2vec, passes its own table).

    Raises ``ConfigTypeError`` for a value of the wrong type, ``ConfigError`` for one out
    of bounds, both with the row's message; ``LookupError`` for a field with no row.
    """
    for f in fields(config):
        rule = rules.get(f.name)
        if rule is None:
            raise LookupError(f"{type(config).__name__}.{f.name} has no row in core.config_rules.RULES: "
                              "add one saying which values it accepts.")
        try:
            rule.check(getattr(config, f.name))
        except ConfigError:
            raise
        except TypeError:
            raise ConfigTypeError(rule.message) from None
        except ValueError:
            raise ConfigError(rule.message) from None
