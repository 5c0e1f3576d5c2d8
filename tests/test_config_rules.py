"""The one table of training settings (core.config_rules): both trainers' configs read it."""
from dataclasses import dataclass, fields

import pytest

from core.config_rules import (MAX_D_MODEL, MAX_INIT_STD, MAX_LR, RULES, ConfigError, ConfigTypeError,
                               validate)
from core.negsampling import NegSamplingConfig
from core.skipgram import SkipGramConfig

SHARED = ["d_model", "lr", "seed", "init_std"]


def test_every_field_of_both_configs_has_exactly_one_row():
    names = [f.name for cls in (SkipGramConfig, NegSamplingConfig) for f in fields(cls)]
    assert set(names) == set(RULES)
    assert set(SHARED) == {f.name for f in fields(SkipGramConfig)} & {f.name for f in fields(NegSamplingConfig)}


@pytest.mark.parametrize("field, bad", [("d_model", MAX_D_MODEL + 1), ("lr", 2 * MAX_LR),
                                        ("seed", -1), ("init_std", 2 * MAX_INIT_STD)])
def test_shared_fields_are_refused_alike_by_both_trainers(field, bad):
    messages = []
    for cls in (SkipGramConfig, NegSamplingConfig):
        with pytest.raises(ConfigError) as info:
            cls(**{field: bad})
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(RULES[field].message[:-1])


@pytest.mark.parametrize("cls", [SkipGramConfig, NegSamplingConfig])
@pytest.mark.parametrize("field, value", [("d_model", True), ("lr", "0.5"), ("seed", 1.0)])
def test_wrong_types_are_type_errors_with_the_rows_message(cls, field, value):
    with pytest.raises(ConfigTypeError, match=r"^" + RULES[field].message.replace("*", r"\*")
                       .replace(".", r"\.") + "$"):
        cls(**{field: value})


def test_a_field_without_a_row_is_named():
    @dataclass(frozen=True)
    class WithNewField:
        d_model: int = 4
        not_a_setting: float = 1.0

    with pytest.raises(LookupError, match=r"WithNewField\.not_a_setting has no row"):
        validate(WithNewField())
    validate(WithNewField(), {**RULES, "not_a_setting": RULES["lr"]})   # with its row, it passes


@pytest.mark.parametrize("kwargs, message", [
    (dict(d_model=301), "d_model must be a whole number from 1 to 300."),
    (dict(window=21), "The window must be a whole number from 1 to 20."),
    (dict(negative=0), "The number of negatives must be a whole number from 1 to 30."),
    (dict(min_count=0), "min_count must be a whole number of at least 1."),
    (dict(sample=1.0), "sample must be a number from 0 up to (not including) 1."),
    (dict(epochs=201), "Epochs must be a whole number from 0 to 200."),
    (dict(seed=True), "The seed must be a whole number from 0 to 2**63 - 1."),
    (dict(alpha=1.5), "alpha must be a number above 0 and at most 1."),
    (dict(alpha=0.01, min_alpha=0.02), "min_alpha must be a number from 0 to alpha."),
    (dict(power=2.5), "The power must be a number from 0 to 2."),
    (dict(block_words=10**6 + 1), "block_words must be a whole number from 1 to 1,000,000."),
])
def test_word2vec_reads_the_same_mechanism_with_its_own_table(kwargs, message):
    from core.word2vec import Word2VecConfig

    with pytest.raises(ConfigError) as info:
        Word2VecConfig(**kwargs)
    assert str(info.value) == message
    Word2VecConfig(sample=0.0, alpha=1.0, min_alpha=1.0, power=2.0)     # the closed ends are allowed
