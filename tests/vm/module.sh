#!/bin/sh
# tests/vm/module.sh KO VARIANT: the module's tests on one booted kernel.
# shellcheck disable=SC2166 # busybox test: -a inside one [ ] keeps check() simple
#   KO       path of retryscope.ko built for this kernel
#   VARIANT  stock (no VM_FAULT_RETRY_VMA), patched or rfc or v2 (file and
#            swap retries stay on the VMA lock), anon-only (only swap ones)
# Needs faultload and rs-snap on PATH, the test disk at /mnt/disk and swap.
set -u
. "$(dirname "$0")/lib.sh"
ko=$1 variant=$2
out=/out/module-$variant
mkdir -p "$out"

# --- bad module parameters: insmod fails with EINVAL and a one-line reason
for p in tgid=-1 comm= comm=0123456789abcdefg maxactive=-5 maxactive=100000 "tgid=1 comm=x" backend=uprobe backend= skip=handle_mm_fault skip=nosuch "skip=,do_swap_page"; do
	log_checkpoint "before insmod $p"
	# shellcheck disable=SC2086 # $p may hold two parameters
	if insmod "$ko" $p 2>"$out/insmod.err"; then
		not_ok "insmod $p is refused"
		rmmod retryscope
		continue
	fi
	reason=$(dmesg | grep 'retryscope:' | tail -n 1)
	if grep -q 'Invalid argument' "$out/insmod.err" && [ -n "$reason" ]; then
		ok "insmod $p is refused with EINVAL: ${reason#*] }"
	else
		not_ok "insmod $p: $(cat "$out/insmod.err") / dmesg: $reason"
	fi
done

# Aborts outside the fault path: /proc/vmstat's vma_lock_abort counts every
# NULL return of lock_vma_under_rcu(), madvise()'s too (mm/madvise.c takes
# the per-VMA lock for MADV_DONTNEED and the like: seen in fork-during-io
# under MTTCG, a thread's madvise() while another forked).  The entry model
# reads aborts at lock_mm_and_find_vma() and sees only the fault path's, so
# its check takes these out, counted with a tracefs kretprobe.
T=/sys/kernel/tracing
abort_trace_on() {
	[ -w "$T/kprobe_events" ] || return 1
	# shellcheck disable=SC2016 # $retval is kprobe_events syntax
	echo 'r:rs_test_abort lock_vma_under_rcu ret=$retval:x64' >>"$T/kprobe_events" 2>/dev/null || return 1
	echo 'ret == 0' >"$T/events/kprobes/rs_test_abort/filter"
	echo >"$T/trace"
	echo 1 >"$T/events/kprobes/rs_test_abort/enable"
}
# abort_trace_off FILE: stop, keep the trace in FILE, remove the event.
abort_trace_off() {
	echo 0 >"$T/events/kprobes/rs_test_abort/enable"
	cp "$T/trace" "$1"
	awk '$1 == "rs_test_abort" { print $3 }' "$T/kprobe_profile" >"$1.nmissed"
	echo '-:kprobes/rs_test_abort' >>"$T/kprobe_events"
}
# nonfault_aborts FILE: aborts whose caller is not an arch fault handler.
nonfault_aborts() {
	grep 'rs_test_abort:' "$1" | grep -c -v -E '\((do_user_addr_fault|do_page_fault|handle_page_fault|do_exception|do_kern_addr_fault)\+'
}

