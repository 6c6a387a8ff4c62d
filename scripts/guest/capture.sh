#!/bin/sh
# scripts/guest/capture.sh (runs in the guest, busybox sh): the capture loop.
#
#   capture.sh KO KERNEL RUNS LABEL SCENARIO ARGS [LABEL SCENARIO ARGS] ...
#
# Each scenario comes as three words that scripts/capture parsed from its
# [LABEL=]SCENARIO[:ARGS] (scripts/lib.sh parse_spec): LABEL names the
# result directory, ARGS are extra faultload options separated by spaces
# (may be empty).  Loads retryscope.ko (counting only faultload's threads:
# comm prefix fl-), then for every scenario and run n=1..RUNS writes
# /out/<label>/<n>/:
#   trace.dat            trace-cmd record -e retryscope -e mmap_lock
#                        -e filemap:mm_filemap_fault -e sched:sched_switch
#   workload.json        faultload's output
#   stats.before/after   the module's counters   vmstat.before/after
#   record.log           trace-cmd's own report (per-CPU overruns)
#   meta                 kernel, release, cpu_model, scenario, workload, run,
#                        args (key=value)
#   guest-status         written last, when the run is over (key=value):
#                        result=ok|lossy|failed, reason=<one line, empty
#                        for ok>, faultload_rc=N, probe_nmissed=N (when the
#                        counters were read).  No guest-status: the run did
#                        not finish.  scripts/capture writes status from it
#                        (adding trace losses, read on the host) and
#                        meta.host; the guest writes neither.
set -u
ko=$1 kernel=$2 runs=$3
shift 3
if [ $(($# % 3)) != 0 ]; then
	echo "capture: scenarios come as LABEL SCENARIO ARGS, three words each ($# given)" >&2
	exit 2
fi
dbg=/sys/kernel/debug/retryscope
if ! insmod "$ko"; then
	echo "capture: insmod $ko failed" >&2
	exit 1
fi
echo 'comm fl-' >"$dbg/filter"
cp "$dbg/probes" /out/probes
cp "$dbg/features" /out/features
dmesg | grep 'retryscope:' >/out/dmesg-module
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
rc=0
while [ $# -gt 0 ]; do
	label=$1 scen=$2 args=$3
	shift 3
	n=1
	while [ "$n" -le "$runs" ]; do
		d=/out/$label/$n
		rm -rf "$d"
		mkdir -p "$d"
		{
			echo "kernel=$kernel"
			echo "release=$(uname -r)"
			echo "cpu_model=$cpu_model"
			echo "scenario=$label"
			echo "workload=$scen"
			echo "run=$n"
			echo "args=$args"
		} >"$d/meta"
		echo 1 >"$dbg/reset"
		echo "capture: $kernel $label run $n/$runs" >&2
		rs-snap "$dbg/stats=$d/stats.before" /proc/vmstat="$d/vmstat.before"
		# shellcheck disable=SC2086 # $args is a list of options
		trace-cmd record -b 16384 -o "$d/trace.dat" -e retryscope -e mmap_lock \
			-e filemap:mm_filemap_fault -e sched:sched_switch \
			faultload "$scen" $args --json "$d/workload.json" >"$d/record.log" 2>&1
		frc=$?
		rs-snap "$dbg/stats=$d/stats.after" /proc/vmstat="$d/vmstat.after"
		result=ok reason=
		missed=$(awk '$1 == "probe_nmissed" { print $2 }' "$d/stats.after")
		if [ "$frc" != 0 ] || [ ! -s "$d/workload.json" ]; then
			result=failed reason="trace-cmd/faultload exited $frc: $(grep -v '^ ' "$d/record.log" | tail -n 1)"
			rc=1
		elif [ ! -s "$d/trace.dat" ]; then
			result=failed reason="no trace.dat"
			rc=1
		elif [ "${missed:-0}" != 0 ]; then
			result=lossy reason="probe_nmissed $missed"
		fi
		{
			echo "result=$result"
			echo "reason=$reason"
			echo "faultload_rc=$frc"
			[ -z "$missed" ] || echo "probe_nmissed=$missed"
		} >"$d/guest-status"
		n=$((n + 1))
	done
done
rmmod retryscope || rc=1
exit "$rc"
