#!/bin/sh
# scripts/guest/capture.sh (runs in the guest, busybox sh): the capture loop.
#
#   capture.sh KO KERNEL TODO
#
# TODO (written by scripts/capture, read here) has one run per line:
#   LABEL SCENARIO N [ARG ...]
# LABEL names the result directory, SCENARIO is the faultload scenario, N the
# run number, ARGs extra faultload options (scripts/lib.sh parse_spec made
# them from [LABEL=]SCENARIO[:ARGS]).  A run whose directory already has a
# guest-status (it finished in an earlier boot) or a host-crash (the guest
# died in it; scripts/capture wrote that before booting again) is skipped,
# so that after a crash the next boot goes on with the next run.
# Loads retryscope.ko (counting only faultload's threads: comm prefix fl-)
# and enables the trace events once (trace-cmd start -e retryscope -e
# mmap_lock -e filemap:mm_filemap_fault -e sched:sched_switch, 64 MiB per
# CPU), then for every run writes /out/<label>/<n>/.  The run itself writes
# only to guest memory (/tmp/run: a tmpfs) and its files are copied to
# /out after it: nothing inside the measured window waits for the host.
#   trace.dat            the run's events: the ring buffer is cleared, turned
#                        on for the run (tracing_on) and saved with
#                        trace-cmd extract.  No event is enabled or disabled
#                        per run: that patches kernel text, and under
#                        multi-threaded TCG it crashed the guest in 4 of 521
#                        cycles, against 0 of 600 this way
#                        (docs/known-problems.md; scripts/crash-rate)
#   workload.json        faultload's output
#   stats.before/after   the module's counters   vmstat.before/after
#   latency              the module's per-fault latency histogram (debugfs)
#   record.log           faultload's output (a failed run's reason is its
#                        last line); extract.log: trace-cmd extract's
#   meta                 kernel, release, cpu_model, arch, scenario, workload, run,
#                        args, read_ahead_kb and what scripts/guest/storage.sh
#                        set up: storage, data_dev, swap, swap_dev,
#                        completion_nsec, hw_queue_depth ... (key=value)
#   window.start/.end    empty files written just before and after the
#                        window: their host mtimes time the run on the host's
#                        clock (scripts/capture: meta.host run_*)
#   guest-status         written last, when the run is over (key=value):
#                        result=ok|lossy|failed, reason=<one line, empty
#                        for ok>, faultload_rc=N, probe_nmissed=N (when the
#                        counters were read), host_disk_ios=N (reads and
#                        writes of the host's virtio disks in the window; a
#                        run on a null_blk profile with any is failed: the
#                        host's I/O entered its timings).  No guest-status: the run did
#                        not finish.  scripts/capture writes status from it
#                        (adding trace losses, read on the host) and
#                        meta.host; the guest writes neither.
# /out/read-ahead-kb (scripts/capture --read-ahead-kb): the data disk's
# read_ahead_kb, set once before the runs; a run whose ARGs have their own
# --read-ahead-kb has that one (faultload sets it and puts it back).
# /out/crash-at (a test hook of scripts/capture --crash-at): "LABEL N": the
# guest crashes itself (sysrq c) one second into that run.
# /out/touch-host-at (scripts/capture --touch-host-at): "LABEL N": the guest
# reads the host's data disk (/dev/vda, O_DIRECT) inside that run's window,
# as a run must not.
# /out/fail-at (scripts/capture --fail-at): "LABEL N": faultload is killed
# (SIGKILL, as the OOM killer does) one second into that run.
set -u
ko=$1 kernel=$2 todo=$3
if [ ! -s "$todo" ]; then
	echo "capture: no runs to do in '$todo'" >&2
	exit 2
fi
crash_at=$(cat /out/crash-at 2>/dev/null)
fail_at=$(cat /out/fail-at 2>/dev/null)
touch_host_at=$(cat /out/touch-host-at 2>/dev/null)
dbg=/sys/kernel/debug/retryscope
# fault_around=1: the retried file faults that finish in the fault-around
# are timed too (debugfs latency; docs/counters.md)
if ! insmod "$ko" fault_around=1; then
	echo "capture: insmod $ko fault_around=1 failed" >&2
	exit 1
fi
echo 'comm fl-' >"$dbg/filter"
cp "$dbg/probes" /out/probes
cp "$dbg/features" /out/features
dmesg | grep 'retryscope:' >/out/dmesg-module
T=/sys/kernel/tracing
if ! trace-cmd start -b 65536 -e retryscope -e mmap_lock -e filemap:mm_filemap_fault \
	-e sched:sched_switch >/tmp/trace-start.log 2>&1 </dev/null; then
	echo "capture: trace-cmd start failed: $(tail -n 1 /tmp/trace-start.log)" >&2
	exit 1
fi
echo 0 >"$T/tracing_on"
# the lab's readahead, on the block device of /mnt/disk (the data disk)
ra_dev=$(awk '$2 == "/mnt/disk" { sub("^/dev/", "", $1); print $1 }' /proc/mounts)
ra_file=/sys/block/$ra_dev/queue/read_ahead_kb
ra_lab=$(cat /out/read-ahead-kb 2>/dev/null)
if [ -n "$ra_lab" ]; then
	if [ -z "$ra_dev" ] || ! echo "$ra_lab" >"$ra_file"; then
		echo "capture: cannot set read_ahead_kb $ra_lab on the data disk ('$ra_dev')" >&2
		exit 1
	fi
