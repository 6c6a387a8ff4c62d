#!/usr/bin/env bash
# tests/unit/arch-selftests.sh: scripts/lib.sh kselftest_collect (the
# selftests.tsv scripts/arch-selftests makes from the consoles of
# tools/archboot/rs-kselftest.c), kselftest_counts and kselftest_compare,
# on two made-up boots: the first with a pass, a skip, a notrun, a timeout,
# an oops and a test the guest died in (a panic, carriage returns as a
# serial console has them), the second from the test after it, with a
# failed TAP case, finishing the list.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=arch-selftests
# shellcheck source=tests/unit/lib/check.sh
. "$top/tests/unit/lib/check.sh"

cat >"$tmp/boot1" <<'CON'
OpenSBI v1.1
[    0.000000] Linux version 7.3.4-rs-stock
rs-kselftest: swap on /dev/vda, 512 MiB
rs-kselftest: start kernel=7.3.4-rs-stock machine=riscv64 pagesize=4096 from=0 timeout=120
rs-kselftest: run 0 aaa
rs-kselftest: log-begin aaa
TAP version 13
ok 1 first
ok 2 second # SKIP no THP
rs-kselftest: log-end aaa
rs-kselftest: result aaa rc=0 secs=3 timedout=0
rs-kselftest: run 1 bbb
rs-kselftest: log-begin bbb
1..0 # SKIP Could not detect default hugetlb page size.
rs-kselftest: log-end bbb
rs-kselftest: result bbb rc=4 secs=0 timedout=0
rs-kselftest: run 2 write_to_hugetlbfs
rs-kselftest: notrun write_to_hugetlbfs: a helper of charge_reserved_hugetlb.sh, not a test
rs-kselftest: run 3 ccc
rs-kselftest: log-begin ccc
rs-kselftest: log-end ccc
rs-kselftest: result ccc rc=143 secs=120 timedout=1
rs-kselftest: run 4 ddd
rs-kselftest: log-begin ddd
ok 1 x
rs-kselftest: log-end ddd
rs-kselftest: dmesg ------------[ cut here ]------------
rs-kselftest: dmesg WARNING: CPU: 1 PID: 77 at mm/memory.c:123 f+0x1/0x2
rs-kselftest: result ddd rc=0 secs=1 timedout=0
rs-kselftest: run 5 eee
[   12.5] Unable to handle kernel paging request at virtual address 0000000000000000
[   12.6] Kernel panic - not syncing: Fatal exception
CON
sed -i 's/$/\r/' "$tmp/boot1"
cat >"$tmp/boot2" <<'CON'
rs-kselftest: start kernel=7.3.4-rs-stock machine=riscv64 pagesize=4096 from=6 timeout=120
rs-kselftest: run 6 fff
rs-kselftest: log-begin fff
ok 1 a
not ok 2 b
not ok 3 c
rs-kselftest: log-end fff
rs-kselftest: result fff rc=1 secs=2 timedout=0
rs-kselftest: run 7 ggg
rs-kselftest: log-begin ggg
rs-kselftest: log-end ggg
rs-kselftest: result ggg rc=139 secs=0 timedout=0
rs-kselftest: done
CON

mkdir -p "$tmp/logs"
next=$(kselftest_collect 120 "$tmp/logs" "$tmp/a.tsv" <"$tmp/boot1")
t "a boot that died in test 5: the next boot starts at 6" "$next" 6
t "the test it died in is a crash, with the console's last line" \
	"$(awk -F'\t' '$1 == "eee" { print $2, $3, $8 }' "$tmp/a.tsv")" \
	"crash - guest died in it: [   12.6] Kernel panic - not syncing: Fatal exception"
next=$(cat "$tmp/boot1" "$tmp/boot2" | kselftest_collect 120 "$tmp/logs" "$tmp/a.tsv")
t "both boots: the list is finished" "$next" ""
t "one row per test, in order" "$(cut -f1,2 "$tmp/a.tsv" | tail -n +2 | tr '\t\n' ': ')" \
	"aaa:pass bbb:skip write_to_hugetlbfs:notrun ccc:timeout ddd:oops eee:crash fff:fail ggg:fail "
t "a pass's TAP counts (pass, fail, skip)" "$(awk -F'\t' '$1 == "aaa" { print $5, $6, $7 }' "$tmp/a.tsv")" "1 0 1"
t "a skip's note is its reason" "$(awk -F'\t' '$1 == "bbb" { print $8 }' "$tmp/a.tsv")" \
	"1..0 # SKIP Could not detect default hugetlb page size."
t "a timeout's note" "$(awk -F'\t' '$1 == "ccc" { print $3, $8 }' "$tmp/a.tsv")" "143 killed after 120s"
t "an exit 0 with a WARNING in its kernel log is an oops" "$(awk -F'\t' '$1 == "ddd" { print $8 }' "$tmp/a.tsv")" \
	"WARNING: CPU: 1 PID: 77 at mm/memory.c:123 f+0x1/0x2"
t "a fail's note: its first failed case and how many more" "$(awk -F'\t' '$1 == "fff" { print $8 }' "$tmp/a.tsv")" \
	"not ok 2 b (+1 more)"
t "a signal's note" "$(awk -F'\t' '$1 == "ggg" { print $8 }' "$tmp/a.tsv")" "killed by signal 11"
t "a test's log and kernel log, without carriage returns" \
	"$(tr '\n' '|' <"$tmp/logs/aaa.log"):$(wc -l <"$tmp/logs/ddd.dmesg"):$(grep -c $'\r' "$tmp/logs/aaa.log")" \
	"TAP version 13|ok 1 first|ok 2 second # SKIP no THP|:2:0"
t "counts" "$(kselftest_counts "$tmp/a.tsv")" "1 pass / 2 fail / 1 skip / 1 timeout / 1 oops / 1 crash / 1 notrun"

sed -e 's/^fff\tfail/fff\tpass/' -e '/^ggg/d' "$tmp/a.tsv" >"$tmp/b.tsv"
printf 'hhh\tpass\t0\t1\t1\t0\t0\t\n' >>"$tmp/b.tsv"
kselftest_compare "$tmp/a.tsv" "$tmp/b.tsv" stock rfc >"$tmp/cmp.tsv"
t "compare: the tests that differ, a test one side lacks" "$(awk -F'\t' '$4 == "DIFFERS" { printf "%s:%s:%s ", $1, $2, $3 }' "$tmp/cmp.tsv")" \
	"fff:fail 1/2/0:pass 1/2/0 ggg:fail 0/0/0:- hhh:-:pass 1/0/0 "
t "compare: the rest the same" "$(tail -n +2 "$tmp/cmp.tsv" | grep -c $'\tsame$')" 6
awk -F'\t' -v OFS='\t' '$1 == "fff" { $6 = 1 } 1' "$tmp/a.tsv" >"$tmp/c.tsv"
t "compare: a fail on both with other TAP cases failing differs" \
	"$(kselftest_compare "$tmp/a.tsv" "$tmp/c.tsv" stock rfc | awk -F'\t' '$4 == "DIFFERS" { print $1, $2, $3 }')" \
	"fff fail 1/2/0 fail 1/1/0"
t_done
