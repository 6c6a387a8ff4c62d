# tests/vm/lib.sh: helpers for tests that run inside the guest (busybox sh).
# TAP lines go to stdout and to $RS_TAP (default /out/tap) for the host side.
RS_TAP=${RS_TAP:-/out/tap}
export RS_DBG=/sys/kernel/debug/retryscope

ok() { echo "ok - $*" | tee -a "$RS_TAP"; }
not_ok() { echo "not ok - $*" | tee -a "$RS_TAP"; }
check() { # check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

# cval NAME FILE: the value of counter NAME in a stats snapshot (empty if absent)
cval() { awk -v n="$1" '$1 == n { print $2 }' "$2"; }
# delta NAME BEFORE AFTER
delta() {
	b=$(cval "$1" "$2")
	a=$(cval "$1" "$3")
	echo $((${a:-0} - ${b:-0}))
}

# start_faulting / stop_faulting: the stress tests' background load, 8
# threads faulting continuously (4 anonymous, 4 on the page-cache file).
start_faulting() {
	faultload minor --kind anon --threads 4 --duration 600 --json /dev/null &
	RS_FAULT_PIDS=$!
	faultload minor --kind file --file /mnt/disk/data.bin --threads 4 --duration 600 --json /dev/null &
	RS_FAULT_PIDS="$RS_FAULT_PIDS $!"
	sleep 1
}
stop_faulting() {
	# shellcheck disable=SC2086 # a list of pids
	kill $RS_FAULT_PIDS 2>/dev/null
	wait
}

# kernel_log_clean WHAT: the kernel log has no oops, BUG, WARNING, KASAN,
# lockdep or kmemleak report.  Read in the guest: the console shows only
# levels below 4 (dmesg -n 4 in init), and WARN splats, lockdep and kmemleak
# print at warning or info level.  On a kernel with kmemleak, a scan runs
# first (twice: kmemleak reports an object only once it survived a scan) and
# its report must be empty too.  The findings go to /out/kernel-log-*.txt.
kernel_log_clean() {
	what=$1 km=/sys/kernel/debug/kmemleak f=/out/kernel-log-$(echo "$1" | tr -c 'a-z0-9\n' -).txt
	leaks=0
	if [ -w "$km" ]; then
		echo scan >"$km" && sleep 6 && echo scan >"$km"
		cat "$km" >"$f.kmemleak" 2>/dev/null
		leaks=$(grep -c '^unreferenced object' "$f.kmemleak")
	fi
	# One line is not a report: the x86 ORC unwinder's once-per-boot
	# diagnostic when a stack trace (KASAN, lockdep, kmemleak record one on
	# allocation) starts in an interrupt that landed on the tail of
	# return_to_handler, the function-graph return trampoline that fprobe
	# exits return through.  The trace is cut short; nothing else happens
	# (no WARN(), no taint).  It is shown, and README "Known problems" has it.
	orc='^(\[[ 0-9.]*\] )?WARNING: stack going in the wrong direction\? at return_to_handler\+'
	report='BUG:|WARNING:|Oops|KASAN|possible recursive locking|circular locking|inconsistent lock state|kmemleak: [0-9]+ new suspected'
	dmesg | grep -v -E "$orc" | grep -E -A12 "$report" >"$f"
	n=$(grep -cE "$report" "$f")
	if dmesg | grep -q -E "$orc"; then
		echo "# $what: the ORC unwinder's diagnostic 'stack going in the wrong direction? at return_to_handler' is in the log: an interrupt's stack trace met the fprobe return trampoline (not counted as a report; README Known problems)"
	fi
	# lower case: the host greps the console for the kernel's own markers
	kl="no kmemleak"
	[ -w "$km" ] && kl="kmemleak found $leaks leaks"
	check "$what: kernel log clean, $n reports of oops, bug, warning, kasan or lockdep; $kl" [ "$n" = 0 -a "$leaks" = 0 ]
	# what they were, where the host shows it (the TAP file)
	if [ "$n" != 0 ] || [ "$leaks" != 0 ]; then
		cat "$f" "$f.kmemleak" 2>/dev/null | head -n 40 | sed 's/^/#   /' | tee -a "$RS_TAP"
	fi
}

# lsum OUTCOME CAUSE FILE: the faults debugfs "latency" FILE has in that row.
lsum() { awk -v o="$1" -v c="$2" '$1 == o && $2 == c { n += $5 } END { print n + 0 }' "$3"; }
