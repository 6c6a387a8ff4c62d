#!/usr/bin/env bash
# Installs what the suite needs (idempotent) and lints the scripts.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# A fresh clone's make check writes about 5 GiB under build/ (the
# pristine 7.3 tree 1.8 GiB, kernel sources 0.6 GiB, objects, ccache
# growth): below 8 GiB free, say so now rather than fail later on ENOSPC.
free_gib=$(df -P -k "$top" | awk 'NR == 2 { print int($4 / 1048576) }')
check "disk: $free_gib GiB free for build/ (make check needs about 8)" [ "$free_gib" -ge 8 ]
check "scripts/setup installs packages and kernel sources" "$top/scripts/setup"
check "setup pinned trixie-backports below installed packages (priority 50)" \
	grep -q 'Pin-Priority: 50' /etc/apt/preferences.d/retryscope-trixie-backports
mapfile -t scripts < <(grep -l -m1 '^#!.*bash' "$top"/scripts/* "$top"/tests/run "$top"/tests/host/*.sh "$top"/.ci/run 2>/dev/null)
check "shellcheck clean: ${#scripts[@]} scripts" shellcheck -x "${scripts[@]}" "$top/tests/host/lib.sh" "$top/scripts/lib.sh"
