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
	# its ok/not ok lines count; an exit status that is not 0 with no
	# "not ok" line to show for it, or no result at all, is a failure too
	out=$(bash "$t" 2>&1)
	rc=$?
	grep -E '^(not )?ok |^#' <<<"$out" || not_ok "$(basename "$t") printed no results"
	[ "$rc" = 0 ] || grep -q '^not ok ' <<<"$out" ||
		not_ok "$(basename "$t") exited $rc with no not ok line: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
done
check "shellcheck tests/vm and scripts/guest (busybox sh)" \
	shellcheck -s sh -x "$top"/tests/vm/*.sh "$top"/scripts/guest/*.sh
