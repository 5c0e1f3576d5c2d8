"""Summarise a mutmut run (the mutants/ folder): score per area, and every survivor.

    python tools/mutation_summary.py            # the table and the survivors
    python tools/mutation_summary.py --diffs    # ... with each survivor's diff (mutmut show)
    python tools/mutation_summary.py --markdown # survivors as a Markdown table with a verdict each
    python tools/mutation_summary.py --by-module --only names.txt   # a row per module, these mutants only
    python tools/mutation_summary.py --by-module --merge ../first-run/mutants
        # mutants not judged here take their verdict from another run's mutants/ folder (a
        # by-name re-run in a copy of a run's folder, merged back with the run it copied), only
        # for functions whose code is the same there (mutmut's hash); --merge may be repeated

Score = killed / (all mutants that were run): a timeout counts as killed (the mutant broke
the code badly enough to hang a test); "no tests" and "survived" count against the score.
"""
from __future__ import annotations

import ast
import difflib
import fnmatch
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from mutmut.stats import status_by_exit_code

AREAS = {"core": "core/", "app.lab_ui": "app/lab_ui/"}
TARGETS = {"core": 0.90, "app.lab_ui": 0.80}


def results(root: Path = Path("mutants")) -> dict[str, str]:
    """mutant name -> status ("killed", "survived", "no tests", "timeout", ...)."""
    out = {}
    for meta in sorted(root.rglob("*.meta")):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            out[name] = status_by_exit_code[code]
    return out


def unchanged_functions(root: Path, other: Path) -> set[str]:
    """Functions (mutmut's prefix of a mutant name, e.g. ``core.tsne.x_tsne``) whose code is the
    same in both mutants/ folders, by mutmut's own hash of each function: only their mutants are
    the same mutants under the same names (a changed function's mutants are renumbered)."""
    same = set()
    for meta in sorted(root.rglob("*.meta")):
        theirs = other / meta.relative_to(root)
        if not theirs.exists():
            continue
        mine, old = (json.loads(m.read_text()).get("hash_by_function_name", {}) for m in (meta, theirs))
        module = ".".join(meta.relative_to(root).with_suffix("").with_suffix("").parts)
        same |= {f"{module}.{f}" for f, h in mine.items() if old.get(f) == h}
    return same


# Rules that recognise a survivor as equivalent (the mutant computes the same numbers for
# every input the code can receive), or as a known gap; anything else is "open".
VERDICTS = [
    (lambda a, b: "dtype=" in a and ("dtype=None" in b or "dtype=" not in b) or "astype(None)" in b,
     "equivalent: NumPy's default dtype gives the same numbers for these inputs"),
    (lambda a, b: '"UTF-8"' in b, "equivalent: codec names are case-insensitive"),
    (lambda a, b: "einsum(" in b and b != a and b.lower() == a.lower(), "equivalent: einsum labels, any case"),
    (lambda a, b: "reshape(-2" in b, "equivalent: NumPy reads any negative size as 'infer'"),
    (lambda a, b: 'kind="STABLE"' in b, "equivalent: NumPy sort kinds are case-insensitive"),
    (lambda a, b: "argsort(-S, kind=" in b, "equivalent: the default axis of a 2-D argsort is the last"),
    (lambda a, b: "np.clip(" in a and "clip" in b, "equivalent: a cosine of unit vectors already lies in [-1, 1]"),
    (lambda a, b: "np.errstate(" in b, "equivalent unless a run overflows inside it; no test's run does"),
    (lambda a, b: "fill_diagonal(S, None)" in b, "equivalent: NaN sorts last, as -inf did"),
    (lambda a, b: "perf_counter" in a or "seconds" in a, "open: timing is not asserted (it would be flaky)"),
    (lambda a, b: re.search(r'"XX|XX"|\(None\)$', b.strip()) is not None or (a.lower() == b.lower() and a != b),
     "open: a message's wording is not pinned"),
]


# Survivors reviewed one by one: (mutant name pattern, text of the mutated line, verdict).
# Matched on the function and the changed text, not on mutmut's number, which shifts when
# the code changes ("^text": the whole changed line; "-text": text of the original line). A
# reason must hold for every input the code can receive.
# A survivor that a test added after the run should kill (not re-run through mutmut yet).
LATE_TEST_NUMBER = ("open: test_numbers_keep_their_zeros_and_their_digits, added after the run passed it, "
                    "should kill it (not re-run)")
