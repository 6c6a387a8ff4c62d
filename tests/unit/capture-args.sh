#!/usr/bin/env bash
# tests/unit/capture-args.sh: scripts/capture refuses bad option values
# with a message naming the option and exit 1, before it builds, boots or
# files anything (a run number of 0 once meant "every run").
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
pass=0 fail=0
# bad WANT ARGS...: capture ARGS exits 1 with WANT in its message, files nothing
bad() {
	local want=$1 out rc
	shift
	out=$("$top/scripts/capture" --variant stock --results "$res" --run-id t "$@" minor 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$want" <<<"$out" && [ -z "$(ls -A "$res")" ]; then
		pass=$((pass + 1))
		echo "ok - capture $*: refused ($out)"
	else
		fail=$((fail + 1))
		echo "not ok - capture $*: exit $rc, wanted 1 and '$want': $out"
	fi
}
bad "--only-run takes a run number" --runs 3 --only-run 0
bad "--only-run takes a run number" --runs 3 --only-run 02
bad "--only-run takes a run number" --runs 3 --only-run x
bad "--only-run 4 is above --runs 3" --runs 3 --only-run 4
bad "--runs takes a positive integer" --runs 0
bad "--max-reboots takes a number" --max-reboots -1
[ "$fail" = 0 ]
