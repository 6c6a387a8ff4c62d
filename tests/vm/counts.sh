#!/bin/sh
# tests/vm/counts.sh KO VARIANT [CASES]: the module's counts where the lab's
# scenarios never go (issue 15), each case a workload of rs-edgecase run in
# one process whose tgid is the module's filter, compared over the same
# interval with /proc/vmstat and the process's getrusage():
#   threads  10,000 threads alive at once, each faulting a cold file page
#   signal   a reader of cold pages hit by SIGUSR1 every 100 us
#   efault   read() into an unmapped page, then 1,000 mmap/munmap
#   truncate a cold read whose file is truncated during its I/O (SIGBUS)
#   reset    64 threads in I/O, the counters reset (or the filter widened
#            to them) in the middle
#   uffd     500 anonymous pages filled by a userfaultfd thread: every fault
#            retries (cause "other"); also once per skip= value
#   cowfirst 1,000 first writes to private mappings of a cached page while
#            mprotect() write-locks mmap_lock: the anon_vma retries are not
#            timed as first-attempt faults, nor from the start of an earlier
#            retried fault that finished in the fault-around
#   samepage 4 threads touch the same cold MADV_RANDOM page at once: the
#            one that waited for another's folio is locked_folio
#   thrash   8 readers of 64 MiB in a 32 MiB memory cgroup: pgmajfault is
#            the module's VM_FAULT_MAJOR calls, major_faults getrusage's
# on each backend the kernel has (auto = entry model, fprobe, kprobe).
# In each, the module's mmap_lock acquisitions equal those of the same
# interval's mmap_lock trace events (the tracepoints' prototype differs
# between 6.12 and 7.3).
#   vmawrite mprotect() and fork() while a fault reads a cold page of the
#            VMA: the VMA write lock's waits (all of them on no-drop)
#   light    light=1 (no probe on the common fault path): the counters it
#            cannot count are not shown; threads and thrash against
#            /proc/vmstat's vma_lock_abort + vma_lock_retry and pgmajfault
# CASES: some of "threads signal efault truncate reset widen uffd cowfirst
# samepage thrash dropsite vmawrite light" (default: all).  truncate, samepage and dropsite need the swap disk
# (--swap-disk), used as a scratch disk (dropsite puts a swap file on it).
# Needs rs-edgecase on PATH and the test disk at /mnt/disk.
set -u
. "$(dirname "$0")/lib.sh"
ko=$1 variant=$2 only=${3:-}
# want CASE: CASE is in the optional third argument (default: every case)
want() { [ -z "$only" ] || case " $only " in *" $1 "*) true ;; *) false ;; esac; }
out=/out/counts-$variant
mkdir -p "$out"
# 10,000 threads need more than a 2 GiB guest's default threads-max allows
echo 40000 >/proc/sys/kernel/threads-max

T=/sys/kernel/tracing
echo 16384 >"$T/buffer_size_kb"

# The truncate case needs a writable disk with I/O to wait for: the swap
# disk (throttled like the test disk) becomes an ext2 file system, with a
# swap file on it for dropsite's swap sites.
if want truncate || want dropsite || want samepage; then
	if [ -b /dev/vdb ] && swapoff /dev/vdb 2>/dev/null && mke2fs -q /dev/vdb &&
		mkdir -p /mnt/scratch && mount -t ext4 /dev/vdb /mnt/scratch &&
		dd if=/dev/zero of=/mnt/scratch/t.bin bs=4096 count=16 2>/dev/null; then
		ok "scratch file system on /dev/vdb for the truncate and dropsite cases"
		if dd if=/dev/zero of=/mnt/scratch/swap bs=1M count=16 2>/dev/null &&
			chmod 600 /mnt/scratch/swap && mkswap /mnt/scratch/swap >/dev/null &&
			swapon /mnt/scratch/swap; then
			ok "swap file on the scratch disk for dropsite's swap sites"
		else
			not_ok "swap file on the scratch disk for dropsite's swap sites"
		fi
	else
		ok "truncate, samepage and dropsite cases # SKIP no writable throttled disk (/dev/vdb: run with --swap-disk)"
		rmdir /mnt/scratch 2>/dev/null
	fi
fi

# run TAG CASE ARGS...: rs-edgecase CASE in a process that is the filter,
# its mmap_lock events traced (set_event_pid, following its threads)
run() {
	tag=$1
	shift
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >"$RS_DBG/reset"
	echo >"$T/trace"
	echo 1 >"$T/options/event-fork"
	echo 1 >"$T/events/mmap_lock/mmap_lock_start_locking/enable"
	echo 1 >"$T/events/mmap_lock/mmap_lock_acquire_returned/enable"
	echo 1 >"$T/tracing_on"
	# the filter from the start: this process (\$\$), or ${FILTER0}
	f0=${FILTER0:-'tgid $$'}
	# in the cgroup ${RS_CGROUP} first, if given
	cg=${RS_CGROUP:+"echo \$\$ >$RS_CGROUP/cgroup.procs && "}
	# shellcheck disable=SC2016 # $$ is the inner shell's pid
	sh -c "$cg"'echo $$ >'"$T/set_event_pid"' && echo "'"$f0"'" >'"$RS_DBG/filter"' && exec rs-edgecase "$@"' \
		rs-edgecase "$@" --marker "$T/trace_marker" \
		--snap "$RS_DBG/stats=$out/$tag.stats" --snap "/proc/vmstat=$out/$tag.vmstat" \
		>"$out/$tag.out" 2>"$out/$tag.err"
	rc=$?
	echo 0 >"$T/tracing_on"
	echo none >"$RS_DBG/filter"
	echo 0 >"$T/events/mmap_lock/enable"
	echo >"$T/set_event_pid"
	cp "$T/trace" "$out/$tag.trace"
	if [ "$rc" = 4 ]; then
		ok "$tag # SKIP $(cat "$out/$tag.err")"
		return 1
	fi
	[ "$rc" = 0 ] || { not_ok "$tag: rs-edgecase $1 exited $rc: $(cat "$out/$tag.err")"; return 1; }
}