# --- counting checks, run once per probe backend (TAG names the outputs)
count_checks() {
	tag=$1
	# --- the module against the kernel's own counters (PER_VMA_LOCK_STATS)
	snap() { rs-snap "$RS_DBG/stats=$out/$tag.stats.$1" /proc/vmstat="$out/$tag.vmstat.$1" "$RS_DBG/latency=$out/$tag.latency.$1"; }
	for scen in file-major swap-in fork-during-io; do
		traced=0
		case $tag in entry-*) abort_trace_on && traced=1 ;; esac
		echo 1 >"$RS_DBG/reset"
		snap before
		faultload "$scen" --json "$out/$tag.$scen.json" >/dev/null || not_ok "faultload $scen ran"
		snap after
		[ "$traced" = 0 ] || abort_trace_off "$out/$tag.$scen.aborts"
		for c in vma_lock_success vma_lock_abort vma_lock_retry; do
			m=$(delta "$c" "$out/$tag.stats.before" "$out/$tag.stats.after")
			k=$(delta "$c" "$out/$tag.vmstat.before" "$out/$tag.vmstat.after")
			case $tag:$c in
			entry-*:vma_lock_abort)
				if [ "$traced" = 1 ]; then
					nf=$(nonfault_aborts "$out/$tag.$scen.aborts")
					nmiss=$(cat "$out/$tag.$scen.aborts.nmissed")
					check "$tag: $scen: module $c ($m) = /proc/vmstat $c delta ($k) - aborts outside the fault path ($nf, kretprobe nmissed ${nmiss:-?})" \
						[ "$m" = $((k - nf)) -a "${nmiss:-1}" = 0 ]
				else
					check "$tag: $scen: module $c ($m) = /proc/vmstat $c delta ($k), or under (no tracefs kretprobe to count aborts outside the fault path)" \
						[ "$m" -le "$k" ]
				fi
				;;
			*)
				check "$tag: $scen: module $c ($m) = /proc/vmstat $c delta ($k)" [ "$m" = "$k" ]
				;;
			esac
		done
		cp "$out/$tag.stats.after" "$out/$tag.stats.$scen"
		cp "$out/$tag.latency.after" "$out/$tag.latency.$scen"
	done

	# --- major faults against getrusage, one process (tgid filter set before exec)
	echo 1 >"$RS_DBG/reset"
	sh -c "echo \"tgid \$\$\" > $RS_DBG/filter && exec faultload file-major --json $out/$tag.rusage.json" >/dev/null
	cp "$RS_DBG/stats" "$out/$tag.stats.rusage"
	echo none >"$RS_DBG/filter"
	mj=$(cval major_faults "$out/$tag.stats.rusage")
	ru=$(sed -n '/"rusage_self"/,/}/s/.*"majflt": *\([0-9]*\).*/\1/p' "$out/$tag.rusage.json")
	check "$tag: file-major: module major_faults ($mj) = getrusage majflt ($ru)" [ -n "$ru" -a "$mj" = "$ru" ]

	# --- the direction that must hold
	f=$out/$tag.stats.file-major s=$out/$tag.stats.swap-in
	fr=$(cval filemap_fault_retry "$f") sr=$(cval swap_fault_retry "$s")
	ff=$(cval fallback_after_file_io "$f") fk=$(cval retry_kept_after_file_io "$f")
	sf=$(cval fallback_after_swap_io "$s") sk=$(cval retry_kept_after_swap_io "$s")
	frv=$(cval filemap_fault_retry_vma "$f")
	if [ "$variant" = no-drop ]; then
		# no-drop never drops the lock for I/O: it waits holding it
		fw=$(cval io_wait_vma_lock_file "$f") sw=$(cval io_wait_vma_lock_swap "$s")
		check "$tag: no-drop: no file or swap I/O retry ($fr, $sr) and no fallback ($ff, $sf)" \
			[ "$fr" = 0 -a "$sr" = 0 -a "$ff" = 0 -a "$sf" = 0 ]
		check "$tag: no-drop: file-major and swap-in waited for I/O under the VMA lock ($fw, $sw)" \
			[ "${fw:-0}" -gt 0 -a "${sw:-0}" -gt 0 ]
	else
		check "$tag: file-major produced file I/O retries ($fr)" [ "${fr:-0}" -gt 0 ]
		check "$tag: swap-in produced swap I/O retries ($sr)" [ "${sr:-0}" -gt 0 ]
	fi
	case $variant in
	no-drop) ;;
	stock | anon-only)
		# anon-only keeps the file path as stock has it: filemap_fault never
		# returns VM_FAULT_RETRY_VMA, every file I/O retry falls back.
		check "$tag: $variant: file I/O retries fall back to mmap_lock ($ff) and none stay ($fk, retry_vma $frv)" [ "$ff" -gt 0 -a "$fk" = 0 -a "$frv" = 0 ]
		;;
	retry-hard)
		# No VM_FAULT_RETRY_VMA: the module sees by behaviour (the retry
		# called lock_vma_under_rcu() again) that every file retry stayed.
		check "$tag: retry-hard: file I/O retries stay on the VMA lock ($fk of $fr, no VM_FAULT_RETRY_VMA: $frv) and none fall back ($ff)" \
			[ "$fk" -gt 0 -a "$fk" = "$fr" -a "$frv" = 0 -a "$ff" = 0 ]
		;;
	*)
		# The RFC sets VM_FAULT_RETRY_VMA where filemap_fault() dropped the
		# lock for I/O it did not do itself synchronously (docs/counters.md):
		# every flagged retry stays, only unflagged ones fall back.
		check "$tag: $variant: file I/O retries stay on the VMA lock ($fk, = retry_vma $frv) and only unflagged ones fall back ($ff = $fr - $frv)" [ "$fk" -gt 0 -a "$fk" = "$frv" -a "$ff" = $((fr - frv)) ]
		;;
	esac
	case $variant in
	stock)
		check "$tag: stock: swap I/O retries fall back to mmap_lock ($sf) and none stay ($sk)" [ "$sf" -gt 0 -a "$sk" = 0 ]
		;;
	no-drop) ;;
	*)
		check "$tag: $variant: swap I/O retries stay on the VMA lock ($sk) and none fall back ($sf)" [ "$sk" -gt 0 -a "$sf" = 0 ]
		;;
	esac
	nm=$(cval probe_nmissed "$s")
	check "$tag: no probe misses ($nm)" [ "$nm" = 0 ]
	lat_checks "$tag"
}

