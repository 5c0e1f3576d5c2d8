"""core.config_rules: the Whole and Real rules and validate, their bounds and error kinds, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

from dataclasses import dataclass

import pytest

from core.config_rules import ConfigError, ConfigTypeError, RULES, Real, Whole, validate
from tests.refusal import refused


@dataclass(frozen=True)
class Two:
    d_model: int = 4
    lr: float = 0.1


def test_whole_rule_passes_the_range_and_refuses_outside_it():
    rule = Whole(1, 5, "k must be from 1 to 5.")
    rule.check(1)
    rule.check(5)
    for bad in (0, 6):
        with pytest.raises(ValueError):
            rule.check(bad)
    Whole(1, None, "k must be at least 1.").check(10**12)


def test_real_rule_has_open_and_closed_ends():
    rule = Real(0, 2, "p must be above 0 and at most 2.", above="p must be at most 2.")
    rule.check(2.0)
    rule.check(1e-300)
    refused(lambda: rule.check(2.5), "p must be at most 2.", ConfigError)
    with pytest.raises(ValueError):
        rule.check(0.0)                                        # low_open by default
    Real(0, None, "p must be 0 or more.", low_open=False).check(0.0)
    Real(0, None, "p must be 0 or more.", low_open=False).check(1e300)
    half_open = Real(0, 1, "q must be from 0 up to (not including) 1.", low_open=False, high_open=True)
    half_open.check(0.0)
    half_open.check(0.999)
    refused(lambda: half_open.check(1.0), "q must be from 0 up to (not including) 1.", ConfigError)
    refused(lambda: Real(0, 1, "r must be at most 1.").check(1.5), "r must be at most 1.", ConfigError)   # no `above`


def test_validate_gives_the_rows_message_and_the_right_error_kind():
    validate(Two())
    validate(Two(d_model=256, lr=1e6))                          # the largest allowed values
    e = refused(lambda: validate(Two(d_model=0)), RULES["d_model"].message, ConfigError)
    assert not isinstance(e, TypeError)
    e = refused(lambda: validate(Two(d_model=2.0)), RULES["d_model"].message, ConfigTypeError)
    assert isinstance(e, TypeError) and isinstance(e, ConfigError)
    refused(lambda: validate(Two(lr=0.0)), "The learning rate must be a positive number.", ConfigError)
    refused(lambda: validate(Two(lr=2e6)), "The learning rate must be a positive number of at most 1e+06.",
            ConfigError)
    refused(lambda: validate(Two(lr="0.1")), "The learning rate must be a positive number.", ConfigTypeError)
    assert refused(lambda: validate(Two(lr=float("nan"))), "The learning rate must be a positive number.",
                   ConfigError).__cause__ is None
    refused(lambda: validate(Two(), {"d_model": RULES["d_model"]}),
            "Two.lr has no row in core.config_rules.RULES: add one saying which values it accepts.", LookupError)
