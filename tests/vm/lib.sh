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
# delta NAME BEFORE AFTER: a counter's change between two snapshots.  A
# counter absent from either is a failure of its own (a renamed counter
# must not read as 0 and pass every "is 0" check): a "not ok" line goes to
# the TAP file, and the value printed is 0 so that the caller's arithmetic
# still runs.
delta() {
	b=$(cval "$1" "$2")
	a=$(cval "$1" "$3")
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "not ok - counter $1 is missing from ${2##*/} or ${3##*/}" >>"$RS_TAP"
		echo "# counter $1 is missing from $2 or $3" >&2
		echo 0
		return
	fi
	echo $((a - b))
}

# The taint flags that mean the kernel met a problem: M (4, machine check),
# B (5, bad page), D (7, oops), W (9, WARN), L (14, soft lockup).  Loading
# an out-of-tree, unsigned module (O, E) is expected.
RS_BAD_TAINT=$(((1 << 4) | (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14)))
# What a report in the kernel log looks like: the kernel's markers, and the
# workqueue's once-per-boot warning that a work item of the module's went
# to a queue the kernel deprecates (7.3's system_unbound_wq; another code's
# is not the module's to answer for).
RS_REPORT='BUG:|WARNING:|Oops|KASAN|possible recursive locking|circular locking|inconsistent lock state|kmemleak: [0-9]+ new suspected|work func [^ ]+ \[retryscope\] enqueued on deprecated workqueue'
# One line is not a report: the x86 ORC unwinder's once-per-boot
# diagnostic when a stack trace (KASAN, lockdep, kmemleak record one on
# allocation) starts in an interrupt that landed on the tail of
# return_to_handler, the function-graph return trampoline that fprobe
# exits return through.  The trace is cut short; nothing else happens
# (no WARN(), no taint).  It is shown, and docs/known-problems.md has it.
RS_ORC='^(\[[ 0-9.]*\] )?WARNING: stack going in the wrong direction\? at return_to_handler\+'

# taint_new: the bad taint flags set since the last check (0: none).  Taint
# never clears: each flag fails the check that first sees it, and only that
# one (RS_TAINT_SEEN, updated by the caller in the test's own shell).
RS_TAINT_SEEN=0
taint_new() { echo $(($(cat /proc/sys/kernel/tainted) & RS_BAD_TAINT & ~RS_TAINT_SEEN)); }

# log_checkpoint WHAT: before the kernel log is cleared (dmesg -c), what it
# holds since the last clear has no report and the kernel is not tainted
# by one; then clear it.  Without this, a WARN or lockdep splat between two
# clears is never read.
log_checkpoint() {
	f=/out/kernel-log-$(echo "$1" | tr -c 'a-z0-9\n' -).txt
	dmesg | grep -v -E "$RS_ORC" | grep -E -A12 "$RS_REPORT" >"$f"
	n=$(grep -cE "$RS_REPORT" "$f")
	t=$(taint_new)
	RS_TAINT_SEEN=$((RS_TAINT_SEEN | t))
	if [ "$n" != 0 ] || [ "$t" != 0 ]; then
		not_ok "$1: kernel log has $n reports of oops, bug, warning, kasan or lockdep; new bad taint flags $t (/proc/sys/kernel/tainted $(cat /proc/sys/kernel/tainted))"
		head -n 40 "$f" | sed 's/^/#   /' | tee -a "$RS_TAP"
	fi
	dmesg -c >/dev/null
}

# backend_must_load BE: does this kernel have what backend BE needs, so
# that a refusal is a failure?  Every lab kernel has kprobes and ftrace
# with arguments (the GKI-shaped one has no function tracer: neither
# ftrace nor fprobe); ftrace_regs fprobes on the function-graph tracer came
# in 6.14 (6.12's fprobe cannot read the arguments: refused, a SKIP).
backend_must_load() {
	case $1 in
	fprobe)
		# 6.14 and later, with a function tracer (GKI has none: no
		# available_filter_functions without DYNAMIC_FTRACE)
		maj=$(uname -r | cut -d. -f1) min=$(uname -r | cut -d. -f2 | sed 's/[^0-9].*//')
		{ [ "$maj" -gt 6 ] || { [ "$maj" = 6 ] && [ "${min:-0}" -ge 14 ]; }; } &&
			[ -e "${RS_TRACEFS:-/sys/kernel/tracing}/available_filter_functions" ]
		;;
	ftrace) [ -e "${RS_TRACEFS:-/sys/kernel/tracing}/available_filter_functions" ] ;;
	*) true ;;
	esac
}

# backend_refused BE WHY: insmod backend=BE failed with WHY (its dmesg
# line): a SKIP where the kernel lacks the feature, a failure elsewhere
# (a broken compile test would otherwise hide every check of BE).
backend_refused() {
	if backend_must_load "$1"; then
		not_ok "backend=$1 refused on $(uname -r), which has what it needs: $2"
	else
		ok "backend=$1: its checks # SKIP not on this kernel ($(uname -r)): $2"
	fi
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
	dmesg | grep -v -E "$RS_ORC" | grep -E -A12 "$RS_REPORT" >"$f"
	n=$(grep -cE "$RS_REPORT" "$f")
	t=$(taint_new)
	RS_TAINT_SEEN=$((RS_TAINT_SEEN | t))
	if dmesg | grep -q -E "$RS_ORC"; then
		echo "# $what: the ORC unwinder's diagnostic 'stack going in the wrong direction? at return_to_handler' is in the log: an interrupt's stack trace met the fprobe return trampoline (not counted as a report; docs/known-problems.md)"
	fi
	# lower case: the host greps the console for the kernel's own markers
	kl="no kmemleak"
	[ -w "$km" ] && kl="kmemleak found $leaks leaks"
	check "$what: kernel log clean, $n reports of oops, bug, warning, kasan or lockdep; $kl; new bad taint flags $t" [ "$n" = 0 -a "$leaks" = 0 -a "$t" = 0 ]
	# what they were, where the host shows it (the TAP file)
	if [ "$n" != 0 ] || [ "$leaks" != 0 ]; then
		cat "$f" "$f.kmemleak" 2>/dev/null | head -n 40 | sed 's/^/#   /' | tee -a "$RS_TAP"
	fi
	# read: the next check sees only what comes after
	dmesg -c >/dev/null
}

# lsum OUTCOME CAUSE FILE: the faults debugfs "latency" FILE has in that row.
lsum() { awk -v o="$1" -v c="$2" '$1 == o && $2 == c { n += $5 } END { print n + 0 }' "$3"; }