# lq OUTCOME CAUSE FILE Q: the upper bound (ns) of the bucket holding quantile Q.
lq() {
	awk -v o="$1" -v c="$2" -v q="$4" '$1 == o && $2 == c { hi[++k] = $4; n[k] = $5; t += $5 }
		END { for (i = 1; i <= k; i++) { s += n[i]; if (s >= q * t) { print hi[i]; exit } } print 0 }' "$3"
}

# --- per-fault latency (debugfs "latency"): a fault that went through
# filemap_fault()/do_swap_page() is timed when it finishes there (or, a
# retried file fault, in the fault-around's filemap_map_pages()); the
# retried ones by the lock their last attempt held.
lat_checks() {
	tag=$1
	for sc in file-major:file_io:filemap_fault swap-in:swap_io:swap_fault; do
		scen=${sc%%:*} cause=${sc#*:} cause=${cause%%:*} pre=${sc##*:}
		l=$out/$tag.latency.$scen st=$out/$tag.stats.$scen
		first=$(lsum first "$cause" "$l") kept=$(lsum vma_lock "$cause" "$l") fb=$(lsum mmap_lock "$cause" "$l")
		calls=$(cval "${pre}_calls" "$st") retry=$(cval "${pre}_retry" "$st") err=$(cval "${pre}_error" "$st")
		done_=$((calls - retry - err))
		if [ "$cause" = swap_io ]; then
			# Every swap fault finishes in do_swap_page(); only user faults
			# are timed, and a kernel-mode one (a syscall touching swapped-out
			# memory: 2 of 12,987 once on 6.12) is rare.
			t=$((first + kept + fb))
			check "$tag: $scen: timed $cause faults ($first + $kept + $fb) = finished ${pre} calls ($calls - $retry retried - $err failed) less the kernel-mode ones (at most 1%)" \
				[ "$t" -le "$done_" -a $((t * 100)) -ge $((done_ * 99)) ]
		else
			check "$tag: $scen: $cause faults timed on their first attempt ($first) <= finished ${pre} calls ($calls - $retry retried - $err failed)" \
				[ "$first" -le "$done_" ]
		fi
		# A retried fault whose last attempt found the page mapped (by
		# another thread) calls neither and is not timed.
		k=$(cval "retry_kept_after_$cause" "$st") f=$(cval "fallback_after_$cause" "$st")
		check "$tag: $scen: retried $cause faults timed: under the VMA lock $kept of $k kept, under mmap_lock $fb of $f fallbacks (at least 90% of each, none more)" \
			[ "$kept" -le "$k" -a "$fb" -le "$f" -a $((kept * 10)) -ge $((k * 9)) -a $((fb * 10)) -ge $((f * 9)) ]
		p1=$(lq first "$cause" "$l" 0.5)
		if [ "$variant" = no-drop ]; then
			# no retry: the faults that read wait in their first attempt
			p9=$(lq first "$cause" "$l" 0.9)
			check "$tag: $scen: no-drop: no retried fault timed ($kept, $fb); first attempts waited for I/O (p90 <= $p9 ns, >= 10 us)" \
				[ "$kept" = 0 -a "$fb" = 0 -a "$p9" -ge 10000 ]
			continue
		fi
		if [ "$fb" -gt 0 ]; then pr=$(lq mmap_lock "$cause" "$l" 0.5) o=mmap_lock; else pr=$(lq vma_lock "$cause" "$l" 0.5) o=vma_lock; fi
		# A retried fault waited for I/O: tens of µs at least.  swap-in's
		# first-attempt faults are swap-cache hits (µs); file-major's few
		# are synchronous reads (ms), so they are not compared.
		check "$tag: $scen: retried faults waited for I/O ($o p50 <= $pr ns, >= 10 us)" [ "$pr" -ge 10000 ]
		[ "$cause" != swap_io ] ||
			check "$tag: $scen: a retried fault ($o p50 <= $pr ns) takes longer than a swap-cache hit (p50 <= $p1 ns)" \
				[ "$pr" -gt "$p1" ]
	done
}

# --- load: features in dmesg, probes attached
log_checkpoint "after the refused parameters"
if ! insmod "$ko"; then
	not_ok "insmod $ko"
	exit 1
fi
ok "insmod retryscope.ko on $(uname -r)"
dmesg | grep retryscope: >"$out/dmesg"
# the series' flag; retry-hard retries under the VMA lock without it
want=yes
case $variant in stock | retry-hard | no-drop) want=no ;; esac
check "dmesg reports per-VMA lock yes, VM_FAULT_RETRY_VMA $want" \
	grep -q "per-VMA lock yes, VM_FAULT_RETRY_VMA $want" "$out/dmesg"
