#!/usr/bin/env bash
# retryscope.ko on a stock distribution kernel it was not built with: Debian's
# prebuilt trixie-backports 7.3.4 kernel, headers and kbuild (scripts/distro-kernel,
# end to end).  The module loads, names its features, its core probes attach,
# counters move under a workload, and it unloads.  RS_DISTRO_ABI picks another
# Debian kernel (e.g. 6.1.0-37 from bookworm).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
mkdir -p "$RS_BUILD/check"
out=$(mktemp -d "$RS_BUILD/check/distro.XXXXXX")
trap 'rm -rf "$out"' EXIT
g=$out/guest
abi=(); [ -z "${RS_DISTRO_ABI:-}" ] || abi=(--abi "$RS_DISTRO_ABI")

t0=$(date +%s)
"$top/scripts/distro-kernel" "${abi[@]}" --out "$g" >"$out/log" 2>&1
rc=$?
dt=$(($(date +%s) - t0))
if [ "$rc" = 0 ]; then
	ok "scripts/distro-kernel: $(sed -n 1p "$g/uname" 2>/dev/null) ($(cat "$g/version" 2>/dev/null)), ${dt} s end to end"
else
	tail -n 25 "$out/log" | sed 's/^/#   /'
	not_ok "scripts/distro-kernel exited $rc after ${dt} s"
fi
grep -E '^warning: |toolchain symbols set' "$out/log" | sed 's/^/#   /'

# cval NAME FILE: a counter's value in a stats snapshot (0 if absent)
cval() { awk -v n="$1" '$1 == n { v = $2 } END { print v + 0 }' "$2" 2>/dev/null || echo 0; }

feat=$(grep -o 'retryscope: per-VMA lock [a-z]*, VM_FAULT_RETRY_VMA [a-z]*, PER_VMA_LOCK_STATS [a-z]*; [0-9]/[0-9] probes, [0-9]/2 mmap_lock tracepoints' "$g/dmesg" 2>/dev/null)
if [ -n "$feat" ]; then
	ok "module loads; dmesg: ${feat#retryscope: }"
else
	sed 's/^/#   /' "$g/dmesg" 2>/dev/null
	not_ok "module loads and dmesg names the features"
fi
vma=no
grep -q 'per-VMA lock yes' "$g/dmesg" 2>/dev/null && vma=yes
if [ "$vma" = no ]; then
	check "no per-VMA lock: dmesg says the mmap_lock path is counted alone" \
		grep -q 'no per-VMA lock in this kernel' "$g/dmesg"
fi

# The default entry model does not hook lock_vma_under_rcu (docs/counters.md);
# the return model does, where the kernel has per-VMA locks.
core=(handle_mm_fault lock_mm_and_find_vma filemap_fault do_swap_page)
if grep -q '^# model entry' "$g/probes" 2>/dev/null; then
	core+=(shmem_fault)
elif [ "$vma" = yes ]; then
	core+=(lock_vma_under_rcu)
fi
off=()
for s in "${core[@]}"; do
	grep -qE "^$s (kretprobe|kprobe|fprobe|ftrace) on " "$g/probes" 2>/dev/null || off+=("$s")
done
if [ "${#off[@]}" = 0 ]; then
	ok "probes on: ${core[*]} ($(grep -c ' on ' "$g/probes") of $(grep -vc '^#' "$g/probes") entries)"
else
	sed 's/^/#   /' "$g/probes" 2>/dev/null
	not_ok "probes on: ${off[*]} missing"
fi

want=(user_faults attempts_1 mmap_lock_fallback)
[ "$vma" = no ] || want+=(vma_lock_success)
zero=() shown=()
for c in "${want[@]}"; do
	d=$(($(cval "$c" "$g/stats.after") - $(cval "$c" "$g/stats.before")))
	shown+=("$c +$d")
	[ "$d" -gt 0 ] || zero+=("$c")
done
if [ -s "$g/stats.after" ] && [ "${#zero[@]}" = 0 ]; then
	ok "counters move under faultload minor --kind anon: $(IFS=,; echo "${shown[*]}")"
else
	not_ok "counters after the workload: ${zero[*]:-no stats} not above their value before"
fi

if [ -s "$g/vmstat.after" ]; then
	m=$(($(cval vma_lock_success "$g/stats.after") - $(cval vma_lock_success "$g/stats.before")))
	k=$(($(cval vma_lock_success "$g/vmstat.after") - $(cval vma_lock_success "$g/vmstat.before")))
	# The module's delta also covers the snapshot reads; a few faults of slack.
	if [ $((m - k)) -le 64 ] && [ $((k - m)) -le 64 ]; then
		ok "vma_lock_success matches /proc/vmstat (module +$m, kernel +$k)"
	else
		not_ok "vma_lock_success: module +$m, /proc/vmstat +$k"
	fi
else
	ok "/proc/vmstat cross-check # SKIP CONFIG_PER_VMA_LOCK_STATS is off in the distribution config"
fi

check "rmmod retryscope" grep -qx ok "$g/rmmod"
# The guest's own log (every level, from insmod to after rmmod) and taint
# flags: the console shows only what the guest's loglevel lets through.
# Bad taints: M (4), B (5), D (7), W (9), L (14); O and E are the module's.
if [ "$rc" != 0 ]; then
	: # the guest stopped early: reported above
elif [ -f "$g/oops" ] && [ -f "$g/tainted.end" ] && [ -f "$g/tainted.start" ]; then
	# only what came after insmod: taint from the boot is not the module's
	bad=$(($(cat "$g/tainted.end") & ~$(cat "$g/tainted.start") & ((1 << 4) | (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14))))
	if [ ! -s "$g/oops" ] && [ "$bad" = 0 ]; then
		ok "guest kernel log clean from insmod to after rmmod ($(wc -l <"$g/kernel.log") lines), taint $(cat "$g/tainted.start") at insmod, $(cat "$g/tainted.end") after (no new M, B, D, W, L)"
	else
		head -n 20 "$g/oops" | sed 's/^/#   /'
		not_ok "guest kernel log: $(grep -cE 'BUG:|WARNING:|Oops|KASAN|circular locking|inconsistent lock state' "$g/oops") reports, bad taint flags $bad (tainted $(cat "$g/tainted.end"))"
	fi
else
	not_ok "the guest wrote no kernel log report or taint flags ($g/oops, $g/tainted.start, $g/tainted.end)"
fi
if [ -f "$g/console.log" ] && ! grep -qE 'BUG:|WARNING:|Oops|Call Trace' "$g/console.log"; then
	ok "kernel console clean (no oops, WARN)"
else
	grep -E -A5 'BUG:|WARNING:|Oops|Call Trace' "$g/console.log" 2>/dev/null | head -n 20 | sed 's/^/#   /' || true
	not_ok "kernel console clean"
fi
