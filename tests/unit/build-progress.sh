#!/usr/bin/env bash
# tests/unit/build-progress.sh: scripts/lib.sh build_progress (the kernel
# build's "N of about M objects, about T left" line) and build_size (M: this
# build directory's last full count, else another variant's of the same
# base, arch and kind), build_record (the seconds a build took) and
# compare_eta (compare's estimate of its end) on fixture directories.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=build-progress
# shellcheck source=tests/unit/lib/check.sh
. "$top/tests/unit/lib/check.sh"

t "no size known: a count" "$(build_progress 120 0 60)" "120 objects so far"
t "too early for a pace" "$(build_progress 20 1500 10)" "20 of about 1500 objects"
t "a quarter in 100 s: 300 s left" "$(build_progress 375 1500 100)" \
	"375 of about 1500 objects (25%), about 5 min 00 s left"
t "past the estimate: no time left said" "$(build_progress 1600 1500 700)" "1600 of about 1500 objects"

o=$tmp/obj
mkdir -p "$o/7.3-stock-x86_64" "$o/7.3-retry-hard-x86_64" "$o/7.3-patched-x86_64" \
	"$o/7.3-stock-x86_64-debug" "$o/6.12-stock-x86_64" "$o/7.3-stock-arm64"
echo "1488 610" >"$o/7.3-stock-x86_64/.retryscope-objects"
echo "1490 600" >"$o/7.3-retry-hard-x86_64/.retryscope-objects"
echo "2100 1500" >"$o/7.3-stock-x86_64-debug/.retryscope-objects"
echo "1427 580" >"$o/6.12-stock-x86_64/.retryscope-objects"
t "its own last count" "$(build_size "$o/7.3-stock-x86_64")" 1488
t "a variant never built: the largest of its base and kind (retry-hard's)" "$(build_size "$o/7.3-patched-x86_64")" 1490
mkdir -p "$o/7.3-patched-x86_64-debug"
t "a debug build counts debug builds only" "$(build_size "$o/7.3-patched-x86_64-debug")" 2100
t "another arch, none built here: configs/build-sizes' figure for it" "$(build_size "$o/7.3-stock-arm64")" \
	"$(awk '$1 == "7.3" && $2 == "arm64" { print $3 }' "$top/configs/build-sizes")"
mkdir -p "$o/7.3-stock-arm64-gki"
t "the GKI-shaped kind is its own (not arm64's)" "$(build_size "$o/7.3-stock-arm64-gki")" \
	"$(awk '$1 == "7.3" && $2 == "arm64-gki" { print $3 }' "$top/configs/build-sizes")"
t "a new kind (llvm): nothing seen" "$(build_size "$o/7.3-stock-x86_64-llvm")" 0
# A fresh clone: nothing built yet; configs/build-sizes' figure of the
# base and kind, none for a kind it does not list
fresh=$tmp/fresh
mkdir -p "$fresh/configs" "$fresh/obj/7.3-stock-x86_64"
printf '# base kind objects\n7.3 x86_64 1500 # a note\n7.3 arm64 1300\n' >"$fresh/configs/build-sizes"
t "a fresh clone: configs/build-sizes' figure" "$(RS_TOP=$fresh build_size "$fresh/obj/7.3-stock-x86_64")" 1500
t "a fresh clone, arm64: its own line" "$(RS_TOP=$fresh build_size "$fresh/obj/7.3-rfc-arm64")" 1300
t "a fresh clone, a kind not listed: nothing" "$(RS_TOP=$fresh build_size "$fresh/obj/7.3-stock-x86_64-debug")" 0
t "a build of this machine wins over the table" "$(RS_TOP=$fresh build_size "$o/7.3-stock-x86_64")" 1488

# build_record OBJ 2: the seconds of the last full build of the kind
t "its own build's seconds" "$(build_record "$o/7.3-stock-x86_64" 2)" 610
t "a variant never built: the longest of its base and kind" "$(build_record "$o/7.3-patched-x86_64" 2)" 610
t "a kind never built here: 0, not a guess" "$(build_record "$o/7.3-stock-x86_64-llvm" 2)" 0

# compare_eta: the progress line's estimate (UTC, NOW = 0)
export TZ=UTC
t "no capture made yet: nothing said" "$(compare_eta 0 0 35 -1 4 -1 7 0)" ""
t "captures only: 2 took 200 s, 33 left" "$(compare_eta 200 2 33 0 0 0 0 0)" \
	"captures end in about 55 min (at 00:55)"
t "the whole compare: 4 builds (1800 s) and 7 selftests (840 s) after them" \
	"$(compare_eta 200 2 33 1800 4 840 7 0)" \
	"captures end in about 55 min (at 00:55); the whole compare in about 99 min (at 01:39; with 4 kernels to build, 7 selftests runs)"
t "builds not timed yet: no end invented" "$(compare_eta 200 2 33 -1 1 840 7 0)" \
	"captures end in about 55 min (at 00:55); the whole compare ends later (1 kernel to build, 7 selftests runs; builds not timed on this machine yet)"
t "selftests not timed, none left to build" "$(compare_eta 200 2 33 -1 0 -1 1 0)" \
	"captures end in about 55 min (at 00:55); the whole compare ends later (1 selftests run; selftests not timed on this machine yet)"

t_done