cp "$RS_DBG/probes" "$out/probes"
for s in handle_mm_fault filemap_fault do_swap_page shmem_fault lock_mm_and_find_vma \
	mmap_lock_start_locking mmap_lock_acquire_returned sched_process_free signal_deliver; do
	check "probe $s attached" grep -q "^$s [a-z]* on " "$out/probes"
done
check "filemap_map_pages is off by default, and the probes file says why" \
	grep -q '^#   filemap_map_pages: off by default (fault_around=1 turns it on)' "$out/probes"

# --- garbage written to debugfs is rejected and changes nothing
faultload minor --kind anon --threads 1 --duration 0.2 --json /dev/null
before=$(cval user_faults "$RS_DBG/stats")
nl='
'
for g in 0 2 abc "1 1" '\n' '1\n\n'; do
	case $g in
	'\n') v=$nl ;;
	'1\n\n') v="1$nl$nl" ;;
	*) v=$g ;;
	esac
	if printf '%s' "$v" >"$RS_DBG/reset" 2>/dev/null; then
		not_ok "reset rejects '$g'"
	else
		ok "reset rejects '$g'"
	fi
done
after=$(cval user_faults "$RS_DBG/stats")
check "rejected resets left the counters ($before -> $after)" [ "$after" -ge "$before" -a "$before" -gt 0 ]
for g in "tgid -1" "tgid x" "tgid" "comm " "comm a b" "comm 0123456789abcdefg" foo "none x"; do
	if printf '%s' "$g" >"$RS_DBG/filter" 2>/dev/null; then
		not_ok "filter rejects '$g'"
	else
		ok "filter rejects '$g'"
	fi
done
check "filter is still none" [ "$(cat "$RS_DBG/filter")" = none ]
check "filter accepts 'comm fl-'" sh -c "echo 'comm fl-' > $RS_DBG/filter && [ \"\$(cat $RS_DBG/filter)\" = 'comm fl-' ]"
echo none >"$RS_DBG/filter"

# --- /sys/kernel/retryscope (issue 30): the same counters as debugfs
# "stats", one file each, the same reset and filter words; nothing is
# counted meanwhile (the filter names a thread group that does not exist)
RS_SYS=/sys/kernel/retryscope
echo "tgid 99999" >"$RS_DBG/filter"
for c in user_faults major_faults mmap_lock_fallback attempts_max probe_nmissed; do
	d=$(cval "$c" "$RS_DBG/stats") sv=$(cat "$RS_SYS/counters/$c" 2>/dev/null)
	check "sysfs counters/$c ($sv) = debugfs stats $c ($d)" [ -n "$sv" -a "$sv" = "$d" ]