# The module's mmap_lock counts against the trace's, between the markers:
# an acquisition with a start_locking before it waited, one without was
# a trylock, success=false failed.  An event in interrupt context (the
# flags' third column h, H, s, z or Z) is a trylock on the interrupted
# task's mm and leaves that task's pending start alone, as in the module.
same_locks() {
	awk '
	/rs-edgecase begin/ { on = 1; next }
	/rs-edgecase end/ { on = 0; next }
	!on { next }
	/mmap_lock_start_locking:/ {
		if (substr($3, 3, 1) !~ /[hHszZ]/) { n = split($1, a, "-"); start[a[n]] = 1 }
		next
	}
	/mmap_lock_acquire_returned:/ {
		n = split($1, a, "-"); pid = a[n]
		mode = / write=true/ ? "write" : "read"
		if (substr($3, 3, 1) ~ /[hHszZ]/) {
			c[mode (/ success=false/ ? "_failed" : "_trylock")]++
			next
		}
		if (/ success=false/) c[mode "_failed"]++
		else if (start[pid]) c[mode "_acquire"]++
		else c[mode "_trylock"]++
		start[pid] = 0
	}
	END { for (m in c) print "mmap_lock_" m, c[m] }' "$out/$tag.trace" >"$out/$tag.trace-counts"
	lost=$(grep -c 'LOST' "$out/$tag.trace")
	check "$tag: the trace lost no events ($lost LOST lines)" [ "$lost" = 0 ]
	for c in mmap_lock_read_acquire mmap_lock_read_trylock mmap_lock_read_failed \
		mmap_lock_write_acquire mmap_lock_write_trylock mmap_lock_write_failed; do
		t=$(cval "$c" "$out/$tag.trace-counts")
		check "$tag: module $c ($(m $c)) = the trace's (${t:-0})" [ "$(m $c)" = "${t:-0}" ]
	done
}
m() { delta "$1" "$out/$tag.stats.before" "$out/$tag.stats.after"; }
k() { delta "$1" "$out/$tag.vmstat.before" "$out/$tag.vmstat.after"; }
ru() { sed -n "s/^$1=//p" "$out/$tag.out"; }

# The module's fault counts against the process's own and the kernel's.
same_counts() {
	for c in vma_lock_success vma_lock_abort vma_lock_retry; do
		check "$tag: module $c ($(m $c)) = /proc/vmstat $c delta ($(k $c))" [ "$(m $c)" = "$(k $c)" ]
	done
	# user_faults counts first attempts, so also faults that a signal made
	# the task abandon and re-execute; getrusage() counts finished ones.
	mn=$(ru minflt) mj=$(ru majflt) ab=$(m faults_abandoned)
	check "$tag: module user_faults - faults_abandoned ($(m user_faults) - $ab) = getrusage minflt + majflt ($mn + $mj)" \
		[ $(($(m user_faults) - ab)) = $((mn + mj)) ]
	check "$tag: probe_nmissed is 0 ($(m probe_nmissed))" [ "$(m probe_nmissed)" = 0 ]
	check "$tag: module major_faults ($(m major_faults)) = getrusage majflt ($mj)" \
		[ "$(m major_faults)" = "$mj" ]
	check "$tag: state_table_full is 0 ($(m state_table_full))" [ "$(m state_table_full)" = 0 ]
}

# thrash_run TAG: rs-edgecase thrash, 8 readers of 64 MiB in the 32 MiB
# memory cgroup $cgd with 1024 KB of readahead (why: the thrash case
# below); false, with a "not ok" when the cgroup cannot be made
thrash_run() {
	if ! { { echo +memory >/sys/fs/cgroup/cgroup.subtree_control; } 2>/dev/null &&
		mkdir -p $cgd && echo 32M >$cgd/memory.max && { echo 0 >$cgd/memory.swap.max; } 2>/dev/null; }; then
		not_ok "$1: a 32 MiB memory cgroup at $cgd (cgroup2 with the memory controller)"
		return 1
	fi
	echo 1024 >/sys/block/vda/queue/read_ahead_kb &&
		RS_CGROUP=$cgd run "$1" thrash --threads 8 --loops 4
}

