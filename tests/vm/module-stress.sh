#!/bin/sh
# tests/vm/module-stress.sh KO: 50 insmod/rmmod cycles of retryscope.ko while
# 8 threads fault (4 anonymous, 4 on a page-cache file) and 2 read cold file
# pages (their retried faults timed in the latency histogram); the cycles
# alternate between the default (the entry model: ftrace_ops and fprobes),
# backend=kprobe and backend=fprobe, with fault_around=1 on every other one,
# so that every teardown runs under load (fprobe is left out, a SKIP, where
# the kernel lacks it; a failure where it has it).  The guest reads the
# kernel log and the taint flags after the cycles; the host scans the
# console for oops, WARN, KASAN, lockdep and kmemleak reports.
set -u
. "$(dirname "$0")/lib.sh"
ko=$1
# --- 50 load/unload cycles while 8 threads fault (the host scans the console)
# and 2 more read cold pages of the file, retrying: the latency histogram
# and its fault starts are in use at every unload (fault_around=1 on every
# other cycle, so that the filemap_map_pages probe ends timed faults too).
fprobe=
log_checkpoint "before the load/unload cycles"
if insmod "$ko" backend=fprobe 2>/dev/null; then
	rmmod retryscope
	fprobe=yes
else
	backend_refused fprobe "$(dmesg | grep 'retryscope: backend=fprobe' | tail -n 1 | sed 's/.*] //')"
fi
start_faulting
faultload file-major --file /mnt/disk/data.bin --threads 2 --size 16M --duration 600 --json /dev/null >/dev/null 2>&1 &
RS_FAULT_PIDS="$RS_FAULT_PIDS $!"
i=0 fails=0 timed=0 retried=0
while [ "$i" -lt 50 ]; do
	case $((i % 3)) in
	0) be= ;;
	1) be=backend=kprobe ;;
	2) be=backend=fprobe ;;
	esac
	[ "$be" = backend=fprobe ] && [ -z "$fprobe" ] && be=
	fa=
	[ $((i % 2)) = 1 ] && fa=fault_around=1
	# shellcheck disable=SC2086 # $be and $fa are empty or one parameter
	insmod "$ko" $be $fa || fails=$((fails + 1))
	cat "$RS_DBG/stats" >/dev/null 2>&1
	usleep 100000
	# faults timed in this cycle, and of them retried ones (none on
	# no-drop, which never retries for I/O): the histogram was written to
	# (one read of the file for both: faults go on being timed)
	nr=$(awk '$1 !~ /^#/ { n += $5; if ($1 != "first") r += $5 } END { print n + 0, r + 0 }' "$RS_DBG/latency" 2>/dev/null)
	nr=${nr:-0 0}
	timed=$((timed + ${nr% *})) retried=$((retried + ${nr#* }))
	rmmod retryscope || fails=$((fails + 1))
	i=$((i + 1))
done
stop_faulting
check "50 insmod/rmmod cycles under 8 faulting threads and 2 cold readers, $(grep -c ^processor /proc/cpuinfo) vCPUs ($fails failures)" [ "$fails" = 0 ]
check "the latency histogram was in use: $timed faults timed over the 50 cycles, $retried of them retried" [ "$timed" -gt 0 ]
kernel_log_clean "after the load/unload cycles"