done
nd=$(grep -c . "$RS_DBG/stats") ns=$(find "$RS_SYS/counters" -type f | wc -l)
check "sysfs has a file for each of the $nd lines of debugfs stats ($ns)" [ "$nd" = "$ns" ]
check "sysfs filter reads what debugfs says (tgid 99999)" [ "$(cat "$RS_SYS/filter")" = "tgid 99999" ]
for g in foo "tgid x" "comm a b"; do
	if printf '%s' "$g" >"$RS_SYS/filter" 2>/dev/null; then
		not_ok "sysfs filter rejects '$g'"
	else
		ok "sysfs filter rejects '$g'"
	fi
done
check "sysfs filter accepts 'comm fl-', debugfs reads it" \
	sh -c "echo 'comm fl-' > $RS_SYS/filter && [ \"\$(cat $RS_DBG/filter)\" = 'comm fl-' ]"
check "sysfs reset rejects 2" sh -c "! printf 2 > $RS_SYS/reset 2>/dev/null"
check "sysfs reset 1 zeroes the counters" sh -c "echo 1 > $RS_SYS/reset && [ \"\$(cat $RS_SYS/counters/user_faults)\" = 0 ]"
# the periodic retryscope_counter events (totals_ms): on while the event
# is on, every counter in the first period, a counter's value = its total
# (only faultload's fl- threads counted: the shell's commands do not move
# the counters between the last event and the read)
echo "comm fl-" >"$RS_SYS/filter"
if [ -d "$T/events/retryscope/retryscope_counter" ]; then
	echo >"$T/trace"
	echo 1 >"$T/events/retryscope/retryscope_counter/enable"
	faultload minor --kind anon --threads 1 --duration 0.3 --quiet >/dev/null 2>&1
	sleep 3
	echo 0 >"$T/events/retryscope/retryscope_counter/enable"
	cp "$T/trace" "$out/totals.trace"
	nev=$(grep -c 'retryscope_counter: user_faults=' "$out/totals.trace")
	check "retryscope_counter: user_faults reported in the periods the event was on ($nev)" [ "$nev" -ge 1 ]
	last=$(grep 'retryscope_counter: user_faults=' "$out/totals.trace" | tail -n 1 | sed 's/.*user_faults=//')
	check "retryscope_counter: the last user_faults ($last) = sysfs's ($(cat "$RS_SYS/counters/user_faults"))" \
		[ "$last" = "$(cat "$RS_SYS/counters/user_faults")" ]
	nnames=$(grep -o 'retryscope_counter: [a-z0-9_]*=' "$out/totals.trace" | sort -u | wc -l)
	check "retryscope_counter: every counter in the first period ($nnames names of $nd)" [ "$nnames" -ge $((nd - 2)) ]
else
	not_ok "no retryscope_counter event in tracefs"
fi
echo none >"$RS_SYS/filter"

be=$(sed -n 's/.*backend auto (\([a-z+]*\), entry model).*/\1/p' "$out/dmesg")
check "dmesg names the backend auto chose ($be) and the entry model" [ -n "$be" ]
check "probes: model entry" grep -q '^# model entry$' "$out/probes"
# The entry model hooks the entry of handle_mm_fault alone (ftrace_ops where
# the kernel's ftrace callbacks read arguments, else a kprobe) ...
check "entry model: handle_mm_fault is an entry hook (ftrace or kprobe)" grep -Eq "^handle_mm_fault (ftrace|kprobe) on " "$out/probes"
# ... and keeps return probes on the I/O paths (shmem_fault: its
# VM_FAULT_MAJOR) and on the mmap_lock fallback's lock_mm_and_find_vma.
for s in filemap_fault do_swap_page shmem_fault lock_mm_and_find_vma; do
	check "entry model: $s has a return probe (fprobe or kretprobe)" grep -Eq "^$s (fprobe|kretprobe) on " "$out/probes"
done
# ... and reads VMA-lock aborts at lock_mm_and_find_vma, not lock_vma_under_rcu.
check "entry model: lock_vma_under_rcu is off, not used by this model" \
	grep -q '^#   lock_vma_under_rcu: not used by this counting model' "$out/probes"
