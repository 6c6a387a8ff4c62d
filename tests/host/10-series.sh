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
