#!/bin/sh
# tests/vm/module-stress.sh KO: 50 insmod/rmmod cycles of retryscope.ko while
# 8 threads fault (4 anonymous, 4 on a page-cache file); the cycles alternate
# between the default backend and backend=kprobe, so that both the fprobe
# and the kretprobe teardown run under load.  The host scans the
# console for oops, WARN, KASAN, lockdep and kmemleak reports.
set -u
. "$(dirname "$0")/lib.sh"
ko=$1
# --- 50 load/unload cycles while 8 threads fault (the host scans the console)
start_faulting
i=0 fails=0
while [ "$i" -lt 50 ]; do
	be=
	[ $((i % 2)) = 1 ] && be=backend=kprobe
	# shellcheck disable=SC2086 # $be is empty or one parameter
	insmod "$ko" $be || fails=$((fails + 1))
	cat "$RS_DBG/stats" >/dev/null 2>&1
	usleep 100000
	rmmod retryscope || fails=$((fails + 1))
	i=$((i + 1))
done
stop_faulting
check "50 insmod/rmmod cycles under 8 faulting threads, $(grep -c ^processor /proc/cpuinfo) vCPUs ($fails failures)" [ "$fails" = 0 ]
kernel_log_clean "after the load/unload cycles"
