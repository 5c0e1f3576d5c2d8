"""A generated corpus with known word groups, and scores for how well a table recovers them.

The project's own small generator writes sentences from templates. Each template
has *slots* filled from one word group, and the words around a slot are the same
whatever fills it::

    "the {animals} chased the {animals}"  ->  "the dog chased the cow"
    "we ate {food} and {food}"            ->  "we ate rice and bread"

so the members of a group share their neighbours, which is exactly what skip-gram
needs to give them similar rows. The other words of a template (``chased``,
``ate``, ``the``...) are context words and belong to no group; the ``verbs`` group
holds the verbs that take any object (``she liked the cat``, ``we saw the bus``).

One word, ``bank``, is *ambiguous*: some sentences use it by a river
("the lake bank was muddy"), others for money ("the bank lent cash to her"). Its
single row of the table has to serve both: the static embedding problem.

Scores
------
``group_recovery`` asks, for each group word w, which of its k nearest neighbours
by cosine (among the other group words) are in w's own group::

    precision@k(w) = |top_k(w) & group(w)| / k

With neighbours drawn at random from the M - 1 other group words, the expected
score of a word in a group of size n is ``(n - 1) / (M - 1)``: the chance level.

``ambiguous_position`` measures where one row sits between two groups: its cosine
to each group's centroid (the mean of the members' unit rows) and its mean cosine
to the members.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.checks import whole

from core.corpus import Corpus
from core.similarity import cosine, cosine_matrix, cosines_to, nearest_indices, normalize_rows
from core.vectors import Vectors

GROUPS: dict[str, list[str]] = {
    "animals": ["cat", "dog", "horse", "cow"],
    "vehicles": ["car", "bus", "truck", "bike"],
    "food": ["bread", "cheese", "soup", "rice"],
    "places": ["town", "city", "village", "market"],
    "verbs": ["saw", "liked", "watched", "wanted"],
    "river": ["river", "stream", "lake", "pond"],
    "money": ["money", "cash", "coins", "savings"],
}
"""Group name -> member words. Every member fills the same slots as its group-mates."""

AMBIGUOUS = "bank"
SENSES = ("river", "money")
"""The two groups whose contexts ``bank`` appears in; also the names of its two senses."""

# (template, sense of "bank" in it or None). "{group}" is a slot filled from that group.
TEMPLATES: list[tuple[str, str | None]] = [
    ("the {animals} chased the {animals}", None),
    ("she fed the {animals}", None),
    ("she drove the {vehicles} to the {places}", None),
    ("the {vehicles} stopped on the road", None),
    ("we ate {food} and {food}", None),
    ("they cooked the {food}", None),
    ("we walked to the {places}", None),
    ("they lived in the {places}", None),
    ("she {verbs} the {animals}", None),
    ("we {verbs} the {vehicles}", None),
    ("they {verbs} the {food}", None),
    # river and money get matching plain and "bank" sentences: neither sense is favoured by design
    ("the boat sailed down the {river}", None),
    ("the clerk counted the {money}", None),
    ("we swam in the {river}", None),
    ("we spent the {money}", None),
    ("the {river} was muddy", None),
    ("the {money} was safe", None),
    ("the {river} bank was muddy", "river"),
    ("the boat sailed down the {river} past the bank", "river"),
    ("we swam to the {river} bank", "river"),
    ("the bank lent {money} to her", "money"),
    ("she took {money} from the bank", "money"),
    ("we went to the bank for {money}", "money"),
]

DEFAULT_SENTENCES = 400
"""About 2,100 words, 63 distinct, 8,350 (centre, context) pairs with window 2."""
MIN_SENTENCES = 2 * len(TEMPLATES)
"""Two rounds of the templates: enough for every template, and every group word, to appear."""
MAX_SENTENCES = 1_000_000  # about 25 MB of text, under 5 s to write: far beyond the screens' 400


@dataclass(frozen=True)
class GeneratedCorpus:
    """A generated text with its known groups.

    Attributes
    ----------
    text : str
        The sentences, one per line (``corpus()`` or ``Corpus.from_text``). Context
        windows run across line ends, as in word2vec's stream of text.
    groups : dict[str, list[str]]
        Group name -> member words.
    ambiguous : str
        The word used in two groups' contexts.
    ambiguous_groups : tuple[str, str]
        The two groups (and senses) of the ambiguous word.
    sentences : list[str]
    sentence_sense : list[str | None]
        The ambiguous word's sense in each sentence, None where it is absent.
    """

    text: str
    groups: dict[str, list[str]]
    ambiguous: str
    ambiguous_groups: tuple[str, str]
    sentences: list[str] = field(repr=False)
    sentence_sense: list[str | None] = field(repr=False)

    def corpus(self, window: int = 2) -> Corpus:
        """The text as a ``Corpus`` (vocabulary, ids, pairs) ready for training."""
        return Corpus.from_text(self.text, window=window)


def generate_corpus(n_sentences: int = DEFAULT_SENTENCES, seed: int = 0) -> GeneratedCorpus:
    """Write ``n_sentences`` sentences from the templates, deterministically for a seed.

    Templates are dealt like cards: each round uses every template once, in a shuffled
    order. Slots are filled the same way from a per-group deck, so group members come
    up equally often and all of them appear within the first two rounds.

    >>> g = generate_corpus(60, seed=0)
    >>> len(g.sentences), g.ambiguous, g.ambiguous_groups
    (60, 'bank', ('river', 'money'))
    >>> g.text == generate_corpus(60, seed=0).text
    True
    """
    n_sentences = whole(n_sentences, "n_sentences", MIN_SENTENCES, MAX_SENTENCES)
    seed = whole(seed, "seed", 0)
    rng = np.random.default_rng(seed)
    decks: dict[str, list[str]] = {g: [] for g in GROUPS}

    def draw(group: str) -> str:
        if not decks[group]:
            decks[group] = [GROUPS[group][i] for i in rng.permutation(len(GROUPS[group]))]
        return decks[group].pop()

    sentences: list[str] = []
    senses: list[str | None] = []
    order: list[int] = []
    while len(sentences) < n_sentences:
        if not order:
            order = list(rng.permutation(len(TEMPLATES)))
        template, sense = TEMPLATES[order.pop()]
        words = [draw(w[1:-1]) if w.startswith("{") else w for w in template.split()]
        sentences.append(" ".join(words))
        senses.append(sense)
    return GeneratedCorpus(
        text="\n".join(sentences), groups={g: list(m) for g, m in GROUPS.items()},
        ambiguous=AMBIGUOUS, ambiguous_groups=SENSES,
        sentences=sentences, sentence_sense=senses,
    )


@dataclass(frozen=True)
class GroupRecovery:
    """How well the nearest neighbours of a table recover known groups.

    Attributes
    ----------
    k : int
    per_word : dict[str, float]
        precision@k of each group word.
    neighbours : dict[str, list[str]]
        Each group word's k nearest group words, nearest first.
    per_group : dict[str, float]
        Mean precision@k over each group's members.
    overall : float
        Mean precision@k over all group words.
    chance : float
        The expected ``overall`` if neighbours were picked at random.
    per_group_chance : dict[str, float]
        ``(n_g - 1) / (M - 1)`` for each group.
    """

    k: int
    per_word: dict[str, float]
    neighbours: dict[str, list[str]]
    per_group: dict[str, float]
    overall: float
    chance: float
    per_group_chance: dict[str, float]


def chance_level(group_sizes: list[int]) -> float:
    """Expected mean precision@k for random neighbours: mean over words of (n_g - 1) / (M - 1).

    It does not depend on k: each of the k picks is in the word's own group with
    probability (n_g - 1) / (M - 1).

    >>> round(chance_level([4] * 7), 4)   # 7 groups of 4: 3 / 27
    0.1111
    """
    sizes = np.asarray(group_sizes, dtype=np.float64)  # (n_groups,)
    M = sizes.sum()
    return float((sizes * (sizes - 1)).sum() / (M * (M - 1)))


def group_recovery(table: Vectors, groups: dict[str, list[str]], k: int = 3) -> GroupRecovery:
    """precision@k of every group word, per group, overall, and the chance level.

    Neighbours are the k other group words with the highest cosine, ties broken by
    the order of ``groups`` (so every machine gives the same answer).

    Parameters
    ----------
    table : Vectors
        The table (V labels, ``E`` of shape (V, d)).
    groups : dict[str, list[str]]
        Disjoint groups, each with at least two members in the table.
    k : int
        At least 1 and at most M - 1 (M = number of group words).

    >>> E = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]])
    >>> r = group_recovery(Vectors(["a", "b", "c", "d"], E), {"x": ["a", "b"], "y": ["c", "d"]}, k=1)
    >>> r.overall, round(r.chance, 3), r.neighbours["a"]
    (1.0, 0.333, ['b'])
    """
    index, E = table.index, table.E
    labels = [g for g, members in groups.items() for _ in members]   # (M,) each word's group
    words = [w for members in groups.values() for w in members]      # (M,) the group words
    missing = [w for w in words if w not in index]
    if missing:
        raise KeyError(f"group words not in the vocabulary: {missing}")
    ids = np.array([index[w] for w in words], dtype=np.int64)        # (M,)
    M = len(words)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= M - 1:
        raise ValueError(f"k must be from 1 to {M - 1} (the number of other group words).")
    order = nearest_indices(cosine_matrix(E[ids]), k)    # (M, k) nearest first, ties by index
    lab = np.array(labels)
    hits = (lab[order] == lab[:, None]).mean(axis=1)     # (M,) precision@k
    per_word = {w: float(h) for w, h in zip(words, hits)}
    neighbours = {w: [words[j] for j in row] for w, row in zip(words, order)}
    per_group = {g: float(hits[lab == g].mean()) for g in groups}
    sizes = {g: len(m) for g, m in groups.items()}
    return GroupRecovery(
        k=k, per_word=per_word, neighbours=neighbours, per_group=per_group,
        overall=float(hits.mean()), chance=chance_level(list(sizes.values())),
        per_group_chance={g: (n - 1) / (M - 1) for g, n in sizes.items()},
    )


@dataclass(frozen=True)
class AmbiguousPosition:
    """Where one word's row sits between two groups (and relative to every group).

    ``centroid_a`` is the cosine of the word's row to ``group_a``'s centroid (the mean
    of its members' unit rows), ``members_a`` its mean cosine to ``group_a``'s members;
    likewise for b. ``to_centroid`` and ``to_members`` hold the same for every group.
    """

    word: str
    group_a: str
    group_b: str
    centroid_a: float
    centroid_b: float
    members_a: float
    members_b: float
    to_centroid: dict[str, float]
    to_members: dict[str, float]


def group_centroids(table: Vectors, groups: dict[str, list[str]]) -> dict[str, np.ndarray]:
    """Each group's centroid: the mean of its members' unit rows, shape (d,).

    >>> c = group_centroids(Vectors(["a", "b"], np.array([[2.0, 0], [0, 3]])), {"g": ["a", "b"]})
    >>> c["g"]
    array([0.5, 0.5])
    """
    index = table.index
    U = normalize_rows(table.E)                           # (V, d)
    return {g: U[[index[w] for w in m]].mean(axis=0) for g, m in groups.items()}


def ambiguous_position(table: Vectors, groups: dict[str, list[str]],
                       word: str, group_a: str, group_b: str) -> AmbiguousPosition:
    """Cosines of ``word``'s row to every group's centroid and, on average, to its members.

    >>> E = np.array([[1.0, 0], [0, 1], [1, 1]])
    >>> p = ambiguous_position(Vectors(["a", "b", "w"], E), {"x": ["a"], "y": ["b"]}, "w", "x", "y")
    >>> round(p.centroid_a, 3), round(p.centroid_b, 3)
    (0.707, 0.707)
    """
    index, E = table.index, table.E
    if word not in index:
        raise KeyError(f"{word!r} is not in the vocabulary")
    for g in (group_a, group_b):
        if g not in groups:
            raise KeyError(f"{g!r} is not a group")
    u = E[index[word]]                                    # (d,) the word's row
    to_centroid, to_members = {}, {}
    for g, c in group_centroids(table, groups).items():
        to_centroid[g] = cosine(u, c)                     # 0.0 for a zero centroid: no direction
        to_members[g] = float(cosines_to(E[[index[w] for w in groups[g]]], u).mean())
    return AmbiguousPosition(word, group_a, group_b, to_centroid[group_a], to_centroid[group_b],
                             to_members[group_a], to_members[group_b], to_centroid, to_members)
