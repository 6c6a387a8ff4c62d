# shellcheck shell=bash
# Helpers for tests/host/*.sh: TAP-style result lines that tests/run counts,
# and scripts/lib.sh's (the kernel layout: tree_dir, obj_dir ...).
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export RS_TOP=$top RS_BUILD=${RS_BUILD:-$top/build}
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh
. "$top/scripts/lib.sh"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# check DESC CMD...: ok if CMD succeeds, else not ok with its output.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
		not_ok "$desc"
	fi
}

# kernel_image VARIANT: the lab kernel image path, built if needed.
kernel_image() {
	"$top/scripts/build-kernel" --base 7.3 --variant "$1" ${RS_DEBUG:+--debug}
}

# ----------------------------------------------- the module's tests (40, 60)
# sparse_false_positive FILE: drop "bad constant expression" reported on a
# module_param()/MODULE_*() line; keep everything else.  Debian 12's sparse
# 0.6.4 reports it on every such line of 7.3 (samples/kprobes too).
sparse_false_positive() {
	local f=$1 line file ln keep=()
	while IFS= read -r line; do
		if [[ $line =~ ^([^:]+):([0-9]+):[0-9]+:\ error:\ bad\ constant\ expression$ ]]; then
			file=${BASH_REMATCH[1]} ln=${BASH_REMATCH[2]}
			if sed -n "${ln}p" "$top/$file" 2>/dev/null | grep -qE '^(module_param|MODULE_)'; then
				continue
			fi
		fi
		keep+=("$line")
	done <"$f"
	printf '%s\n' "${keep[@]}" >"$f"
}

# module_build_test LABEL KDIR: build retryscope.ko for the lab kernel
# built in KDIR with W=1 and sparse (C=1; build-module maps
# __typeof_unqual__, which 0.6.4 cannot parse, else 7.3 turns C=1 off),
# print an ok/not ok line prefixed LABEL, and print the .ko's path on
# stdout last.  Returns 1 when there is no module.
module_build_test() {
	local label=$1 kdir=$2 ko warn=$RS_BUILD/check/module-$1.warn nsrc nchk
	# C=2: sparse checks every source file, rebuilt or not, so its CHECK
	# lines show that it ran on each (a kernel that switches C= off, or a
	# sparse that is missing, prints no warning: its silence is no pass)
	if ko=$("$top/scripts/build-module" --kdir "$kdir" --extra "W=1 C=2" 2>"$warn"); then
		sparse_false_positive "$warn"
		nsrc=$(grep -oE 'module/[a-z_]+\.o' "$top/Kbuild" | sort -u | wc -l)
		nchk=$(grep -cE '^ +CHECK +(.*/)?module/[a-z_]+\.c$' "$(dirname "$ko")/build.log")
		if grep -qE 'warning|error' "$warn"; then
			sed 's/^/#   /' "$warn" | head -n 20 >&2 || true
			not_ok "$label: module builds W=1 C=2 without warnings" >&2
		elif [ "$nchk" != "$nsrc" ]; then
			grep -iE 'sparse|check' "$(dirname "$ko")/build.log" | head -n 5 | sed 's/^/#   /' >&2
			not_ok "$label: sparse ran on $nchk of the module's $nsrc source files" >&2
		else
			ok "$label: module builds with W=1 and sparse (C=2, $nchk files checked), no warnings" >&2
		fi
		printf '%s\n' "$ko"
		return 0
	fi
	sed 's/^/#   /' "$warn" | tail -n 20 >&2
	not_ok "$label: module build" >&2
	return 1
}

