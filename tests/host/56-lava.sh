#!/usr/bin/env bash
# The lab's runs as LAVA jobs (issue 20): scripts/lava-setup, a job from
# scripts/lava-jobs for stock / minor (1 s) / run 1, run by lava-dispatcher's
# lava-run with the qemu device type, filed by scripts/lava-collect; the same
# run made directly by scripts/capture; the collected run must have the
# capture's counters (the same names; the same values for the counters that
# are deterministic for this workload, listed below; present for the rest),
# and rs-report must read the collected results.  Then lava-collect's
# refusals on broken logs (no VM): missing, not a log, a block cut into,
# a job that failed before the run ended (filed as a failed run).  With the
# arm64 stock lab kernel built, the same job on arm64 (lava-jobs --arch
# arm64) against scripts/capture --arch arm64.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
res=$RS_BUILD/check/lava
rm -rf "$res"
mkdir -p "$res"
v=stock spec=minor:--duration,1 id=lava-check

# Deterministic for minor on stock: the counters that were the same (all 0)
# in two direct captures (scripts/capture --runs 1, minor:--duration,1) and
# in a LAVA run of it: minor touches anonymous memory only, so no file or
# swap I/O, no retry kept, no retry loop (attempts_3+), nothing lost, no
# rt/high/low-priority class.  The other 38 move with the timing (faults
# done in 1 s; the VMA-lock aborts, retries, fallbacks and mmap_lock waits
# of the mmap/munmap loop, every wait bucket included: the < 1 us and the
# >= 100 ms buckets were 0 in those three runs, then a < 1 us write wait
# came in a fourth; attempts_max is 2 when a retry happened, which is usual
# but not certain): present is all the test asks of them.
exact=(major_faults
	filemap_fault_calls filemap_fault_vma_locked filemap_fault_tried filemap_fault_nowait
	filemap_fault_retry filemap_fault_retry_vma filemap_fault_major filemap_fault_error
	filemap_fault_random filemap_fault_retry_random
	swap_fault_calls swap_fault_vma_locked swap_fault_tried swap_fault_nowait swap_fault_retry
	swap_fault_retry_vma swap_fault_major swap_fault_error
	fault_retry_file_io fault_retry_swap_io
	retry_kept_vma_lock retry_kept_after_file_io retry_kept_after_swap_io retry_kept_after_other_retry
	fallback_after_file_io fallback_after_swap_io fallback_no_vma_lock
	attempts_3 attempts_4plus faults_abandoned
	mmap_lock_write_trylock mmap_lock_write_failed
	fault_mmap_lock_wait_ns_rt fault_mmap_lock_wait_ns_high fault_mmap_lock_wait_ns_low
	fault_mmap_lock_acquire_rt fault_mmap_lock_acquire_high fault_mmap_lock_acquire_low
	state_table_full probe_nmissed)

# timed DESC CMD...: check, with the time it took in the description.
timed() {
	local desc=$1 t0 out rc
	shift
	t0=$(date +%s)
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = 0 ]; then
		ok "$desc ($(($(date +%s) - t0)) s)"
	else
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
		not_ok "$desc (exit $rc)"
	fi
	return "$rc"
}

# deltas DIR: "counter delta" per line of DIR/stats.after (attempts_max as is).
deltas() {
	awk 'NR == FNR { b[$1] = $2; next }
	     $2 ~ /^[0-9]+$/ { print $1, ($1 == "attempts_max" ? $2 : $2 - b[$1]) }' \
		"$1/stats.before" "$1/stats.after" 2>/dev/null | sort
}

