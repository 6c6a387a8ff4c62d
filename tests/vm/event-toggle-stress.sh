#!/bin/sh
# tests/vm/event-toggle-stress.sh MODE KO CYCLES SECONDS [SLEEP]: what a
# capture run does to the trace events, CYCLES times (or until SECONDS have
# passed), while faultload file-major (4 fl-io threads, cold file, I/O
# faults) runs in the background with retryscope.ko loaded (comm=fl-).
# scripts/crash-rate boots the guest with it and counts crashes per cycle.
#
#   per-run  each cycle is a capture run's recording: trace-cmd record
#            -e retryscope -e mmap_lock -e filemap:mm_filemap_fault
#            -e sched:sched_switch sleep SLEEP (enables the events, so
#            text is patched, records, disables them: patched again)
#   once     the events are enabled once per boot (trace-cmd start -e ...);
#            each cycle only starts and stops the ring buffer (tracing_on
#            1, sleep SLEEP, tracing_on 0), saves it with trace-cmd extract
#            -k (without -k extract disables every event) and clears it: no
#            event is enabled or disabled
#   module   each cycle is the capture's insmod KO comm=fl-, sleep SLEEP,
#            rmmod (no trace events)
#
# Each finished cycle appends "cycle N" to /out/cycles (synced), so the host
# knows how far a guest that crashed got; /out/phase says whether it was in
# the setup (insmod, load, once: the one enable), the cycles or the teardown
# (once: trace-cmd reset; rmmod).  /out/guest.log has the details.
# Exit 0 when the cycles are done, 1 on a failed step (the cycle still
# counts: a step that fails did not crash the kernel).
set -u
mode=$1 ko=$2 cycles=$3 seconds=$4 pause=${5:-0.2}
T=/sys/kernel/tracing
events="-e retryscope -e mmap_lock -e filemap:mm_filemap_fault -e sched:sched_switch"
log=/out/guest.log
say() { echo "event-toggle: $*" | tee -a "$log" >&2; }
phase() {
	echo "$1" >/out/phase
	sync
}

case $mode in
per-run | once | module) ;;
*)
	say "unknown mode $mode"
	exit 2
	;;
esac
[ -d "$T/events" ] || mount -t tracefs nodev "$T"
phase setup

if [ "$mode" != module ]; then
	if ! insmod "$ko" comm=fl-; then
		say "insmod $ko failed"
		exit 1
	fi
fi

# The background load: file-major restarted whenever it ends (max 3600 s).
(
	while :; do
		faultload file-major --threads 4 --duration 3600 --json /dev/null --quiet 2>>/tmp/faultload.err
		sleep 1
	done
) &
load=$!
sleep 1

if [ "$mode" = once ]; then
	# shellcheck disable=SC2086 # $events is a list of options
	if ! trace-cmd start -b 16384 $events >/tmp/start.log 2>&1; then
		say "trace-cmd start failed: $(tail -n 1 /tmp/start.log)"
		exit 1
	fi
	echo 0 >"$T/tracing_on"
	echo >"$T/trace"
fi

# check_enabled: in once mode the events must still be on after a cycle
# (trace-cmd extract -k must not have turned them off).
check_enabled() {
	for e in sched/sched_switch filemap/mm_filemap_fault; do
		[ "$(cat "$T/events/$e/enable")" = 1 ] || return 1
	done
}

majflt() { awk '$1 == "pgmajfault" { print $2 }' /proc/vmstat; }
phase cycles
maj0=$(majflt)
t0=$(date +%s)
n=0 fails=0
while [ "$n" -lt "$cycles" ] && [ $(($(date +%s) - t0)) -lt "$seconds" ]; do
	ok=1
	case $mode in
	per-run)
		# shellcheck disable=SC2086 # $events is a list of options
		trace-cmd record -b 16384 -o /tmp/trace.dat $events \
			sleep "$pause" >/tmp/record.log 2>&1 || ok=0
		rm -f /tmp/trace.dat*
		;;
	once)
		echo 1 >"$T/tracing_on" || ok=0
		sleep "$pause"
		echo 0 >"$T/tracing_on" || ok=0
		trace-cmd extract -k -o /tmp/trace.dat >/tmp/extract.log 2>&1 || ok=0
		rm -f /tmp/trace.dat*
		echo >"$T/trace"
		if ! check_enabled; then
			say "cycle $((n + 1)): an event is no longer enabled after trace-cmd extract -k"
			exit 1
		fi
		;;
	module)
		insmod "$ko" comm=fl- || ok=0
		sleep "$pause"
		rmmod retryscope || ok=0
		;;
	esac
	n=$((n + 1))
	[ "$ok" = 1 ] || {
		fails=$((fails + 1))
		say "cycle $n: a step failed"
	}
	echo "cycle $n" >>/out/cycles
	sync
done

phase teardown
t=$(($(date +%s) - t0)) maj=$(($(majflt) - maj0))
kill "$load" 2>/dev/null
killall faultload 2>/dev/null
wait
cp /tmp/faultload.err /out/faultload.err 2>/dev/null
[ "$mode" = module ] || cat /sys/kernel/debug/retryscope/stats >/out/stats 2>/dev/null
[ "$mode" = once ] && trace-cmd reset >/dev/null 2>&1
[ "$mode" = module ] || rmmod retryscope || fails=$((fails + 1))
say "$mode: $n cycles in $t s, $fails failed steps, $maj major faults meanwhile"
phase finished
[ "$fails" = 0 ]
