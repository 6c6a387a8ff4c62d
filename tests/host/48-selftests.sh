#!/usr/bin/env bash
# The kernel's mm selftests (scripts/build-selftests, scripts/selftests) run
# on the stock and the patched kernel in the VM: every test binary gives a
# result, no kernel oops, and no test that passes on stock fails, times out
# or oopses on patched.  v2 and anon-only run in make compare.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
[ -z "${RS_DEBUG:-}" ] || { ok "mm selftests # SKIP not on the debug kernels (make compare runs them)"; exit 0; }
out=$RS_BUILD/check/selftests
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
if bindir=$("$top/scripts/build-selftests" 2>"$out/build.log"); then
	n=$(find "$bindir" -maxdepth 1 -type f -perm -u+x | wc -l)
	check "build-selftests: $n static mm selftest binaries ($(($(date +%s) - t0)) s)" [ "$n" -ge 40 ]
else
	tail -n 15 "$out/build.log" | sed 's/^/#   /'
	not_ok "build-selftests"
	exit 0
fi
for v in stock patched; do
	t0=$(date +%s)
	if "$top/scripts/selftests" --variant "$v" --out "$out/$v" >"$out/$v.summary" 2>"$out/$v.log"; then
		ok "selftests on $v: $(cat "$out/$v.summary") ($(($(date +%s) - t0)) s)"
	else
		tail -n 15 "$out/$v.log" | sed 's/^/#   /'
		not_ok "selftests on $v"
		continue
	fi
	rows=$(awk 'NR > 1' "$out/$v/selftests.tsv" | wc -l)
	check "$v: one result per binary ($rows of $n)" [ "$rows" = "$n" ]
	oops=$(awk -F'\t' '$2 == "oops" { printf "%s ", $1 }' "$out/$v/selftests.tsv")
	check "$v: no kernel oops/BUG/WARNING during the selftests${oops:+ ($oops)}" [ -z "$oops" ]
done
if [ -s "$out/stock/selftests.tsv" ] && [ -s "$out/patched/selftests.tsv" ]; then
	worse=$(awk -F'\t' 'FNR == 1 { next } FNR == NR { s[$1] = $2; next }
		($2 == "fail" || $2 == "timeout" || $2 == "oops") && (s[$1] == "pass" || s[$1] == "skip") { printf "%s (%s, %s on stock) ", $1, $2, s[$1] }' \
		"$out/stock/selftests.tsv" "$out/patched/selftests.tsv")
	check "patched fails no selftest that passes on stock${worse:+: $worse}" [ -z "$worse" ]
fi
