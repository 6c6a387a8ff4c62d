#!/usr/bin/env bash
# Stock and patched x86_64 7.3 kernels build; they differ only by the series;
# a second build with nothing changed is a no-op.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
flag=(); [ -z "${RS_DEBUG:-}" ] || flag=(--debug)
for v in stock patched; do
	t0=$(date +%s)
	if img=$("$top/scripts/build-kernel" --base 7.3 --variant "$v" "${flag[@]}") && [ -f "$img" ]; then
		ok "7.3 $v x86_64${RS_DEBUG:+ (debug)} builds: $img ($(($(date +%s) - t0)) s)"
	else
		not_ok "7.3 $v x86_64 kernel build"
	fi
done
stock=$(tree_dir 7.3 stock) patched=$(tree_dir 7.3 patched)
if grep -q 'VM_FAULT_RETRY_VMA' "$patched/include/linux/mm_types.h" &&
	! grep -q 'VM_FAULT_RETRY_VMA' "$stock/include/linux/mm_types.h"; then
	ok "patched headers define VM_FAULT_RETRY_VMA, stock headers do not"
else
	not_ok "VM_FAULT_RETRY_VMA: patched must define it, stock must not"
fi
# Only the series' files differ between the two trees.
want=$(sed -n 's|^+++ b/||p' "$top"/patches/7.3/0*.patch | sort -u)
got=$(diff -rq -x '.retryscope-series' "$stock" "$patched" | awk '{ print $2 }' | sed "s|^$stock/||" | sort -u)
if [ "$want" = "$got" ]; then
	ok "stock and patched trees differ exactly in the $(printf '%s\n' "$want" | wc -l) files the series touches"
else
	printf '#   want: %s\n#   got:  %s\n' "$want" "$got"
	not_ok "stock and patched trees differ only by the series"
fi
# The trees hard-link one pristine tree (scripts/lib.sh extract_tree): a
# file the series leaves alone is the pristine file in both trees, and a
# tree costs tens of MB, not 1.8 GB (six full trees filled a CI disk).
pristine=$RS_BUILD/src/7.3/linux
same=$(stat -c %i "$pristine/mm/mmap.c" "$stock/mm/mmap.c" "$patched/mm/mmap.c" | sort -u | wc -l)
mb=$(du -sm "$pristine" "$stock" | awk 'NR == 2 { print $1 }')
if [ "$same" = 1 ] && [ "$mb" -lt 200 ]; then
	ok "stock and patched trees hard-link the pristine tree's files (stock tree: $mb MB of its own)"
else
	not_ok "stock and patched trees hard-link the pristine tree ($same inodes for mm/mmap.c; stock tree: $mb MB of its own)"
fi
if [ "$(stat -c %i "$pristine/mm/memory.c")" != "$(stat -c %i "$patched/mm/memory.c")" ] &&
	! grep -q VM_FAULT_RETRY_VMA "$pristine/include/linux/mm_types.h"; then
	ok "the series' files in the patched tree are its own; the pristine tree is untouched"
else
	not_ok "the patched tree's mm/memory.c is the pristine file, or the pristine tree holds the series"
fi
t0=$(date +%s)
out=$("$top/scripts/build-kernel" --base 7.3 --variant stock "${flag[@]}" 2>&1)
dt=$(($(date +%s) - t0))
if grep -q 'up to date' <<<"$out" && [ "$dt" -le 10 ]; then
	ok "second build with nothing changed is a no-op (${dt} s)"
else
	printf '%s\n' "$out" | sed 's/^/#   /'
	not_ok "second build is not a no-op (${dt} s)"
fi
