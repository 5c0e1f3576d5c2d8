"""Analogies, word-defined directions and an odd-one-out game, on a text made to carry relations.

Word2vec's famous "king - man + woman = queen" (Mikolov et al., 2013) only works when the text
shows each relation over and over in the same way. The lesson's 33 words do not, so this module
also writes a **made-up text whose sentences carry four relations**: country and capital, male
and female, one and many, present and past. Every word appears in short sentences with two
kinds of neighbours::

    "<role word> <word> <identity word>"      e.g.  "city paris french",  "nation france french"

the *role* words say which side of the relation the word is on (city / nation, he / she, ...),
the *identity* word says which pair it belongs to (french for france and paris). A skip-gram
table learned from it can then hold roughly ``v(word) = role + identity``, and

    v(b) - v(a) + v(c)  =  (role_b - role_a) + role_c-side + identity_c   ~   v(d)

An analogy "a is to b as c is to ?" is answered by the word (other than a, b and c) whose row
has the largest cosine with ``v(b) - v(a) + v(c)``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.similarity import cosine_matrix, cosines_to, nearest_indices, normalize_rows
from core.vectors import Vectors

# relation -> (first side's role words, second side's role words, [(first, second, identity)])
RELATIONS: dict[str, tuple[tuple[str, str], tuple[str, str], list[tuple[str, str, str]]]] = {
    "country - capital": (("nation", "borders"), ("city", "streets"), [
        ("france", "paris", "french"), ("italy", "rome", "italian"), ("spain", "madrid", "spanish"),
        ("japan", "tokyo", "japanese"), ("egypt", "cairo", "egyptian"), ("peru", "lima", "peruvian")]),
    "male - female": (("he", "his"), ("she", "her"), [
        ("king", "queen", "crown"), ("man", "woman", "adult"), ("boy", "girl", "child"),
        ("uncle", "aunt", "cousin"), ("father", "mother", "parent"), ("prince", "princess", "castle")]),
    "one - many": (("one", "single"), ("many", "several"), [
        ("cat", "cats", "whiskers"), ("dog", "dogs", "bark"), ("car", "cars", "wheels"),
        ("tree", "trees", "leaves"), ("house", "houses", "roof"), ("bird", "birds", "wings")]),
    "present - past": (("today", "now"), ("yesterday", "ago"), [
        ("walk", "walked", "road"), ("play", "played", "game"), ("jump", "jumped", "rope"),
        ("talk", "talked", "words"), ("cook", "cooked", "food"), ("paint", "painted", "brush")]),
}
SENTENCES_PER_WORD = 8


def relations_text(seed: int = 0, per_word: int = SENTENCES_PER_WORD) -> str:
    """The made-up text: ``per_word`` three-word sentences for every word of every relation,
    shuffled, role word and identity word in random order around the word."""
    rng = np.random.default_rng(seed)
    sentences = []
    for first_roles, second_roles, pairs in RELATIONS.values():
        for first, second, identity in pairs:
            for word, roles in ((first, first_roles), (second, second_roles)):
                for _ in range(per_word):
                    role = roles[rng.integers(len(roles))]
                    left, right = (role, identity) if rng.random() < 0.5 else (identity, role)
                    sentences.append(f"{left} {word} {right}")
    order = rng.permutation(len(sentences))
    return " . ".join(sentences[i] for i in order)


# The lesson's own text carries one such pattern: "the cat sat on the mat", "the dog sat on the log".
LESSON_QUESTIONS = [("cat", "mat", "dog", "log"), ("dog", "log", "cat", "mat"),
                    ("mat", "cat", "log", "dog"), ("log", "dog", "mat", "cat")]
# How an answer is found: the analogy's offset, and two baselines that ignore part of the
# question (an analogy is only evidence of a relation when it beats them; Linzen, 2016).
METHODS = ("b - a + c", "nearest to b", "nearest to c")


@dataclass(frozen=True)
class Analogy:
    a: str
    b: str
    c: str
    expected: str | None                # the answer the relation set gives, if known
    answers: list[tuple[str, float]]    # the best words and their cosines, best first
    method: str = METHODS[0]

    @property
    def correct(self) -> bool:
        return self.expected is not None and bool(self.answers) and self.answers[0][0] == self.expected


def analogy(table: Vectors, a: str, b: str, c: str, k: int = 5,
            expected: str | None = None, method: str = METHODS[0]) -> Analogy:
    """"a is to b as c is to ?": the k words (not a, b or c) nearest by cosine to
    ``v(b) - v(a) + v(c)``, each row first scaled to length 1 (as word2vec's own test does).
    ``method`` "nearest to b" or "nearest to c" answers with b's or c's own neighbours instead."""
    index, vocab = table.index, table.labels
    missing = [w for w in (a, b, c) if w not in index]
    if missing:
        raise KeyError(f"not in the vocabulary: {', '.join(missing)}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}.")
    U = normalize_rows(table.E)                                 # (V, d) unit rows
    target = {METHODS[0]: U[index[b]] - U[index[a]] + U[index[c]],
              METHODS[1]: U[index[b]], METHODS[2]: U[index[c]]}[method]     # (d,)
    sims = cosines_to(U, target)                                # (V,) all 0 for a zero target
    skip = sorted({index[a], index[b], index[c]})               # never the question's own words
    order = nearest_indices(sims, k, own=[skip])[0]             # (k,) best first, ties by index
    return Analogy(a, b, c, expected, [(vocab[j], float(sims[j])) for j in order], method)


def relation_questions(relation: str) -> list[tuple[str, str, str, str]]:
    """Every question (a, b, c, d) of one relation: two different pairs (a, b) and (c, d)."""
    _, _, pairs = RELATIONS[relation]
    return [(a, b, c, d) for a, b, _ in pairs for c, d, _ in pairs if a != c]


def accuracy(table: Vectors, questions: list[tuple[str, str, str, str]]
             ) -> dict[str, tuple[int, int]]:
    """For each method, (right, asked) over the questions whose words are all in the vocabulary."""
    known = table.index.keys()
    asked = [q for q in questions if set(q) <= known]
    return {m: (sum(analogy(table, a, b, c, k=1, expected=d, method=m).correct for a, b, c, d in asked),
                len(asked)) for m in METHODS}


def axis_positions(table: Vectors, a: str, b: str) -> np.ndarray:
    """Where every word lies on the direction from a to b: the projection of each unit row on
    the unit vector of ``v(b) - v(a)``, shape (V,). a's and b's own rows set the scale."""
    index = table.index
    missing = [w for w in (a, b) if w not in index]
    if missing:
        raise KeyError(f"not in the vocabulary: {', '.join(missing)}")
    U = normalize_rows(table.E)                                 # (V, d)
    axis = U[index[b]] - U[index[a]]                            # (d,)
    if not axis.any():
        raise ValueError(f"{a!r} and {b!r} have the same direction: they define no axis.")
    return cosines_to(U, axis)                                  # (V,) unit rows on the unit axis


def relation_sides(a: str, b: str) -> tuple[str, int, int] | None:
    """If ``a`` and ``b`` are on opposite sides of one relation (as pair words or role words),
    that relation and the side index (0 or 1) of ``a`` and of ``b``; otherwise None."""
    for name, (first_roles, second_roles, pairs) in RELATIONS.items():
        sides = [set(first_roles) | {p[0] for p in pairs}, set(second_roles) | {p[1] for p in pairs}]
        side_a = next((i for i in (0, 1) if a in sides[i]), None)
        side_b = next((i for i in (0, 1) if b in sides[i]), None)
        if side_a is not None and side_b is not None and side_a != side_b:
            return name, side_a, side_b
    return None


@dataclass(frozen=True)
class SideSplit:
    """How one relation's two sides lie along a direction a -> b (see ``side_split``)."""
    relation: str
    away: str       # the side a is on, e.g. "male"
    towards: str    # the side b is on, e.g. "female"
    gap: float      # mean position of the towards side minus that of the away side
    spread: float   # pooled within-side standard deviation of the positions
    ordered: int    # pairs whose towards-side word lies further along than its partner
    pairs: int      # pairs compared (those holding a or b are left out)
    apart: bool     # every towards-side word lies further along than every away-side word


def side_split(positions: np.ndarray, table: Vectors, a: str, b: str) -> SideSplit | None:
    """Do the two sides of the relation that a and b stand on separate along the direction a -> b?

    With ``p`` the positions (``axis_positions``), ``x_k`` the away side's word and ``y_k`` the
    towards side's word of pair k (pairs holding a or b are left out: they sit at the ends by
    construction), over the n remaining pairs::

        gap     = mean_k p(y_k) - mean_k p(x_k)
        spread  = sqrt((var(p(x)) + var(p(y))) / 2)        (sample variances, ddof = 1)
        ordered = #{k : p(y_k) > p(x_k)}
        apart   = min_k p(y_k) > max_k p(x_k)               (one cut on the line splits the sides)

    None when a and b are not on opposite sides of one relation, or fewer than 2 pairs remain."""
    found = relation_sides(a, b)
    if found is None:
        return None
    name, side_a, side_b = found
    index = table.index
    pairs = [(p[side_a], p[side_b]) for p in RELATIONS[name][2]
             if a not in p[:2] and b not in p[:2] and p[0] in index and p[1] in index]
    if len(pairs) < 2:
        return None
    x = np.array([positions[index[w]] for w, _ in pairs])      # (n,) away side
    y = np.array([positions[index[w]] for _, w in pairs])      # (n,) towards side
    spread = float(np.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2))
    sides = name.split(" - ")
    return SideSplit(name, sides[side_a], sides[side_b], float(y.mean() - x.mean()), spread,
                     int((y > x).sum()), len(pairs), bool(y.min() > x.max()))


def odd_one_out(table: Vectors, words: list[str]) -> tuple[str, dict[str, float]]:
    """The word whose mean cosine with the others is lowest, and every word's mean cosine."""
    S = cosine_matrix(table.E[table.rows(words)])             # (n, n)
    means = (S.sum(axis=1) - np.diag(S)) / (len(words) - 1)     # (n,) without the word itself
    scores = {w: float(m) for w, m in zip(words, means)}
    return words[int(np.argmin(means))], scores


def odd_one_out_round(seed: int) -> tuple[list[str], str]:
    """Four words: three from one relation, one from another; the odd one is the fourth kind.
    Returned shuffled, with the word that does not belong."""
    rng = np.random.default_rng(seed)
    names = list(RELATIONS)
    home, away = rng.choice(len(names), size=2, replace=False)
    home_words = [w for f, s, _ in RELATIONS[names[home]][2] for w in (f, s)]
    away_words = [w for f, s, _ in RELATIONS[names[away]][2] for w in (f, s)]
    picked = [home_words[i] for i in rng.choice(len(home_words), size=3, replace=False)]
    odd = away_words[rng.integers(len(away_words))]
    words = picked + [odd]
    return [words[i] for i in rng.permutation(4)], odd
