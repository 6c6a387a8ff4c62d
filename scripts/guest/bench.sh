#!/bin/sh
# scripts/guest/bench.sh KO REPS [CONFIGS] (in the guest): minor-fault rate
# in each configuration of CONFIGS (default: the seven of scripts/bench):
#   none      no probes
#   entry     retryscope.ko as it loads by default (entry model, ftrace_ops
#             entry hooks)
#   around    the same with fault_around=1 (as scripts/capture loads it)
#   light     light=1: no probe on the common fault path (docs/counters.md)
#   fprobe    the return model on fprobes; kprobe: on kprobes/kretprobes
#   bpftrace  the same counting in bpftrace (tools/bench/retryscope.bt)
#   hook      the default with a filter that rejects every task (tgid=
#             2147483647, above PID_MAX_LIMIT): the hooks' own cost
#   nolock    the default without the mmap_lock tracepoints (skip=mmap_lock)
# Writes /out/bench.txt: "kind config rep faults_per_s".
set -u
ko=$1 reps=$2
configs=${3:-none entry around light fprobe kprobe bpftrace}
bt=$(dirname "$0")/../../tools/bench/retryscope.bt
res=/out/bench.txt
: >"$res"
uname -r >/out/release
rate() { sed -n 's/^ *"faults_per_s": *\([0-9.]*\).*/\1/p' "$1"; }
run() { # run KIND CONFIG REP
	file=
	[ "$1" = file ] && file="--file /mnt/disk/data.bin"
	# A 1 s warm-up, not recorded, in every configuration: under TCG each
	# insmod, rmmod or bpftrace attach patches kernel text, and the guest
	# runs slowly until the patched code is translated again.
	# shellcheck disable=SC2086 # $file is empty or an option and its value
	faultload minor --kind "$1" $file --threads 2 --duration 1 --quiet --json /tmp/b.json || return 1
	# shellcheck disable=SC2086
	faultload minor --kind "$1" $file --threads 2 --duration 3 --quiet --json /tmp/b.json || return 1
	echo "$1 $2 $3 $(rate /tmp/b.json)" | tee -a "$res"
}
have_bpftrace=0
case " $configs " in *" bpftrace "*) have_bpftrace=1 ;; esac
t0=$(date +%s)
if [ "$have_bpftrace" = 0 ]; then
	:
elif ! timeout 180 bpftrace -e 'kprobe:handle_mm_fault { @n = count(); exit(); }' >/tmp/bt.probe 2>&1; then
	have_bpftrace=0
	echo "bpftrace cannot run here (after $(($(date +%s) - t0)) s): $(grep -v '^$' /tmp/bt.probe | head -n 2 | tr '\n' ' ')" | tee /out/bpftrace.err
else
	echo "bpftrace probe ran in $(($(date +%s) - t0)) s" | tee /out/bpftrace.log
fi
one() { # one KIND CONFIG REP
	case $2 in
	none) run "$1" none "$3" ;;
	entry | around | light | kprobe | fprobe | hook | nolock)
		case $2 in
		entry) be= ;; # the default (backend=auto), as a user loads it
		around) be=fault_around=1 ;;
		light) be=light=1 ;;
		hook) be=tgid=2147483647 ;;
		nolock) be=skip=mmap_lock ;;
		*) be=backend=$2 ;;
		esac
		# shellcheck disable=SC2086 # $be is empty or one parameter
		if insmod "$ko" $be; then
			run "$1" "$2" "$3"
			rmmod retryscope
		else
			echo "insmod ${be:-(default)} failed" >>/out/module.err
		fi
		;;
	bpftrace)
		[ "$have_bpftrace" = 1 ] || return 0
		bpftrace "$bt" >/tmp/bt.out 2>&1 &
		bp=$!
		i=0
		while ! grep -q Attaching /tmp/bt.out && [ "$i" -lt 900 ]; do
			usleep 200000
			i=$((i + 1))
		done
		sleep 1
		run "$1" bpftrace "$3"
		kill -INT "$bp"
		wait "$bp"
		grep -q '@fault_done' /tmp/bt.out || echo "bpftrace counted nothing: $(tail -n 3 /tmp/bt.out)" >>/out/bpftrace.err
		;;
	*)
		echo "unknown configuration $2" >>/out/module.err
		return 1
		;;
	esac
}
# rotated R: CONFIGS rotated left by R - 1 places
rotated() {
	n=0
	for c in $configs; do n=$((n + 1)); done
	k=$((($1 - 1) % n)) i=0 head='' tail=''
	for c in $configs; do
		if [ "$i" -lt "$k" ]; then tail="$tail $c"; else head="$head $c"; fi
		i=$((i + 1))
	done
	echo "$head$tail"
}
# Interleaved, and the order rotates each rep, so that a drift of the
# host's speed does not always land on the same configuration.
for kind in anon file; do
	r=1
	while [ "$r" -le "$reps" ]; do
		for c in $(rotated "$r"); do
			one "$kind" "$c" "$r"
		done
		r=$((r + 1))
	done
done
