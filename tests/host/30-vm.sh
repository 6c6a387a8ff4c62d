#!/usr/bin/env bash
# scripts/vm boots each lab kernel, runs a command, returns its output and exit
# status; a panicking guest makes scripts/vm fail within its timeout.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=$(mktemp -d "$RS_BUILD/check-vm.XXXXXX")
trap 'rm -rf "$out"' EXIT
for v in stock patched; do
	img=$(kernel_image "$v" 2>/dev/null) || { not_ok "no $v kernel to boot"; continue; }
	vm_command_test "$v" "$img" "$out"
done
img=$(kernel_image stock 2>/dev/null) && vm_crash_tests stock "$img" "$out"