# lava_e2e ARCH DEVICE OUT JOB_ID: one job of stock / minor (1 s) / run 1 for ARCH
# from scripts/lava-jobs, validated, run by lava-run on DEVICE, filed by
# lava-collect, and compared with scripts/capture's run of the same on the
# same kernel.  Sets job and log (the job and its lava-run log).
lava_e2e() {
	local arch=$1 device=$2 out=$3 job_id=$4 a lrc secs col lv dv bad c b uname_m=$1
	mkdir -p "$out"
	if job=$("$top/scripts/lava-jobs" --arch "$arch" --runs 1 --run-id "$id" --out "$out/jobs" "$spec" 2>"$out/lava-jobs.log") &&
		[ "$(printf '%s\n' "$job" | wc -l)" = 1 ] && [ -f "$job" ]; then
		ok "lava-jobs writes one job: ${job#"$top"/}"
	else
		tail -n 15 "$out/lava-jobs.log" | sed 's/^/#   /'
		not_ok "lava-jobs --arch $arch writes one job"
		return 1
	fi
	check "the job validates against lava-dispatcher's schema ($arch)" "$top/scripts/lava-validate" "$job"

	log=$out/lava-run.log
	t0=$(date +%s)
	nice -n 10 "$lava_run" --job-id "$job_id" --output-dir "$out/out" --device "$device" \
		"$job" >"$out/lava-run.stdout" 2>"$log"
	lrc=$?
	secs=$(($(date +%s) - t0))
	if [ "$lrc" = 0 ] && grep -q '^result: pass' "$out/out/result.yaml" 2>/dev/null; then
		ok "lava-run runs the $arch job: pass ($secs s)"
	else
		grep -h 'error_msg' "$out/out/result.yaml" 2>/dev/null | sed 's/^/#   /'
		not_ok "lava-run runs the $arch job (exit $lrc after $secs s; log $log)"
	fi

	col=$out/results
	timed "lava-collect files the $arch run" "$top/scripts/lava-collect" --results "$col" \
		--result-yaml "$out/out/result.yaml" --job "$job" "$log"
	lv=$col/$id/$v/minor/1
	check "collected $arch run: status result=ok, crash=none" \
		test "$(status_get "$lv/status" result):$(status_get "$lv/status" crash)" = ok:none
	check "no staging directory left in $col" \
		test -z "$(find "$col" -maxdepth 1 -name '.lava-collect.*')"
	[ "$arch" != arm64 ] || uname_m=aarch64
	a=$(status_get "$lv/meta" arch)
	check "the collected run's meta says the guest's arch ($a)" test "$a" = "$uname_m"
	# the job ran on the lab's clock and storage, as a capture does
	lab="$(status_get "$lv/meta.host" clock) / $(status_get "$lv/meta" storage) on $(status_get "$lv/meta" data_dev), swap on $(status_get "$lv/meta" swap_dev)"
	check "the $arch job ran on icount and a ufs31 null_blk ($lab)" \
		test "$lab" = "icount shift=0 sleep=off / ufs31 on rsdata, swap on rsswap"

	timed "scripts/capture --arch $arch of the same run (same kernel, --runs 1)" \
		"$top/scripts/capture" --arch "$arch" --variant "$v" --runs 1 --run-id direct --results "$out/direct" "$spec"
	dv=$out/direct/direct/$v/minor/1

	deltas "$lv" >"$out/deltas.lava"
	deltas "$dv" >"$out/deltas.direct"
	if [ -s "$out/deltas.lava" ] && cmp -s <(cut -d' ' -f1 "$out/deltas.lava") <(cut -d' ' -f1 "$out/deltas.direct"); then
		ok "the collected $arch run has the capture's $(wc -l <"$out/deltas.lava") counters"
	else
		diff <(cut -d' ' -f1 "$out/deltas.lava") <(cut -d' ' -f1 "$out/deltas.direct") | head | sed 's/^/#   /'
		not_ok "the collected $arch run has the capture's counters"
	fi
	bad=()
	for c in "${exact[@]}"; do
		a=$(awk -v c="$c" '$1 == c { print $2 }' "$out/deltas.lava")
		b=$(awk -v c="$c" '$1 == c { print $2 }' "$out/deltas.direct")
		[ -n "$a" ] && [ "$a" = "$b" ] || bad+=("$c: lava ${a:-missing}, capture ${b:-missing}")
	done
	if [ "${#bad[@]}" = 0 ]; then
		ok "the ${#exact[@]} deterministic counters are equal ($arch)"
	else
		printf '#   %s\n' "${bad[@]}"
		not_ok "the ${#exact[@]} deterministic counters are equal ($arch)"
	fi
	for c in user_faults attempts_1; do
		a=$(awk -v c="$c" '$1 == c { print $2 }' "$out/deltas.lava")
		if [ "${a:-0}" -gt 0 ]; then
			ok "$c present and > 0 in the collected $arch run ($a; capture $(awk -v c="$c" '$1 == c { print $2 }' "$out/deltas.direct"))"
		else
			not_ok "$c present and > 0 in the collected $arch run (${a:-missing})"
		fi
	done
	check "the same release and config in both (meta, meta.host; $arch)" \
		test "$(status_get "$lv/meta" release) $(status_get "$lv/meta.host" config_hash)" = \
		"$(status_get "$dv/meta" release) $(status_get "$dv/meta.host" config_hash)"
	# the job set the lab's readahead, as capture does (the guest's own is 8192)
	a=$(status_get "$lv/meta" read_ahead_kb) b=$(status_get "$dv/meta" read_ahead_kb)
	check "the same read_ahead_kb in both ($a, capture $b; $arch)" test -n "$a" -a "$a" = "$b"
	if "$top/tools/report/rs-report" "$col/$id" -o "$col/$id/report.md" >"$out/rs-report.log" 2>&1 &&
		grep -q '^| minor | stock |' "$col/$id/report.md"; then
		ok "rs-report reads the collected $arch results: $(grep -m1 '^| minor | stock |' "$col/$id/report.md" | cut -c1-100)"
	else
		tail -n 5 "$out/rs-report.log" | sed 's/^/#   /'
		not_ok "rs-report reads the collected $arch results"
	fi
	last_col=$col
}