# module_vm_tests LABEL IMG KO VARIANT DISK: the module's VM tests on the
# kernel IMG (its arch's guest programs, scripts/build-tools):
# tests/vm/module.sh, tests/vm/counts.sh, tests/vm/module-stress.sh, then
# the kernel console check; their TAP lines prefixed with LABEL.
module_vm_tests() {
	[ "$#" = 5 ] || { not_ok "module_vm_tests takes 5 arguments, got $#: $*"; return 1; }
	local v=$1 img=$2 ko=$3 variant=$4 disk=$5 arch out rc
	arch=$(image_arch "$img")
	out=$(mktemp -d "$RS_BUILD/check/module-$v.XXXXXX")
	# module.sh loads and unloads the module about ten times: single-
	# threaded TCG too (7.3 stock: 112 ok in 122 s).
	RS_TCG_THREAD=single "$top/scripts/vm" --kernel "$img" --disk "$disk" --swap-disk 256M --out "$out" \
		--add "$(guest_tool "$arch" faultload)" --add "$(guest_tool "$arch" rs-snap)" \
		--timeout 900 -- sh "$top/tests/vm/module.sh" "$ko" "$variant" >"$out/console.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || not_ok "$v: the VM running tests/vm/module.sh exited $rc"
	# The counts where the lab's scenarios never go (tests/vm/counts.sh).
	# It loads and unloads the module once per backend: single-threaded
	# TCG, where that never crashed a guest (docs/crash-rate.md: 0 in 300;
	# 2 crashes per 100 loads under MTTCG).  7.3 stock: 174 s (MTTCG 230 s).
	RS_TCG_THREAD=single "$top/scripts/vm" --kernel "$img" --disk "$disk" --out "$out" \
		--iops 1000 --swap-disk 64M --add "$(guest_tool "$arch" rs-edgecase)" --timeout 1200 -- \
		sh "$top/tests/vm/counts.sh" "$ko" "$variant" >"$out/console-counts.log" 2>&1 ||
		not_ok "$v: the VM running tests/vm/counts.sh exited $?"
	# The stress runs on 2 vCPUs with single-threaded TCG.  Under MTTCG
	# (thread=multi) removing any ftrace-based kprobe while threads fault
	# oopses at the patched site ("Oops: int3" at handle_mm_fault+0x1, or
	# RIP 0) even without this module: tests/vm/kprobe-events-stress.sh does
	# it with tracefs kprobe_events alone.  A vCPU runs a stale translation
	# of text_poke_bp()'s int3; docs/known-problems.md.
	RS_TCG_THREAD=single "$top/scripts/vm" --kernel "$img" --disk "$disk" --smp 2 --out "$out" \
		--add "$(guest_tool "$arch" faultload)" --timeout 600 -- \
		sh "$top/tests/vm/module-stress.sh" "$ko" >>"$out/console.log" 2>&1 ||
		not_ok "$v: the VM running tests/vm/module-stress.sh (2 vCPUs, TCG thread=single) failed"
	sed "s/^\(not \)\{0,1\}ok - /&$v: /" "$out/tap" 2>/dev/null || true
	if [ ! -s "$out/tap" ]; then
		tail -n 20 "$out/console.log" | sed 's/^/#   /'
		not_ok "$v: module tests in the VM did not run (scripts/vm exit $rc)"
	fi
	if grep -qE 'BUG:|WARNING:|Oops|KASAN|possible recursive locking|circular locking|kmemleak:' "$out"/console*.log; then
		grep -h -E -A5 'BUG:|WARNING:|Oops|KASAN|locking|kmemleak:' "$out"/console*.log | head -n 30 | sed 's/^/#   /' || true
		not_ok "$v: kernel console clean (no oops, WARN, KASAN, lockdep)"
	else
		ok "$v: kernel console clean (no oops, WARN, KASAN, lockdep)"
	fi
}

# ------------------------------------------------ scripts/vm's contract (30, 60)
# vm_command_test LABEL IMG OUT: the guest of IMG runs a command and
# scripts/vm returns its exit status (7) and what it wrote to /out.
vm_command_test() {
	local v=$1 img=$2 out=$3 t0 rc dt
	t0=$(date +%s)
	"$top/scripts/vm" --kernel "$img" --out "$out/$v" --timeout 300 -- \
		sh -c 'uname -r >/out/uname; uname -m >/out/machine; grep -c . /proc/vmstat >/out/vmstat-lines; exit 7' >"$out/$v.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	if [ "$rc" = 7 ] && grep -q '^7\.3' "$out/$v/uname" 2>/dev/null; then
		ok "$v: guest ($(cat "$out/$v/machine")) ran a command, returned exit status 7 and output '$(cat "$out/$v/uname")' (${dt} s, $(sed -n 1p "$out/$v/vm-accel"))"
	else
		tail -n 15 "$out/$v.log" | sed 's/^/#   /'
		not_ok "$v: command in the guest (exit $rc, want 7)"
	fi
}

