#!/usr/bin/env bash
# tests/unit/boot-arches-report.sh: scripts/boot-arches --module
# --report-only, on a build directory holding one real boot's result block
# (tests/fixtures/archboot/riscv-rfc-module.console, riscv64 rfc with
# retryscope.ko): the table comes back from the block with the oracle, a
# boot whose module counts disagree with /proc/vmstat makes it FAIL, and a
# kernel never booted is a row that says so; nothing is built or booted.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=boot-arches-report
# shellcheck source=tests/unit/lib/check.sh
. "$top/tests/unit/lib/check.sh"
run=$tmp/build/arches-boot/run/7.3-patched-riscv+mod
mkdir -p "$run" "$tmp/build/arches-boot/obj/7.3-patched-riscv+mod"
archboot_block "$top/tests/fixtures/archboot/riscv-rfc-module.console" >"$run/result.txt"
echo 119 >"$run/seconds"
echo 'CONFIG_FPROBE ' >"$tmp/build/arches-boot/obj/7.3-patched-riscv+mod/module-dropped.txt"
find "$tmp/build" -type f -exec touch -d '1 hour ago' {} +
touch "$tmp/start"

# report ARGS...: boot-arches --module --report-only ARGS; sets rc and out
report() {
	out=$(RS_BUILD=$tmp/build "$top/scripts/boot-arches" --module --report-only "$@" 2>"$tmp/err")
	rc=$?
}
report --arches riscv --variants rfc
row=$(grep '^| riscv | rfc |' <<<"$out")
t "the rfc boot: PASS, exit 0" "$rc:$(tail -n1 <<<"$out")" "0:PASS"
t "its row: booted, the vmstat verdicts, what module.config lost" \
	"$(cut -d'|' -f5,7-11 <<<"$row")" \
	" yes (119 s) | ok 3/3/0 | ok 12000/12000/0 | ok 4096/0/4096 | 1 | CONFIG_FPROBE "
t "its row: the module per backend" "$(cut -d'|' -f12 <<<"$row")" \
	" auto: ok 3/0, ok 0/4096, ok 10112/0; kprobe: ok 3/0, ok 0/4096, ok 10317/0; fprobe: refused "
t "the table file is the module's" "$(head -n1 "$tmp/build/arches-boot/table-module.md" | cut -d: -f1)" "## boot-arches --base 7.3 --module"
t "nothing built, no qemu run" "$(find "$tmp/build" -newer "$tmp/start" -type f | sed "s|$tmp/build/||" | sort | tr '\n' ' ')" \
	"arches-boot/run/7.3-patched-riscv+mod/module-verdict.txt arches-boot/run/7.3-patched-riscv+mod/verdict.txt arches-boot/table-module.md "

sed -i '/phase=swap@auto/s/ m.vma_lock_retry=10112/ m.vma_lock_retry=10111/' "$run/result.txt"
report --arches riscv --variants rfc
t "module one retry short of /proc/vmstat: FAIL, exit 1" "$rc:$(tail -n1 <<<"$out"):$(grep -c 'swap@auto FAIL' "$run/module-verdict.txt")" "1:FAIL:1"

report --arches riscv --variants "rfc stock"
t "stock never booted: a row that says so" "$rc:$(grep '^| riscv | stock |' <<<"$out" | cut -d'|' -f5)" \
	"1: no: no result block in arches-boot/run/7.3-stock-riscv+mod/result.txt (not booted?) "
t_done
