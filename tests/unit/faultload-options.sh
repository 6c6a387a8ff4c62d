#!/usr/bin/env bash
# tests/unit/faultload-options.sh: host tests of tools/faultload/faultload.
#
#   tests/unit/faultload-options.sh        (FAULTLOAD=path overrides the binary)
#
# Bad options must exit 2 with one line on stderr; quick runs that need no
# root must write the JSON shape that tools/report reads.  Paths that need
# root in the guest (swap, SCHED_FIFO, drop_caches) must fail clearly or
# degrade as documented.  Never drops the host's page cache: every run as
# root passes --no-drop-caches.  Prints TAP "ok - " / "not ok - " lines and
# exits non-zero if any failed.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fl=${FAULTLOAD:-$top/tools/faultload/faultload}
if [ -z "${FAULTLOAD:-}" ]; then
	make -s -C "$top/tools/faultload" faultload >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
data=$tmp/data.bin
head -c $((4 << 20)) /dev/urandom >"$data"
chmod 644 "$data"

failed=0
ok() { echo "ok - $*"; }
not_ok() {
	echo "not ok - $*"
	failed=$((failed + 1))
}
# show FILE: its first lines as TAP comments
show() { sed -n '1,8s/^/#   /p' "$1"; }

# usage_error DESC ARGS...: exit 2, exactly one line on stderr, none on stdout.
usage_error() {
	local desc=$1 rc=0 lines
	shift
	"$fl" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && [ ! -s "$tmp/out" ] &&
		grep -q '^faultload: ' "$tmp/err"; then
		ok "$desc: exit 2, '$(cat "$tmp/err")'"
	else
		show "$tmp/err"
		not_ok "$desc: exit $rc, $lines stderr lines (want exit 2 and 1 line)"
	fi
}

usage_error "unknown scenario" no-such-scenario
usage_error "no scenario"
usage_error "unknown option" minor --no-such-option
usage_error "--threads 0" minor --threads 0
usage_error "--threads abc" minor --threads abc
usage_error "--threads too many" minor --threads 100000
usage_error "--threads without a value" minor --threads
usage_error "--size 12Q" minor --size 12Q
usage_error "--size below a page" minor --size 100
usage_error "--duration -1" minor --duration -1
usage_error "--duration 0" minor --duration 0
usage_error "--duration abc" minor --duration abc
usage_error "--passes 0" file-major --passes 0 --file "$data"
usage_error "--file /nonexistent" file-major --file /nonexistent
usage_error "--file a directory" file-major --file "$tmp"
usage_error "--size larger than the file" file-major --file "$data" --size 1G
usage_error "--madv bogus" file-major --file "$data" --madv bogus
usage_error "--kind bogus" minor --kind bogus
usage_error "--json in a missing directory" minor --json "$tmp/none/x.json"
usage_error "option of another scenario" swap-in --fork-interval 10
usage_error "--file for minor --kind anon" minor --file "$data"
usage_error "two scenarios" minor file-major
usage_error "--memcg-max below 1M" minor --memcg-max 10K
usage_error "--memcg-max abc" minor --memcg-max abc
usage_error "--memcg-swap-max without --memcg-max" minor --memcg-swap-max 0
usage_error "--memcg-swap-max abc" minor --memcg-max 8M --memcg-swap-max abc
usage_error "--read-ahead-kb abc" file-major --file "$data" --read-ahead-kb abc
usage_error "--read-ahead-kb for swap-in" swap-in --read-ahead-kb 128
usage_error "--vmas above 60000" fork-at-scale --file "$data" --vmas 60001
usage_error "--idle-threads for file-major" file-major --file "$data" --idle-threads 4

rc=0
"$fl" --help >"$tmp/out" 2>"$tmp/err" || rc=$?
missing=''
for sc in file-major swap-in contended ui-inversion same-pages fork-during-io minor thrash fork-at-scale vma-churn swap-writeback app-start; do
	grep -q "^$sc: " "$tmp/out" || missing="$missing $sc"
