#!/bin/sh
# tests/vm/module-stress.sh KO: 50 insmod/rmmod cycles of retryscope.ko while
# 8 threads fault (4 anonymous, 4 on a page-cache file); the cycles alternate
# between the default (the entry model: ftrace_ops and fprobes), backend=kprobe
# and backend=fprobe, so that every teardown runs under load (fprobe is left
# out where the kernel refuses it).  The host scans the
# console for oops, WARN, KASAN, lockdep and kmemleak reports.
set -u
. "$(dirname "$0")/lib.sh"
ko=$1
# --- 50 load/unload cycles while 8 threads fault (the host scans the console)
fprobe=
if insmod "$ko" backend=fprobe 2>/dev/null; then
	rmmod retryscope
	fprobe=yes
fi
start_faulting
i=0 fails=0
while [ "$i" -lt 50 ]; do
	case $((i % 3)) in
	0) be= ;;
	1) be=backend=kprobe ;;
	2) be=backend=fprobe ;;
	esac
	[ "$be" = backend=fprobe ] && [ -z "$fprobe" ] && be=
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
