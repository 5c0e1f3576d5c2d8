"""One way to train: a frozen ``RunRequest`` in, ``run(request)``, one ``RunResult`` out.

Every screen that trains describes its run the same way: which objective, the text (and,
for the lesson's trainers, the window and the vocabulary cap) and the objective's frozen
config. ``run`` builds the corpus, plans the run against the budget, trains and hands back
one result type whatever the objective::

    RunRequest(objective, text, window, config, max_vocab, replay_frames, fit_budget, step_options)
       └─ plan(request, corpus) -> Plan(config to train, StepsCut or None)
       └─ the objective's trainer (core.skipgram.train, core.cbow.train_cbow,
          core.negsampling.train_negsampling, core.bigtext.train_on_text)
       └─ RunResult: E (V, d) and W (V, d), one row per word in both (the Vectors orientation)

Nothing is rewritten silently on the way. The two changes a run may get are fields of the
request, and what they did is in the result:

* ``replay_frames``: keep a snapshot about this many times in the run (``snapshot_every =
  max(1, steps // replay_frames)``); None keeps the config's own ``snapshot_every``;
* ``fit_budget``: a full-softmax (or CBOW) run longer than ``core.budget`` allows is cut to the
  largest of ``step_options`` that fits (a round number when none does); ``result.cut`` says
  how many steps were asked, how many ran and why (None: nothing was cut).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, fields, replace
from typing import Callable, Union

import numpy as np

from core import budget
from core.corpus import GUIDE_WINDOW, Corpus, split_words
from core.negsampling import NegSamplingConfig
from core.skipgram import SkipGramConfig
from core.word2vec import Word2VecConfig

OBJECTIVES = ("softmax", "cbow", "negsampling", "word2vec")
"""Full-softmax skip-gram, CBOW (both full-batch descent), negative sampling on the lesson's
pairs, and word2vec's recipe on a big text."""
REPLAY_FRAMES = 60
"""A full-batch run keeps a snapshot of E about this many times by default (the replay's frames)."""
CONFIG_OF = {"softmax": SkipGramConfig, "cbow": SkipGramConfig, "negsampling": NegSamplingConfig,
             "word2vec": Word2VecConfig}
Config = Union[SkipGramConfig, NegSamplingConfig, Word2VecConfig]
Callback = Callable[[int, float], Union[bool, None]]


@dataclass(frozen=True)
class RunRequest:
    """Everything a run depends on; frozen and hashable, so it is its own cache key.

    ``window`` and ``max_vocab`` make the lesson's corpus (``core.corpus.Corpus.from_text``);
    word2vec reads the text line by line and has its window in its config (``window`` unused).
    """

    objective: str
    text: str
    config: Config
    window: int = GUIDE_WINDOW
    max_vocab: int | None = None
    replay_frames: int | None = REPLAY_FRAMES   # snapshots about this many times (None: config's own)
    fit_budget: bool = False           # cut the steps to what core.budget allows (result.cut says so)
    step_options: tuple[int, ...] = ()  # the step counts a cut may land on (the Steps slider's)

    def __post_init__(self):
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {self.objective!r}.")
        if not isinstance(self.config, CONFIG_OF[self.objective]):
            raise TypeError(f"A {self.objective} run needs a {CONFIG_OF[self.objective].__name__}, "
                            f"not {type(self.config).__name__}.")


@dataclass(frozen=True)
class StepsCut:
    """The budget cut a full-batch run: ``asked`` steps were asked for, ``ran`` were trained."""

    asked: int
    ran: int
    message: str       # why, and what fits instead (markdown, written by core)


@dataclass(frozen=True)
class Plan:
    """What ``run`` will train: the request as trained (its config after any cut and snapshot
    spacing, nothing left to plan: two requests that train the same run have the same one,
    a cache's key) and the cut, if any."""

    request: RunRequest
    cut: StepsCut | None = None

    @property
    def config(self) -> Config:
        return self.request.config


@dataclass(frozen=True)
class RunResult:
    """What any run produced, one type for every objective.

    ``losses``: the objective's own curve (full batch: ``losses[k]`` after k updates, ``[0]``
    before any; negative sampling and word2vec: one mean loss per epoch). ``snapshots`` are
    copies of E at ``snapshot_steps`` (full batch only; empty otherwise). ``cross_entropy``:
    the full-softmax mean cross-entropy of the final (E, W), one scale for skip-gram and
    negative sampling (None for CBOW and word2vec, whose tasks differ). ``config`` is the
    config that was trained (``cut`` says when the budget shortened it). ``seconds``: wall
    time of the training itself. ``stopped``: the callback asked to stop; the result is the
    run as far as it got. word2vec's own figures are in ``counts`` .. ``block_size``.
    """

    objective: str
    config: Config
    vocab: list[str]
    E: np.ndarray                      # (V, d) input vectors: the table
    W: np.ndarray                      # (V, d) output vectors, one row per word
    losses: np.ndarray                 # (n,) see above
    snapshot_steps: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # (n_snapshots,)
    snapshots: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 0)), repr=False)  # (n_snapshots, V, d)
    diverged: bool = False
    diverged_step: int | None = None
    stopped: bool = False
    seconds: float = 0.0
    cut: StepsCut | None = None
    cross_entropy: float | None = None
    scores_per_pair: int = 0           # output rows scored per pair: V (softmax), K + 1 (sampling)
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64), repr=False)  # (V,) word2vec
    n_tokens: int = 0
    words_done: int = 0
    epochs_done: int = 0
    words_per_second: float = 0.0
    block_size: int = 0

    @property
    def final_loss(self) -> float:
        return float(self.losses[-1])


