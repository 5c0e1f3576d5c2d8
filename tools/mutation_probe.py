"""Which of these mutants do these tests kill? A quick check while writing tests.

    python tools/mutation_probe.py TESTS... -- MUTANT_NAME_OR_PATTERN...

Runs the given test files (or node ids) once per mutant, in one process, inside the
mutants/ folder that `mutmut run` left (it switches a mutant on through the
MUTANT_UNDER_TEST variable, as mutmut's own workers do). The test files are copied
into mutants/tests first. It is a draft check, not the measured figure: the score in
docs/quality.md comes from `mutmut run` (tools/mutation.sh), which also checks the
mutants against every test that reaches them.
"""
from __future__ import annotations

import contextlib
import fnmatch
import io
import os
import shutil
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"


def mutant_names(patterns: list[str]) -> list[str]:
    sys.path.insert(0, str(ROOT / "tools"))
    from mutation_summary import results

    every = results(MUTANTS)
    return sorted(n for n in every if any(fnmatch.fnmatch(n, p) for p in patterns))


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print(__doc__)
        return 2
    cut = argv.index("--")
    tests, patterns = argv[:cut], argv[cut + 1:]
    names = mutant_names(patterns)
    for t in tests:
        f = t.split("::")[0]
        (MUTANTS / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, MUTANTS / f)
    os.chdir(MUTANTS)
    sys.path[:0] = [str(MUTANTS), str(MUTANTS / "app")]
    import pytest

    def alarm(signum, frame):
        raise TimeoutError("mutant ran too long")

    signal.signal(signal.SIGALRM, alarm)
    survivors = []
    args = ["-x", "-q", "-p", "no:cacheprovider", "-p", "tests.mutmut_plugin", "--rootdir=.", *tests]
    os.environ["MUTANT_UNDER_TEST"] = ""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        clean = pytest.main(args)
    if clean != 0:
        print(out.getvalue()[-3000:], "\nThe tests fail without any mutant; fix them first.")
        return 1
    for name in names:
        os.environ["MUTANT_UNDER_TEST"] = name
        signal.alarm(120)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                code = pytest.main(args)
        except TimeoutError:
            code = -1
        finally:
            signal.alarm(0)
        status = "survived" if code == 0 else "killed" if code in (1, -1) else f"error {code}"
        if code != 1:
            print(f"{status:<9} {name}", flush=True)
        if code == 0:
            survivors.append(name)
    print(f"{len(names) - len(survivors)} of {len(names)} killed by {' '.join(tests)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
