#!/bin/sh
# scripts/guest/lava-run.sh (runs in the guest of a LAVA job, busybox sh):
# one scenario run as scripts/guest/capture.sh does it, for a job that
# scripts/lava-jobs wrote; scripts/lava-collect files what it prints.
#
#   lava-run.sh --kernel NAME --label LABEL --workload SCENARIO --run N
#               --run-id ID --host-meta 'k=v;k=v' [--read-ahead-kb KB]
#               [--storage NAME --nullb NSEC,QD,MAXSECTORS] [--swap KIND --swap-bytes N]
#               [-- FAULTLOAD-ARG...]
#
# --read-ahead-kb: the data disk's readahead before the run, as capture.sh
# sets the lab's (scripts/lava-jobs passes capture's default, 256).
# In the initramfs at /opt/retryscope with retryscope.ko, faultload and
# rs-snap.  Mounts debugfs and cgroup2, and sets up the data disk at
# /mnt/disk and the swap as scripts/guest/init does, with the same
# scripts/guest/storage.sh (in the image): --storage virtio (default) the
# job's /dev/vda and /dev/vdb, another NAME a null_blk of that profile
# (--nullb: its completion_nsec, hw_queue_depth, max_sectors, which
# scripts/lava-jobs read from configs/storage/NAME.conf); loads the module as capture.sh does
# (fault_around=1, filter 'comm fl-'), then for the one run writes meta,
# stats.before/after, vmstat.before/after, latency, workload.json,
# record.log and guest-status (capture.sh's rules: failed when faultload
# exits non-zero or writes no JSON, lossy when probe_nmissed or
# state_table_full is non-zero) and meta.host (from --host-meta: the host
# side is the job generator here).  No trace: trace-cmd is not in the
# image and trace.dat could not travel back (standalone lava-run has no
# artifact upload), so guest-status has no trace check.
#
# Every file travels back in the console log, which is all lava-run keeps:
#   RS-FILE-BEGIN <name> <bytes> <md5>
#   <base64 of the gzip of the file, 76 columns>
#   RS-FILE-END <name>
# then every counter as a LAVA test case, its delta over the run (the
# after value for attempts_max) as the measurement:
#   lava-test-case LABEL.COUNTER --result pass|fail --measurement N --units count
# (--units ns for the *_ns wait totals)
# (fail when the run is not ok), LABEL.run (pass only for an ok run) and,
# for a lossy or failed run, LABEL.lossy.WHY or LABEL.failed.WHY (fail).
# The last line is "RS-DONE result=...".
set -u
kernel='' label='' scen='' n='' run_id='' host_meta='' ra_lab=''
RS_STORAGE=virtio RS_SWAP=none RS_SWAP_BYTES=0 nullb=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--label) label=$2; shift 2 ;;
	--workload) scen=$2; shift 2 ;;
	--run) n=$2; shift 2 ;;
	--run-id) run_id=$2; shift 2 ;;
	--host-meta) host_meta=$2; shift 2 ;;
	--read-ahead-kb) ra_lab=$2; shift 2 ;;
	--storage) RS_STORAGE=$2; shift 2 ;;
	--nullb) nullb=$2; shift 2 ;;
	--swap) RS_SWAP=$2; shift 2 ;;
	--swap-bytes) RS_SWAP_BYTES=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "lava-run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
args=$*
if [ -z "$kernel" ] || [ -z "$label" ] || [ -z "$scen" ] || [ -z "$n" ] || [ -z "$run_id" ]; then
	echo "lava-run.sh: --kernel, --label, --workload, --run and --run-id are required" >&2
	exit 2
fi
PATH=/opt/retryscope:$PATH
export PATH
dbg=/sys/kernel/debug/retryscope
d=/tmp/rs/$label/$n
k=/tmp/rs/kernel
rm -rf /tmp/rs
mkdir -p "$d" "$k"