done
if [ "$rc" = 0 ] && [ -z "$missing" ] && [ ! -s "$tmp/err" ]; then
	ok "--help: exit 0, documents every scenario"
else
	not_ok "--help: exit $rc, missing:${missing:- none}"
fi
rc=0
"$fl" --list >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && [ "$(wc -l <"$tmp/out")" = 12 ]; then
	ok "--list: exit 0, 12 scenarios"
else
	not_ok "--list: exit $rc, $(wc -l <"$tmp/out") lines"
fi

# check_json FILE CLASSES [EXTRA]: the JSON shape of report.h; CLASSES is a
# comma-separated list that must be exactly the classes present.  EXTRA is
# a Python expression on d that must be true.
check_json() {
	python3 - "$@" <<'PY'
import json, os, sys
path, want, extra = sys.argv[1], sys.argv[2].split(","), (sys.argv[3:] or ["True"])[0]
d = json.load(open(path))
def need(cond, what):
    if not cond:
        sys.exit(f"{path}: {what}")
for k in ("tool", "version", "scenario", "options", "setup", "wall_s", "classes",
          "throughput_ops_s", "faults_per_s", "vmstat"):
    need(k in d, f"no key {k}")
need(d["tool"] == "faultload" and d["version"] == 1, "tool/version")
need(d["wall_s"] > 0, "wall_s > 0")
need("threads" in d["options"] and "size" in d["options"], "options")
need(sorted(d["classes"]) == sorted(want), f"classes {sorted(d['classes'])}")
for name, c in d["classes"].items():
    for k in ("threads", "ops", "minflt", "majflt", "errors", "latency_ns"):
        need(k in c, f"{name}: no {k}")
    lat = c["latency_ns"]
    for k in ("count", "min", "max", "mean", "p50", "p90", "p99", "p999", "buckets"):
        need(k in lat, f"{name}.latency_ns: no {k}")
    # fl-idle threads only sleep: no ops
    need((c["ops"] > 0 or name == "idle") and lat["count"] == c["ops"],
         f"{name}: ops {c['ops']} count {lat['count']}")
    need(c["errors"] == 0, f"{name}: errors {c['errors']}")
    need(lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["p999"] <= lat["max"],
         f"{name}: percentiles not ordered")
    b = lat["buckets"]
    need(sum(x[2] for x in b) == lat["count"], f"{name}: bucket counts")
    need(all(x[0] <= x[1] and x[2] > 0 for x in b), f"{name}: bucket bounds")
    need(all(b[i][1] < b[i + 1][0] for i in range(len(b) - 1)), f"{name}: buckets not ascending")
    need(not b or (b[0][0] <= lat["min"] and lat["max"] <= b[-1][1]),
         f"{name}: min/max outside the buckets")
need(eval(extra), f"failed: {extra}")
PY
}

# smoke DESC CLASSES EXTRA ARGS...: a quick run, exit 0, valid JSON.
smoke() {
	local desc=$1 classes=$2 extra=$3 rc=0 err
	shift 3
	"$fl" "$@" --quiet --json "$tmp/run.json" 2>"$tmp/err" || rc=$?
	if [ "$rc" != 0 ]; then
		show "$tmp/err"
		not_ok "$desc: exit $rc"
	elif ! err=$(check_json "$tmp/run.json" "$classes" "$extra" 2>&1); then
		echo "#   $err"
		not_ok "$desc: JSON"
	else
		ok "$desc: exit 0, JSON with classes $classes"
	fi
}

smoke "minor --kind anon" minor 'd["faults_per_s"] > 0 and d["classes"]["minor"]["minflt"] > 0' \
	minor --kind anon --duration 0.3 --threads 2
smoke "minor --kind file" minor 'd["setup"]["resident_pages_at_start"] == 1024' \
	minor --kind file --file "$data" --duration 0.3
smoke "file-major" io 'd["options"]["file"].endswith("data.bin") and d["setup"]["cache_drop"] == "none"' \
	file-major --file "$data" --no-drop-caches --duration 0.5
