#!/usr/bin/env bash
# End-to-end smoke run of the main job: a short file-major and swap-in on
# both kernels through scripts/capture and rs-report, asserting only the
# directions that must hold: patched keeps I/O retries on the VMA lock and
# has no file/swap I/O fallbacks; stock falls back and keeps none.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
flag=(); [ -z "${RS_DEBUG:-}" ] || flag=(--debug)
res=$RS_BUILD/check/results
rm -rf "$res"
id=smoke
for v in stock patched; do
	t0=$(date +%s)
	if "$top/scripts/capture" --variant "$v" "${flag[@]}" --runs 1 --run-id "$id" --results "$res" \
		file-major swap-in >"$RS_BUILD/check/capture-$v.log" 2>&1; then
		ok "$v: capture of file-major and swap-in ($(($(date +%s) - t0)) s)"
	else
		tail -n 15 "$RS_BUILD/check/capture-$v.log" | sed 's/^/#   /'
		not_ok "$v: capture"
	fi
done
d() { # d VARIANT SCENARIO COUNTER: after - before of one run
	local r=$res/$id/$1/$2/1
	awk -v n="$3" 'FNR == NR && $1 == n { b = $2 } FNR != NR && $1 == n { a = $2 } END { print a - b }' \
		"$r/stats.before" "$r/stats.after" 2>/dev/null
}
for s in file-major:file swap-in:swap; do
	scen=${s%%:*} io=${s#*:}
	sf=$(d stock "$scen" "fallback_after_${io}_io") sk=$(d stock "$scen" "retry_kept_after_${io}_io")
	pf=$(d patched "$scen" "fallback_after_${io}_io") pk=$(d patched "$scen" "retry_kept_after_${io}_io")
	# Retries the series did not flag with VM_FAULT_RETRY_VMA (a folio locked
	# by another thread's read) still fall back: only those may.
	pr=$(d patched "$scen" "${io/file/filemap}_fault_retry") prv=$(d patched "$scen" "${io/file/filemap}_fault_retry_vma")
	unflagged=$((${pr:-0} - ${prv:-0}))
	if [ "${sf:-0}" -gt 0 ] && [ "${sk:-1}" = 0 ]; then
		ok "stock $scen: $sf ${io} I/O fallbacks to mmap_lock, $sk retries kept"
	else
		not_ok "stock $scen: want fallbacks > 0 and none kept, got $sf and $sk"
	fi
	if [ "${pk:-0}" -gt 0 ] && [ "${pf:-1}" = "$unflagged" ]; then
		ok "patched $scen: $pk ${io} I/O retries kept on the VMA lock, $pf fallbacks (= retries without VM_FAULT_RETRY_VMA)"
	else
		not_ok "patched $scen: want kept > 0 and fallbacks = $unflagged unflagged retries, got $pk and $pf"
	fi
done
for v in stock patched; do
	check "$v: trace.dat of file-major opens with libtracecmd (rs-trace)" \
		test -s "$res/$id/$v/file-major/1/trace.json"
done
# The lab's readahead (scripts/capture --read-ahead-kb, default 256): in
# the run's meta, and what faultload found on the disk during the run.
r=$res/$id/stock/file-major/1
ra_meta=$(status_get "$r/meta" read_ahead_kb)
ra_run=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["setup"].get("read_ahead_kb"))' \
	"$r/workload.json" 2>/dev/null)
check "stock file-major: read_ahead_kb 256 in meta ($ra_meta) and in the run (faultload: $ra_run)" \
	test "$ra_meta" = 256 -a "$ra_run" = 256
# The virtual-time lab (issue 28): capture's default is the guest's icount
# clock and the ufs31 null_blk; the run's meta and meta.host say so, the
# host's state over the run's own window is recorded, and the window read
# nothing from the host's disks.
r=$res/$id/stock/file-major/1
lab="$(status_get "$r/meta.host" clock) / $(status_get "$r/meta" storage) on $(status_get "$r/meta" data_dev), swap $(status_get "$r/meta" swap) on $(status_get "$r/meta" swap_dev)"
check "stock file-major ran on the lab's clock and storage ($lab)" \
	test "$lab" = "icount shift=0 sleep=off / ufs31 on rsdata, swap disk on rsswap"
busy=$(status_get "$r/meta.host" run_host_busy_pct) rwall=$(status_get "$r/meta.host" run_wall_s)
check "stock file-major: meta.host has the host over the run's window (run_wall_s $rwall, run_host_busy_pct $busy)" \
	test -n "$busy" -a -n "$rwall"
