#!/usr/bin/env bash
# The README's set-up, checked as a new user meets it.
#
# In a fresh virtualenv (in a temporary directory), runs the two commands of README.md's section
# "## Set-up: two commands" (its two ```sh blocks) in order, from the repository root:
#   1. the install-and-advise command; then `kniffel advise --rules yahtzee` (a preset without a
#      shipped table: compiles the kernels) and a check that nothing was written into the
#      installed package (every file under site-packages/solver/ is in pip's RECORD),
#   2. the test command (this IS the test suite run: .ci/run calls only this script),
# then, from another folder, `kniffel advise --dice 1,3,3,5,6 --rolls-left 2` and `kniffel --version`,
# and checks that `import solver` is the checkout and nothing is left in site-packages/solver/
# (the editable install puts nothing there; files left there shadow the checkout as a namespace
# package: "cannot import name '__version__' from 'solver' (unknown location)"); last `ruff check`
# on the checkout (the style; ruff comes with the test extra, its settings in pyproject.toml).
#
# Hermetic: the table store (KNIFFEL_TABLES) and the user cache (XDG_CACHE_HOME, so the default
# kernel cache <cache>/kniffel/kernels) are temporary; KNIFFEL_KERNEL_CACHE, NUMBA_CACHE_DIR,
# PYTHONPATH and PYTHONHOME are unset.  pip keeps its own download cache.
#
#     bash scripts/check_setup.sh               # PYTHON=python3.12 to use another interpreter
#     CHECK_SETUP_KEEP=1 bash scripts/check_setup.sh   # keep the temporary directory
#
# Any failing step ends the script with a non-zero exit code and a line naming the step.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
README="$ROOT/README.md"
SECTION="## Set-up: two commands"
PYTHON=${PYTHON:-$(command -v python3 || command -v python)}
[ -n "$PYTHON" ] || { echo "check_setup: FAILED: step 0: no python3 (set PYTHON)" >&2; exit 1; }

say() { printf 'check_setup: %s\n' "$*" >&2; }
fail() {
    say "FAILED: $1"
    exit "${2:-1}"
}

