"""core.budget: the cost model's refusals, bounds and smallest answers, pinned exactly (details
mutation testing found loose: docs/quality.md)."""

from core.budget import (BUDGET, RATE, STEP_OVERHEAD, check, max_skipgram_steps, negsampling_work, skipgram_step, skipgram_work)
from tests.refusal import refused


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


def test_nice_floor_rounds_down_to_one_two_or_five_times_a_power_of_ten():
    from core.budget import nice_floor

    cases = {-3: 0, 0: 0, 1: 1, 4: 2, 9: 5, 10: 10, 19: 10, 20: 20, 49: 20, 50: 50, 99: 50,
             999: 500, 1000: 1000, 4999: 2000, 5000: 5000, 3400.9: 2000}
    assert {n: nice_floor(n) for n in cases} == cases


def test_budget_bounds_and_edges_by_hand():
    from core.budget import max_negsampling_epochs, max_tsne_points, negsampling_work, tsne_work

    # t-SNE: room = budget / iterations - 215,000 (half a step's overhead); points = sqrt(room / 20)
    assert max_tsne_points(1, budget=215_000 + 20 * 100) == 10
    assert max_tsne_points(0, budget=215_000 + 20 * 100) == 10              # 0 iterations priced as 1
    assert max_tsne_points(2, budget=2 * (215_000 + 20 * 100)) == 10
    assert max_tsne_points(1, budget=2 * (215_000 + 20 * 100)) == 104       # sqrt(219,000 / 20) = 104.6
    assert max_tsne_points(1, budget=215_000 + 10) == 0                     # room for less than one
    assert max_tsne_points(1, budget=100_000) == 0                          # no room at all
    refused(lambda: max_tsne_points(-1), "n_iter must be at least 0; got -1.")
    # negative sampling, V 10, d 4, 100 pairs, K 2: one softmax loss = 430,000 + 10^2 (4 + 40)
    # = 434,400; one epoch's scoring = 100 x 3 x (4 + 18) x 72 = 475,200
    assert negsampling_work(10, 100, 4, 2, 3) == 3 * (475_200 + 434_400) + 434_400
    assert negsampling_work(10, 0, 4, 2, 0) == 434_400
    refused(lambda: negsampling_work(10, -1, 4, 2, 1), "n_pairs must be at least 0; got -1.")
    assert max_negsampling_epochs(10, 100, 4, 2, budget=434_400 + 3 * 909_600) == 3
    assert max_negsampling_epochs(10, 100, 4, 2, budget=434_400 + 3 * 909_600 - 1) == 2
    assert max_negsampling_epochs(10, 100, 4, 2, budget=434_400 + 909_599) == 0
    assert max_negsampling_epochs(10, 100, 4, 2, budget=100_000) == 0
    assert tsne_work(1, 0) == 0 and tsne_work(3, 2) == 2 * (215_000 + 9 * 20)
    refused(lambda: tsne_work(0, 1), "n must be at least 1; got 0.")
    refused(lambda: tsne_work(2, -1), "n_iter must be at least 0; got -1.")


def test_budget_verdicts_carry_their_figures_and_name_each_bad_count():
    from core.budget import RATE, check, negsampling_work

    v = check(5.0, "This run", budget=5.0)                     # exactly the budget fits
    assert (v.fits, v.work, v.budget, v.message) == (True, 5.0, 5.0, "")
    v = check(3 * RATE, "This run", "at most 300 steps", budget=2 * RATE)
    assert (v.fits, v.work, v.budget) == (False, 3 * RATE, 2 * RATE) and v.seconds == 3.0
    assert v.message == ("This run would take about 3 seconds here, and each run gets at most 2 seconds so "
                         "that a whole class can share the machine. What fits: at most 300 steps.")
    refused(lambda: negsampling_work(10, 1, 0, 2, 1), "d_model must be at least 1; got 0.")
    refused(lambda: negsampling_work(10, 1, 4, 0, 1), "negatives must be at least 1; got 0.")
    refused(lambda: negsampling_work(10, 1, 4, 2, -1), "epochs must be at least 0; got -1.")
    # one pair, K 1, d 1: 1 x 2 x (1 + 18) x 72 = 2,736 per epoch, plus 430,000 + 10^2 x 41 per loss
    assert negsampling_work(10, 1, 1, 1, 1) == 2_736 + 2 * 434_100
