"""The cost model's refusals and its smallest answers (core.budget), pinned where mutation
testing (docs/quality.md, section 4) found them loose: a count's name in a message, a lower
bound dropped, the fewest steps that fit.
"""
import pytest

from core.budget import (BUDGET, RATE, STEP_OVERHEAD, check, max_skipgram_steps, negsampling_work,
                         skipgram_step, skipgram_work)


def refused(call, message, kind=ValueError):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_a_softmax_step_names_each_bad_size():
    refused(lambda: skipgram_step(0, 4), "V must be at least 1; got 0.")
    refused(lambda: skipgram_step(True, 4), "V must be a whole number, not bool.", TypeError)
    refused(lambda: skipgram_step(12, 0), "d_model must be at least 1; got 0.")
    refused(lambda: skipgram_step(12, 4.0), "d_model must be a whole number, not float.", TypeError)
    assert skipgram_step(1, 1) == STEP_OVERHEAD + 1 * 1 * (1 + 40)        # the smallest sizes are priced
    refused(lambda: skipgram_work(12, 4, -1), "steps must be at least 0; got -1.")
    refused(lambda: skipgram_work(12, 4, 2.0), "steps must be a whole number, not float.", TypeError)
    assert skipgram_work(12, 4, 0) == skipgram_step(12, 4)               # step 0 still evaluates once


def test_negative_sampling_checks_the_width_before_the_epochs():
    refused(lambda: negsampling_work(10, 1, 0, 2, -1), "d_model must be at least 1; got 0.")
    refused(lambda: negsampling_work(10, 1, True, 2, 1), "d_model must be a whole number, not bool.", TypeError)


def test_the_fewest_softmax_steps_that_fit_is_zero():
    one = skipgram_step(12, 4)                                  # a run of s steps costs (s + 1) steps
    assert max_skipgram_steps(12, 4, budget=1.5 * one) == 0
    assert max_skipgram_steps(12, 4, budget=0.5 * one) == 0
    assert max_skipgram_steps(12, 4, budget=2 * one) == 1
    assert max_skipgram_steps(12, 4, budget=11 * one - 1) == 9


def test_a_verdict_without_an_alternative_says_only_why():
    v = check(2 * BUDGET, "This run")
    assert v.message == (f"This run would take about {2 * BUDGET / RATE:,.0f} seconds here, and each run gets "
                         f"at most {BUDGET / RATE:g} seconds so that a whole class can share the machine.")
    assert v.message.endswith("share the machine.")
