#!/usr/bin/env bash
# tests/unit/series-diffstat.sh: scripts/lib.sh series_diffstat (the report's
# "lines each series changes") against git apply --numstat, an independent
# count, for every series under patches/7.3.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
pass=0 fail=0
for s in "$top"/patches/7.3/series "$top"/patches/7.3/*/series; do
	name=${s#"$top"/patches/7.3/}
	got=$(series_diffstat "$s" | tr '\n' ' ')
	want=$(grep -v '^[[:space:]]*\(#\|$\)' "$s" | while read -r p _; do
		git apply --numstat "$(dirname "$s")/$p"
	done | awk '{ a = $3 ~ /^mm\// || $3 ~ /^include\/linux\/(mm|pagemap|swap)/ ? "mm" : $3 ~ /^arch\// ? "arch" : "other"
		add[a] += $1; del[a] += $2 }
		END { printf "mm_added=%d mm_removed=%d arch_added=%d arch_removed=%d other_added=%d other_removed=%d ",
		      add["mm"], del["mm"], add["arch"], del["arch"], add["other"], del["other"] }')
	if [ "${got#patches=* }" = "$want" ]; then
		pass=$((pass + 1))
		echo "ok - series_diffstat $name = git apply --numstat: $got"
	else
		fail=$((fail + 1))
		echo "not ok - series_diffstat $name: got $got, git apply --numstat: $want"
	fi
done
got=$(series_diffstat '' | tr '\n' ' ')
if [ "$got" = "patches=0 mm_added=0 mm_removed=0 arch_added=0 arch_removed=0 other_added=0 other_removed=0 " ]; then
	pass=$((pass + 1))
	echo "ok - series_diffstat of no series (stock) is all 0"
else
	fail=$((fail + 1))
	echo "not ok - series_diffstat of no series: $got"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
