#!/usr/bin/env bash
# scripts/vm boots each lab kernel, runs a command, returns its output and exit
# status; a panicking guest makes scripts/vm fail within its timeout.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=$(mktemp -d "$RS_BUILD/check-vm.XXXXXX")
trap 'rm -rf "$out"' EXIT
for v in stock patched; do
	img=$(kernel_image "$v" 2>/dev/null) || { not_ok "no $v kernel to boot"; continue; }
	t0=$(date +%s)
	"$top/scripts/vm" --kernel "$img" --out "$out/$v" --timeout 180 -- \
		sh -c 'uname -r >/out/uname; grep -c . /proc/vmstat >/out/vmstat-lines; exit 7' >"$out/$v.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	if [ "$rc" = 7 ] && grep -q '^7\.3' "$out/$v/uname" 2>/dev/null; then
		ok "$v: guest ran a command, returned exit status 7 and output '$(cat "$out/$v/uname")' (${dt} s, $(sed -n 1p "$out/$v/vm-accel"))"
	else
		tail -n 15 "$out/$v.log" | sed 's/^/#   /'
		not_ok "$v: command in the guest (exit $rc, want 7)"
	fi
done
img=$(kernel_image stock 2>/dev/null)
t0=$(date +%s)
"$top/scripts/vm" --kernel "$img" --timeout 120 -- sh -c 'echo c >/proc/sysrq-trigger; sleep 1000' >"$out/panic.log" 2>&1
rc=$?
dt=$(($(date +%s) - t0))
if [ "$rc" != 0 ] && [ "$dt" -lt 120 ] && grep -q 'panicked' "$out/panic.log" && grep -q -- '---- last console lines' "$out/panic.log"; then
	ok "deliberate panic (sysrq c): scripts/vm exits $rc after ${dt} s with the console tail"
else
	tail -n 15 "$out/panic.log" | sed 's/^/#   /'
	not_ok "deliberate panic: scripts/vm exit $rc after ${dt} s"
fi
t0=$(date +%s)
"$top/scripts/vm" --kernel "$img" --timeout 40 -- sleep 1000 >"$out/hang.log" 2>&1
rc=$?
dt=$(($(date +%s) - t0))
if [ "$rc" != 0 ] && [ "$dt" -lt 60 ] && grep -q 'did not finish' "$out/hang.log"; then
	ok "hanging guest: scripts/vm exits $rc after ${dt} s (timeout 40 s)"
else
	tail -n 5 "$out/hang.log" | sed 's/^/#   /'
	not_ok "hanging guest: scripts/vm exit $rc after ${dt} s"
fi
