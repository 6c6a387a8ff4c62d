#!/usr/bin/env bash
# tests/unit/bench-args.sh: scripts/bench refuses bad options and bad
# result files with a message and exit 1, before it builds or boots
# anything, and its split table (--split --from) on a fixture: the cost of
# the default in points of the none rate, split into the hooks, the
# counting and the mmap_lock tracepoints, and in instructions per fault
# under icount (1e9 / (4 R)).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/fixtures/bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# bad WANT ARGS...: bench ARGS exits 1 with WANT in its message
bad() {
	local want=$1 out rc
	shift
	out=$("$top/scripts/bench" "$@" 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$want" <<<"$out"; then
		echo "ok - bench $*: refused ($(tail -n 1 <<<"$out"))"
	else
		fail=1
		echo "not ok - bench $*: exit $rc, wanted 1 and '$want': $out"
	fi
}
bad "--reps takes a positive integer" --reps 0
bad "--clock takes icount or wall" --clock tsc
bad "unknown option --splt" --splt
bad "no such readable file" --from "$tmp/none.txt"
printf 'anon none 1 1000\nanon hook one 980\n' >"$tmp/bad.txt"
bad "malformed" --split --from "$tmp/bad.txt"
grep -v '^file entry 3' "$fx/split.txt" >"$tmp/short.txt"
bad "file/entry has 2 runs" --split --from "$tmp/short.txt"
bad "anon/around has no run" --from "$fx/split.txt"

# want LABEL REGEX: a line of the split table matches REGEX
out=$("$top/scripts/bench" --split --from "$fx/split.txt" 2>&1)
want() {
	if grep -qE -- "$2" <<<"$out"; then
		echo "ok - bench --split: $1"
	else
		fail=1
		echo "not ok - bench --split: $1: no line matches '$2' in:"
		printf "%s\n" "$out" | sed "s/^/#   /"
	fi
}
# anon medians 1000 / 980 / 960 / 950: 5.0% = 2.0 + 2.0 + 1.0 points;
# 250000 instructions per fault, +13158 = +5102 +5315 +2741
want "anon: medians and points" '^\| anon \| 1000 \| 980 \| 960 \| 950 \| 5\.0% \| 2\.0% \| 2\.0% \| 1\.0% \|'
want "anon: instructions per fault" '^\| anon .*\| 250000 \| \+13158 = \+5102 \+5315 \+2741 \|$'
# file 500 / 495 / 490 / 490: 2.0% = 1.0 + 1.0 + 0.0
want "file: medians and points" '^\| file \| 500 \| 495 \| 490 \| 490 \| 2\.0% \| 1\.0% \| 1\.0% \| 0\.0% \|'
want "paired ratios" 'anon hook 0\.980, nolock 0\.960, entry 0\.950'
# --gki: no fprobe configuration (no function tracer on GKI); its columns
# are n/a, the others as usual: anon none 1000, entry 970, around 960,
# kprobe 900, bpftrace 800
for rep in 1 2 3; do
	for c in "none 1000" "entry 970" "around 960" "kprobe 900" "bpftrace 800"; do
		echo "anon ${c% *} $rep ${c#* }"
		echo "file ${c% *} $rep ${c#* }"
	done
done >"$tmp/gki.txt"
out=$("$top/scripts/bench" --gki --from "$tmp/gki.txt" 2>&1) || true
if grep -qE '^\| anon \| 1000 \| 970 \| 960 \| n/a \| 900 \| 800 \| 0\.970 \| 0\.960 \| n/a \| 0\.900 \| 0\.800 \| 0\.15 \|$' <<<"$out"; then
	echo "ok - bench --gki --from: fprobe n/a, the other columns and ratios"
else
	fail=1
	echo "not ok - bench --gki --from: want fprobe n/a and ratios 0.970 0.960 0.900 0.800 in:"
	printf "%s\n" "$out" | sed "s/^/#   /"
fi
# light=1's table (issue 30): a run with a light configuration gets its
# own rows: anon none 1000, light 995, bpftrace 800: 0.995 and 0.03 of
# bpftrace's overhead; the entry/none paired ratio beside it.
sed 's/^\(anon\|file\) entry \([0-9]*\) 970$/&\n\1 light \2 995/' "$tmp/gki.txt" >"$tmp/light.txt"
out=$("$top/scripts/bench" --gki --from "$tmp/light.txt" 2>&1) || true
if grep -qE '^\| anon \| 1000 \| 995 \| 0\.995 \| 0\.995 \| 0\.970 \| 0\.03 \|$' <<<"$out"; then
	echo "ok - bench --from a run with light=1: its table, 0.995 and 0.03 of bpftrace's overhead"
else
	fail=1
	echo "not ok - bench --from a run with light=1: want light 995, 0.995, 0.03 in:"
	printf "%s\n" "$out" | sed "s/^/#   /"
fi
# The committed runs: --from gives back their tables' rows.
for d in bench bench-arm64 bench-gki; do
	r=$top/results/$d
	[ -f "$r/bench.txt" ] || continue
	if diff <(grep -E '^\| (anon|file) ' "$r/bench.md") \
		<("$top/scripts/bench" --from "$r/bench.txt" 2>&1 | grep -E '^\| (anon|file) ') >"$tmp/diff"; then
		echo "ok - bench --from results/$d/bench.txt: the committed table's rows"
	else
		fail=1
		echo "not ok - bench --from results/$d/bench.txt differs from results/$d/bench.md:"
		sed 's/^/#   /' "$tmp/diff"
	fi
done
[ "$fail" = 0 ]