fi
ra_lab=$(cat "$ra_file" 2>/dev/null)
# x86 names its model; arm64's /proc/cpuinfo has only implementer and part.
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
[ -n "$cpu_model" ] || cpu_model="$(uname -m) implementer $(sed -n 's/^CPU implementer[[:space:]]*: //p' /proc/cpuinfo | head -n 1) part $(sed -n 's/^CPU part[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
# host_disk_ios: reads and writes completed so far on the virtio disks (the
# host's files): /sys/block/vd*/stat fields 1 and 5
host_disk_ios() {
	cat /sys/block/vd*/stat 2>/dev/null | awk '{ s += $1 + $5 } END { print s + 0 }'
}
storage=$(sed -n 's/^storage=//p' /run/retryscope-storage 2>/dev/null)
storage=${storage:-virtio}
rc=0
# The runs come on fd 3: nothing a run starts reads the list.
while read -r label scen n args <&3; do
	d=/out/$label/$n
	if [ -f "$d/guest-status" ] || [ -f "$d/host-crash" ]; then
		continue
	fi
	w=/tmp/run
	rm -rf "$d" "$w"
	mkdir -p "$d" "$w"
	# the run's readahead: its own --read-ahead-kb, else the lab's
	ra=$ra_lab
	# shellcheck disable=SC2086 # $args is a list of options
	set -- $args
	while [ $# -gt 0 ]; do
		[ "$1" = --read-ahead-kb ] && [ $# -ge 2 ] && ra=$2
		shift
	done
	{
		echo "kernel=$kernel"
		echo "release=$(uname -r)"
		echo "cpu_model=$cpu_model"
		echo "arch=$(uname -m)"
		echo "scenario=$label"
		echo "workload=$scen"
		echo "run=$n"
		echo "args=$args"
		echo "read_ahead_kb=$ra"
		cat /run/retryscope-storage 2>/dev/null
	} >"$d/meta"
	echo 1 >"$dbg/reset"
	echo "capture: $kernel $label run $n" >&2
	rs-snap "$dbg/stats=$w/stats.before" /proc/vmstat="$w/vmstat.before"
	if [ "$crash_at" = "$label $n" ]; then
		echo "capture: crashing the guest in $label run $n (--crash-at)" >&2
		(sleep 1 && echo c >/proc/sysrq-trigger) &
	fi
	echo >"$T/trace"
	: >"$d/window.start"
	io0=$(host_disk_ios)
	echo 1 >"$T/tracing_on"
	# shellcheck disable=SC2086 # $args is a list of options
	faultload "$scen" $args --json "$w/workload.json" >"$w/record.log" 2>&1 </dev/null &
	fpid=$!
	if [ "$touch_host_at" = "$label $n" ]; then
		echo "capture: reading the host's disk in $label run $n (--touch-host-at)" >&2
		dd if=/dev/vda of=/dev/null bs=4096 count=8 iflag=direct 2>/dev/null
	fi
	if [ "$fail_at" = "$label $n" ]; then
		echo "capture: killing faultload in $label run $n (--fail-at)" >&2
		sleep 1
		kill -KILL "$fpid"
	fi
	wait "$fpid"
	frc=$?
	echo 0 >"$T/tracing_on"
	io1=$(host_disk_ios)
	: >"$d/window.end"
	# -k: keep the events enabled (extract would disable them all)
	trace-cmd extract -k -o "$w/trace.dat" >"$w/extract.log" 2>&1 </dev/null ||
		echo "capture: trace-cmd extract failed in $label run $n" >&2
	rs-snap "$dbg/stats=$w/stats.after" /proc/vmstat="$w/vmstat.after" "$dbg/latency=$w/latency"
	cp "$w"/* "$d"/ || echo "capture: copying $label run $n to /out failed" >&2
	rm -rf "$w"
	result=ok reason=
	missed=$(awk '$1 == "probe_nmissed" { print $2 }' "$d/stats.after")
	full=$(awk '$1 == "state_table_full" { print $2 }' "$d/stats.after")
	if [ "$frc" != 0 ] || [ ! -s "$d/workload.json" ]; then
		result=failed reason="faultload exited $frc: $(tail -n 1 "$d/record.log")"
		rc=1
	elif [ ! -s "$d/trace.dat" ]; then
		result=failed reason="no trace.dat"
		rc=1
	elif [ "$storage" != virtio ] && [ "$io1" != "$io0" ]; then
		result=failed reason="the window touched the host's disks ($((io1 - io0)) I/Os on virtio disks) on storage $storage"
		rc=1
	elif [ "${missed:-0}" != 0 ]; then
		result=lossy reason="probe_nmissed $missed"
	elif [ "${full:-0}" != 0 ]; then
		result=lossy reason="state_table_full $full"
	fi
	{
		echo "result=$result"
		echo "reason=$reason"
		echo "faultload_rc=$frc"
		[ -z "$missed" ] || echo "probe_nmissed=$missed"
		echo "host_disk_ios=$((io1 - io0))"
	} >"$d/guest-status"
done 3<"$todo"
trace-cmd reset >/dev/null 2>&1 </dev/null
rmmod retryscope || rc=1
exit "$rc"
