# shellcheck shell=bash
# Helpers for tests/host/*.sh: TAP-style result lines that tests/run counts,
# and scripts/lib.sh's (the kernel layout: tree_dir, obj_dir ...).
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export RS_TOP=$top RS_BUILD=${RS_BUILD:-$top/build}
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh
. "$top/scripts/lib.sh"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# check DESC CMD...: ok if CMD succeeds, else not ok with its output.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
		not_ok "$desc"
	fi
}

# kernel_image VARIANT: the lab kernel image path, built if needed.
kernel_image() {
	"$top/scripts/build-kernel" --base 7.3 --variant "$1" ${RS_DEBUG:+--debug}
}