cases() {
	be=$1
	tag=$be.threads
	if want threads && run "$tag" threads --threads 10000; then
		same_counts
		same_locks
		check "$tag: every thread took a major fault ($(ru majflt) of 10000)" [ "$(ru majflt)" = 10000 ]
	fi

	# A retry abandoned for a signal is re-executed as a new fault: on
	# stock nothing is retried under the VMA lock, so none is "kept".
	tag=$be.signal
	if want signal && run "$tag" signal --pages 2000 --interval-us 100; then
		same_counts
		same_locks
		kept=$(m retry_kept_vma_lock)
		if [ "$variant" = stock ]; then
			check "$tag: stock: no retry kept on the VMA lock ($kept; $(ru signals) signals, $(m faults_abandoned) faults abandoned)" [ "$kept" = 0 ]
		elif [ "$variant" = retry-hard ] || [ "$variant" = no-drop ]; then
			# no VM_FAULT_RETRY_VMA: any file retry may stay
			check "$tag: kept retries ($kept) <= file retries ($(m filemap_fault_retry))" \
				[ "$kept" -le "$(m filemap_fault_retry)" ]
		else
			check "$tag: kept retries ($kept) <= retries returning VM_FAULT_RETRY_VMA ($(m filemap_fault_retry_vma))" \
				[ "$kept" -le "$(m filemap_fault_retry_vma)" ]
		fi
	fi

	# A major fault counted when its retry starts (FAULT_FLAG_TRIED) is
	# taken back when that retry fails: the file was truncated during the
	# first attempt's I/O, the retry gets VM_FAULT_SIGBUS, getrusage()
	# counts no fault.
	tag=$be.truncate
	if want truncate && [ -d /mnt/scratch ] &&
		run "$tag" truncate --file /mnt/scratch/t.bin --loops 120; then
		for c in vma_lock_success vma_lock_abort vma_lock_retry; do
			check "$tag: module $c ($(m $c)) = /proc/vmstat $c delta ($(k $c))" [ "$(m $c)" = "$(k $c)" ]
		done
		check "$tag: module major_faults ($(m major_faults)) = getrusage majflt ($(ru majflt)); $(ru sigbus) of 120 rounds got SIGBUS" \
			[ "$(m major_faults)" = "$(ru majflt)" ]
		# Whether the truncation lands inside a read is up to the timing:
		# 4 to 19 rounds of 120 in the runs seen on x86 and arm64, and once
		# 0 (arm64 patched, fprobe).  With none, the counts above hold but the taken-back
		# fault was not exercised: a skip, not a pass.
		if [ "$(ru sigbus)" -gt 0 ]; then
			ok "$tag: the truncation raced the read in some rounds ($(ru sigbus) SIGBUS)"
		else
			ok "$tag: taken-back major fault # SKIP the truncation raced the read in none of 120 rounds (0 SIGBUS)"
		fi
	fi

	# Every fault of a userfaultfd-registered page returns VM_FAULT_RETRY
	# from handle_userfault(): one fault, however many attempts.
	tag=$be.uffd
	if want uffd && run "$tag" uffd --pages 500; then
		same_counts
		same_locks
		check "$tag: every page retried ($(m fault_retry_other) retries of cause other, 500 pages)" \
			[ "$(m fault_retry_other)" -ge 500 ]
	fi

	# A first write to a private file mapping retries for its anon_vma
	# when mmap_lock is contended (before any ->fault), then finishes in
	# filemap_fault(): that fault is not timed; the ones that did not
	# retry are timed as "first".
	tag=$be.cowfirst
	if want cowfirst && run "$tag" cowfirst --loops 1000 --snap "$RS_DBG/latency=$out/$tag.latency"; then
		same_counts
		# before the interval the writer's read of a cold page retried and
		# finished in the fault-around (fault_around=0: not probed): its
		# start must not time the retried writes below.  no-drop never
		# retries for I/O: there is no such start to leave behind.
		if [ "$variant" = no-drop ]; then
			ok "$tag: a retried priming read # SKIP no-drop does not retry for I/O (vma_lock_retry over it: $(ru primed_retry))"
		else
			check "$tag: the writer's priming read retried (the kernel's vma_lock_retry over it: $(ru primed_retry))" [ "$(ru primed_retry)" = 1 ]
		fi
		r=$(m fault_retry_other)
		f=$(($(lsum first file_io "$out/$tag.latency.after") - $(lsum first file_io "$out/$tag.latency.before")))
		lr=$(($(lsum vma_lock file_io "$out/$tag.latency.after") + $(lsum mmap_lock file_io "$out/$tag.latency.after") -
			$(lsum vma_lock file_io "$out/$tag.latency.before") - $(lsum mmap_lock file_io "$out/$tag.latency.before")))
		check "$tag: mmap_lock was contended: some first writes retried ($r of 1000)" [ "$r" -gt 0 ]
		check "$tag: faults timed as first ($f) = writes that did not retry (1000 - $r)" [ "$f" = $((1000 - r)) ]
		check "$tag: no fault timed as a retry of file I/O ($lr)" [ "$lr" = 0 ]
	fi

	# Threads that all missed the same cold page with readahead off: one
	# reads it (sync_read), the others wait for its folio lock
	# (locked_folio) though their calls also return VM_FAULT_MAJOR.  Where
	# VM_FAULT_RETRY_VMA tells the two apart (rfc, v2), every sync_read
	# retry falls back and the locked_folio ones stay on the VMA lock.  A
	# thread that missed a page another read is a VM_FAULT_MAJOR call more
	# than the rounds: with none, the race was not provoked.
	tag=$be.samepage
	if want samepage && [ -d /mnt/scratch ] &&
		dd if=/dev/zero of=/mnt/scratch/sp.bin bs=4096 count=65 2>/dev/null &&
		run "$tag" samepage --file /mnt/scratch/sp.bin --threads 4 --loops 64; then
		same_counts
		maj=$(m filemap_fault_major) rounds=$(ru rounds)
		sites=$(($(m filemap_retry_readahead) + $(m filemap_retry_sync_read) +
			$(m filemap_retry_locked_folio) + $(m filemap_retry_uptodate) + $(m filemap_retry_other)))
		check "$tag: the filemap sites add up to its retries ($sites = $(m filemap_fault_retry))" \
			[ "$sites" = "$(m filemap_fault_retry)" ]
		seen="$maj major calls in $rounds rounds, $(ru punches) punches; sync_read $(m filemap_retry_sync_read) retries, $(m fallback_site_filemap_sync_read) fallbacks; locked_folio $(m filemap_retry_locked_folio), $(m fallback_site_filemap_locked_folio)"
		if [ "$maj" -le "$rounds" ]; then
			ok "$tag: two threads missing one page # SKIP no thread missed a page another created ($seen)"
		elif [ "$variant" = patched ] || [ "$variant" = v2 ]; then
			check "$tag: $variant: every sync_read retry fell back, every other stayed ($seen)" \
				[ "$(m fallback_site_filemap_sync_read)" = "$(m filemap_retry_sync_read)" -a \
				"$(m fallback_site_filemap_locked_folio)" = 0 ]
			check "$tag: $variant: the threads that waited for another's read are locked_folio ($seen)" \
				[ "$(m filemap_retry_locked_folio)" -ge 1 ]
		else
			ok "$tag: $((maj - rounds)) threads missed a page another created ($seen)"
		fi
	fi

	# Readers of 64 MiB of file in a 32 MiB memory cgroup (no swap), with
	# 1024 KB of readahead: at the disk's default 8192 KB the 8 readers'
	# folios locked under readahead I/O, which reclaim cannot take, filled
	# the cgroup, and its OOM killer ended 2 runs in 9 at 24 and 32 MiB.  A
	# page read by a fault's first attempt may be reclaimed before its
	# retry, which reads it again.  /proc/vmstat's pgmajfault counts each
	# ->fault call that found no page (VM_FAULT_MAJOR), so such a fault
	# twice; getrusage() and the module's major_faults count it once.
	# The module's per-call counts are the kernel's pgmajfault.
	tag=$be.thrash cgd=/sys/fs/cgroup/rs-thrash ra_vda=$(cat /sys/block/vda/queue/read_ahead_kb)
	if want thrash && thrash_run "$tag"; then
		same_counts
		# a call that counted PGMAJFAULT and then failed (VM_FAULT_OOM,
		# VM_FAULT_SIGBUS) returns no VM_FAULT_MAJOR: within the errors
		pm=$(k pgmajfault) calls=$(($(m filemap_fault_major) + $(m swap_fault_major)))
		err=$(($(m filemap_fault_error) + $(m swap_fault_error)))
		check "$tag: /proc/vmstat pgmajfault ($pm) = the module's VM_FAULT_MAJOR calls (filemap $(m filemap_fault_major) + swap $(m swap_fault_major)), up to $err failed calls" \
			[ "$pm" -ge "$calls" -a "$pm" -le $((calls + err)) ]
		# the double count itself happens when reclaim is fast enough
		# (at 8192 KB: 2 to 53 per run; at 1024 KB: none seen)
		ok "$tag: pgmajfault - major_faults = $((pm - $(m major_faults))): reads again and failed reads (+: $(m filemap_retry_miss) retries found their page reclaimed, filemap_fault_error $(m filemap_fault_error)) less retried faults that read nothing (-); $(ru rounds) rounds, $(cat $cgd/memory.events 2>/dev/null | tr '\n' ' ')"
	else
		echo "# $tag: $cgd/memory.events: $(tr '\n' ' ' <$cgd/memory.events 2>/dev/null)"
	fi
	rmdir $cgd 2>/dev/null
	echo "$ra_vda" >/sys/block/vda/queue/read_ahead_kb

	# Each place where filemap_fault() or do_swap_page() drops the lock,
	# reached on purpose (rs-edgecase dropsite): its counter, and the
	# sites add up to the retries.  no-drop never drops: the same rounds
	# wait under the VMA lock (io_wait_vma_lock_*).
	for site in readahead sync_read locked_folio uptodate swap_io swap_locked_folio; do
		tag=$be.dropsite-$site
		case $site in
		swap_*) fn=swap cnt=swap_retry_${site#swap_} wait=io_wait_vma_lock_swap
			fb=fallback_site_$site cause=swap_io ;;
		*) fn=filemap cnt=filemap_retry_$site wait=io_wait_vma_lock_file
			fb=fallback_site_filemap_$site cause=file_io ;;
		esac
		case $site in swap_*) [ -d /mnt/scratch ] || continue ;; esac
		if ! want dropsite || ! run "$tag" dropsite --site "$site" --loops 20; then
			continue
		fi
		same_counts
		# locked_folio needs POSIX_FADV_WILLNEED to have started reading
		# the touched page: 6.12 reads no more than its readahead window
		# (read_ahead_kb) and the fault then reads the page itself, which
		# the kernel's own VM_FAULT_MAJOR on every retry shows
		if [ "$site" = locked_folio ] && [ "$(m filemap_retry_locked_folio)" = 0 ] &&
			[ "$(m filemap_fault_major)" = "$(m filemap_fault_retry)" ] &&
			[ "$(m filemap_retry_readahead)" = "$(m filemap_fault_retry)" ]; then
			ok "$tag # SKIP WILLNEED did not reach the touched page: all $(m filemap_fault_retry) retries read it themselves (VM_FAULT_MAJOR), counted readahead"
			continue
		fi
		# the run's retries are all at its site (swap_locked_folio: some
		# swap-ins start only at the touch, and are swap_io)
		r=$(m "$cnt") all=$(m "${fn}_fault_retry")
		if [ "$site" = swap_locked_folio ]; then
			check "$tag: no retry of site other ($(m swap_retry_other))" [ "$(m swap_retry_other)" = 0 ]
		else
			check "$tag: every ${fn} retry of the run is at $site ($r of $all)" [ "$r" = "$all" ]
		fi
		# no file wait under the VMA lock where every wait drops it (a
		# locked folio may be unlocked by the time filemap_fault() takes
		# it, and a swap-in done before do_swap_page() tries the folio
		# lock: counted, not waits; docs/counters.md)
		if [ "$variant" != no-drop ] && [ "$fn" = filemap ] && [ "$site" != locked_folio ]; then
			check "$tag: $variant: no wait under the VMA lock ($wait $(m "$wait"))" [ "$(m "$wait")" = 0 ]
		fi
		if [ "$fn" = filemap ]; then
			fbs=$(($(m fallback_site_filemap_readahead) + $(m fallback_site_filemap_locked_folio) +
				$(m fallback_site_filemap_uptodate) + $(m fallback_site_filemap_sync_read) +
				$(m fallback_site_other)))
		else
			fbs=$(($(m fallback_site_swap_io) + $(m fallback_site_swap_locked_folio) +
				$(m fallback_site_other)))
		fi
		check "$tag: the ${fn} sites' fallbacks add up to fallback_after_$cause ($fbs = $(m fallback_after_$cause))" \
			[ "$fbs" = "$(m fallback_after_$cause)" ]
		# which sites each kernel keeps on the VMA lock: stock none;
		# the RFC every file site but the synchronous read, and swap;
		# retry-hard every site (only vmf_can_call_fault(), the
		# anon_vma trylock and device-private swap entries return
		# VM_FAULT_RETRY_HARD), the MADV_RANDOM read too; anon-only
		# the swap sites alone
		f=$(m "$fb")
		case $variant:$site in
		stock:*) want_fb=$r ;;
		patched:sync_read) want_fb=$r ;;
		patched:*) want_fb=0 ;;
		retry-hard:*) want_fb=0 ;;
		anon-only:swap_*) want_fb=0 ;;
		anon-only:*) want_fb=$r ;;
		*) want_fb='' ;;
		esac
		if [ -n "$want_fb" ]; then
			check "$tag: $variant: $fb ($f) = $want_fb of the site's $r retries" [ "$f" = "$want_fb" ]
		else
			check "$tag: $fb ($f) <= the site's retries ($r)" [ "$f" -le "$r" ]
		fi
		if [ "$variant" = no-drop ]; then
			# uptodate: the readahead it starts is not waited for;
			# swap_locked_folio: a wait for someone else's swap-in
			# is not told from no wait (docs/counters.md)
			r=$(m "${fn}_fault_retry") wv=$(m "$wait")
			case $site in
			uptodate) want_wait="= 0" wok=$([ "$wv" = 0 ] && echo 1) ;;
			swap_locked_folio) want_wait="not seen" wok=1 ;;
			*) want_wait=">= 1" wok=$([ "$wv" -ge 1 ] && echo 1) ;;
			esac
			nd=$([ "$r" = 0 ] && [ "${wok:-0}" = 1 ] && echo 1)
			check "$tag: no-drop: no ${fn} retry ($r); waits under the VMA lock $want_wait ($wv, $(m "${wait}_ns") ns)" \
				[ "${nd:-0}" = 1 ]
		elif [ "$site" = readahead ] || [ "$site" = sync_read ]; then
			check "$tag: $cnt ($(m "$cnt")) = rounds (20)" [ "$(m "$cnt")" = 20 ]
		elif [ "$site" = swap_io ] && [ "$(m "$cnt")" = 0 ] && [ "$(k vma_lock_retry)" = 0 ] &&
			[ "$(m major_faults)" -ge 20 ]; then
			# each round read its page from swap (VM_FAULT_MAJOR), and the
			# read ended before do_swap_page() tried the folio lock: no
			# retry, the kernel's own vma_lock_retry says so too
			ok "$tag # SKIP no swap-in of the 20 outlasted do_swap_page() (kernel vma_lock_retry 0, $(m major_faults) major faults)"
		else
			check "$tag: $cnt reached ($(m "$cnt") in 20 rounds)" [ "$(m "$cnt")" -ge 1 ]
		fi
	done

	# mprotect() or fork() write-locks a VMA while another thread's fault
	# on it sleeps in a cold read (rs-edgecase vmawrite: the reader in
	# state D).  No-drop's fault holds the VMA lock across the read: write
	# locks wait for it, each for long.  Every other kernel drops the lock
	# before sleeping, but holds it while it looks the page up and starts
	# the read: a write lock that comes then waits that long (1 of 703
	# calls, 348 us, in 22 rounds with the reader asleep, on stock x86
	# under a loaded host).  So: at most a quarter as many waits as rounds
	# with the reader asleep in its read, where no-drop waits in most.
	# Nothing else write-locks a VMA with readers (the rounds' munmap()
	# comes after the reader is done).
	tag=$be.vmawrite
	vmw_probe=$(awk '$1 == "__vma_start_write" { print $3 }' "$RS_DBG/probes")
	vmw_why=$(sed -n 's/^#   __vma_start_write: //p' "$RS_DBG/probes")
	if want vmawrite && [ "$vmw_probe" != on ]; then
		case $vmw_why in
		*"lacks the feature"*) ok "$tag # SKIP __vma_start_write not probed: $vmw_why" ;;
		*) not_ok "$tag: __vma_start_write not attached: $vmw_why" ;;
		esac
	elif want vmawrite && run "$tag" vmawrite --loops 40; then
		# not same_counts: /proc/vmstat also counts the fork children's
		# faults, which the filter (this tgid) leaves out, and getrusage
		# the parent's kernel-mode faults on the pages fork() made
		# copy-on-write, which are not FAULT_FLAG_USER faults
		check "$tag: module vma_lock_retry ($(m vma_lock_retry)) = /proc/vmstat's ($(k vma_lock_retry))" \
			[ "$(m vma_lock_retry)" = "$(k vma_lock_retry)" ]
		check "$tag: module major_faults ($(m major_faults)) = getrusage majflt ($(ru majflt))" \
			[ "$(m major_faults)" = "$(ru majflt)" ]
		w=$(m vma_write_lock_waited) mp=$(m vma_write_lock_waited_mprotect) fk=$(m vma_write_lock_waited_fork)
		io_mp=$(ru in_io_mprotect) io_fk=$(ru in_io_fork)
		seen="waits: mprotect $mp, fork $fk, all $w of $(m vma_write_lock_calls) calls, $(m vma_write_lock_wait_ns) ns; rounds with the reader in its read: mprotect $io_mp of $(ru rounds_mprotect), fork $io_fk of $(ru rounds_fork)"
		check "$tag: every wait was mprotect's or fork's (munmap $(m vma_write_lock_waited_munmap), other $(m vma_write_lock_waited_other))" \
			[ "$w" = $((mp + fk)) ]
		if [ $((${io_mp:-0} + ${io_fk:-0})) = 0 ]; then
			# the read ended before the poll of /proc saw it (1 of 21
			# backend runs here): the direction cannot be told
			ok "$tag # SKIP the reader was not seen asleep in its read in any of the 40 rounds ($seen)"
		elif [ "$variant" = no-drop ]; then
			# not one wait per round seen in D: the reader is seen in D
			# in other sleeps too (a full request queue, say)
			avg=$(($(m vma_write_lock_wait_ns) / (w > 0 ? w : 1)))
			check "$tag: no-drop: write locks waited for the fault's read ($seen; $avg ns each)" \
				[ "$w" -ge 1 -a "$avg" -ge 100000 ]
		else
			check "$tag: $variant: write locks waited in at most a quarter of the rounds with the reader in its read, the fault dropped the VMA lock for it ($seen)" \
				[ $((4 * w)) -le $((${io_mp:-0} + ${io_fk:-0})) ]
		fi
	fi

	# A fallback whose lock_mm_and_find_vma() finds no VMA ends there: the
	# mmap() and munmap() calls after it are not fault-path acquisitions.
	tag=$be.efault
	if want efault && run "$tag" efault --loops 1000; then
		same_locks
		fb=$(m mmap_lock_fallback) fa=$(m fault_mmap_lock_acquire)
		wa=$(m mmap_lock_write_acquire)
		check "$tag: the EFAULT read fell back to mmap_lock ($fb)" [ "$fb" -ge 1 ]
		check "$tag: fault-path mmap_lock acquisitions ($fa) <= 2 per fallback ($fb), not the loop's $wa write locks" \
			[ "$fa" -le $((2 * fb)) ]
	fi
}

