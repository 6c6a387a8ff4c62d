# tests/unit/lib/check.sh: sourced by the unit tests that compare a value with
# the one wanted.  Set unit=NAME (the TAP lines' prefix) before sourcing.
#   t DESCRIPTION GOT WANT   one check: "ok - NAME: ..." or a "not ok" line
#                            with both values
#   t_done                   the summary line; the status of the file
# shellcheck shell=bash disable=SC2154 # unit: set by the sourcing test
pass=0 fail=0
t() {
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1))
		echo "ok - $unit: $1"
	else
		fail=$((fail + 1))
		echo "not ok - $unit: $1: got '$2', want '$3'"
	fi
}
t_done() {
	echo "# $unit: $pass passed, $fail failed"
	[ "$fail" = 0 ]
}