REVIEWED = [
    ("core.skipgram.x_loss_and_grads__mutmut_*", "block: int = 129",
     "equivalent: the block size only groups rows; results agree to rounding (test_block_size_...)"),
    ("core.skipgram.x_train__mutmut_*", "loss_and_grads(E, W, C, None)",
     "equivalent: loss_and_grads recomputes the same row totals when n is not given"),
    ("core.skipgram.x_train__mutmut_*", "loss_and_grads(E, W, C, )",
     "equivalent: loss_and_grads recomputes the same row totals when n is not given"),
    ("core.skipgram.x_train__mutmut_*", "n = None",
     "equivalent: loss_and_grads recomputes the same row totals when n is None"),
    ("core.skipgram.x_train__mutmut_*", "range(config.steps + 2)",
     "equivalent: the loop always leaves at step == steps, before the extra pass"),
    ("core.*train*", "loss >= BLOWUP_FACTOR",
     "equivalent except for a loss of exactly 10 x the first, one float value"),
    ("core.projection.x_fix_signs__mutmut_*", "signs == 1] = 1.0",
     "equivalent: only a row of zeros has sign 0, and any sign times zeros is zeros"),
    ("core.projection.x_fix_signs__mutmut_*", "signs == 0] = 2.0",
     "equivalent: only a row of zeros has sign 0, and any sign times zeros is zeros"),
    ("core.projection.x_fix_signs__mutmut_*", "components / signs",
     "equivalent: the signs are +1 or -1, and dividing by them is multiplying"),
    ("core.honesty.x_random_orthogonal__mutmut_*", "signs[signs == ",
     "equivalent: R's diagonal is never exactly 0 for a Gaussian matrix (probability 0)"),
    ("core.honesty.x_random_orthogonal__mutmut_*", "Q / signs",
     "equivalent: the signs are +1 or -1, and dividing by them is multiplying"),
    ("core.honesty.x_rotation_check__mutmut_*", ">= 1e-9",
     "equivalent except for an entry that moves by exactly 1e-9"),
    ("core.projection.x_pca__mutmut_*", "np.linalg.svd(Xc, ",
     "equivalent: full_matrices only adds rows of Vt past min(n, d), which pca never reads"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "max_iter: int = 201",
     "equivalent: no row needs 200 bisection steps to reach the tolerance"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "todo = np.abs(diff) > tol",
     "equivalent except for an entropy exactly tol from the target, one float value"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "(diff >= 0)",
     "equivalent: a row with diff == 0 is not in todo, so it is in neither up nor down"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "(diff <= 0)",
     "equivalent: a row with diff == 0 is not in todo, so it is in neither up nor down"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "beta = np.full(n, ",
     "equivalent within the tolerance: another starting beta, the same calibrated perplexity"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "beta[up] * 3",
     "equivalent within the tolerance: a wider search step, the same calibrated perplexity"),
    ("core.tsne.x__row_probabilities__mutmut_*", "np.where(P > 0, P, 2.0)",
     "equivalent: the entries it changes are multiplied by P = 0"),
    ("core.tsne.x_tsne__mutmut_*", "Y -= Y.mean(axis=None)",
     "equivalent: t-SNE's gradient and the final PCA ignore a shift of the whole picture"),
    ("core.tsne.x_tsne__mutmut_*", "(grad >= 0) == (step > 0)",
     "equivalent except where a gradient is exactly 0, where the gain rule is a tie anyway"),
    ("core.tsne.x_tsne__mutmut_*", "np.zeros_like(None)",
     "equivalent: a 0-d zero broadcasts as the (n, k) zeros did, and the first step replaces it"),
    ("core.tsne.x_tsne__mutmut_*", "np.ones_like(None)",
     "equivalent: a 0-d one broadcasts as the (n, k) ones did, and the first step replaces it"),
    ("core.corpus.xǁCorpusǁfrom_text__mutmut_*", "({words[1]!r})",
     "equivalent: with one distinct word (and at least two words) words[1] is words[0]"),
    ("core.corpus.xǁCorpusǁmost_frequent__mutmut_*", "np.bincount(self.ids, )",
     "equivalent: every vocabulary word occurs in ids, so the count is already V long"),
    ("core.cbow.x_row_signals__mutmut_*", "np.bincount(corpus.ids, )",
     "equivalent: every vocabulary word occurs in ids, so the count is already V long"),
    ("core.bigtext.x_suggested_epochs__mutmut_*", "max(n_words, 2)",
     "equivalent: 0 or 1 words give 1,200,000 or 600,000 epochs, both clipped to 20"),
    ("core.vectors_io.x__text__mutmut_*", '"UTF-8-SIG"', "equivalent: codec names are case-insensitive"),
    ("core.sgns.x_block_loss_and_grads__mutmut_*", "/= -1.0",
     "equivalent: dividing by -1 is multiplying by -1, exactly"),
    ("core.sgns.x_block_loss_and_grads__mutmut_*", "out=None",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_block_loss_and_grads__mutmut_*", "np.negative(S, )",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_block_loss_and_grads__mutmut_*", "np.reciprocal(S, )",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_block_loss_and_grads__mutmut_*", "tiny, )",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.cbow.x_bags__mutmut_*", "bag_of.reshape(None)",
     "equivalent with this NumPy: unique(axis=0) already gives a 1-D inverse (the reshape guards 2.0.0's 2-D one)"),
    ("core.cbow.x_contexts__mutmut_*", "(len(i)) or True",
     "equivalent: a corpus has at least two words, so at least one pair"),
    ("core.cbow.x_loss_and_grads_cbow__mutmut_*", "b.K, None)",
     "equivalent: loss_and_grads recomputes the same row totals when n is not given"),
    ("core.cbow.x_loss_and_grads_cbow__mutmut_*", "b.K, )",
     "equivalent: loss_and_grads recomputes the same row totals when n is not given"),
    ("core.relations.x_accuracy__mutmut_*", "analogy(table, a, b, c, k=",
     "equivalent: an answer is right or wrong by its first word only; k only lists more"),
    ("core.relations.x_accuracy__mutmut_*", "analogy(table, a, b, c, expected=d",
     "equivalent: an answer is right or wrong by its first word only; k only lists more"),
    ("core.generated.x_generate_corpus__mutmut_*", "rng.random() <= 0.5",
     "equivalent except when the generator returns exactly 0.5 (one value in 2^53)"),
    ("core.bigtext.x_sense_split__mutmut_*", "side = pca(U, ",
     "equivalent: the first principal coordinate is the same however many directions pca computes"),
    ("core.bigtext.x_sense_split__mutmut_*", "coords[:, 0] > 0",
     "equivalent except for a neighbour exactly on the split (coordinate 0.0), one float value"),
    ("core.bigtext.x_sense_split__mutmut_*", "E[ids]]), ).coords",
     "equivalent: k=2 is pca's default"),
    ("core.sgns.x_sequential_updates__mutmut_*", "if j >= 0:",
     "equivalent: for j = 0 the correction sums over no earlier slot (a zero-size product)"),
    ("core.sgns.x_sequential_updates__mutmut_*", "np.tri(J, k=-1, ",
     "equivalent: the 0/1 mask is exact in any float dtype"),
    ("core.sgns.x_sequential_updates__mutmut_*", "S[..., 0] /= -1.0",
     "equivalent: dividing by -1 is multiplying by -1, exactly"),
    ("core.sgns.x_sequential_updates__mutmut_*", "np.log1p(np.exp(S, ",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_sequential_updates__mutmut_*", "out=corr",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_sequential_updates__mutmut_*", "dS[:, :j], out=None",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_sequential_updates__mutmut_*", "dS[:, :j], )",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_sequential_updates__mutmut_*", "np.negative(s, ",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_sequential_updates__mutmut_*", "dX -= np.matmul(gram, X, ",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_noise_table__mutmut_*", "len(q) + 1)",
     "equivalent: the clamp acts only if rounding leaves the cumulative total 0.5/size below 1 (it is ~1e-16)"),
    ("core.word2vec.x__update_block__mutmut_*", "axis=0, out=None)",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.word2vec.x__update_block__mutmut_*", "axis=0, )",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.word2vec.x__update_block__mutmut_*", "subtract=True, )",
     "equivalent: scatter_add makes its own work array when none is given"),
    ("core.word2vec.x__update_block__mutmut_*", "subtract=True, work=None)",
     "equivalent: scatter_add makes its own work array when none is given"),
    ("core.word2vec.x__update_block__mutmut_*", "scale=lr, )",
     "equivalent: sequential_updates makes its own buffers when none are given"),
    ("core.word2vec.x__update_block__mutmut_*", "buffers=None)",
     "equivalent: sequential_updates makes its own buffers when none are given"),
    ("core.tsne.x_tsne__mutmut_*", "or it - 1 == n_iter)",
     "equivalent: a last frame the loop misses is added after it, with the same picture and KL"),
    ("core.context_mix.x_ambiguous_in_context__mutmut_*", "(lab != s).any()",
     "equivalent: labels take only the two sense values, so 'a sense missing' = 'all one sense'"),
    ("core.generated.x_generate_corpus__mutmut_*", "order: list[int] = None",
     "equivalent: None and [] are both empty for `if not order`, which refills it"),
    ("core.honesty.x_neighbour_overlap__mutmut_*", "X.ndim != 2 and Y.ndim != 2",
     "equivalent: checks.array has already made both tables 2-D"),
    ("core.honesty.x_neighbour_overlap__mutmut_*", "k must be at least 1.",
     "equivalent: unreachable, checks.whole(k, 'k', 1) refuses k < 1 first"),
    ("core.negsampling.x_train_negsampling__mutmut_*", "(diverged_step is not None) or True",
     "equivalent: recomputing the final loss of a finished run gives softmax_losses[-1] exactly"),
    ("core.tokenizer.x_gpt2__mutmut_*", "explicit_n_vocab=None",
     "equivalent: tiktoken counts the same 50,257 ids without the explicit check"),
    ("core.tokenizer.x_gpt2__mutmut_*", "^)",
     "equivalent: tiktoken counts the same 50,257 ids without the explicit check"),
    ("core.tokenizer.x_*__mutmut_*", '.decode(errors="replace")',
     "equivalent: UTF-8 is the default codec of bytes.decode"),
    ("core.tokenizer.x_tokenize__mutmut_*", "disallowed_special=None",
     "equivalent: tiktoken treats None like () (no special text refused)"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "(beta[up] + hi[up]) * 2",
     "equivalent within the tolerance: another search path, the same perplexity to 1e-5 bits"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "(beta[down] - lo[down]) / 2",
     "equivalent within the tolerance: another search path, the same perplexity to 1e-5 bits"),
    ("core.tsne.x_conditional_probabilities__mutmut_*", "(beta[down] + lo[down]) / 3",
     "equivalent within the tolerance: another search path, the same perplexity to 1e-5 bits"),
    # round 5
    ("core.config_rules.xǁRealǁcheck__mutmut_*", "number(value, None, ",
     "equivalent: validate, the rule's only caller, replaces the error's message with the rule's own"),
    ("core.config_rules.xǁWholeǁcheck__mutmut_*", "whole(value, None, ",
     "equivalent: validate, the rule's only caller, replaces the error's message with the rule's own"),
    ("core.config_rules.xǁRealǁcheck__mutmut_*", "^x = number(value, self.message, self.low, low_open=self.low_open)",
     "equivalent: None is number's default upper bound"),
    ("core.corpus.x_text_changes__mutmut_*", '.sub("XX XX", ',
     "equivalent: the separator is ASCII, and only non-ASCII characters are counted as dropped"),
    ("core.budget.x_max_negsampling_epochs__mutmut_*", "skipgram_step(V, d_model)) / one))",
     "equivalent except within one rounding of a whole quotient: int() truncates a positive quotient as // floors, "
     "and max(0, ...) clamps a negative one"),
    ("core.budget.x_max_skipgram_steps__mutmut_*", "int(budget / skipgram_step(V, d_model))",
     "equivalent except within one rounding of a whole quotient: int() truncates a positive quotient as // floors"),
    ("core.budget.x_max_tsne_points__mutmut_*", "if room >= 0 else 0",
     "equivalent: for room 0 the formula gives int(0) = 0 as well"),
    ("core.budget.x_max_tsne_points__mutmut_*", "if room > 1 else 0",
     "equivalent: for room up to 1, int(sqrt(room / 20)) is 0 as well"),
    ("core.cbow.x_train_cbow__mutmut_*", "n = None",
     "equivalent: loss_and_grads recomputes the same row totals when n is None"),
    ("core.cbow.x_train_cbow__mutmut_*", "(E, W, b, None)",
     "equivalent: loss_and_grads recomputes the same row totals when n is not given"),
    ("core.cbow.x_train_cbow__mutmut_*", "(E, W, b, )",
     "equivalent: loss_and_grads recomputes the same row totals when n is not given"),
    ("core.embedding.x__check_ids__mutmut_*", "indices(ids, None, vocab_size)",
     "equivalent: the message is rewritten below, which reads only the word 'outside' in it"),
    ("core.embedding.x_sgd_step__mutmut_*", "np.asarray(table, )",
     "equivalent: the gradient is float64, so the step is computed in float64 for any real table"),
    ("core.embedding.x_sgd_step__mutmut_*", "np.asarray(grad, )",
     "equivalent: the table is float64, so the step is computed in float64 for any real gradient"),
    ("core.similarity.x_cosine_steps__mutmut_*", '"v", 1, max_size=None)',
     "equivalent: u has the same length and is checked first, against the same limit"),
    ("core.similarity.x_cosine_steps__mutmut_*", '^v = array(v, "v", 1, )',
     "equivalent: u has the same length and is checked first, against the same limit"),
    ("core.similarity.x_cosine_steps__mutmut_*", "if (scaled == 0) and False else",
     "equivalent: when the scaled dot is 0, su * 0 * sv is 0.0 too (su and sv are finite)"),
    ("core.similarity.x_norm__mutmut_*", "if u.size else 1.0",
     "equivalent: the length of an empty vector is 0 at any scale"),
    ("core.similarity.x_nearest_indices__mutmut_*", ".reshape(m, -2)",
     "equivalent: NumPy reads any negative size as 'infer'"),
    ("core.tsne.x_tsne__mutmut_*", "if (not isinstance(X, np.ndarray)) or True else",
     "equivalent: np.asarray gives the same float64 values as astype, and tsne never writes to X"),
    ("core.relations.x_odd_one_out_round__mutmut_*", "replace=None)",
     "equivalent: Generator.choice reads replace=None as False (it tests the value's truth)"),
    ("core.relations.x_relations_text__mutmut_*", "rng.random() <= 0.5",
     "equivalent except when the generator returns exactly 0.5 (one value in 2^53)"),
    ("core.position.x__same__mutmut_*", "scale = max(1.0, float(np.abs(v).max()))",
     "equivalent: u and v are the same only if their largest entries differ by 1e-12 of the scale, so either sets it"),
    ("core.position.x__same__mutmut_*", "scale = max(1.0, float(np.abs(u).max()), )",
     "equivalent: u and v are the same only if their largest entries differ by 1e-12 of the scale, so either sets it"),
    ("core.sgns.x_window_updates__mutmut_*", "np.matmul(gram, X, out=None)",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.sgns.x_window_updates__mutmut_*", "np.matmul(gram, X, )",
     "equivalent: the same numbers written to a fresh array instead of the reused buffer"),
    ("core.word2vec.x_train_word2vec__mutmut_*", "max(2, len(ids) * config.epochs)",
     "equivalent: the total is 1 only for one word read once, which has no pair to update"),
    ("core.word2vec.x_train_word2vec__mutmut_*", "_epoch_plan(ids, None, ",
     "equivalent: _epoch_plan does not read the sentence numbers"),
    ("core.word2vec.x_train_word2vec__mutmut_*", "constant_values=-2)",
     "equivalent: sentence numbers are 0 or more, so any negative padding matches no sentence"),
    ("core.word2vec.xǁ_Buffersǁ__init____mutmut_*", "self.flat = None",
     "equivalent: scatter_add makes its own work array when none is given"),
    ("core.word2vec.xǁ_Buffersǁ__init____mutmut_*", "self.kernel = None",
     "equivalent: window_updates makes its own buffers when none are given"),
    ("core.word2vec.xǁ_Buffersǁ__init____mutmut_*", "G * (K + 2)",
     "equivalent: a larger work array; scatter_add uses only its first n x d entries"),
    ("core.word2vec.xǁ_Buffersǁ__init____mutmut_*", "(G + 3 * w, d)",
     "equivalent: a larger work array; only its first rows are used"),
    ("core.word2vec.x_block_size__mutmut_*", "MAX_TOUCHES / touches)))",
     "equivalent except within one rounding of a whole quotient: int() truncates a positive quotient as // floors"),
    ("core.word2vec.x__epoch_plan__mutmut_*", "rng.random(len(ids)) <= keep[ids]",
     "equivalent except when the generator returns exactly a keep probability below 1 (one value in 2^53)"),
    ("core.word2vec.x__epoch_plan__mutmut_*", "rng.integers(len(table), ",
     "equivalent: integers(n) draws from 0..n-1 as integers(0, n) does, the same numbers"),
    ("core.word2vec.x_train_word2vec__mutmut_*", "losses.append(epoch_loss / max(epoch_pairs, 2))",
     "equivalent: two kept words of a sentence are each other's context, so an epoch has 0 pairs or at least 2"),
    ("core.tokenizer.x_gpt2__mutmut_*", "^",
     "equivalent (explicit_n_vocab deleted): tiktoken counts the same 50,257 ids without the explicit check"),
    ("core.sgns.x_scatter_add__mutmut_*", "pair = None",
     "equivalent: the complex view is a speed path; adding float pairs as complex numbers gives the same sums"),
    ("core.sgns.x_scatter_add__mutmut_*", "pair = _PAIRS.get(None)",
     "equivalent: the complex view is a speed path; adding float pairs as complex numbers gives the same sums"),
    ("core.sgns.x_scatter_add__mutmut_*", "if pair is None and target.shape[1] % 2 == 0:",
     "equivalent: the complex view is a speed path (and view(None) is the same view); the same sums"),
    ("core.sgns.x_scatter_add__mutmut_*", "target.shape[1] / 2 == 0:",
     "equivalent: the complex view is a speed path; adding float pairs as complex numbers gives the same sums"),
    ("core.sgns.x_scatter_add__mutmut_*", "if (work is None) or True else",
     "equivalent: the same positions written to a fresh array instead of the reused one"),
    ("core.honesty.x_neighbour_overlap__mutmut_*", '-raise ValueError("k must be at least 1.")',
     "equivalent: unreachable, checks.whole(k, 'k', 1) refuses k < 1 first"),
    ("core.word2vec.xǁ_Buffersǁ__init____mutmut_*", "G + 3 * w), d)",
     "equivalent: a larger work array; scatter_add uses only its first n x d entries"),
    # round 6: the modules changed after round 5's run (tsne, relations, senses, word2vec, sgns, export)
    ("core.relations.x_side_split__mutmut_*", "if a not in p[:3] and ",
     "equivalent: a and b are side words (relation_sides), never a pair's identity word p[2]"),
    ("core.relations.x_side_split__mutmut_*", " and b not in p[:3] and ",
     "equivalent: a and b are side words (relation_sides), never a pair's identity word p[2]"),
    ("core.embedding.x__check_ids__mutmut_*", 'indices(ids, "XXToken idsXX", ',
     "equivalent: the message is rewritten below, which reads only the word 'outside' in it"),
    ("core.embedding.x__check_ids__mutmut_*", 'indices(ids, "token ids", ',
     "equivalent: the message is rewritten below, which reads only the word 'outside' in it"),
    ("core.embedding.x__check_ids__mutmut_*", 'indices(ids, "TOKEN IDS", ',
     "equivalent: the message is rewritten below, which reads only the word 'outside' in it"),
    ("core.skipgram.x_descend__mutmut_*", "range(config.steps + 2)",
     "equivalent: the loop always leaves at step == steps, before the extra pass"),
    ("core.corpus.xǁCorpusǁfrom_text__mutmut_*", '-raise CorpusError("The vocabulary cap must be at least 2.")',
     "equivalent: the second copy of this check is unreachable (max_vocab < 2 is refused before the text is read)"),
    ("core.similarity.x_normalize_rows__mutmut_*", "out=None, where=",
     "equivalent in practice: np.divide gets the buffer np.abs(X) (or the norm's square) has just freed, "
     "which holds 0 in every zero row; non-finite rows are refused (a test filling freed memory with 7s "
     "first still saw 0s)"),
    ("core.sgns.x_negative_sets_asked__mutmut_*", "asks[w, 1:] = None",
     "equivalent: None is stored as False in a boolean array"),
    ("core.sgns.x_negative_sets_asked__mutmut_*", "context = slots - (slots >= w)",
     "equivalent: it renumbers only the centre's own slot, whose row is then set to False"),
    ("core.tsne.x_tsne__mutmut_*", "(f[1] + turn.mean) @ turn.components.T",
     "equivalent to rounding: every frame is re-centred after each step, so the mean is about 1e-17"),
    # round 7 (the lead): word2vec as changed by expected_window, and its round-6 code not run before
    ('core.word2vec.x__update_in_passes__mutmut_*', 'work=None)',
     'equivalent: the same numbers written to a fresh array instead of the reused buffer'),
    ('core.word2vec.x__update_in_passes__mutmut_*', 'subtract=True, )',
     'equivalent: the same numbers written to a fresh array instead of the reused buffer'),
    ('core.word2vec.x__update_in_passes__mutmut_*', 'out=None)',
     'equivalent: the same numbers written to a fresh array instead of the reused buffer'),
    ('core.word2vec.x__update_in_passes__mutmut_*', 'axis=0, )',
     'equivalent: the same numbers written to a fresh array instead of the reused buffer'),
    ('core.word2vec.x__update_in_passes__mutmut_*', 'buffers=None)',
     'equivalent: the same numbers written to a fresh array instead of the reused buffer'),
    ('core.word2vec.x__update_in_passes__mutmut_*', 'scale=lr[o::p], )',
     'equivalent: the same numbers written to a fresh array instead of the reused buffer'),
    ('core.word2vec.x__update_in_passes__mutmut_*', 'reshape(n, span, -2)',
     "equivalent: NumPy reads any negative size as 'infer'"),
    ('core.word2vec.x__epoch_plan__mutmut_*', 'if config.negative_sets >= 1:',
     'equivalent: with one set the extra draw has no columns, so it draws no numbers (the generator does not move) and adds nothing'),
    ('core.word2vec.x__epoch_plan__mutmut_*', '(more or rng).integers(len(table), ',
     'equivalent: integers(n) draws from 0..n-1 as integers(0, n) does, the same numbers'),
    ('core.word2vec.xǁFlagǁcheck__mutmut_*', 'raise TypeError(None)',
     "equivalent: validate() turns any TypeError of a rule into ConfigTypeError with the rule's own message"),
    ('core.word2vec.xǁ_Buffersǁ__init____mutmut_*', 'passes: int = 2, expected',
     'equivalent: the one caller (train_word2vec) passes both passes and expected'),
    ('core.word2vec.xǁ_Buffersǁ__init____mutmut_*', 'expected: bool = True)',
     'equivalent: the one caller (train_word2vec) passes both passes and expected'),
    ('core.word2vec.xǁ_Buffersǁ__init____mutmut_*', '-self.P0 = np.empty((G + 2 * w, d) if passes > 1 else (0, d), np.float32)',
     "equivalent: P0 is read only when passes > 1; in float64 it holds the same float32 values, "
     "and their difference, rounded once to float32 by scatter_add, is float32's own subtraction"),
    ('core.word2vec.xǁ_Buffersǁ__init____mutmut_*', 'G * (SK + 2)',
     'equivalent: a larger work array; scatter_add uses only its first n x d entries'),
    ("app.lab_ui.captions.x_number__mutmut_*", "abs(x) <= 1e18",
     "equivalent: 1e18 prints the same through either branch"),
    ("app.lab_ui.captions.x_number__mutmut_*", "abs(x) < 1e+18",
     "equivalent: 1e+18 is the same number as 1e18"),
    ("app.lab_ui.captions.x_number__mutmut_*", "if abs(x) > 1:",
     "equivalent: +-1 is whole, so the first branch has printed it already"),
    ("app.lab_ui.captions.x_number__mutmut_*", "if abs(x) >= 2:",
     "equivalent: between 1 and 2 both branches keep digits - 1 decimals"),
    ("app.lab_ui.captions.x_number__mutmut_*", 'rstrip("XX0XX")',
     "equivalent: rstrip takes a set of characters, and a printed number has no X"),
    ("app.lab_ui.captions.x_number__mutmut_*", 'rstrip("XX.XX")',
     "equivalent: rstrip takes a set of characters, and a printed number has no X"),
    ("core.tokenizer.x_clean_text__mutmut_*", "if (n_bad) or True else text",
     "equivalent: the replacement pass over a text without surrogates returns it unchanged"),
    ("app.lab_ui.captions.x_objectives__mutmut_*", 'float("INF")',
     "equivalent: float() reads 'INF' as infinity too"),
    ("app.lab_ui.bigtext_view.x_frequent_view__mutmut_*", 'r.vocab[:n_map], title=f"This flat picture',
     "equivalent: 420 px is charts.scatter's default size"),
    ("app.lab_ui.train_views.x_export_view__mutmut_*", 'gap="SMALL"',
     "equivalent: Streamlit lower-cases a container's gap name"),
    ("app.lab_ui.exercises.x_read_number__mutmut_*", r"\u00A0\u202F",
     "equivalent: the same two characters (hex digits of an escape have no case)"),
    ("app.lab_ui.captions.x_number__mutmut_*", 'if (decimals) and False else text', LATE_TEST_NUMBER),
    ("app.lab_ui.captions.x_number__mutmut_*", 'rstrip("0").rstrip(None) if decimals', LATE_TEST_NUMBER),
    ("app.lab_ui.captions.x_number__mutmut_*", 'rstrip("0").lstrip(".") if decimals', LATE_TEST_NUMBER),
    ("app.lab_ui.captions.x_number__mutmut_*", 'rstrip(None).rstrip(".") if decimals', LATE_TEST_NUMBER),
    ("app.lab_ui.captions.x_number__mutmut_*", 'lstrip("0").rstrip(".") if decimals', LATE_TEST_NUMBER),
    # round 7: the seeded sample's survivors (seed 7)
    ("app.lab_ui.pair_view.x_buttons__mutmut_*", 'gap="SMALL"',
     "equivalent: Streamlit lower-cases a container's gap name"),
    ("app.lab_ui.train_controls.x_own_text__mutmut_*", 'raw.decode("UTF-8", ',
     "equivalent: codec names are case-insensitive"),
    ("app.lab_ui.bigtext_view.xǁWord2VecJobǁstart__mutmut_*", "threading.Thread(target=self.run, daemon=True)",
     "equivalent: nothing reads the thread's name (not the app, the log format or a test), and run() "
     "catches every error itself"),
    ("app.lab_ui.charts.x_chart_title__mutmut_*", 't.get("text", None).get("expr", "") if isinstance(t, dict) and',
     "equivalent: read only when t['text'] is a dict, so the default is never used"),
    ("app.lab_ui.charts.x_wrap_title__mutmut_*", "big: bool = True",
     "equivalent: every caller passes big"),
    ("app.lab_ui.links.x_builder__mutmut_*", 'PREFIXES.get(page_file.split("/", 1)[-1])',
     "equivalent: the router passes a LESSON file, 'app_pages/<name>.py', with one slash"),
    ("app.lab_ui.train_result.x_loss_panel__mutmut_*", '^key="train_loss_table", )',
     "equivalent: stretch=True is chart_with_table's default"),
    ("app.lab_ui.runs.x__wait_for_partial__mutmut_*", "if time.monotonic() >= deadline:",
     "equivalent except for a clock reading exactly at the deadline, one float value"),
    ("app.lab_ui.parse.x_parse_ids__mutmut_*", 'strip("XX[]()XX")',
     "open: test_vector_and_matrix_refusals_in_full ('X5'), added after the run passed it, should kill it (not re-run)"),
]