# reset or widen the filter while 64 threads are in I/O: the module's
# counts since then, against /proc/vmstat read just before (.before) and
# just after (.mid) the write: faults that ended between the two reads
# may fall on either side.
# mid_counts reset|widen: after a reset the module counts from 0, after
# a filter change from its value before it (.before: nothing of this
# process was counted then).
# A widened filter takes in tasks between their retry's ->fault return,
# which it did not see, and their fallback, which it does: the entry model
# (no lock_vma_under_rcu() probe) reads that fallback as an abort, at most
# once per thread in a fault at the write (docs/counters.md).  Seen on the
# GKI-shaped kernel (PREEMPT, kprobes: 3 of 64 threads), never on the lab's.
# There the aborts and retries together are held to /proc/vmstat's.
mid_counts() {
	mab=0 fab=0 pab=0
	for c in vma_lock_success vma_lock_abort vma_lock_retry; do
		if [ "$1" = reset ]; then
			mm=$(cval "$c" "$out/$tag.stats.after")
		else
			mm=$(m "$c")
		fi
		full=$(delta "$c" "$out/$tag.vmstat.before" "$out/$tag.vmstat.after")
		post=$(delta "$c" "$out/$tag.vmstat.mid" "$out/$tag.vmstat.after")
		if [ "$1" = widen ] && [ "$c" != vma_lock_success ] && [ "$be" = auto ]; then
			mab=$((mab + mm)) fab=$((fab + full)) pab=$((pab + post))
			if [ "$c" = vma_lock_abort ]; then
				check "$tag: module $c since the write ($mm) within /proc/vmstat's ($post .. $full) + 64, the threads a widened filter can take in between a retry and its fallback" \
					[ "$post" -le "$mm" -a "$mm" -le $((full + 64)) ]
				continue
			fi
		fi
		# The module counts a fault by its start, /proc/vmstat by its
		# end.  Elsewhere the 64 faults in I/O at the write retry after
		# it; no-drop's do not retry: each may end after the write,
		# counted there, having started before it, counted here.
		lo=$post why=''
		if [ "$variant" = no-drop ]; then
			lo=$((post > 64 ? post - 64 : 0)) why=', less the 64 faults in I/O at the write'
		fi
		check "$tag: module $c since the write ($mm) within /proc/vmstat's ($lo .. $full$why)" \
			[ "$lo" -le "$mm" -a "$mm" -le "$full" ]
	done
	# no-drop's faults in I/O at the write end after it unretried (above)
	[ "$variant" != no-drop ] || pab=0
	if [ "$mab" != 0 ] || [ "$fab" != 0 ]; then
		check "$tag: module vma_lock_abort + vma_lock_retry since the write ($mab) within /proc/vmstat's ($pab .. $fab)" \
			[ "$pab" -le "$mab" -a "$mab" -le "$fab" ]
	fi
	check "$tag: state_table_full is 0 ($(cval state_table_full "$out/$tag.stats.after"))" \
		[ "$(cval state_table_full "$out/$tag.stats.after")" = 0 ]
}

