#!/usr/bin/env bash
# The series' fault paths compile on the other architectures it touches, with
# no new warnings (scripts/check-arches).  By default x86 and arm64 for the
# RFC series and x86 for v2, anon-only, retry-hard and no-drop on 7.3, to stay
# inside CI's time budget; RS_CHECK_ARCHES=all runs every arch of every
# variant on 7.3 and the RFC backport on 6.12.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

runs=("7.3|patched|x86 arm64" "7.3|v2|x86" "7.3|anon-only|x86" "7.3|retry-hard|x86"
	"7.3|no-drop|x86")
if [ "${RS_CHECK_ARCHES:-}" = all ]; then
	all="arm arm64 loongarch powerpc riscv s390 x86"
	runs=("7.3|patched|$all" "7.3|v2|$all" "7.3|anon-only|$all" "7.3|retry-hard|$all"
		"7.3|no-drop|$all" "6.12|patched|$all")
fi

for run in "${runs[@]}"; do
	IFS='|' read -r base variant arches <<<"$run"
	t0=$(date +%s)
	out=$("$top/scripts/check-arches" --base "$base" --variant "$variant" --arches "$arches" 2>&1)
	rc=$?
	dt=$(($(date +%s) - t0))
	printf '%s\n' "$out" | grep '^|' | sed 's/^/# /'
	# One line per arch from the table: | arch | compiler | per-VMA lock |
	# applies | stock | patched | new warnings | seconds |
	seen=''
	while IFS=$'\t' read -r arch cc pvl applies stock patched new secs; do
		case " $arches " in *" $arch "*) ;; *) continue ;; esac
		seen+=" $arch"
		case $pvl in
		n/a:* | skip:*) ok "$base $variant $arch # SKIP ${pvl#skip: }" ;;
		*)
			if [ "$pvl" = y ] && [ "$stock" = ok ] && [ "$patched" = ok ] && [ "$new" = 0 ]; then
				ok "$base $variant $arch ($cc): stock and $variant compile, 0 new warnings (${secs} s)"
			else
				printf '%s\n' "$out" | grep -E "^  $arch |^check-arches" | sed 's/^/#   /'
				not_ok "$base $variant $arch ($cc): per-VMA lock $pvl, applies $applies, stock $stock, $variant $patched, new warnings $new"
			fi
			;;
		esac
	done < <(printf '%s\n' "$out" | grep -E '^\| [a-z0-9]+ \|' | grep -v '^| arch |' |
		awk -F'|' -v OFS='\t' '{ for (i = 2; i <= 9; i++) gsub(/^ +| +$/, "", $i); print $2, $3, $4, $5, $6, $7, $8, $9 }')
	for arch in $arches; do
		case "$seen " in *" $arch "*) ;; *) not_ok "$base $arch: no row in check-arches' table" ;; esac
	done
	if [ -z "$seen" ] || { [ "$rc" != 0 ] && ! grep -q '; FAIL$' <<<"$out"; }; then
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
		not_ok "check-arches --base $base --arches \"$arches\" exited $rc without a table"
	else
		echo "# check-arches --base $base --arches \"$arches\": exit $rc, ${dt} s"
	fi
done
