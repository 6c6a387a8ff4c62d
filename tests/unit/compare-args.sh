#!/usr/bin/env bash
# tests/unit/compare-args.sh: scripts/compare refuses a --base it has no
# patches for, and a variant with no series on that base, with a message
# naming them and exit 1, before it sets up, builds, boots or files anything.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
mkdir "$res/results" "$res/build"
pass=0 fail=0
# bad WANT ARGS...: compare ARGS exits 1 with WANT in its message, files nothing
bad() {
	local want=$1 out rc
	shift
	out=$(RS_BUILD=$res/build "$top/scripts/compare" --results "$res/results" --run-id t --no-selftests "$@" 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$want" <<<"$out" && [ -z "$(find "$res/results" "$res/build" -mindepth 1 -print -quit)" ]; then
		pass=$((pass + 1))
		echo "ok - compare $*: refused ($(tail -n1 <<<"$out"))"
	else
		fail=$((fail + 1))
		echo "not ok - compare $*: exit $rc, wanted 1 and '$want': $out"
	fi
}
bad "--base 5.10: no patches/5.10 (the bases: 6.12 7.3)" --base 5.10
bad "variant v2 has no series on base 6.12 (no patches/6.12/v2/series)" --base 6.12 --arch arm64 --variants "stock v2"
bad "variant retry-hard has no series on base 6.12" --base 6.12 --gki --variants "stock rfc retry-hard"
bad "variant nosuch has no series on base 7.3 (no patches/7.3/nosuch/series)" --variants "stock nosuch"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