mid_cases() {
	tag=$1.reset
	want reset && run "$tag" reset --threads 64 --at-ms 1500 --write "$RS_DBG/reset=1" && mid_counts reset
	tag=$1.widen
	want widen && FILTER0='tgid 1' run "$tag" reset --threads 64 --at-ms 1500 --write "$RS_DBG/filter=tgid %p" && mid_counts widen
}

# skip= leaves its own counters alone only: the uffd case on the default
# backend once per probe that can be left off.
skip_cases() {
	for sk in lock_vma_under_rcu filemap_fault do_swap_page shmem_fault lock_mm_and_find_vma mmap_lock; do
		insmod "$ko" maxactive=20000 skip=$sk 2>"$out/insmod.err" ||
			{ not_ok "insmod $ko skip=$sk: $(cat "$out/insmod.err")"; continue; }
		tag=skip-$sk.uffd
		if run "$tag" uffd --pages 500; then
			mn=$(ru minflt) mj=$(ru majflt) ab=$(m faults_abandoned)
			check "$tag: module user_faults - faults_abandoned ($(m user_faults) - $ab) = getrusage minflt + majflt ($mn + $mj)" \
				[ $(($(m user_faults) - ab)) = $((mn + mj)) ]
			check "$tag: module major_faults ($(m major_faults)) = getrusage majflt ($mj)" [ "$(m major_faults)" = "$mj" ]
			if [ "$sk" != lock_vma_under_rcu ]; then
				for c in vma_lock_success vma_lock_abort vma_lock_retry; do
					check "$tag: module $c ($(m $c)) = /proc/vmstat $c delta ($(k $c))" [ "$(m $c)" = "$(k $c)" ]
				done
			fi
		fi
		check "rmmod retryscope (skip=$sk)" rmmod retryscope
	done
}

