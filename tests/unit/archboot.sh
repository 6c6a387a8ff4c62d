#!/usr/bin/env bash
# tests/unit/archboot.sh: scripts/lib.sh archboot_block (the result block
# on a guest's console) and archboot_verdict (the oracle scripts/boot-arches
# applies to it) on console fixtures of real riscv64 boots
# (tests/fixtures/archboot/, 2026-12-07): stock, rfc, and the first rfc
# boot whose swap phase had one kernel-mode fault (a read() into a
# swapped-out buffer, handled under mmap_lock), which the oracle must fail.
# archboot_module_verdict on a riscv64 rfc boot with retryscope.ko
# (boot-arches --module): loaded with auto and kprobe, fprobe refused; and
# with the kernel's warning that the module queued work on 7.3's deprecated
# system_unbound_wq put back (the first such boot had it), which it must
# fail.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=archboot
# shellcheck source=tests/unit/lib/check.sh
. "$top/tests/unit/lib/check.sh"
fx=$top/tests/fixtures/archboot

stock=$(archboot_block "$fx/riscv-stock.console")
rfc=$(archboot_block "$fx/riscv-rfc.console")
t "the block's lines, prefix and carriage returns gone" "$(printf '%s\n' "$stock" | wc -l) $(printf '%s' "$stock" | grep -c $'\r')" "4 0"
t "a phase's key" "$(archboot_get "$stock" swap vma_lock_retry)" 11954
t "the boot line's kernel" "$(archboot_get "$rfc" boot kernel)" 7.3.4-rs-patched
t "an absent key or phase is -" "$(archboot_get "$stock" swap nosuch) $(archboot_get "$stock" nosuch pgfault)" "- -"

v=$(archboot_verdict stock "$stock")
t "stock: every phase ok" "$?:$(awk '{ print $1, $2 }' <<<"$v" | tr '\n' ' ')" "0:readahead ok random ok swap ok "
t "stock: swap retries all fell back" "$(grep '^swap' <<<"$v" | cut -d: -f1)" "swap ok retries=11954 kept=0 fallbacks=11954 maxretry=1"
v=$(archboot_verdict rfc "$rfc")
t "rfc: every phase ok" "$?:$(awk '{ print $1, $2 }' <<<"$v" | tr '\n' ' ')" "0:readahead ok random ok swap ok "
t "rfc: swap retries kept" "$(grep '^swap' <<<"$v" | cut -d: -f1)" "swap ok retries=11930 kept=11930 fallbacks=0 maxretry=1"
t "rfc: MADV_RANDOM falls back (not VM_FAULT_RETRY_VMA)" "$(grep '^random' <<<"$v" | cut -d: -f1)" \
	"random ok retries=4096 kept=0 fallbacks=4096 maxretry=1"

v=$(archboot_verdict rfc "$(archboot_block "$fx/riscv-rfc-kernel-fault.console")")
t "rfc with one swap fallback: FAIL" "$?:$(grep -c FAIL <<<"$v"):$(grep '^swap' <<<"$v" | cut -d: -f1)" \
	"1:1:swap FAIL retries=11964 kept=11963 fallbacks=1 maxretry=2"
v=$(archboot_verdict stock "$rfc")
t "rfc's counters judged as stock: FAIL (the retries did not fall back)" "$?:$(grep -c FAIL <<<"$v")" "1:2"
v=$(archboot_verdict retry-hard "$rfc")
t "rfc's counters judged as retry-hard: FAIL only MADV_RANDOM" "$?:$(grep FAIL <<<"$v" | cut -d' ' -f1)" "1:random"

sed 's/bad=0 sampled=2048/bad=3 sampled=2048/' "$fx/riscv-stock.console" >"$tmp/bad"
v=$(archboot_verdict stock "$(archboot_block "$tmp/bad")")
t "pages read back wrong: FAIL" "$?:$(grep '^swap' <<<"$v" | sed 's/.*: *//')" "1:3 pages read back wrong"
sed 's/maxretry=1 retries_hist=1792/maxretry=3 retries_hist=1792/' "$fx/riscv-rfc.console" >"$tmp/loop"
v=$(archboot_verdict rfc "$(archboot_block "$tmp/loop")")
t "a fault retried 3 times: FAIL" "$?:$(grep '^swap' <<<"$v" | sed 's/.*: *//')" "1:a fault retried 3 times under the VMA lock"
sed 's/vma_lock_retry=3 /vma_lock_retry=0 /' "$fx/riscv-stock.console" >"$tmp/none"
v=$(archboot_verdict stock "$(archboot_block "$tmp/none")")
t "no retry at all: FAIL" "$?:$(grep '^readahead' <<<"$v" | sed 's/.*: *//')" "1:no fault retried"
grep -v '^rs-archboot: end' "$fx/riscv-stock.console" >"$tmp/cut"
t "a block cut before its end line: nothing" "$(archboot_block "$tmp/cut" | wc -c)" 0
v=$(archboot_verdict stock "")
t "no block: every phase FAIL" "$?:$(grep -c 'FAIL: no result' <<<"$v")" "1:3"
mod=$(archboot_block "$fx/riscv-rfc-module.console")
v=$(archboot_module_verdict rfc "$mod")
t "module: ok on the rfc boot" "$?:$(grep -c FAIL <<<"$v")" "0:0"
t "module: fprobe refused, with the kernel's reason" "$(grep '^fprobe refused' <<<"$v")" \
	"fprobe refused: <3>retryscope: backend=fprobe: this kernel has no ftrace_regs fprobe (CONFIG_FPROBE on the function-graph tracer)"
