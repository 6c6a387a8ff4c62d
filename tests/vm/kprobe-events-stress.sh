#!/bin/sh
# tests/vm/kprobe-events-stress.sh: the control for module-stress.sh, without
# retryscope.ko: 50 cycles of adding, enabling, disabling and removing
# kretprobe events (tracefs kprobe_events) on the module's five symbols while
# 8 threads fault.  If this oopses too, the fault is not the module's.
set -u
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs nodev "$T"
start_faulting
i=0 fails=0
while [ "$i" -lt 50 ]; do
	for s in lock_vma_under_rcu handle_mm_fault filemap_fault do_swap_page; do
		echo "r:rs_$s $s" >>"$T/kprobe_events" || fails=$((fails + 1))
	done
	echo "p:rs_lock_mm lock_mm_and_find_vma" >>"$T/kprobe_events" || fails=$((fails + 1))
	echo 1 >"$T/events/kprobes/enable" || fails=$((fails + 1))
	usleep 100000
	echo 0 >"$T/events/kprobes/enable" || fails=$((fails + 1))
	echo >"$T/kprobe_events" || fails=$((fails + 1))
	i=$((i + 1))
done
stop_faulting
check "50 kprobe_events add/enable/disable/remove cycles under 8 faulting threads ($fails failures)" [ "$fails" = 0 ]
