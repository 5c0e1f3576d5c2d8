#!/usr/bin/env bash
# Mutation testing over core/ and app/lab_ui/ with the fast (non-browser) suite.
# Configuration: [tool.mutmut] in pyproject.toml (and tests/mutmut_plugin.py). Results: docs/quality.md.
#   bash tools/mutation.sh                 # run (or resume) every mutant, then print the summary
#   bash tools/mutation.sh "core.*"        # only the core's mutants (any mutmut name pattern)
#   PYTHON=.venv/bin/python MUTMUT_CHILDREN=1 MUTMUT_NICE=19 bash tools/mutation.sh
# mutmut keeps its work in mutants/ and resumes where it stopped; `rm -rf mutants` starts afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
start=$(date +%s)
# nice (MUTMUT_NICE, default 19): the machine may be shared. mutmut runs only the tests that
# reach each mutated function.
nice -n "${MUTMUT_NICE:-19}" "$PY" -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" "$@" || true
echo "== wall time: $(( $(date +%s) - start )) s"
"$PY" tools/mutation_summary.py