def corpus_of(request: RunRequest) -> Corpus:
    """The lesson's corpus of a request (not for word2vec, which reads the text by lines)."""
    return Corpus.from_text(request.text, window=request.window, max_vocab=request.max_vocab)


def fit_steps(V: int, d_model: int, steps: int, options: tuple[int, ...] = ()) -> tuple[int, StepsCut | None]:
    """The steps a full-batch run may take (``steps`` or fewer) and the cut, if any.

    The cut lands on the largest of ``options`` that fits, a round number otherwise.

    >>> fit_steps(12, 4, 3000)
    (3000, None)
    >>> steps, cut = fit_steps(301, 32, 5000, (1000, 2000, 5000))
    >>> steps, cut.asked, cut.ran
    (2000, 5000, 2000)
    """
    most = budget.max_skipgram_steps(V, d_model)
    if steps <= most:
        return steps, None
    fits = [s for s in options if s <= most]
    used = max(fits) if fits else budget.nice_floor(most)
    verdict = budget.check(budget.skipgram_work(V, d_model, steps),
                           f"{steps:,} steps of the full softmax on {V:,} words at d_model {d_model}",
                           f"at most {most:,} steps at this width")
    return used, StepsCut(steps, used, verdict.message + f" This run was trained for **{used:,} steps** "
                          "instead; a smaller d_model (or a shorter text) leaves room for more.")


