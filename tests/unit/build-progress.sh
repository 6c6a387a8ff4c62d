#!/usr/bin/env bash
# tests/unit/build-progress.sh: scripts/lib.sh build_progress (the kernel
# build's "N of about M objects, about T left" line) and build_size (M: this
# build directory's last full count, else another variant's of the same
# base, arch and kind) on fixture directories.
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

t_done