# --- the two commands, from README.md --------------------------------------------------------
[ -f "$README" ] || fail "step 0 (read README): $README not found"
mapfile -d '' BLOCKS < <(awk -v section="$SECTION" '
    $0 == section { inside = 1; next }
    inside && /^## / { exit }                       # the next section of the same level
    inside && !block && /^```(sh|bash|shell)[[:space:]]*$/ { block = 1; text = ""; next }
    inside && block && /^```[[:space:]]*$/ { block = 0; printf "%s%c", text, 0; next }
    inside && block { text = text $0 "\n" }
' "$README")
if [ "${#BLOCKS[@]}" -ne 2 ]; then
    fail "step 0 (read README): expected exactly 2 \`\`\`sh blocks under \"$SECTION\" in README.md, found ${#BLOCKS[@]}"
fi
INSTALL_CMD=${BLOCKS[0]%$'\n'}
TEST_CMD=${BLOCKS[1]%$'\n'}
for cmd in "$INSTALL_CMD" "$TEST_CMD"; do
    [ -n "${cmd//[[:space:]]/}" ] || fail "step 0 (read README): an empty \`\`\`sh block under \"$SECTION\""
done

# --- a fresh virtualenv and a hermetic environment -------------------------------------------
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/kniffel-setup.XXXXXX") || fail "step 0: mktemp"
cleanup() {
    if [ -n "${CHECK_SETUP_KEEP:-}" ]; then say "kept $SCRATCH"; else rm -rf "$SCRATCH"; fi
}
trap cleanup EXIT

# pip keeps its download cache although XDG_CACHE_HOME moves below
if [ -z "${PIP_CACHE_DIR:-}" ] && [ -z "${PIP_NO_CACHE_DIR:-}" ]; then
    pip_cache=$("$PYTHON" -m pip cache dir 2>/dev/null) && [ -n "$pip_cache" ] && export PIP_CACHE_DIR="$pip_cache"
fi

VENV="$SCRATCH/venv"
say "step 1 (virtualenv): $PYTHON -m venv $VENV"
if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
    # e.g. Debian without python3-venv: virtualenv from PyPI, outside the system site-packages
    say "step 1: python -m venv failed; trying virtualenv from PyPI"
    "$PYTHON" -m pip install -q --target "$SCRATCH/virtualenv" virtualenv \
        && PYTHONPATH="$SCRATCH/virtualenv" "$PYTHON" -m virtualenv -q "$VENV" \
        || fail "step 1 (virtualenv): cannot create a virtualenv with $PYTHON"
fi
[ -x "$VENV/bin/python" ] || fail "step 1 (virtualenv): $VENV/bin/python missing"

unset PYTHONPATH PYTHONHOME KNIFFEL_KERNEL_CACHE NUMBA_CACHE_DIR
export VIRTUAL_ENV="$VENV"
export PATH="$VENV/bin:$PATH"
export KNIFFEL_TABLES="$SCRATCH/tables"
export XDG_CACHE_HOME="$SCRATCH/cache"
export PIP_DISABLE_PIP_VERSION_CHECK=1
hash -r
[ "$(command -v python)" = "$VENV/bin/python" ] || fail "step 1 (virtualenv): python is not the venv's"
SITE=$(python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') \
    || fail "step 1 (virtualenv): no site-packages"

# run NAME COMMAND...: time it, and stop with the step's name and exit code when it fails
run() {
    local name=$1 start rc
    shift
    if [ "$1" = bash ] && [ "$2" = -c ]; then say "$name: $3"; else say "$name: $*"; fi
    start=$(date +%s.%N)
    "$@"
    rc=$?
    local took
    took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    if [ "$rc" -ne 0 ]; then
        fail "$name (exit code $rc after $took s)" "$rc"
    fi
    say "$name: ok in $took s"
}

# --- the README's commands, in order, in the repository root ---------------------------------
cd "$ROOT" || fail "step 2: cd $ROOT"
run "step 2 (README install command)" bash -c "$INSTALL_CMD"

# The install command's advise may answer from a table shipped in the package without compiling
# anything; a preset without a shipped table compiles the kernels.  Nothing of that may land in
# the installed package (every file under site-packages/solver/ must be in pip's RECORD).
ELSEWHERE="$SCRATCH/elsewhere"
mkdir -p "$ELSEWHERE" || fail "step 2: mkdir $ELSEWHERE"
run "step 2a (compile: kniffel advise --rules yahtzee, from another folder)" \
    bash -c "cd '$ELSEWHERE' && kniffel advise --rules yahtzee --dice 1,3,3,5,6 --rolls-left 2 --top 3"
check_record() {
    python - "$SITE" <<'PY'
import csv, sys
from pathlib import Path
site = Path(sys.argv[1])
recorded = set()
for record in site.glob("kniffel-*.dist-info/RECORD"):
    with record.open(newline="") as handle:
        recorded |= {(site / row[0]).resolve() for row in csv.reader(handle) if row}
package = site / "solver"
stray = sorted(str(p) for p in package.rglob("*")
               if p.is_file() and p.resolve() not in recorded) if package.exists() else []
if not recorded:
    sys.exit(f"no RECORD of kniffel in {site}: was it installed?")
if stray:
    sys.exit("written into the installed package (pip does not know these files):\n  " + "\n  ".join(stray[:20]))
PY
}
run "step 2b (nothing written into site-packages/solver)" check_record

TEST_LOG="$SCRATCH/test.log"
say "step 3 (README test command): $TEST_CMD"
start=$(date +%s.%N)
bash -c "$TEST_CMD" 2>&1 | tee "$TEST_LOG"
rc=${PIPESTATUS[0]}
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ "$rc" -eq 5 ]; then
    fail "step 3 (README test command): pytest collected no tests (exit code 5 after $took s)" 5
elif [ "$rc" -ne 0 ]; then
    fail "step 3 (README test command) (exit code $rc after $took s)" "$rc"
fi
# exit 0 with nothing run (every test skipped or deselected) is a failure too
grep -Eq '(^|[^0-9])[1-9][0-9]* passed' "$TEST_LOG" \
    || fail "step 3 (README test command): exit code 0 but no test passed (no pytest summary with 'N passed')"
say "step 3 (README test command): ok in $took s"

# --- then kniffel, from another folder -------------------------------------------------------
cd "$ELSEWHERE" || fail "step 4: cd $ELSEWHERE"
run "step 4 (kniffel advise, from another folder)" kniffel advise --dice 1,3,3,5,6 --rolls-left 2
run "step 5 (kniffel --version, from another folder)" kniffel --version
check_import() {
    local where
    where=$(python -c 'import solver; print(solver.__file__)') || return 1
    if [ "$where" != "$ROOT/solver/__init__.py" ]; then
        say "import solver gives $where, not $ROOT/solver/__init__.py"
        return 1
    fi
}
run "step 6 (import solver is the checkout's)" check_import
check_site() {
    if [ -e "$SITE/solver" ]; then
        say "left in $SITE/solver (shadows the editable install):"
        find "$SITE/solver" | head -20 >&2
        return 1
    fi
}
run "step 7 (nothing left in site-packages/solver)" check_site
cd "$ROOT" || fail "step 8: cd $ROOT"
run "step 8 (ruff check: the style, its settings in pyproject.toml)" \
    python -m ruff check solver tests benchmarks scripts
say "all steps passed"
