#!/usr/bin/env bash
# Installs what the suite needs (idempotent) and lints the scripts.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
check "scripts/setup installs packages and kernel sources" "$top/scripts/setup"
check "setup pinned trixie-backports below installed packages (priority 50)" \
	grep -q 'Pin-Priority: 50' /etc/apt/preferences.d/retryscope-trixie-backports
mapfile -t scripts < <(grep -l -m1 '^#!.*bash' "$top"/scripts/* "$top"/tests/run "$top"/tests/host/*.sh "$top"/.ci/run 2>/dev/null)
check "shellcheck clean: ${#scripts[@]} scripts" shellcheck -x "${scripts[@]}" "$top/tests/host/lib.sh" "$top/scripts/lib.sh"
