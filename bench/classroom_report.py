"""The table ``bench.classroom`` prints: latency percentiles (whole class, after warm-up,
each 30 s), long runs, figures checked, cross-talk, errors, the spread over replicas and the
servers' memory."""
from __future__ import annotations

import statistics

WARMUP_S = 30.0           # the first 30 s: students arrive, every first page is a new session


def warmup(arrival: float) -> float:
    """Actions from this moment on count as "after warm-up": 30 s, or once every student
    has arrived if that is later."""
    return max(WARMUP_S, arrival)


def pct(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[q - 1] if len(xs) >= 2 else (xs[0] if xs else float("nan"))


def per_window(students, wall: float, window: float = 30.0) -> str:
    """The Train actions' p95 in each ``window`` seconds of the class (by planned time)."""
    out = []
    for start in range(0, int(wall), int(window)):
        xs = [x for s in students for x, t in zip(s.latencies, s.action_times) if start <= t < start + window]
        if xs:
            out.append(f"{pct(xs, 95):.2f}")
    return " ".join(out) + " s"


def report(students, heavies, memory, wall: float, seconds: float, arrival: float = 20.0) -> str:
    light = [x for s in students for x in s.latencies]
    warm_l = [x for s in students for x, w in zip(s.latencies, s.after_warmup) if w]
    other = [x for s in students for x in s.other_latencies]
    hv = [x for h in heavies for x in h.heavy_latencies]
    errors = [e for s in students + heavies for e in s.errors]
    cross = [c for s in students for c in s.crosstalk]
    seeds = "each its own" if len({s.seed for s in students}) > 1 else f"all {students[0].seed}"
    rows = [("students (light / long-run)", f"{len(students)} / {len(heavies)}"),
            ("training seeds of the light students", seeds),
            ("arrival of the light students", "all at once" if arrival == 0 else f"spread over {arrival:g} s"),
             ("class length", f"{wall:.0f} s"),
             ("Train actions timed", f"{len(light)}"),
             ("  p50 / p95 / max", f"{pct(light, 50):.2f} / {pct(light, 95):.2f} / {max(light, default=float('nan')):.2f} s"),
             (f"  after warm-up ({warmup(arrival):g} s on): p50 / p95 / max",
              f"{pct(warm_l, 50):.2f} / {pct(warm_l, 95):.2f} / {max(warm_l, default=float('nan')):.2f} s"),
             ("  p95 in each 30 s of the class", per_window(students, wall)),
             ("other screens timed", f"{len(other)}"),
             ("  p50 / p95 / max", f"{pct(other, 50):.2f} / {pct(other, 95):.2f} / {max(other, default=float('nan')):.2f} s"),
             ("long runs finished", f"{len(hv)}"),
             ("  p50 / max", f"{pct(hv, 50):.2f} / {max(hv, default=float('nan')):.2f} s"),
             ("long-run students who left mid-run", f"{sum(h.left_mid_run for h in heavies)}"),
             ("loss figures checked", f"{sum(s.checked for s in students)}"),
             ("cross-talk (wrong figures)", f"{len(cross)}"),
             ("errors", f"{len(errors)}")]
    replicas = sorted({s.replica for s in students + heavies if s.replica})
    if replicas:
        spread = ", ".join(f"{r}: {sum(s.replica == r for s in students + heavies)}" for r in replicas)
        rows.append(("students per replica (behind nginx)", spread))
    if memory:
        mib = [(t - memory[0][0], m / 2**20) for t, m in memory]
        warm = [m for t, m in mib if t >= min(30.0, seconds / 3)]
        rows += [("server memory after warm-up (first / last / max)",
                  f"{warm[0]:,.0f} / {warm[-1]:,.0f} / {max(warm):,.0f} MiB" if warm else "n/a")]
        marks = [next((m for t, m in mib if t >= mark), mib[-1][1]) for mark in range(0, int(wall), 30)]
        rows += [("server memory every 30 s (MiB)", " ".join(f"{m:,.0f}" for m in marks))]
    width = max(len(k) for k, _ in rows)
    lines = [f"{k:<{width}}  {v}" for k, v in rows]
    lines += [f"  error: {e}" for e in errors[:10]] + [f"  cross-talk: {c}" for c in cross[:10]]
    return "\n".join(lines)