# Kernel messages on the console would cut into the blocks below.
dmesg -n 1
grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
[ -d /sys/fs/cgroup ] && ! grep -q ' /sys/fs/cgroup ' /proc/mounts &&
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
RS_NULLB_NSEC=${nullb%%,*} RS_NULLB_MAX_SECTORS=${nullb##*,}
RS_NULLB_QD=${nullb#*,} RS_NULLB_QD=${RS_NULLB_QD%%,*}
export RS_STORAGE RS_SWAP RS_SWAP_BYTES RS_NULLB_NSEC RS_NULLB_QD RS_NULLB_MAX_SECTORS
if ! grep -q ' /mnt/disk ' /proc/mounts &&
	! RS_STORAGE_ERR=/tmp/storage-error sh /opt/retryscope/storage.sh >/dev/null; then
	echo "lava-run.sh: $(cat /tmp/storage-error 2>/dev/null)" >&2
	exit 2
fi
ra_dev=$(awk '$2 == "/mnt/disk" { sub("^/dev/", "", $1); print $1 }' /proc/mounts)
if [ -n "$ra_lab" ] && [ -n "$ra_dev" ] && ! echo "$ra_lab" >"/sys/block/$ra_dev/queue/read_ahead_kb"; then
	echo "lava-run.sh: cannot set read_ahead_kb $ra_lab on /dev/$ra_dev" >&2
	exit 2
fi

# send NAME FILE: FILE as a marked block on stdout (the console).
send() {
	[ -f "$2" ] || return 0
	echo "RS-FILE-BEGIN $1 $(wc -c <"$2") $(md5sum <"$2" | cut -d' ' -f1)"
	gzip -c <"$2" | base64
	echo "RS-FILE-END $1"
}

# case_ NAME RESULT [MEASUREMENT UNITS]: one LAVA test case (lava-test-case
# is on PATH in a LAVA test shell; elsewhere, print the signal it would).
case_() {
	if command -v lava-test-case >/dev/null 2>&1; then
		if [ -n "${3:-}" ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
		else
			lava-test-case "$1" --result "$2"
		fi
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$2${3:+ UNITS=$4 MEASUREMENT=$3}>"
	fi
}

printf '%s\n' "$host_meta" | tr ';' '\n' >"$d/meta.host"
printf 'run_id=%s\nkernel=%s\nlabel=%s\nrun=%s\n' "$run_id" "$kernel" "$label" "$n" >/tmp/rs/job
result=failed reason='' frc=''
if ! insmod /opt/retryscope/retryscope.ko fault_around=1 2>"$d/record.log"; then
	reason="insmod retryscope.ko fault_around=1 failed: $(tail -n 1 "$d/record.log")"
else
	echo 'comm fl-' >"$dbg/filter"
	cp "$dbg/probes" "$k/probes"
	cp "$dbg/features" "$k/features"
	dmesg | grep 'retryscope:' >"$k/dmesg-module"
	{
		echo "kernel=$kernel"
		echo "release=$(uname -r)"
		echo "cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
		echo "arch=$(uname -m)"
		echo "scenario=$label"
		echo "workload=$scen"
		echo "run=$n"
		echo "args=$args"
		# the data disk's (--read-ahead-kb), or the run's own
		# --read-ahead-kb, which faultload sets
		ra=$(cat "/sys/block/$ra_dev/queue/read_ahead_kb" 2>/dev/null)
		# shellcheck disable=SC2086 # $args is a list of options
		set -- $args
		while [ $# -gt 0 ]; do
			[ "$1" = --read-ahead-kb ] && [ $# -ge 2 ] && ra=$2
			shift
		done
		echo "read_ahead_kb=$ra"
		cat /run/retryscope-storage 2>/dev/null
	} >"$d/meta"
	echo 1 >"$dbg/reset"
	rs-snap "$dbg/stats=$d/stats.before" /proc/vmstat="$d/vmstat.before"
	# shellcheck disable=SC2086 # $args is a list of options
	faultload "$scen" $args --json "$d/workload.json" >"$d/record.log" 2>&1 </dev/null
	frc=$?
	rs-snap "$dbg/stats=$d/stats.after" /proc/vmstat="$d/vmstat.after" "$dbg/latency=$d/latency"
	result=ok
	missed=$(awk '$1 == "probe_nmissed" { print $2 }' "$d/stats.after")
	full=$(awk '$1 == "state_table_full" { print $2 }' "$d/stats.after")
	if [ "$frc" != 0 ] || [ ! -s "$d/workload.json" ]; then
		result=failed reason="faultload exited $frc: $(grep -v '^ ' "$d/record.log" | tail -n 1)"
	elif [ "${missed:-0}" != 0 ]; then
		result=lossy reason="probe_nmissed $missed"
	elif [ "${full:-0}" != 0 ]; then
		result=lossy reason="state_table_full $full"
	fi
	rmmod retryscope || echo "lava-run.sh: rmmod retryscope failed" >&2
fi
{
	echo "result=$result"
	echo "reason=$reason"
	[ -z "$frc" ] || echo "faultload_rc=$frc"
	[ -z "${missed:-}" ] || echo "probe_nmissed=$missed"
} >"$d/guest-status"

send job /tmp/rs/job
for f in probes features dmesg-module; do
	send "kernel/$f" "$k/$f"
done
for f in meta meta.host stats.before stats.after vmstat.before vmstat.after latency \
	workload.json record.log guest-status; do
	send "run/$f" "$d/$f"
done

pass=pass
[ "$result" = ok ] || pass=fail
if [ -f "$d/stats.after" ]; then
	awk 'NR == FNR { b[$1] = $2; next }
	     $1 ~ /^[a-z0-9_]+$/ && $2 ~ /^[0-9]+$/ { print $1, ($1 == "attempts_max" ? $2 : $2 - b[$1]) }' \
		"$d/stats.before" "$d/stats.after" >/tmp/rs/deltas
	while read -r c v; do
		case $c in *_ns | *_ns_*) u=ns ;; *) u=count ;; esac
		case_ "$label.$c" "$pass" "$v" "$u"
	done </tmp/rs/deltas
fi
case_ "$label.run" "$pass"
if [ "$result" != ok ]; then
	why=$(printf '%s' "$reason" | tr -c 'a-zA-Z0-9_.-' '_' | cut -c1-60)
	case_ "$label.$result.$why" fail
	echo "RS-REASON $reason"
fi
echo "RS-DONE result=$result"