for be in auto fprobe kprobe; do
	log_checkpoint "before backend=$be's count tests"
	# kretprobes (backend=kprobe, and auto's I/O return probes where the
	# kernel's fprobe has no ftrace_regs, as on 6.12): one instance per
	# thread sleeping in a probed function
	p=maxactive=20000
	if ! insmod "$ko" backend=$be $p 2>"$out/insmod.err"; then
		if dmesg | grep -q "retryscope: backend=$be: this kernel"; then
			backend_refused "$be" "$(dmesg | grep "retryscope: backend=$be" | tail -n 1 | sed 's/.*] //')"
		else
			not_ok "insmod $ko backend=$be: $(cat "$out/insmod.err")"
		fi
		continue
	fi
	cases "$be"
	mid_cases "$be"
	check "rmmod retryscope (backend=$be)" rmmod retryscope
	# before the next backend's dmesg -c wipes this one's log
	kernel_log_clean "backend=$be: after the count tests"
done
if want uffd; then
	log_checkpoint "before the skip= cases"
	skip_cases
	kernel_log_clean "after the skip= cases"
fi

# light=1 (issue 30): no probe on the common fault path.  What it cannot
# count is not shown at all; what it shows is held against /proc/vmstat.
# A user fallback follows a VMA-lock attempt that aborted or retried, or
# an attempt under mmap_lock that retried, which only a ->fault called
# under mmap_lock can do (a first attempt there: the VMA-lock one retried
# for another reason), once per call: so the fallbacks (after I/O plus
# not_io) are at most vma_lock_abort + vma_lock_retry + M, M the file and
# swap ->fault calls under mmap_lock, and on stock, where every abort and
# retry falls back, at least vma_lock_abort + vma_lock_retry (an option
# that keeps retries on the VMA lock falls back less).  Fallbacks after
# I/O are at most vma_lock_retry + M, whatever the kernel.
light_case() {
	fio=$(($(m fallback_after_file_io) + $(m fallback_after_swap_io)))
	fb=$((fio + $(m fallback_not_io)))
	vm=$(($(k vma_lock_abort) + $(k vma_lock_retry)))
	mc=$(($(m filemap_fault_calls) - $(m filemap_fault_vma_locked) + $(m swap_fault_calls) - $(m swap_fault_vma_locked)))
	if [ "$variant" = stock ]; then
		check "$tag: /proc/vmstat vma_lock_abort + vma_lock_retry ($(k vma_lock_abort) + $(k vma_lock_retry)) <= fallbacks after I/O + not_io ($fio + $(m fallback_not_io)) <= that + ->fault calls under mmap_lock ($mc)" \
			[ "$vm" -le "$fb" -a "$fb" -le $((vm + mc)) ]
	else
		check "$tag: fallbacks after I/O + not_io ($fb) <= /proc/vmstat vma_lock_abort + vma_lock_retry ($vm) + ->fault calls under mmap_lock ($mc)" \
			[ "$fb" -le $((vm + mc)) ]
	fi
	check "$tag: fallbacks after I/O ($fio) <= /proc/vmstat vma_lock_retry ($(k vma_lock_retry)) + ->fault calls under mmap_lock ($mc)" \
		[ "$fio" -le $(($(k vma_lock_retry) + mc)) ]
	# the I/O return probes saw the faults' I/O: retries (which fall back
	# on stock and stay on the VMA lock with the series) or, on no-drop,
	# waits under the VMA lock
	io=$(($(m fault_retry_file_io) + $(m fault_retry_swap_io) + $(m io_wait_vma_lock_file) + $(m io_wait_vma_lock_swap)))
	check "$tag: the I/O return probes saw the I/O: retries after file and swap I/O plus waits under the VMA lock ($io) > 0" [ "$io" -gt 0 ]
	pm=$(k pgmajfault) calls=$(($(m filemap_fault_major) + $(m swap_fault_major)))
	err=$(($(m filemap_fault_error) + $(m swap_fault_error)))
	check "$tag: /proc/vmstat pgmajfault ($pm) = the module's VM_FAULT_MAJOR calls ($calls), up to $err failed calls" \
		[ "$pm" -ge "$calls" -a "$pm" -le $((calls + err)) ]
	check "$tag: probe_nmissed is 0 ($(m probe_nmissed))" [ "$(m probe_nmissed)" = 0 ]
	same_locks
}