check "stock file-major: no host disk I/O in the window (host_disk_ios=$(status_get "$r/guest-status" host_disk_ios))" \
	test "$(status_get "$r/guest-status" host_disk_ios)" = 0
# A run whose window reads the host's disk is failed, and says why
# (--touch-host-at); the same on virtio storage, where the host's disk is the
# storage, is a good run.
for st in ufs31:failed virtio:ok; do
	"$top/scripts/capture" --variant stock --runs 1 --max-redo 0 --run-id touch-${st%%:*} --results "$res" \
		--storage "${st%%:*}" --touch-host-at minor:1 minor:--duration,0.5 >"$RS_BUILD/check/capture-touch.log" 2>&1
	t=$res/touch-${st%%:*}/stock/minor/1/status
	check "--touch-host-at on ${st%%:*}: the run is ${st#*:} ($(status_get "$t" result): $(status_get "$t" reason))" \
		test "$(status_get "$t" result)" = "${st#*:}"
done

# Per-fault latency (issue 16): each fault the module timed is one row
# count in the run's latency file, one retryscope_fault_done event, and one
# slice on its thread's fault track in trace.perfetto.json, named by its
# outcome: the retried ones by the lock their last attempt held.
for vo in stock:mmap_lock patched:vma_lock; do
	v=${vo%%:*} o=${vo#*:} r=$res/$id/$v/file-major/1
	if out=$(python3 - "$r" "$o" <<'PY'
import json, sys
r, want = sys.argv[1], sys.argv[2]
lat, pairs = {}, set()
for line in open(r + "/latency"):
    if line.startswith("#"):
        continue
    o, c, lo, hi, n = line.split()
    lat[o] = lat.get(o, 0) + int(n)
    pairs.add((o, c))
retried = sum(n for o, n in lat.items() if o != "first")
timed = sum(lat.values())
done = json.load(open(r + "/trace.json"))["events"].get("retryscope:retryscope_fault_done") or 0
pf = json.load(open(r + "/trace.perfetto.json"))["traceEvents"]
tracks = {e["tid"] for e in pf if e["ph"] == "M" and e["args"]["name"].split(" (")[0].endswith(" faults")}
slices = [e for e in pf if e["ph"] == "X" and e["tid"] in tracks]
names = {e["name"] for e in slices}
# stock has no VMA-lock retry; patched keeps the retries the series
# flags (an unflagged one, after waiting on another thread's locked
# folio, still finishes under mmap_lock)
assert retried > 0, f"no retried fault timed: {lat}"
if want == "mmap_lock":
    assert lat.get("vma_lock", 0) == 0, f"a retry kept on the VMA lock on stock: {lat}"
else:
    assert lat.get(want, 0) * 10 >= retried * 9, f"fewer than 90% of the retried faults {want}: {lat}"
assert done == timed, f"{done} fault_done events, {timed} timed faults"
assert len(slices) == done, f"{len(slices)} fault slices, {done} events"
want_names = {f"fault {o} ({c})" for o, c in pairs}
assert names == want_names, f"slice names {names}, want {want_names}"
print(f"{timed} faults timed, {retried} retried, {lat.get(want, 0)} of them {want}: {done} events, {len(slices)} slices")
PY
); then
		ok "$v: file-major: $out"
	else
		printf '%s\n' "$out" | tail -n 3 | sed 's/^/#   /'
		not_ok "$v: file-major: latency file, fault_done events and Perfetto fault slices agree"
	fi
done
if "$top/tools/report/rs-report" "$res/$id" --baseline stock -o "$res/$id/report.md" >"$res/headline.txt" 2>&1 &&
	grep -q 'file-major' "$res/$id/report.md"; then
	ok "rs-report writes report.md for the smoke run"
else
	sed 's/^/#   /' "$res/headline.txt" | tail -n 10
	not_ok "rs-report on the smoke run"
fi

# make compare's order (issue 19, the A/A noise band): run by run, each
# round boots every kernel once, in the variants' order in odd rounds and
# in reverse in even ones, the A/A copy of the baseline among them.
res2=$RS_BUILD/check/results-rounds
rm -rf "$res2"
t0=$(date +%s)
if "$top/scripts/compare" --variants "stock patched" --runs 2 --scenarios "file-major:--duration,1" \
	--no-selftests --run-id rounds --results "$res2" >"$RS_BUILD/check/compare-rounds.log" 2>&1; then
	ok "compare --variants 'stock patched' --runs 2 with its A/A copy ($(($(date +%s) - t0)) s)"
else
	tail -n 15 "$RS_BUILD/check/compare-rounds.log" | sed 's/^/#   /'
	not_ok "compare --variants 'stock patched' --runs 2"
fi
got=$(for d in "$res2"/rounds/*/file-major/*/; do
	d=${d%/} k=${d%/file-major/*}
	printf '%s %s/%s\n' "$(stat -c %Y "$d/status" 2>/dev/null || echo 0)" "${k##*/}" "${d##*/}"
done | sort -n | awk '{ printf "%s ", $2 }')
want="stock/1 patched/1 stock-aa/1 stock-aa/2 patched/2 stock/2 "
if [ "$got" = "$want" ]; then
	ok "compare's runs in alternating rounds: $got"
else
	not_ok "compare's runs in alternating rounds: want $want, got $got"
fi
check "its report has the A/A kernel" grep -q 'stock-aa' "$res2/rounds/report.md"
check "the report was written after each round (round 1 and 2 of stock patched)" \
	test "$(grep -c 'report (round [12] of 2 of stock patched)' "$RS_BUILD/check/compare-rounds.log")" = 2
# The progress (issue 33): after the first capture, when the captures end;
# at the end, the time of each phase (the README's time budget)
check "the second capture's line says when the captures end" \
	grep -Eq 'round 1 of 2: patched \(capture 2 of 6; captures end in about [0-9]+ min \(at [0-9]{2}:[0-9]{2}\)\)$' \
	"$RS_BUILD/check/compare-rounds.log"
check "the last step line gives each phase's time (6 captures, no selftests)" \
	grep -Eq 'took [0-9]+ s: setup [0-9]+ s; kernel builds [0-9]+ s \([0-9]\); captures [0-9]+ s \(6\); selftests 0 s \(0\); reports [0-9]+ s$' \
	"$RS_BUILD/check/compare-rounds.log"

# An interrupted compare is resumed by the next with the same options and no
# --run-id: what it filed from the same build is kept, the rest is done.
# Here the interruption is made by hand: the state file is put back and one
# kernel's runs are removed, as if it had stopped before capturing them.
res3=$RS_BUILD/check/results-resume
rm -rf "$res3"
resume_args=(--variants "stock patched" --runs 1 --scenarios "minor:--duration,0.3" --no-selftests --no-aa --results "$res3")
if "$top/scripts/compare" "${resume_args[@]}" >"$RS_BUILD/check/compare-resume1.log" 2>&1; then
	ok "compare for the resume check"
else
	tail -n 10 "$RS_BUILD/check/compare-resume1.log" | sed 's/^/#   /'
	not_ok "compare for the resume check"
fi
check "a compare that ended leaves no state to resume" test ! -e "$res3/.compare-state"
rid=$(find "$res3" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | head -n 1)
stock_status=$(stat -c %Y "$res3/$rid/stock/minor/1/status" 2>/dev/null)
args_hash=$(printf '%s\n' "stock patched" 1 "minor:--duration,0.3" x86_64 256 0 "" | sha256sum | cut -c1-16)
echo "$rid $args_hash" >"$res3/.compare-state"
rm -rf "${res3:?}/$rid/patched"
if "$top/scripts/compare" "${resume_args[@]}" >"$RS_BUILD/check/compare-resume2.log" 2>&1 &&
	grep -q "resuming run $rid" "$RS_BUILD/check/compare-resume2.log" &&
	grep -q 'round 1 of 1: stock: already filed from this build, kept' "$RS_BUILD/check/compare-resume2.log" &&
	[ "$(stat -c %Y "$res3/$rid/stock/minor/1/status")" = "$stock_status" ] &&
	[ "$(status_get "$res3/$rid/patched/minor/1/status" result)" = ok ]; then
	ok "a rerun resumes run $rid: stock's run kept, patched's captured, the report rewritten"
else
	tail -n 10 "$RS_BUILD/check/compare-resume2.log" | sed 's/^/#   /'
	not_ok "a rerun resumes the interrupted run $rid (stock kept, patched captured)"
fi

# More runs for an existing run id (issue 29 item 2): --run-id ID --runs 2
# on the finished 1-run compare keeps every run 1 (same mtime) and captures
# run 2 of each kernel; the report then counts 2 runs a kernel.
if "$top/scripts/compare" --variants "stock patched" --runs 2 --scenarios "minor:--duration,0.3" \
	--no-selftests --no-aa --results "$res3" --run-id "$rid" >"$RS_BUILD/check/compare-more.log" 2>&1 &&
	grep -q 'round 1 of 2: stock: already filed from this build, kept' "$RS_BUILD/check/compare-more.log" &&
	grep -q 'round 1 of 2: patched: already filed from this build, kept' "$RS_BUILD/check/compare-more.log" &&
	[ "$(stat -c %Y "$res3/$rid/stock/minor/1/status")" = "$stock_status" ] &&
	[ "$(status_get "$res3/$rid/stock/minor/2/status" result)" = ok ] &&
	[ "$(status_get "$res3/$rid/patched/minor/2/status" result)" = ok ] &&
	grep -q '| minor | 2 runs: 2 ok, 0 lossy, 0 failed | 2 runs: 2 ok, 0 lossy, 0 failed |' "$res3/$rid/report.md"; then
	ok "--run-id $rid --runs 2 adds run 2 of each kernel, keeps run 1, reports 2 runs a kernel"
else
	tail -n 10 "$RS_BUILD/check/compare-more.log" | sed 's/^/#   /'
	not_ok "--run-id $rid --runs 2 adds run 2 to the 1-run compare"
fi

# A kernel whose every run of the run id is filed is not built again (adding
# variants to a run id, issue 28's arm64 options): patched's run 2 removed,
# the same command keeps stock without build-kernel and captures patched's.
# Round 1 is all filed, so its report comes before any capture: without
# rs-report built (a fresh checkout), compare must build it first.
rm -rf "${res3:?}/$rid/patched/minor/2"
rm -f "$top/tools/report/rs-report"
if "$top/scripts/compare" --variants "stock patched" --runs 2 --scenarios "minor:--duration,0.3" \
	--no-selftests --no-aa --results "$res3" --run-id "$rid" >"$RS_BUILD/check/compare-add.log" 2>&1 &&
	grep -q 'kernel: stock: every run of it is filed from this configuration, not built' "$RS_BUILD/check/compare-add.log" &&
	grep -qx '==> \[ *[0-9]*s\] kernel: patched' "$RS_BUILD/check/compare-add.log" &&
	[ "$(stat -c %Y "$res3/$rid/stock/minor/1/status")" = "$stock_status" ] &&
	[ "$(status_get "$res3/$rid/patched/minor/2/status" result)" = ok ]; then
	ok "a kernel with every run filed is not built; the other one's missing run is captured"
else
	tail -n 10 "$RS_BUILD/check/compare-add.log" | sed 's/^/#   /'
	not_ok "compare builds only the kernels with runs to capture"
fi

# scripts/host-independence end to end, short: one run of minor idle and
# one beside the hog.  The hog must be seen by the host (busy share over the
# hog run's window) and not by the guest's counts' file and table: pair.md
# and counts.txt are written, and one run a side can show no moved measure.
res4=$RS_BUILD/check/results-hi
rm -rf "$res4"
t0=$(date +%s)
if "$top/scripts/host-independence" --runs 1 --scenarios "minor:--duration,0.3" --results "$res4" \
	--run-id hi >"$RS_BUILD/check/host-independence.log" 2>&1; then
	ok "host-independence --runs 1 exits 0 ($(($(date +%s) - t0)) s)"
else
	tail -n 10 "$RS_BUILD/check/host-independence.log" | sed 's/^/#   /'
	not_ok "host-independence --runs 1"
fi
ib=$(status_get "$res4/hi/idle/minor/1/meta.host" run_host_busy_pct)
hb=$(status_get "$res4/hi/hog/minor/1/meta.host" run_host_busy_pct)
check "the hog ran beside the hog's run: host busy ${hb:-?}% over its window (idle run: ${ib:-?}%)" \
	awk -v h="${hb:-0}" 'BEGIN { exit !(h >= 90) }'
check "pair.md has minor and the count of measures that moved" \
	sh -c "grep -q '^## minor' '$res4/hi/pair.md' && grep -q '^0 of [0-9]* measures moved' '$res4/hi/pair.md'"
check "counts.txt compares run 1 of idle and hog" grep -q '^minor run 1: ' "$res4/hi/counts.txt"
