"""The caption sweep: every control that a counting or comparing sentence depends on, set to
its minimum, its maximum and values between, and each such sentence checked against the
numbers it describes, read off the same screen (its tables and metrics).

Each rule below finds one kind of claim in the screen's words ("higher", "saving",
"quicker", "another vector", "+1 and -1", "changes one setting", "ends X above it") and
returns the contradictions it sees; the sweep expects none. A rule that finds no claim to
check where its screen must make one fails too, so a reworded caption cannot slip past it.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from lab_ui.screens.train.train_controls import LR_OPTIONS, STEP_OPTIONS
from tests.app.conftest import assert_clean, metric, open_screen, texts


def _table(at, *columns: str) -> pd.DataFrame:
    """The first table on the screen with these columns."""
    for d in at.dataframe:
        if set(columns) <= set(d.value.columns):
            return d.value
    raise AssertionError(f"no table with columns {columns}: {[list(d.value.columns) for d in at.dataframe]}")


def _number(text: str) -> float:
    return float(text.replace(",", "").split()[0])


# --- Train: the loss caption, the divergence alert, the d_model = 1 note ---------------------

def train_rules(at, d_model: int) -> list[str]:
    words, bad = texts(at), []
    losses = _table(at, "step", "loss")["loss"].to_numpy()
    alert = next((e.value for e in at.error if "blew up" in e.value), None)
    if alert is None:
        said = re.search(r"This run ends (-?[\d.]+) above it", words)
        if not said:
            return ["the loss caption says nothing about the floor"]
        final = float(losses[-1])
        floor = _number(metric(at, "loss floor"))
        gap = final - floor
        if abs(float(said.group(1)) - gap) > 0.0015:
            bad.append(f"'ends {said.group(1)} above' the floor, but {final:.3f} - {floor:.3f} = {gap:.3f}")
    else:
        rises = np.flatnonzero(np.diff(losses) > 0)
        first = int(rises[0]) + 1 if rises.size else len(losses)
        fell = re.search(r"fell for the first ([\d,]+) update", alert)
        if (fell is None) != (first == 1) or (fell and int(fell.group(1)) != first - 1):
            bad.append(f"the alert says the loss fell {fell.group(0) if fell else 'never'}, "
                       f"the table: it first rose at update {first}")
        each = bool(np.all(np.diff(losses[first - 1:]) > 0))
        if ("higher than the one before" in alert) != each:
            bad.append(f"the alert on rising 'each time' does not match the losses {np.round(losses, 3)}")
        if "higher each time" in alert and not np.all(np.diff(losses) > 0):
            bad.append("'higher each time' while the loss also fell")
    one = next((c.value for c in at.caption if c.value.startswith("With d_model = 1")), None)
    if (one is not None) != (d_model == 1 and alert is None):
        bad.append(f"d_model = {d_model}, and the one-line note is {'there' if one else 'missing'}")
    if one is not None:
        S = _table(at, "word").set_index("word").to_numpy(dtype=float)
        pairs = S[np.triu_indices(len(S), k=1)]
        plus, minus = re.search(r"Here ([\d,]+) of the ([\d,]+) pairs of words are \+1 and ([\d,]+) are -1",
                                one).group(1, 3)
        if (int(plus), int(minus)) != (int(np.sum(pairs > 0.5)), int(np.sum(pairs < -0.5))):
            bad.append(f"the one-line note counts {plus} and {minus}, the table something else")
        if not np.allclose(np.abs(pairs), 1.0, atol=1e-6):
            bad.append("at d_model 1 a cosine is not +1 or -1")
    return bad


TRAIN_SWEEP = ([("train_d_model", v) for v in (1, 2, 16, 32)]
               + [("train_lr", v) for v in (LR_OPTIONS[0], 0.5, 10.0, 20.0, LR_OPTIONS[-1])]
               + [("train_window", v) for v in (1, 3, 5)]
               + [("train_steps", v) for v in (STEP_OPTIONS[0], 100, STEP_OPTIONS[-1])])


@pytest.mark.parametrize("key, value", TRAIN_SWEEP)
def test_train_captions_hold_at_every_setting(key, value):
    at = open_screen("train", **{key: str(value)})
    assert_clean(at)
    d_model = value if key == "train_d_model" else 4
    assert train_rules(at, d_model) == []


# --- Train, Negative sampling: "faster", "slower", "saving" -------------------------------

def objectives_rules(at) -> list[str]:
    table = _table(at, "objective", "seconds")
    caption = next(c.value for c in at.caption if "one scale" in c.value)
    sm, ns = (float(x) for x in table["seconds"])
    scored_sm, scored_ns = (int(x) for x in table["words scored per pair"])
    bad = []
    if ("real saving" in caption) != (scored_ns < scored_sm):
        bad.append(f"'real saving' is {'said' if 'real saving' in caption else 'missing'} with "
                   f"{scored_ns} words scored against {scored_sm}")
    ratio = sm / ns if ns > 0 else (1.0 if sm == 0 else np.inf)
    kind = "about the same" if 0.9 <= ratio <= 1.1 else "faster" if ratio > 1 else "slower"
    if kind not in caption or any(k in caption for k in {"about the same", "was faster", "was slower"} - {
            "about the same" if kind == "about the same" else f"was {kind}"}):
        bad.append(f"seconds {sm:.3f} and {ns:.3f}, but: {caption[:160]}")
    return bad


@pytest.mark.parametrize("k", [1, 5, 11, 20])
def test_negative_sampling_captions_hold_for_every_k(k):
    at = open_screen("train", train_tab="Negative sampling", train_ns_negatives=str(k), train_ns_epochs="20")
    assert_clean(at)
    assert objectives_rules(at) == []


# --- CBOW: "quicker", "times as long" against the milliseconds shown ---------------------

def cbow_rules(at) -> list[str]:
    shown = {name: _number(metric(at, f"{name}: time")) for name in ("CBOW", "skip-gram")}
    bullet = next(m.value for m in at.markdown if "**Time.**" in m.value)
    said = bullet.split("**Time.**")[1].split(":")[0]
    fast, slow = sorted(shown.values())
    if max(shown.values()) < 10:
        return [] if "too little to time" in said else [f"{shown} ms compared: {said}"]
    ratio = slow / max(fast, 1)
    found = re.search(r"took (at least )?([\d.]+) times as long", said)
    if not found or abs(float(found.group(2)) - ratio) > 0.051:
        return [f"{shown} ms, ratio {ratio:.1f}, but: {said}"]
    if ("quicker (" in said) != (ratio >= 1.5):
        return [f"{shown} ms, ratio {ratio:.2f}, but: {said}"]
    winner = min(shown, key=shown.get)
    if "quicker (" in said and not said.strip().startswith(f"On this machine {winner} was quicker"):
        return [f"{winner} was quicker by {shown}, but: {said}"]
    return []


@pytest.mark.parametrize("key, value", [("cbow_steps", 0), ("cbow_steps", 100), ("cbow_steps", 5000),
                                        ("cbow_d_model", 1), ("cbow_d_model", 32), ("cbow_window", 1),
                                        ("cbow_window", 5), ("cbow_lr", 0.01), ("cbow_lr", 2.0)])
def test_cbow_time_sentence_follows_the_milliseconds_shown(key, value):
    at = open_screen("cbow", **{key: str(value)})
    assert_clean(at)
    assert cbow_rules(at) == []


# --- Position: "another vector" only above rows that differ -------------------------------

def position_rules(at) -> list[str]:
    reading = next(m.value for m in at.markdown if "the vector that enters the model" in m.value)
    found = re.search(r"“(\w+)” at places (\d+) and (\d+) of sentence ([AB])", reading)
    if "No word appears twice" in reading:
        return []
    if not found:
        return [f"no word named: {reading}"]
    word, t1, t2, name = found.group(1), int(found.group(2)), int(found.group(3)), found.group(4)
    tables = [d.value for d in at.dataframe if {"place", "word"} <= set(d.value.columns)]
    rows = tables["AB".index(name)].set_index("place")
    assert rows.loc[t1, "word"] == rows.loc[t2, "word"] == word
    dims = [c for c in rows.columns if c.startswith("dim")]
    same = bool(np.array_equal(rows.loc[t1, dims].to_numpy(float), rows.loc[t2, dims].to_numpy(float)))
    if ("another vector" in reading) == same or ("the same vector" in reading) != same:
        return [f"rows {'equal' if same else 'different'}, but: {reading}"]
    return []


@pytest.mark.parametrize("kind", ["Sinusoidal (fixed)", "Learned, before training", "None"])
@pytest.mark.parametrize("a", ["the cat saw the dog", "cat saw dog"])
def test_position_says_another_vector_only_when_the_rows_differ(kind, a):
    at = open_screen("position", pos_kind=kind, pos_a=a, pos_b="the dog saw the cat")
    assert_clean(at)
    assert position_rules(at) == []


# --- Compare runs: B starts as A, and the caption counts what B changes ---------------------

def compare_rules(at) -> list[str]:
    a = {"d_model": at.slider(key="train_d_model").value, "window": at.slider(key="train_window").value,
         "learning rate": at.select_slider(key="train_lr").value}
    b = {"d_model": at.slider(key="train_cmp_d_model").value, "window": at.slider(key="train_cmp_window").value,
         "learning rate": at.select_slider(key="train_cmp_lr").value}
    changed = [k for k in a if a[k] != b[k]]
    caption = next(c.value for c in at.caption if c.value.startswith("B "))
    expected = ("has the same settings" if not changed else "changes one setting" if len(changed) == 1
                else f"changes {len(changed)} settings")
    bad = [] if expected in caption and all(k in caption for k in changed) else [f"{changed}: {caption}"]
    if not changed:
        la, lb = (at.dataframe[0].value[c] for c in at.dataframe[0].value.columns[1:3])
        if not np.array_equal(la.to_numpy(), lb.to_numpy()):
            bad.append("same settings, yet the two curves differ")
    return bad


@pytest.mark.parametrize("query", [{}, {"train_d_model": "1"}, {"train_lr": "0.01"},
                                   {"train_cmp_d_model": "32"}, {"train_cmp_d_model": "1", "train_cmp_lr": "5.0"},
                                   {"train_window": "5", "train_cmp_window": "1", "train_cmp_lr": "0.05"}])
def test_run_b_starts_as_a_and_the_caption_counts_its_changes(query):
    at = open_screen("train", train_tab="Compare runs", **query)
    assert_clean(at)
    if not any(k.startswith("train_cmp") for k in query):          # nothing moved: B is A
        assert (at.slider(key="train_cmp_d_model").value, at.select_slider(key="train_cmp_lr").value) == (
            at.slider(key="train_d_model").value, at.select_slider(key="train_lr").value)
    assert compare_rules(at) == []
