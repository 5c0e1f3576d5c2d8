"""Which of these mutants do these tests kill? A quick check while writing tests.

    python -m tools.mutation_probe TESTS... -- MUTANT_NAME_OR_PATTERN...

Runs the given test files (or node ids) once per mutant, each run a fresh pytest process
inside the mutants/ folder that `mutmut run` left, so that the mutated copies of core/ and
app/lab_ui/ are the ones imported (it switches a mutant on through the MUTANT_UNDER_TEST
variable, as mutmut's own workers do). The test files are copied
into mutants/tests first. It is a draft check, not the measured figure: the score in
docs/quality.md comes from `mutmut run` (tools/mutation.sh), which also checks the
mutants against every test that reaches them.
"""
from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"


def mutant_names(patterns: list[str]) -> list[str]:
    from tools.mutation_summary import results

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
    survivors = []
    args = ["-x", "-q", "-p", "no:cacheprovider", "-p", "tests.mutmut_plugin", "--rootdir=.", *tests]

    def run(name: str, timeout: float | None = 120) -> tuple[int, str]:
        """pytest in mutants/ with this mutant switched on ("": none): its exit code (-1 if it
        ran longer than ``timeout`` seconds) and its output."""
        try:
            out = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=MUTANTS, capture_output=True, text=True,
                                 timeout=timeout, env={**os.environ, "MUTANT_UNDER_TEST": name})
        except subprocess.TimeoutExpired:
            return -1, ""
        return out.returncode, out.stdout

    clean, output = run("", timeout=None)
    if clean != 0:
        print(output[-3000:], "\nThe tests fail without any mutant; fix them first.")
        return 1
    for name in names:
        code, _ = run(name)
        status = "survived" if code == 0 else "killed" if code in (1, -1) else f"error {code}"
        if code != 1:
            print(f"{status:<9} {name}", flush=True)
        if code == 0:
            survivors.append(name)
    print(f"{len(names) - len(survivors)} of {len(names)} killed by {' '.join(tests)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
