# shellcheck shell=bash
# Common helpers sourced by the scripts in scripts/. Not executable on its own.

RS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RS_BUILD=${RS_BUILD:-$RS_TOP/build}
RS_START=${RS_START:-$(date +%s)}
export RS_TOP RS_BUILD RS_START

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# step NAME: print a step banner with the time elapsed since the script began.
step() {
	local now
	now=$(date +%s)
	printf '==> [%4ds] %s\n' "$((now - RS_START))" "$*" >&2
}

need_root() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (it installs Debian packages): try sudo $0"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found: run scripts/setup (as root) first"
	done
}

# lab_variant NAME: the lab kernel a variant name builds.  "rfc" (the name
# issue 6's comparison uses) is the RFC series, which "patched" has always
# built: the same patches/<base>/series, so one tree, one build, one
# 7.3.4-rs-patched kernel.  Results keep the name they were asked for.
lab_variant() {
	case $1 in
	rfc) echo patched ;;
	*) echo "$1" ;;
	esac
}
