#!/usr/bin/env bash
# tests/unit/run-budget.sh: tests/run's time budget (issue 33) on a fixture
# directory of one 2-second test file: over a 1 s budget the run fails and
# names the file; under a 60 s budget it passes.  The fixture logs go to a
# temporary directory, not build/check (make check runs this from inside
# tests/run).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
unit=run-budget
. "$top/tests/unit/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t" "$tmp/log"
printf '#!/usr/bin/env bash\nsleep 2\necho "ok - slept"\n' >"$tmp/t/10-slow.sh"

rc=0
RS_TEST_DIR=$tmp/t RS_CHECK_LOGDIR=$tmp/log RS_CHECK_BUDGET_S=1 "$top/tests/run" slow >"$tmp/out" 2>&1 || rc=$?
t "over budget: tests/run exits non-zero" "$rc" 1
over=$(grep -c 'not ok - make check took [0-9]*s, over its budget of 1s' "$tmp/out" || true)
t "over budget: one 'not ok' line with the time and the budget" "$over" 1
named=$(grep -c 'slowest: 10-slow [0-9]' "$tmp/out" || true)
t "over budget: the slowest file is named with its time" "$named" 1
t "over budget: the last line counts the failure" "$(tail -n 1 "$tmp/out")" "1 passed, 1 failed, 0 skipped"

rc=0
RS_TEST_DIR=$tmp/t RS_CHECK_LOGDIR=$tmp/log RS_CHECK_BUDGET_S=60 "$top/tests/run" slow >"$tmp/out" 2>&1 || rc=$?
t "under budget: exit 0" "$rc" 0
t "under budget: no failure" "$(tail -n 1 "$tmp/out")" "1 passed, 0 failed, 0 skipped"
t_done