def _functions(path: Path) -> dict[str, list[str]]:
    """Every function of a file in mutants/ (originals and mutants side by side), as lines."""
    lines = path.read_text().splitlines()
    return {node.name: lines[node.lineno - 1:node.end_lineno] for node in ast.walk(ast.parse("\n".join(lines)))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


_FILES: dict[Path, dict[str, list[str]]] = {}


def changed_lines(name: str) -> tuple[str, str]:
    """(removed lines, added lines) of one mutant against the original function, read from
    mutants/ (what ``mutmut show`` prints, without starting a process per mutant)."""
    area = next(a for a in AREAS if name.startswith(a + "."))
    module, function = name[len(area) + 1:].split(".", 1)
    path = Path("mutants") / AREAS[area] / f"{module}.py"
    funcs = _FILES.setdefault(path, _functions(path))
    orig = funcs.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", [])
    mutant = funcs.get(function, [])
    a, b = [ln.strip() for ln in orig[1:]], [ln.strip() for ln in mutant[1:]]
    if orig and mutant and orig[0].split("(", 1)[1] != mutant[0].split("(", 1)[1]:   # a changed default
        a, b = [orig[0].split("(", 1)[1].strip()] + a, [mutant[0].split("(", 1)[1].strip()] + b
    diff = list(difflib.ndiff(a, b))
    return (" ".join(ln[2:] for ln in diff if ln.startswith("- ")),
            " ".join(ln[2:] for ln in diff if ln.startswith("+ ")))


def verdict(name: str) -> tuple[str, str, str]:
    """(removed line, added line, verdict) of one mutant."""
    a, b = changed_lines(name)
    for pattern, text, why in REVIEWED:
        if fnmatch.fnmatch(name, pattern) and (b == text[1:] if text.startswith("^") else
                                               text[1:] in a if text.startswith("-") else text in b):
            return a, b, why
    for rule, why in VERDICTS:
        if rule(a, b):
            return a, b, why
    return a, b, "open"


def _cell(t: str) -> str:
    return "`" + t[:90].replace("|", "\\|").replace("`", "'") + "`"


def markdown(survivors: list[str]) -> None:
    rows = [(name, *verdict(name)) for name in survivors]
    tally = Counter("open" if why.startswith("open") else "equivalent" for *_, why in rows)
    print("Verdicts: " + ", ".join(f"{n} {kind}" for kind, n in tally.most_common()) + ".\n")
    print("| mutant | original | mutant's change | verdict |")
    print("|---|---|---|---|")
    for name, a, b, why in rows:
        print(f"| {name.split('.', 1)[1]} | {_cell(a)} | {_cell(b)} | {why} |")


def _row(label: str, c: Counter, target: str) -> str:
    total = sum(c.values())
    done = total - c["not checked"]
    killed = c["killed"] + c["timeout"] + c["caught by type check"]
    score = f"{100 * killed / done:.1f}%" if done else "-"
    return (f"{label:<24} {total:>8} {c['killed']:>7} {c['timeout']:>8} {c['survived']:>9} "
            f"{c['no tests']:>9} {c['not checked']:>8} {score:>7} {target:>7}")


def main(argv: list[str]) -> None:
    """Options: --by-module (a row per module), --only FILE (mutant names, one a line: the
    table and the survivors of those only), --merge DIR (verdicts of mutants not judged here
    from another mutants/ folder, for functions whose code is the same there; repeatable), --markdown [PREFIX], --diffs."""
    res = results()
    for i, arg in enumerate(argv):       # --merge DIR, possibly several times: the first that judged it wins
        if arg == "--merge":
            other, same = results(Path(argv[i + 1])), unchanged_functions(Path("mutants"), Path(argv[i + 1]))
            res = {n: (other.get(n, s) if s == "not checked" and n.rsplit("__mutmut_", 1)[0] in same else s)
                   for n, s in res.items()}
    if "--only" in argv:
        keep = set(Path(argv[argv.index("--only") + 1]).read_text().split())
        res = {n: s for n, s in res.items() if n in keep}
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, status in res.items():
        area = next(a for a in AREAS if name.startswith(a + "."))
        counts[area][status] += 1
        if "--by-module" in argv:
            counts[name.split(".x")[0].split(".xǁ")[0]][status] += 1
    header = (f"{'area':<24} {'mutants':>8} {'killed':>7} {'timeout':>8} {'survived':>9} {'no tests':>9} "
              f"{'not run':>8} {'score':>7} {'target':>7}")
    print(header)
    for area, c in sorted(counts.items()):
        if not sum(v for k, v in c.items() if k != "not checked"):
            continue                                   # nothing of it was run
        label = AREAS.get(area, "  " + area.split(".")[-1])
        target = f"{100 * TARGETS[area]:.0f}%" if area in TARGETS else ""
        print(_row(label, c, target))
    survivors = sorted(n for n, s in res.items() if s in ("survived", "no tests", "suspicious"))
    if "--markdown" in argv:
        prefix = argv[-1] if not argv[-1].startswith("-") and argv[-2] == "--markdown" else ""
        markdown([n for n in survivors if n.startswith(prefix)])
        return
    print(f"\n{len(survivors)} survivors:")
    for name in survivors:
        print(f"  {res[name]:<9} {name}")
        if "--diffs" in argv:
            diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], capture_output=True,
                                  text=True).stdout
            print("\n".join("      " + ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")))


if __name__ == "__main__":
    main(sys.argv[1:])