smoke "file-major --passes 2 --order random" io 'd["classes"]["io"]["ops"] == 2 * 1024' \
	file-major --file "$data" --no-drop-caches --passes 2 --order random --threads 3
# One resident page in one pass takes microseconds: wall_s printed to the
# millisecond was 0.000 (and failed the file-major line above on a fast host).
head -c 4096 "$data" >"$tmp/page.bin"
smoke "file-major of one resident page: wall_s to the microsecond" io \
	'd["classes"]["io"]["ops"] == 1 and d["setup"]["setup_s"] > 0 and d["throughput_ops_s"] > 0' \
	file-major --file "$tmp/page.bin" --no-drop-caches --passes 1 --threads 1
smoke "same-pages --passes 2" same 'd["classes"]["same"]["ops"] == 2 * 1024 * 4' \
	same-pages --file "$data" --no-drop-caches --passes 2 --threads 4
smoke "thrash --passes 3: an op is a round" io 'd["classes"]["io"]["ops"] == 3 * 2 and d["classes"]["io"]["minflt"] + d["classes"]["io"]["majflt"] >= 3 * 2' \
	thrash --file "$data" --no-drop-caches --passes 3 --threads 2
smoke "fork-during-io" io,fork 'd["classes"]["fork"]["ops"] >= 3' \
	fork-during-io --file "$data" --no-drop-caches --duration 0.5 --fork-interval 20
smoke "fork-at-scale" io,fork,idle '(d["classes"]["fork"]["ops"] >= 2 and d["classes"]["idle"]["threads"] == 50
    and d["setup"]["extra_vmas"] == 500 and d["setup"]["process_vmas"] >= 500 + 50)' \
	fork-at-scale --file "$data" --no-drop-caches --duration 0.5 --fork-interval 20 \
	--swap-threads 0 --idle-threads 50 --vmas 500 --threads 2
# vma-churn: 2 passes over the file's pages but the last 64 KiB (16 pages),
# which the writer splits off and merges back
smoke "vma-churn --passes 2: the io threads keep off the writer's tail" io,writer \
	'd["classes"]["io"]["ops"] == 2 * (1024 - 16) and d["classes"]["writer"]["ops"] >= 1 and d["classes"]["writer"]["errors"] == 0' \
	vma-churn --file "$data" --no-drop-caches --passes 2 --threads 2 --writer-size 64K
rc=0
"$fl" vma-churn --file "$data" --no-drop-caches --size 64K --writer-size 64K --threads 2 --duration 0.2 \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 1 ] && grep -q 'vma-churn: --writer-size 65536 leaves fewer pages than --threads 2' "$tmp/err"; then
	ok "vma-churn with no page left for the io threads: exit 1 with the reason"
else
	show "$tmp/err"
	not_ok "vma-churn with no page left for the io threads: exit $rc"
fi
# app-start on the 4 MiB file (1,024 pages), one pass: apk 409 pages (its
# last 6, then 200 entries of 1-4 pages, fewer at its end), 4 libraries of
# 76 (1 + 8 + 19 touches each), odex 204 (182: every 9th skipped), art 102:
# 6 + 112 + 182 + 102 = 402 touches and 200-800 more
smoke "app-start --passes 1: the files' touches in their order, frames beside" io,hi \
	'402 + 200 <= d["classes"]["io"]["ops"] <= 402 + 800 and d["classes"]["hi"]["ops"] >= 1 and d["classes"]["io"]["errors"] == 0' \
	app-start --file "$data" --size 4M --no-drop-caches --passes 1 --threads 3
smoke "ui-inversion" hi,io,writer,cpu '(d["hi_policy"] in ("SCHED_FIFO", "nice-20", "normal")
    and d["classes"]["cpu"]["threads"] == os.cpu_count() == d["options"]["cpu_threads"]
    and d["classes"]["hi"]["ops"] >= 1 and d["classes"]["writer"]["ops"] >= 1
    and d["classes"]["hi"]["minflt"] >= d["classes"]["hi"]["ops"] * (3 + 1))' \
	ui-inversion --file "$data" --no-drop-caches --duration 0.5 --swap-threads 0 --hi-pages 3