t "module: six phases ok (auto, kprobe)" "$(grep -c '@[a-z]* ok ' <<<"$v") $(grep -c '@' <<<"$v")" "6 6"
t "module: rfc's swap retries kept under kprobe" "$(grep '^swap@kprobe' <<<"$v" | cut -d: -f1)" \
	"swap@kprobe ok vma_lock_retry=10317 faults=94902 major=10361 mmap_lock_read=0 kept=10317 fallbacks_after_io=0"
# the line the module logged on 7.3 before it queued its work on
# system_dfl_wq (riscv64 rfc, the first --module boot)
wq='module backend=auto loaded
klog <4>workqueue: work func rs_totals_fn [retryscope] enqueued on deprecated workqueue. Use system_{percpu|dfl}_wq instead.'
v=$(archboot_module_verdict rfc "${mod/module backend=auto loaded/$wq}")
t "module: the deprecated-workqueue warning fails the boot" "$?:$(grep -c '^kernel log FAIL: .*rs_totals_fn \[retryscope\] enqueued on deprecated workqueue' <<<"$v")" "1:1"
v=$(archboot_module_verdict rfc "${mod/module backend=auto loaded/module backend=auto loaded
klog <4>workqueue: work func foo_fn enqueued on deprecated workqueue. Use system_{percpu|dfl}_wq instead.}")
t "module: another code's deprecated-workqueue warning is not the module's" "$?" 0
v=$(archboot_module_verdict stock "$mod")
t "module: rfc's counts judged as stock: FAIL where retries were kept" "$?:$(grep FAIL <<<"$v" | cut -d' ' -f1 | tr '\n' ' ')" \
	"1:readahead@auto swap@auto readahead@kprobe swap@kprobe "
# broken DESC SED WANT: the rfc block with SED applied fails (exit 1), for
# the reason WANT
broken() {
	local v
	v=$(archboot_module_verdict rfc "$(sed "$2" <<<"$mod")")
	t "$1" "$?:$(grep FAIL <<<"$v" | sed 's/.*: *//')" "1:$3"
}
broken "module: one retry short of /proc/vmstat: FAIL" '/phase=swap@kprobe/s/m.vma_lock_retry=10317/m.vma_lock_retry=10316/' \
	"module vma_lock_retry 10316 != /proc/vmstat's 10317"
broken "module: a major fault more than getrusage: FAIL" '/phase=random@auto/s/ majflt=4096/ majflt=4095/' \
	"module user_faults - faults_abandoned 4096 - 0 != getrusage minflt + majflt 0 + 4095; module major_faults 4096 != getrusage majflt 4095"
broken "module: tracefs saw one mmap_lock read more: FAIL" '/phase=random@kprobe/s/ tp_read=4096/ tp_read=4097/' \
	"module mmap_lock read acquire + trylock 4096 + 0 != tracefs's 4097"
broken "module: pages read back wrong under the module: FAIL" '/phase=swap@kprobe/s/ bad=0 / bad=2 /' "2 pages read back wrong"
broken "module: tracefs lost events: FAIL" '/phase=swap@auto/s/ tp_overrun=0/ tp_overrun=12/' "tracefs lost 12 events (overrun)"
# 10 write acquisitions of another task (a riscv64 rfc boot had them: a
# kernel thread's on init_mm, say; whose was not established) are shown
v=$(archboot_module_verdict rfc "$(sed '/phase=readahead@auto/s/ tp_overrun=0/ tp_other=10 tp_overrun=0/' <<<"$mod")")
t "module: other tasks' mmap_lock acquisitions shown, not counted against it" "$?:$(grep -o '^readahead@auto ok .*other_tasks_mmap_lock=10' <<<"$v" | cut -d' ' -f1,2)" "0:readahead@auto ok"
v=$(archboot_module_verdict rfc "${mod/module backend=kprobe loaded/module backend=kprobe refused errno=2}")
t "module: kprobe refused: FAIL" "$?:$(grep '^kprobe' <<<"$v")" "1:kprobe refused: errno=2 (every arch here has it)"
v=$(archboot_module_verdict rfc "$(sed '/phase=readahead@auto/s/ m.probe_nmissed=[0-9]*//' <<<"$mod")")
t "module: a counter missing from a phase: FAIL" "$?:$(grep '^readahead@auto' <<<"$v")" "1:readahead@auto FAIL: no m.probe_nmissed"
t_done