if want light; then
	log_checkpoint "before the light=1 cases"
	if insmod "$ko" light=1 maxactive=20000 2>"$out/insmod.err"; then
		for c in handle_mm_fault __vma_start_write; do
			check "light=1: $c is left off" grep -q "^#   $c: left off (light=1" "$RS_DBG/probes"
		done
		for c in filemap_fault do_swap_page lock_mm_and_find_vma; do
			check "light=1: $c is probed" grep -Eq "^$c [a-z]+ on " "$RS_DBG/probes"
		done
		# not shown: a 0 would read as "none happened"
		for c in user_faults vma_lock_success vma_lock_abort attempts_1 attempts_max fallback_vma_abort vma_write_lock_calls; do
			check "light=1: $c is not shown (debugfs stats, sysfs counters/)" \
				sh -c "! grep -q '^$c ' $RS_DBG/stats && [ ! -e /sys/kernel/retryscope/counters/$c ]"
		done
		for c in fallback_after_file_io fallback_not_io filemap_fault_retry; do
			check "light=1: $c is shown (debugfs stats, sysfs counters/)" \
				sh -c "grep -q '^$c ' $RS_DBG/stats && [ -e /sys/kernel/retryscope/counters/$c ]"
		done
		tag=light.threads
		if run "$tag" threads --threads 10000; then
			light_case
		fi
		tag=light.thrash cgd=/sys/fs/cgroup/rs-thrash ra_vda=$(cat /sys/block/vda/queue/read_ahead_kb)
		if thrash_run "$tag"; then
			light_case
		fi
		rmdir $cgd 2>/dev/null
		echo "$ra_vda" >/sys/block/vda/queue/read_ahead_kb
		check "rmmod retryscope (light=1)" rmmod retryscope
	else
		not_ok "insmod $ko light=1: $(cat "$out/insmod.err")"
	fi
	for p in "backend=kprobe" "backend=fprobe" "fault_around=1"; do
		if insmod "$ko" light=1 $p 2>/dev/null; then
			rmmod retryscope
			not_ok "insmod light=1 $p is refused"
		else
			check "insmod light=1 $p is refused, with the reason in dmesg" \
				sh -c "dmesg | grep -q 'retryscope: light=1'"
		fi
	done
	kernel_log_clean "after the light=1 cases"
fi