smoke "ui-inversion --cpu-threads 0" hi,io,writer '"cpu" not in d["classes"] and "swap" not in d["classes"]' \
	ui-inversion --file "$data" --no-drop-caches --duration 0.3 --swap-threads 0 --cpu-threads 0
smoke "contended --swap-threads 0" io,writer 'd["classes"]["writer"]["ops"] > 0' \
	contended --file "$data" --no-drop-caches --duration 0.5 --swap-threads 0

# JSON on stdout by default, nothing else there
rc=0
"$fl" minor --duration 0.2 --quiet >"$tmp/stdout.json" 2>"$tmp/err" || rc=$?
if [ "$rc" = 0 ] && check_json "$tmp/stdout.json" minor >/dev/null 2>&1; then
	ok "JSON on stdout by default"
else
	not_ok "JSON on stdout by default: exit $rc"
fi

# Swap: on a host without swap both swap scenarios fail clearly.  With
# swap on the host, do not push host memory out: skip.
if [ "$(tail -n +2 /proc/swaps | wc -l)" = 0 ]; then
	for args in "swap-in --size 4M" "contended --file $data --no-drop-caches --duration 0.3" \
		"ui-inversion --file $data --no-drop-caches --duration 0.3" "swap-writeback --size 4M"; do
		rc=0
		# shellcheck disable=SC2086 # args is a word list on purpose
		"$fl" $args --quiet >"$tmp/out" 2>"$tmp/err" || rc=$?
		if [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
			grep -q 'no swap is active' "$tmp/err" && [ ! -s "$tmp/out" ]; then
			ok "${args%% *} without swap: exit 1, '$(cat "$tmp/err")'"
		else
			show "$tmp/err"
			not_ok "${args%% *} without swap: exit $rc (want 1 and one line)"
		fi
	done
else
	ok "swap-in without swap # SKIP the host has swap"
	ok "contended without swap # SKIP the host has swap"
	ok "ui-inversion without swap # SKIP the host has swap"
	ok "swap-writeback without swap # SKIP the host has swap"
fi

# Unprivileged: drop_caches and SCHED_FIFO degrade with a warning.  As root
# run as nobody (never drop the host's caches); skip if that is not possible.
unpriv=()
if [ "$(id -u)" != 0 ]; then
	unpriv=(env)
elif command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [ "${#unpriv[@]}" = 0 ]; then
	ok "unprivileged drop_caches # SKIP cannot drop privileges"
	ok "unprivileged ui-inversion # SKIP cannot drop privileges"
else
	rc=0
	"${unpriv[@]}" "$fl" file-major --file "$data" --duration 0.3 --quiet \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 0 ] && grep -q 'warning: cannot write 3 to /proc/sys/vm/drop_caches' "$tmp/err" &&
		check_json "$tmp/out" io 'd["setup"]["cache_drop"] == "fadvise"' >/dev/null 2>&1; then
		ok "unprivileged --drop-caches: a warning, posix_fadvise only, exit 0"
	else
		show "$tmp/err"
		not_ok "unprivileged --drop-caches: exit $rc"
	fi
	rc=0
	"${unpriv[@]}" "$fl" ui-inversion --file "$data" --no-drop-caches --duration 0.3 \
		--swap-threads 0 --quiet >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 0 ] && grep -q 'fl-hi: ' "$tmp/err" &&
		check_json "$tmp/out" hi,io,writer,cpu 'd["hi_policy"] in ("nice-20", "normal")' >/dev/null 2>&1; then
		ok "unprivileged ui-inversion: hi_policy $(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["hi_policy"])' "$tmp/out"), exit 0"
	else
		show "$tmp/err"
		not_ok "unprivileged ui-inversion: exit $rc"
	fi
fi

echo "# faultload-options: $failed failed"
[ "$failed" = 0 ]
