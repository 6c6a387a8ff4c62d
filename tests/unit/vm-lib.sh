#!/usr/bin/env bash
# tests/unit/vm-lib.sh: the guest test helpers of tests/vm/lib.sh that decide
# whether a check saw what it names, on fixtures, under the host's sh:
#   delta            a counter absent from a snapshot is a "not ok" of its own,
#                    never a 0 that passes an "is 0" check
#   backend_refused  a refused fprobe backend is a SKIP on a kernel older
#                    than 6.14 or without a function tracer (GKI), and a
#                    failure on one that has ftrace_regs fprobes; a refused
#                    ftrace backend a SKIP without a function tracer only; a
#                    refused kprobe backend always fails
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
t() { # t DESCRIPTION COMMAND...: one check
	local d=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok - vm-lib: $d"
	else
		fail=$((fail + 1))
		echo "not ok - vm-lib: $d"
	fi
}

printf 'a 5\nb 7\n' >"$tmp/before"
printf 'a 9\nc 1\n' >"$tmp/after"
# run_sh SCRIPT: SCRIPT in sh with tests/vm/lib.sh loaded, its TAP in $tmp/tap,
# uname answering $FAKE_UNAME
mkdir -p "$tmp/bin"
# shellcheck disable=SC2016 # the fake uname expands $FAKE_UNAME itself
printf '#!/bin/sh\necho "$FAKE_UNAME"\n' >"$tmp/bin/uname"
chmod +x "$tmp/bin/uname"
# tracefs: $tmp/ftrace has a function tracer (available_filter_functions),
# $tmp/noftrace has none; RS_TRACEFS picks one (default: with)
mkdir -p "$tmp/ftrace" "$tmp/noftrace"
: >"$tmp/ftrace/available_filter_functions"
run_sh() {
	: >"$tmp/tap"
	PATH=$tmp/bin:$PATH RS_TAP=$tmp/tap RS_TRACEFS=${TRACEFS:-$tmp/ftrace} sh -c ". '$top/tests/vm/lib.sh'; $1" 2>/dev/null
}

out=$(run_sh "delta a $tmp/before $tmp/after")
t "delta of a counter in both snapshots is its change (4: $out)" [ "$out" = 4 ]
t "... and writes no TAP line" [ ! -s "$tmp/tap" ]
out=$(run_sh "delta b $tmp/before $tmp/after")
t "delta of a counter missing after prints 0 ($out)" [ "$out" = 0 ]
t "... and a not ok line naming it ($(cat "$tmp/tap"))" grep -q '^not ok - counter b is missing' "$tmp/tap"
out=$(run_sh "[ \"\$(delta c $tmp/before $tmp/after)\" = 0 ] && echo passed")
t "an \"is 0\" check on a missing counter still leaves a not ok behind" \
	grep -q '^not ok - counter c is missing' "$tmp/tap"

for k in 6.12.57-rs-stock:SKIP 6.13.0:SKIP 6.14.0:FAIL 7.3.4-rs-stock:FAIL 5.15.0:SKIP; do
	set -- "${k%:*}" "${k#*:}"
	FAKE_UNAME=$1 run_sh "backend_refused fprobe 'this kernel has no ftrace_regs fprobe'" >/dev/null
	case $2 in
	SKIP) t "refused fprobe on $1 is a SKIP" grep -q '^ok - .*# SKIP' "$tmp/tap" ;;
	FAIL) t "refused fprobe on $1 is a failure" grep -q '^not ok - backend=fprobe refused' "$tmp/tap" ;;
	esac
done
# GKI: no function tracer, so neither fprobe nor ftrace, whatever the version
TRACEFS=$tmp/noftrace FAKE_UNAME=7.3.4-rs-stock run_sh "backend_refused fprobe 'no fprobe'" >/dev/null
t "refused fprobe on 7.3.4 without a function tracer (GKI) is a SKIP" grep -q '^ok - .*# SKIP' "$tmp/tap"
TRACEFS=$tmp/noftrace FAKE_UNAME=7.3.4-rs-stock run_sh "backend_refused ftrace 'no ftrace args'" >/dev/null
t "refused ftrace without a function tracer (GKI) is a SKIP" grep -q '^ok - .*# SKIP' "$tmp/tap"
FAKE_UNAME=7.3.4-rs-stock run_sh "backend_refused ftrace 'no ftrace args'" >/dev/null
t "refused ftrace with a function tracer is a failure" grep -q '^not ok - backend=ftrace refused' "$tmp/tap"
FAKE_UNAME=6.12.57 run_sh "backend_refused kprobe 'no kprobes'" >/dev/null
t "refused kprobe is a failure on any kernel" grep -q '^not ok - backend=kprobe refused' "$tmp/tap"

echo "# vm-lib: $pass passed, $fail failed"
[ "$fail" = 0 ]
