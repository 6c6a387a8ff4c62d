#!/usr/bin/env bash
# Unit tests on the host: tools (statistics, histograms, lock pairing, the
# report on fixtures, faultload's option checks) and shellcheck of tests/vm.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
if make -s -C "$top/tools" >"$RS_BUILD/check/tools.log" 2>&1; then
	ok "tools build with -Wall -Wextra -Werror"
else
	sed 's/^/#   /' "$RS_BUILD/check/tools.log" | tail -n 20
	not_ok "tools build"
	exit 1
fi
make -s -C "$top/tools" test 2>&1 | grep -E '^(not )?ok ' || not_ok "make -C tools test printed no results"
for t in "$top"/tests/unit/*.sh; do
	[ -e "$t" ] || continue
	# its exit status is its verdict; a script that printed no ok/not ok
	# line at all is a failure of its own
	out=$(bash "$t" 2>&1)
	grep -E '^(not )?ok |^#' <<<"$out" || not_ok "$(basename "$t") printed no results"
done
check "shellcheck tests/vm and scripts/guest (busybox sh)" \
	shellcheck -s sh -x "$top"/tests/vm/*.sh "$top"/scripts/guest/*.sh
