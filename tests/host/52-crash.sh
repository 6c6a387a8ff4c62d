#!/usr/bin/env bash
# A guest crash costs only the run it happened in (issue 21): a short
# capture whose guest crashes itself (sysrq c, scripts/capture --crash-at)
# in run 2 of 3 must boot again, keep runs 1 and 3, file run 2 as failed
# with crash=panic and its console, do run 2 again as run 4, exit 0 (every
# scenario has its 3 good runs), and rs-report must list the crash under
# the kernel.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
res=$RS_BUILD/check/crash
rm -rf "$res"
v=stock

# short_capture ID WHAT RUNS HOOK DURATION: a capture of scenario minor on
# stock with a test hook (--crash-at/--fail-at minor:N), which must exit 0;
# sets id, log and d (the scenario's results).
short_capture() {
	local what=$2 runs=$3 hook=$4 dur=$5 t0 rc
	id=$1 log=$RS_BUILD/check/capture-$1.log d=$res/$1/$v/minor
	t0=$(date +%s)
	"$top/scripts/capture" --variant "$v" --runs "$runs" --run-id "$id" --results "$res" \
		"${hook%% *}" "${hook#* }" "minor:--duration,$dur" >"$log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		ok "capture with $what exits 0 ($(($(date +%s) - t0)) s)"
	else
		tail -n 15 "$log" | sed 's/^/#   /'
		not_ok "capture with $what exits 0 (exit $rc)"
	fi
}

short_capture crash "a guest crash in run 2 of 3" 3 "--crash-at minor:2" 1
for n in 1 3 4; do
	if [ "$(status_get "$d/$n/status" result 2>/dev/null)" = ok ] && [ -s "$d/$n/stats.after" ]; then
		ok "run $n filed ok with its counters"
	else
		sed 's/^/#   /' "$d/$n/status" 2>/dev/null
		not_ok "run $n filed ok with its counters"
	fi
done
if [ "$(status_get "$d/2/status" result 2>/dev/null)" = failed ] &&
	[ "$(status_get "$d/2/status" crash 2>/dev/null)" = panic ] &&
	grep -q 'sysrq triggered crash' "$d/2/console.log" 2>/dev/null; then
	ok "run 2: result=failed crash=panic, with the console of its boot"
else
	sed 's/^/#   /' "$d/2/status" 2>/dev/null
	not_ok "run 2: result=failed crash=panic, with the console of its boot"
fi
if grep -q 'recovered from: 1' "$log"; then
	ok "capture says it recovered from 1 guest crash"
else
	not_ok "capture says it recovered from 1 guest crash"
fi
if "$top/tools/report/rs-report" "$res/$id" -o "$res/$id/report.md" >/dev/null 2>&1 &&
	grep -qi 'panic' "$res/$id/report.md"; then
	ok "rs-report lists the crash: $(grep -i -m1 'panic' "$res/$id/report.md" | cut -c1-120)"
else
	not_ok "rs-report lists the crash under the kernel"
fi

# A run whose workload fails while the guest lives (faultload OOM-killed in
# a memcg scenario) is done again in the same way (scripts/capture
# --fail-at: faultload SIGKILLed one second into run 1 of 2).
short_capture fail "faultload killed in run 1 of 2" 2 "--fail-at minor:1" 2
if [ "$(status_get "$d/1/status" result 2>/dev/null)" = failed ] &&
	[ "$(status_get "$d/1/status" crash 2>/dev/null)" = none ] &&
	grep -q 'faultload exited 137' "$d/1/status" && [ -f "$d/1/redone" ]; then
	ok "run 1: result=failed crash=none, faultload exited 137, marked redone"
else
	sed 's/^/#   /' "$d/1/status" 2>/dev/null
	not_ok "run 1: result=failed crash=none, faultload exited 137, marked redone"
fi
for n in 2 3; do
	if [ "$(status_get "$d/$n/status" result 2>/dev/null)" = ok ] && [ -s "$d/$n/stats.after" ]; then
		ok "fail: run $n filed ok with its counters"
	else
		sed 's/^/#   /' "$d/$n/status" 2>/dev/null
		not_ok "fail: run $n filed ok with its counters"
	fi
done
if grep -q 'recovered from: 0; failed runs done again: 1' "$log"; then
	ok "capture says it did 1 failed run again"
else
	grep '^capture:' "$log" | tail -n 3 | sed 's/^/#   /'
	not_ok "capture says it did 1 failed run again"
fi

# A run id holds one build of a kernel: a capture into a run id whose stock
# runs came from another build (here: their meta.host says another
# config_hash) is refused before it boots, and changes nothing.
mkdir -p "$res/mixed/other/$v/minor"
cp -a "$d/2" "$res/mixed/other/$v/minor/1"
sed -i 's/^config_hash=.*/config_hash=0123456789abcdef/' "$res/mixed/other/$v/minor/1/meta.host"
before=$(find "$res/mixed" -type f -exec md5sum {} + | sort)
t0=$(date +%s)
if out=$("$top/scripts/capture" --variant "$v" --runs 1 --run-id other --results "$res/mixed" minor:--duration,1 2>&1); then
	not_ok "capture into a run id with another build's runs is refused (it exited 0)"
elif ! grep -q "holds runs of another build of '$v'" <<<"$out" || grep -q 'boot ' <<<"$out" ||
	[ "$(find "$res/mixed" -type f -exec md5sum {} + | sort)" != "$before" ]; then
	printf '%s\n' "$out" | tail -n 5 | sed 's/^/#   /'
	not_ok "capture into a run id with another build's runs is refused before it boots, changing nothing"
else
	ok "capture into a run id with another build's runs is refused before it boots ($(($(date +%s) - t0)) s): $(printf '%s\n' "$out" | tail -n 1 | cut -c1-90)"
fi

# A capture whose guest runs none of its runs (here scripts/vm refuses a
# storage profile that does not exist, before booting) files each run as
# failed, saying why, with the end of the VM's log: the reason stays after
# the staging directory is reused.
if out=$("$top/scripts/capture" --variant "$v" --runs 1 --run-id notrun --results "$res" \
	--storage nosuch minor:--duration,1 2>&1); then
	not_ok "a capture whose guest ran nothing exits non-zero (it exited 0)"
else
	st=$res/notrun/$v/minor/1/status
	why=$(status_get "$st" reason)
	check "a run no boot reached is filed failed, with why ($(status_get "$st" result): $why)" \
		sh -c "[ '$(status_get "$st" result)' = failed ] && printf '%s' '$why' | grep -q 'no boot ran it.*nosuch.conf' && [ -s '$res/notrun/$v/minor/1/vm.log' ]"
fi
