#!/bin/sh
# scripts/guest/bench.sh KO REPS (in the guest): minor-fault rate with no
# probes, with retryscope.ko on each backend (kprobe: kprobes/kretprobes;
# fprobe), and with the same counting in bpftrace.
# Writes /out/bench.txt: "kind config rep faults_per_s".
set -u
ko=$1 reps=$2
bt=$(dirname "$0")/../../tools/bench/retryscope.bt
res=/out/bench.txt
: >"$res"
uname -r >/out/release
rate() { sed -n 's/^ *"faults_per_s": *\([0-9.]*\).*/\1/p' "$1"; }
run() { # run KIND CONFIG REP
	file=
	[ "$1" = file ] && file="--file /mnt/disk/data.bin"
	# shellcheck disable=SC2086 # $file is empty or an option and its value
	faultload minor --kind "$1" $file --threads 2 --duration 3 --quiet --json /tmp/b.json || return 1
	echo "$1 $2 $3 $(rate /tmp/b.json)" | tee -a "$res"
}
have_bpftrace=1
t0=$(date +%s)
if ! timeout 180 bpftrace -e 'kprobe:handle_mm_fault { @n = count(); exit(); }' >/tmp/bt.probe 2>&1; then
	have_bpftrace=0
	echo "bpftrace cannot run here (after $(($(date +%s) - t0)) s): $(grep -v '^$' /tmp/bt.probe | head -n 2 | tr '\n' ' ')" | tee /out/bpftrace.err
else
	echo "bpftrace probe ran in $(($(date +%s) - t0)) s" | tee /out/bpftrace.log
fi
one() { # one KIND CONFIG REP
	case $2 in
	none) run "$1" none "$3" ;;
	kprobe | fprobe)
		if insmod "$ko" backend="$2"; then
			run "$1" "$2" "$3"
			rmmod retryscope
		else
			echo "insmod backend=$2 failed" >>/out/module.err
		fi
		;;
	fprobe-lean)
		# no probe on lock_vma_under_rcu: one return probe per fault
		if insmod "$ko" backend=fprobe skip=lock_vma_under_rcu; then
			run "$1" "$2" "$3"
			rmmod retryscope
		else
			echo "insmod backend=fprobe skip=lock_vma_under_rcu failed" >>/out/module.err
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
	esac
}
# Interleaved, and the order rotates each rep, so that a drift of the
# host's speed does not always land on the same configuration.
for kind in anon file; do
	r=1
	while [ "$r" -le "$reps" ]; do
		case $((r % 5)) in
		1) order="none kprobe fprobe fprobe-lean bpftrace" ;;
		2) order="kprobe fprobe fprobe-lean bpftrace none" ;;
		3) order="fprobe fprobe-lean bpftrace none kprobe" ;;
		4) order="fprobe-lean bpftrace none kprobe fprobe" ;;
		0) order="bpftrace none kprobe fprobe fprobe-lean" ;;
		esac
		for c in $order; do
			one "$kind" "$c" "$r"
		done
		r=$((r + 1))
	done
done
