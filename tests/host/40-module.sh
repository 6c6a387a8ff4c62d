#!/usr/bin/env bash
# retryscope.ko: builds W=1 and sparse clean and checkpatch --strict clean;
# in the VM on the stock and the patched kernel it refuses bad parameters
# and debugfs garbage, matches /proc/vmstat and getrusage, and shows the
# direction the series must produce (tests/vm/module.sh); its counts hold
# where the scenarios never go: 10,000 threads, signals, EFAULT
# (tests/vm/counts.sh).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$(tree_dir 7.3 stock)
# clean only if checkpatch ran (exit 0) and printed nothing: a missing
# checkpatch.pl prints no ERROR either
cp_rc=0
cp_out=$("$src/scripts/checkpatch.pl" --strict --no-tree --terse -f \
	"$top"/module/*.[ch] "$top"/module/conftest/*.c 2>&1) || cp_rc=$?
if [ "$cp_rc" = 0 ] && [ -z "$cp_out" ]; then
	ok "checkpatch --strict: module/ is clean ($(printf '%s\n' "$top"/module/*.[ch] "$top"/module/conftest/*.c | wc -l) files)"
else
	printf '%s\n' "$cp_out" | head -n 30 | sed 's/^/#   /'
	not_ok "checkpatch --strict: module/ (exit $cp_rc)"
fi

if ! make -s -C "$top/tools" >"$RS_BUILD/check/tools-build.log" 2>&1; then
	sed 's/^/#   /' "$RS_BUILD/check/tools-build.log" | tail -n 20
	not_ok "tools build"
	exit 1
fi
disk=$("$top/scripts/mkdisk") || { not_ok "test disk"; exit 1; }
# v2, anon-only, retry-hard and no-drop (issues 6 and 17) when make compare has built them,
# and the 6.12 backport's kernels when built: each is a 20-minute kernel
# build from a cold cache, more than CI affords.  Entries are BASE:VARIANT.
variants=(7.3:stock 7.3:patched)
for bv in 7.3:v2 7.3:anon-only 7.3:retry-hard 7.3:no-drop 6.12:stock 6.12:patched; do
	if [ -z "${RS_DEBUG:-}" ] && [ -f "$(obj_dir "${bv%%:*}" "${bv#*:}")/$(kernel_image_rel x86_64)" ]; then
		variants+=("$bv")
	else
		ok "${bv/:/ }: module tests # SKIP kernel not built (scripts/build-kernel --base ${bv%%:*} --variant ${bv#*:}, or make compare)"
	fi
done
for bv in "${variants[@]}"; do
	base=${bv%%:*} v=${bv#*:}
	# 7.3 results keep their plain names; 6.12 ones say so
	[ "$base" = 7.3 ] || v=$base-$v
	img=$("$top/scripts/build-kernel" --base "$base" --variant "${bv#*:}" ${RS_DEBUG:+--debug} 2>/dev/null) ||
		{ not_ok "no $base ${bv#*:} kernel"; continue; }
	ko=$(module_build_test "$v" "$(obj_dir_of "$img")") || continue
	module_vm_tests "$v" "$img" "$ko" "${bv#*:}" "$disk"
done
# build-module after a build of other sources into the same directory (the
# lab's worktrees share build/mod/): a copy keeps its sources' mtimes, and
# make kept the objects built from newer ones (modpost: "symbol
# 'rs_totals_start' undefined", 2026-12-07).  This checkout's module, then
# 5e5a4e5's (before sysfs.c) with this checkout's scripts, then this one's
# again: each must build, the last with sysfs.c in its .ko.  (nm's output
# is read whole before grep -q: under pipefail an early grep exit fails nm
# with SIGPIPE now and then.)
kobj=$(obj_dir 7.3 stock)
if [ -f "$kobj/Module.symvers" ] && git -C "$top" cat-file -e 5e5a4e5 2>/dev/null; then
	old=$(mktemp -d "$RS_BUILD/old-checkout.XXXXXX")
	git -C "$top" archive 5e5a4e5 Kbuild module | tar -x -C "$old"
	cp -r "$top/scripts" "$old/"
	if "$top/scripts/build-module" --kdir "$kobj" >/dev/null 2>"$old/build1.err" &&
		"$old/scripts/build-module" --kdir "$kobj" >/dev/null 2>"$old/build2.err" &&
		syms=$(nm "$(mod_dir "$kobj")/retryscope.ko") && ! grep -q ' rs_sysfs_init$' <<<"$syms" &&
		ko=$("$top/scripts/build-module" --kdir "$kobj" 2>"$old/build3.err") &&
		syms=$(nm "$ko") && grep -q ' rs_sysfs_init$' <<<"$syms"; then
		ok "build-module switching sources in one directory: 5e5a4e5's module without sysfs.c, then this one's with it"
	else
		tail -n 5 "$old"/build*.err | sed 's/^/#   /'
		not_ok "build-module switching sources in one directory"
	fi
	rm -rf "$old"
else
	ok "build-module switching sources in one directory # SKIP no 7.3 stock build or no commit 5e5a4e5 in this clone"
fi
# docs/module.md's way for your own kernel: make module KDIR=..., make clean-module.
if [ -f "$(obj_dir 7.3 stock)/Module.symvers" ]; then
	make_module_test stock "$(obj_dir 7.3 stock)"
fi
