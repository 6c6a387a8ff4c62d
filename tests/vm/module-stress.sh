#!/bin/sh
# tests/vm/module-stress.sh KO: 50 insmod/rmmod cycles of retryscope.ko while
# 8 threads fault (4 anonymous, 4 on a page-cache file).  The host scans the
# console for oops, WARN, KASAN, lockdep and kmemleak reports.
set -u
. "$(dirname "$0")/lib.sh"
ko=$1
# --- 50 load/unload cycles while 8 threads fault (the host scans the console)
start_faulting
i=0 fails=0
while [ "$i" -lt 50 ]; do
	insmod "$ko" || fails=$((fails + 1))
	cat "$RS_DBG/stats" >/dev/null 2>&1
	usleep 100000
	rmmod retryscope || fails=$((fails + 1))
	i=$((i + 1))
done
stop_faulting
check "50 insmod/rmmod cycles under 8 faulting threads, $(grep -c ^processor /proc/cpuinfo) vCPUs ($fails failures)" [ "$fails" = 0 ]