# vm_crash_tests LABEL IMG OUT: scripts/vm ends a panicking guest (sysrq c)
# and a hanging one (past --timeout) with a non-zero exit in time.
vm_crash_tests() {
	local v=$1 img=$2 out=$3 t0 rc dt
	t0=$(date +%s)
	"$top/scripts/vm" --kernel "$img" --timeout 180 -- sh -c 'echo c >/proc/sysrq-trigger; sleep 1000' >"$out/panic.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	if [ "$rc" != 0 ] && [ "$dt" -lt 180 ] && grep -q 'panicked' "$out/panic.log" && grep -q -- '---- last console lines' "$out/panic.log"; then
		ok "$v: deliberate panic (sysrq c): scripts/vm exits $rc after ${dt} s with the console tail"
	else
		tail -n 15 "$out/panic.log" | sed 's/^/#   /'
		not_ok "$v: deliberate panic: scripts/vm exit $rc after ${dt} s"
	fi
	t0=$(date +%s)
	"$top/scripts/vm" --kernel "$img" --timeout 40 -- sleep 1000 >"$out/hang.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	if [ "$rc" != 0 ] && [ "$dt" -lt 60 ] && grep -q 'did not finish' "$out/hang.log"; then
		ok "$v: hanging guest: scripts/vm exits $rc after ${dt} s (timeout 40 s)"
	else
		tail -n 5 "$out/hang.log" | sed 's/^/#   /'
		not_ok "$v: hanging guest: scripts/vm exit $rc after ${dt} s"
	fi
}

# make_module_test LABEL KDIR [MAKE_VAR=VALUE...]: docs/module.md's way, `make
# module KDIR=... [ARCH=... CROSS_COMPILE=... | LLVM=1]` in the checkout,
# gives a retryscope.ko of the tree's arch, and `make clean-module` removes
# it and its objects again (the kernel's M= clean is refused: Kbuild).
make_module_test() {
	local v=$1 kdir=$2 log=$RS_BUILD/check/make-module-$1.log want desc
	shift 2
	want=x86-64
	! grep -q '^CONFIG_ARM64=y' "$kdir/.config" || want=aarch64
	if ! make -C "$top" module KDIR="$kdir" "$@" >"$log" 2>&1; then
		tail -n 15 "$log" | sed 's/^/#   /'
		not_ok "$v: make module KDIR=${kdir#"$top"/}${*:+ $*}"
		return
	fi
	desc=$(file "$top/retryscope.ko")
	if grep -q "$want" <<<"$desc"; then
		ok "$v: make module KDIR=${kdir#"$top"/}${*:+ $*} gives a $want retryscope.ko"
	else
		not_ok "$v: make module KDIR=${kdir#"$top"/}${*:+ $*}: $desc"
	fi
	if make -C "$kdir" M="$top" "$@" clean >>"$log" 2>&1 || ! grep -q 'retryscope: not the kernel' "$log"; then
		not_ok "$v: the kernel's M= clean is not refused (it deletes every object under build/)"
	elif [ ! -e "$top/retryscope.ko" ]; then
		not_ok "$v: the refused M= clean removed retryscope.ko all the same"
	else
		ok "$v: the kernel's M= clean is refused before it deletes anything"
	fi
	make -C "$top" clean-module >>"$log" 2>&1
	if [ ! -e "$top/retryscope.ko" ] && [ -z "$(find "$top/module" -name '*.o' -print -quit)" ]; then
		ok "$v: make clean-module removes the module and its objects"
	else
		not_ok "$v: make clean-module left $(find "$top/retryscope.ko" "$top/module" -name '*.o' -o -name '*.ko' 2>/dev/null | head -n 3 | tr '\n' ' ')"
	fi
}