kernel_image "$v" >/dev/null 2>&1 || { not_ok "7.3 $v kernel builds"; exit 0; }
timed "scripts/lava-setup" "$top/scripts/lava-setup" || exit 0
lava_run=$RS_BUILD/lava/bin/lava-run
timed "scripts/lava-device renders the qemu device dictionary" \
	"$top/scripts/lava-device" -o "$res/qemu-x86_64.yaml" || exit 0

# Every 7.3 variant the lab has built, with the scenario list make compare
# runs: lava-jobs validates each job before it files it.
built=()
for bv in stock patched v2 anon-only retry-hard no-drop; do
	[ ! -f "$(obj_dir 7.3 "$bv")/$(kernel_image_rel x86_64)" ] || built+=("$bv")
done
if n=$("$top/scripts/lava-jobs" --variants "${built[*]}" --runs 1 --run-id "$id-all" --out "$res/jobs-all" \
	minor file-major swap-in contended ui-inversion 2>"$res/lava-jobs-all.log" | wc -l) &&
	[ "$n" = $((5 * ${#built[@]})) ] && "$top/scripts/lava-validate" "$res"/jobs-all/*.yaml >/dev/null; then
	ok "jobs for every built variant (${built[*]}) x 5 scenarios: $n, all validate"
else
	tail -n 15 "$res/lava-jobs-all.log" | sed 's/^/#   /'
	not_ok "jobs for every built variant (${built[*]}) x 5 scenarios validate ($n written)"
fi


lava_e2e x86_64 "$res/qemu-x86_64.yaml" "$res" 5601 || exit 0
col=$last_col

# lava-collect's refusals: nothing filed, a message, non-zero.
log=$res/lava-run.log bad_res=$res/bad
refused() { # refused DESC PATTERN ARGS...: lava-collect fails, says PATTERN, files nothing
	local desc=$1 pat=$2 out
	shift 2
	if out=$("$top/scripts/lava-collect" --results "$bad_res" "$@" 2>&1); then
		not_ok "lava-collect refuses $desc (it exited 0)"
	elif ! grep -q -- "$pat" <<<"$out"; then
		printf '%s\n' "$out" | tail -n 3 | sed 's/^/#   /'
		not_ok "lava-collect refuses $desc, saying '$pat'"
	elif [ -n "$(find "$bad_res" -mindepth 1 2>/dev/null)" ]; then
		not_ok "lava-collect refuses $desc, and files nothing"
	else
		ok "lava-collect refuses $desc: $(printf '%s\n' "$out" | tail -n 1 | cut -c1-110)"
	fi
}
refused "a missing log" "no log" "$res/nonexistent.log"
printf 'not a log line {\n' >"$res/garbage.log"
refused "a file that is not a lava-run log" "not a lava-run log line" "$res/garbage.log"
# a console line cut into a block (a kernel message in the middle)
awk '!done && /RS-FILE-BEGIN run\/stats.after/ { print; getline; sub(/"msg": "/, "\"msg\": \"xx"); done = 1 } { print }' \
	"$log" >"$res/cut.log"
refused "a block that does not decode to what the guest sent" "block run/stats.after" "$res/cut.log"
head -n "$(($(grep -n 'RS-FILE-BEGIN run/workload.json' "$log" | cut -d: -f1) + 1))" "$log" >"$res/short.log"
refused "a log cut short" "no job result" "$res/short.log"

# A job that failed before the run ended (here: the log up to the guest's
# shell, then a job failure line) is filed as a failed run, as capture
# files a run that did not finish, and lava-collect exits 1.
{
	grep -m1 -B100000 'LAVA_SIGNAL_STARTRUN' "$log"
	printf '%s\n' '{"dt": "2026-12-05T00:00:00", "lvl": "results", "msg": {"case": "job", "definition": "lava", "error_msg": "lava-test-shell timed out after 900 seconds", "error_type": "Infrastructure", "result": "fail"}}'
} >"$res/failed.log"
"$top/scripts/lava-collect" --results "$res/failed" --job "$job" "$res/failed.log" >"$res/failed.out" 2>&1
frc=$?
fd=$res/failed/$id/$v/minor/1
if [ "$frc" = 1 ] && [ "$(status_get "$fd/status" result)" = failed ] &&
	[ "$(status_get "$fd/status" crash)" = hang ] && [ -s "$fd/console.log" ] && [ -f "$fd/meta" ]; then
	ok "a job that failed in its run is filed as a failed run (crash=hang, console.log), exit 1"
else
	sed 's/^/#   /' "$res/failed.out" "$fd/status" 2>/dev/null | tail -n 6
	not_ok "a job that failed in its run is filed as a failed run (exit $frc)"
fi
# ... and does not replace a good run of that number
cp -a "$col" "$res/keep"
if ! "$top/scripts/lava-collect" --results "$res/keep" --job "$job" "$res/failed.log" >"$res/keep.out" 2>&1 &&
	grep -q 'keeping the earlier good run' "$res/keep.out" &&
	[ "$(status_get "$res/keep/$id/$v/minor/1/status" result)" = ok ]; then
	ok "a failed job does not replace a good run of the same number"
else
	sed 's/^/#   /' "$res/keep.out" | tail -n 3
	not_ok "a failed job does not replace a good run of the same number"
fi

# arm64 (issue 18): the same job on the arm64 lab kernel, qemu -M virt with
# lava-dispatcher's qemu device type for arm64, when that kernel is built.
if [ -f "$(obj_dir 7.3 "$v" arm64)/$(kernel_image_rel arm64)" ]; then
	if timed "scripts/lava-setup --arch arm64 (the arm64 busybox image)" "$top/scripts/lava-setup" --arch arm64 &&
		timed "scripts/lava-device --arch arm64 renders the qemu device dictionary" \
			"$top/scripts/lava-device" --arch arm64 -o "$res/qemu-aarch64.yaml" &&
		lava_e2e arm64 "$res/qemu-aarch64.yaml" "$res/arm64" 5602; then
		# Filed beside the x86 run of the same run id and variant: refused,
		# nothing changed; a failed run too (its guest sent no meta.host:
		# the job names the build).
		mixed=$res/mixed
		cp -a "$res/results" "$mixed"
		{
			grep -m1 -B100000 'LAVA_SIGNAL_STARTRUN' "$res/arm64/lava-run.log"
			printf '%s\n' '{"dt": "2026-12-05T00:00:00", "lvl": "results", "msg": {"case": "job", "definition": "lava", "error_msg": "lava-test-shell timed out after 900 seconds", "error_type": "Infrastructure", "result": "fail"}}'
		} >"$res/arm64/failed.log"
		before=$(find "$mixed" | sort | md5sum)
		for what in run:"$res/arm64/lava-run.log" "failed run":"$res/arm64/failed.log"; do
			if out=$("$top/scripts/lava-collect" --results "$mixed" --job "$job" "${what#*:}" 2>&1); then
				not_ok "lava-collect refuses the arm64 ${what%%:*} into the x86 run's results (it exited 0)"
			elif ! grep -q "holds runs of another build of 'stock'" <<<"$out" ||
				[ "$(find "$mixed" | sort | md5sum)" != "$before" ]; then
				printf '%s\n' "$out" | tail -n 3 | sed 's/^/#   /'
				not_ok "lava-collect refuses the arm64 ${what%%:*} into the x86 run's results, and changes nothing"
			else
				ok "lava-collect refuses the arm64 ${what%%:*} into the x86 run's results: $(printf '%s\n' "$out" | tail -n 1 | cut -c1-100)"
			fi
		done
	fi
else
	ok "arm64: a LAVA job on the arm64 lab kernel # SKIP kernel not built (make check-arm64 builds it)"
fi
