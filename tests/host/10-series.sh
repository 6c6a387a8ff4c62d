#!/usr/bin/env bash
# The series apply to clean Debian bases with no fuzz and revert cleanly.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
for base in 7.3 6.12; do
	if [ -f "$top/patches/$base/series" ]; then
		check "patches/$base applies to linux-source-$base and reverts cleanly" \
			"$top/scripts/check-series" --base "$base"
	else
		not_ok "patches/$base/series missing"
	fi
done
# The variants of the LSFMM comparison (patches/7.3/<variant>/series).
for d in "$top"/patches/7.3/*/; do
	[ -f "$d/series" ] || continue
	check "variant $(basename "$d") (patches/7.3/$(basename "$d")) applies to linux-source-7.3 and reverts cleanly" \
		"$top/scripts/check-series" --base 7.3 "$d"
done