# The counting checks time the retried file faults that finish in the
# fault-around too: fault_around=1, as scripts/capture loads it.
rmmod retryscope
insmod "$ko" fault_around=1 || not_ok "insmod $ko fault_around=1"
check "fault_around=1: filemap_map_pages attached" grep -Eq '^filemap_map_pages (fprobe|kretprobe) on ' "$RS_DBG/probes"
count_checks "entry-${be:-auto}"
check "rmmod retryscope" rmmod retryscope
check "debugfs directory gone after rmmod" [ ! -e "$RS_DBG" ]
check "sysfs directory gone after rmmod" [ ! -e /sys/kernel/retryscope ]

# --- skip= leaves a probe off and says why
if insmod "$ko" backend=kprobe skip=lock_vma_under_rcu,do_swap_page,mmap_lock; then
	cp "$RS_DBG/probes" "$out/probes.skip"
	check "skip=: lock_vma_under_rcu and do_swap_page are off, left off by skip=" \
		sh -c "grep -q '^lock_vma_under_rcu [a-z-]* off ' $out/probes.skip && grep -q '^do_swap_page [a-z-]* off ' $out/probes.skip"
	check "skip=mmap_lock: both mmap_lock tracepoints are off" \
		sh -c "grep -q '^mmap_lock_start_locking tracepoint off ' $out/probes.skip && grep -q '^mmap_lock_acquire_returned tracepoint off ' $out/probes.skip"
	check "skip=: 4 lines say left off (skip= parameter)" \
		[ "$(grep -c 'left off (skip= parameter)' "$out/probes.skip")" = 4 ]
	check "skip=: handle_mm_fault stays on" grep -q '^handle_mm_fault [a-z]* on ' "$out/probes.skip"
	echo 1 >"$RS_DBG/reset"
	faultload minor --kind anon --threads 2 --duration 1 --quiet >/dev/null 2>&1
	check "skip=mmap_lock: no mmap_lock acquisition counted, faults are" \
		sh -c "grep -q '^mmap_lock_read_acquire 0\$' $RS_DBG/stats && grep -q '^mmap_lock_write_acquire 0\$' $RS_DBG/stats && ! grep -q '^user_faults 0\$' $RS_DBG/stats"
	check "rmmod retryscope (skip=)" rmmod retryscope
else
	not_ok "insmod $ko backend=kprobe skip=lock_vma_under_rcu,do_swap_page,mmap_lock"
fi

# --- the same counts with the return model, on each backend that this kernel
# has; a backend it lacks must be refused with the reason
for b in fprobe kprobe ftrace; do
	log_checkpoint "before backend=$b"
	if insmod "$ko" backend=$b fault_around=1 2>"$out/insmod.err"; then
		dmesg | grep retryscope: >"$out/dmesg.$b"
		cp "$RS_DBG/probes" "$out/probes.$b"
		case $b in
		fprobe) want='fprobe, return' hmf=fprobe ;;
		kprobe) want='kprobe, return' hmf=kretprobe ;;
		ftrace) want='ftrace+[a-z]*, entry' hmf=ftrace ;;
		esac
		check "backend=$b: dmesg names it ($want model)" grep -q "backend $b ($want model)" "$out/dmesg.$b"
		check "backend=$b: handle_mm_fault is a $hmf" grep -q "^handle_mm_fault $hmf on " "$out/probes.$b"
		[ "$b" = ftrace ] ||
			check "backend=$b: shmem_fault off, lock_vma_under_rcu on (return model)" \
				sh -c "grep -q '^#   shmem_fault: not used by this counting model' $out/probes.$b && grep -Eq '^lock_vma_under_rcu (fprobe|kretprobe) on ' $out/probes.$b"
		# backend=ftrace counts as auto does on 7.3: its counts ran above
		[ "$b" = ftrace ] || count_checks "$b"
		check "rmmod retryscope (backend=$b)" rmmod retryscope
	elif grep -q 'Invalid argument' "$out/insmod.err" &&
		dmesg | grep -q "retryscope: backend=$b: this kernel"; then
		# 6.12: fprobe hands handlers a pt_regs, not ftrace_regs
		backend_refused "$b" "$(dmesg | grep "retryscope: backend=$b" | tail -n 1 | sed 's/.*] //')"
	else
		not_ok "insmod $ko backend=$b: $(cat "$out/insmod.err")"
	fi
done
kernel_log_clean "after the module tests"