def plan(request: RunRequest, corpus: Corpus | None = None) -> Plan:
    """The config ``run`` trains: the request's, with the steps cut to the budget when
    ``fit_budget`` asks for it, then the snapshot spacing of ``replay_frames``."""
    config = request.config
    if not isinstance(config, SkipGramConfig):
        return Plan(request)
    cut = None
    if request.fit_budget:
        corpus = corpus if corpus is not None else corpus_of(request)
        steps, cut = fit_steps(corpus.V, config.d_model, config.steps, request.step_options)
        config = replace(config, steps=steps)
    if request.replay_frames:
        config = replace(config, snapshot_every=max(1, config.steps // request.replay_frames))
    return Plan(replace(request, config=config, fit_budget=False, step_options=(), replay_frames=None), cut)


def work(request: RunRequest, corpus: Corpus | None = None, n_words: int | None = None) -> float:
    """The run's cost in ``core.budget`` units, as planned, one model for every objective:
    ``budget.skipgram_work`` (softmax and CBOW), ``budget.negsampling_work``, and for word2vec
    ``budget.word2vec_work`` of the words it reads (``n_words`` x epochs; ``n_words``: the text's
    words, counted here when not given). ``corpus``: the request's corpus, when the caller has it.

    >>> from core.corpus import GUIDE_TEXT
    >>> round(budget.seconds(work(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig()))), 2)
    0.36
    >>> budget.seconds(work(RunRequest("word2vec", "", Word2VecConfig(epochs=10)), n_words=100_000))
    20.0
    """
    config = request.config
    if isinstance(config, Word2VecConfig):
        n = n_words if n_words is not None else len(split_words(request.text))
        return budget.word2vec_work(n * config.epochs, config.d_model, config.window, config.negative)
    corpus = corpus if corpus is not None else corpus_of(request)
    config = plan(request, corpus).config
    if isinstance(config, SkipGramConfig):
        return budget.skipgram_work(corpus.V, config.d_model, config.steps)
    assert isinstance(config, NegSamplingConfig)
    return budget.negsampling_work(corpus.V, corpus.n_pairs, config.d_model, config.negatives,
                                   config.epochs)


@dataclass(frozen=True)
class Estimate:
    """What a word2vec run on a big text will cost, before it starts (``estimate``)."""

    words_to_read: int     # the text's words x epochs
    work: float            # core.budget units (core.run.work)
    within_budget: bool    # words_to_read <= budget.MAX_WORDS_TO_READ

    @property
    def seconds(self) -> float:
        """Expected seconds at the benchmark's speed (``budget.WORD2VEC_WORDS_PER_SECOND``)."""
        return budget.seconds(self.work)


def estimate(request: RunRequest, n_words: int) -> Estimate:
    """The cost of a word2vec request on a text of ``n_words`` words: ``work``'s units, the
    words it reads, and whether they fit a background run's budget.

    >>> e = estimate(RunRequest("word2vec", "", Word2VecConfig(epochs=10)), 100_000)
    >>> e.words_to_read, round(e.seconds, 1), e.within_budget
    (1000000, 20.0, True)
    """
    if not isinstance(request.config, Word2VecConfig):
        raise ValueError("estimate prices a word2vec request; the others fit core.budget's seconds.")
    words = n_words * request.config.epochs
    return Estimate(words, work(request, n_words=n_words), words <= budget.MAX_WORDS_TO_READ)


def total(request: RunRequest) -> int:
    """What the progress callback counts up to: steps (full batch), epochs (sampling) or, for
    word2vec, the words it will read (``core.bigtext.words_to_train_on_text``: the text is
    split into words for it, which for a text of megabytes takes seconds).

    >>> total(RunRequest("word2vec", "b a b\\nc a b", Word2VecConfig(min_count=2, epochs=3)))
    15
    """
    config = request.config
    if isinstance(config, Word2VecConfig):
        from core.bigtext import words_to_train_on_text
        return words_to_train_on_text(request.text, config)
    return config.steps if isinstance(config, SkipGramConfig) else config.epochs


def shared_settings(config: SkipGramConfig, target: type, **own) -> Config:
    """A ``target`` config (NegSamplingConfig) with every setting it shares with ``config``
    taken from it by name, except the fields ``target`` marks ``metadata={"own": True}`` (its
    own learning rate), and ``own`` on top. A new field added to both configs follows by itself.

    >>> shared_settings(SkipGramConfig(d_model=7, seed=3, lr=20.0), NegSamplingConfig, epochs=2)
    NegSamplingConfig(d_model=7, lr=1.0, epochs=2, batch_size=64, negatives=5, power=0.75, seed=3, init_std=0.1)
    """
    names = {f.name for f in fields(config)}
    taken = {f.name: getattr(config, f.name) for f in fields(target)
             if f.name in names and not f.metadata.get("own")}
    return target(**{**taken, **own})


def run(request: RunRequest, callback: Callback | None = None, corpus: Corpus | None = None) -> RunResult:
    """Train the request; ``callback(step, loss)`` as the trainers take it (True: stop and
    keep the run as far as it got). ``corpus``: the request's corpus, when the caller has it.

    >>> from core.corpus import GUIDE_TEXT
    >>> r = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig()))
    >>> round(float(r.losses[0]), 3), round(r.final_loss, 3), r.E.shape, r.W.shape
    (2.487, 1.713, (12, 4), (12, 4))
    """
    if request.objective == "word2vec":
        return _word2vec(request, callback)
    corpus = corpus if corpus is not None else corpus_of(request)
    planned = plan(request, corpus)
    start = time.perf_counter()
    if request.objective == "negsampling":
        from core.negsampling import train_negsampling
        assert isinstance(planned.config, NegSamplingConfig)
        ns = train_negsampling(corpus, planned.config, callback=callback)
        return RunResult("negsampling", planned.config, list(corpus.vocab), ns.E, ns.W.T, ns.losses,
                         diverged=ns.diverged, diverged_step=ns.diverged_step, stopped=ns.stopped,
                         seconds=ns.seconds, cross_entropy=ns.softmax_loss,
                         scores_per_pair=planned.config.negatives + 1)
    assert isinstance(planned.config, SkipGramConfig)
    if request.objective == "cbow":
        from core.cbow import train_cbow
        r = train_cbow(corpus, planned.config, callback=callback)
    else:
        from core.skipgram import train
        r = train(corpus, planned.config, callback=callback)
    seconds = time.perf_counter() - start
    return RunResult(request.objective, planned.config, list(corpus.vocab), r.E, r.W.T, r.losses,
                     r.snapshot_steps, r.snapshots, diverged=r.diverged, diverged_step=r.diverged_step,
                     stopped=r.stopped, seconds=seconds, cut=planned.cut,
                     cross_entropy=r.final_loss if request.objective == "softmax" else None,
                     scores_per_pair=corpus.V)


def _word2vec(request: RunRequest, callback: Callback | None) -> RunResult:
    from core.bigtext import train_on_text
    assert isinstance(request.config, Word2VecConfig)
    r = train_on_text(request.text, request.config, callback=callback)
    return RunResult("word2vec", request.config, r.vocab, r.E, r.W, r.losses, stopped=r.stopped,
                     diverged=r.diverged, seconds=r.seconds, scores_per_pair=request.config.negative + 1,
                     counts=r.counts, n_tokens=r.n_tokens, words_done=r.words_done, epochs_done=r.epochs_done,
                     words_per_second=r.words_per_second, block_size=r.block_size)
