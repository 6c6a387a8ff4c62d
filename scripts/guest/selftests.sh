#!/bin/sh
# shellcheck shell=sh
# scripts/guest/selftests.sh (runs in the guest, busybox sh): the kernel's
# mm selftests, one at a time.
#
#   selftests.sh DIR OUT [TIMEOUT] [ONLY] [RUNS]
#
# Runs every executable in DIR, or those ONLY names (comma-separated; "all"
# is every one), RUNS times each (default 1; sorted, all tests once, then
# again; scripts/build-selftests builds them
# static), each from a fresh cwd under /tmp, stdin /dev/null, under busybox
# timeout TIMEOUT seconds (default 120), output to OUT/<name>.log and the
# kernel log it caused to OUT/<name>.dmesg (<name>.runN.* for runs after
# the first).  Appends to OUT/selftests.tsv:
#   name result rc seconds tap_pass tap_fail tap_skip note
# result: pass (rc 0), skip (rc 4, KSFT_SKIP), timeout (ended non-zero at
# TIMEOUT or later: killed), fail (anything else, a crash by a signal too),
# notrun (see notrun() below), or oops when the test left Oops/BUG:/
# WARNING:/KASAN in dmesg, whatever its rc.  tap_* count the TAP lines
# "ok N", "not ok N" and "ok N ... # SKIP"; a pass with "not ok" cases stays
# pass and says so in note.
# OUT/dmesg.txt keeps the whole kernel log; OUT/current names the test that
# is running (what a guest panic interrupted).
set -u
dir=$1 out=$2 tmo=${3:-120} only=${4:-all} runs=${5:-1}
tsv=$out/selftests.tsv
mkdir -p "$out"
printf 'name\tresult\trc\tseconds\ttap_pass\ttap_fail\ttap_skip\tnote\n' >"$tsv"

# notrun NAME: why NAME is not run here, or nothing.  Only tests that are
# not tests, or that their upstream wrapper would not run here either.
notrun() {
	case $1 in
	write_to_hugetlbfs) echo "a helper of charge_reserved_hugetlb.sh, not a test" ;;
	hmm-tests)
		# test_hmm.sh loads test_hmm.ko first; hmm-tests alone fails every case.
		[ -e /dev/hmm_dmirror0 ] || echo "no /dev/hmm_dmirror0: needs the test_hmm module (CONFIG_TEST_HMM), as test_hmm.sh does"
		;;
	memory-failure)
		# run_vmtests.sh skips it when hwpoison_inject is missing.
		[ -d /sys/kernel/debug/hwpoison ] || echo "no /sys/kernel/debug/hwpoison (CONFIG_HWPOISON_INJECT), as run_vmtests.sh skips it"
		;;
	*) ;;
	esac
}
# args NAME: the arguments run_vmtests.sh gives (its first invocation).
args() {
	case $1 in
	uffd-stress) echo "anon 20 16" ;;
	transhuge-stress) echo "-d 20" ;;
	ksm_tests) echo "-M -p 10" ;;
	gup_test) echo "-ct -F 0x1 0 19 0x1000" ;;
	*) ;;
	esac
}

# What the tests expect, where it is cheap; every step may fail (a lab
# kernel without hugetlbfs, THP, KSM ...) and the tests then skip.
{
	echo 64 >/proc/sys/vm/nr_hugepages
	mkdir -p /dev/hugepages
	mount -t hugetlbfs none /dev/hugepages
	# An oops should be recorded and the run go on (scripts/vm boots oops=panic).
	echo 0 >/proc/sys/kernel/panic_on_oops
} 2>/dev/null
# on-fault-limit tests RLIMIT_MEMLOCK and skips as root: run it as nobody
# (scripts/vm's initramfs root is mode 0700, which locks nobody out).
chmod 755 /
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
grep -q '^nogroup:' /etc/group || echo 'nogroup:x:65534:' >>/etc/group
as_nobody=0
su -s /bin/sh nobody -c true </dev/null >/dev/null 2>&1 && as_nobody=1
# Run copies from tmpfs, not the 9p share: the tests fault on their own text.
bin=/tmp/selftests-bin
rm -rf "$bin"
mkdir -p "$bin"
{
	echo "release=$(uname -r)"
	echo "timeout=$tmo"
	echo "cmdline=$(cat /proc/cmdline)"
	echo "mem_kb=$(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
	echo "nproc=$(grep -c '^processor' /proc/cpuinfo)"
	echo "as_nobody=$as_nobody"
} >"$out/meta"
dmesg -c >"$out/dmesg.txt"

run=0
while [ "$run" -lt "$runs" ]; do
run=$((run + 1))
for path in "$dir"/*; do # the glob is sorted
	f=${path##*/}
	if [ ! -f "$path" ] || [ ! -x "$path" ]; then continue; fi
	case $only in all) ;; *) case ,$only, in *,"$f",*) ;; *) continue ;; esac ;; esac
	why=$(notrun "$f")
	if [ -n "$why" ]; then
		printf '%s\tnotrun\t-\t0\t0\t0\t0\tnot run: %s\n' "$f" "$why" >>"$tsv"
		continue
	fi
	cp "$path" "$bin/$f"
	cwd=/tmp/selftests-cwd/$f
	rm -rf "$cwd"
	mkdir -p "$cwd"
	# as run_vmtests.sh runs them, from their own directory:
	# ksm_functional_tests execs ./ksm_functional_tests
	ln -s "$bin/$f" "$cwd/$f"
	# One log per run: <test>.log, then <test>.run2.log ...
	sfx=
	[ "$run" = 1 ] || sfx=.run$run
	log=$out/$f$sfx.log
	a=$(args "$f")
	echo "$f" >"$out/current"
	echo "selftests: $f $a (timeout ${tmo}s, run $run of $runs)" >&2
	echo "=== selftest $f $a" >/dev/kmsg
	t0=$(date +%s)
	if [ "$f" = on-fault-limit ] && [ "$as_nobody" = 1 ]; then
		chmod 777 "$cwd"
		(cd "$cwd" && timeout -k 10 "$tmo" su -s /bin/sh nobody -c "$bin/$f") </dev/null >"$log" 2>&1
	else
		# shellcheck disable=SC2086 # $a is a list of arguments
		(cd "$cwd" && exec timeout -k 10 "$tmo" "$bin/$f" $a) </dev/null >"$log" 2>&1
	fi
	rc=$?
	secs=$(($(date +%s) - t0))
	note=
	case $rc in
	0) res=pass ;;
	4) res=skip ;;
	124) res=timeout ;;
	*)
		# busybox timeout execs the test and signals it at TIMEOUT: rc
		# 128+signal, or 1 from the tests whose SIGTERM handler restores
		# THP/hugetlb settings and exits KSFT_FAIL.  Only a kill ends a
		# test that late: a non-zero exit at TIMEOUT or later is a timeout.
		if [ "$secs" -ge "$tmo" ]; then
			res=timeout
		else
			res=fail
			[ "$rc" -le 128 ] || note="killed by signal $((rc - 128))"
		fi
		;;
	esac
	[ "$res" = timeout ] && note="killed after ${tmo}s"
	dmesg -c >"$out/$f$sfx.dmesg"
	cat "$out/$f$sfx.dmesg" >>"$out/dmesg.txt"
	hit=$(grep -m1 -E 'Oops|BUG:|WARNING:|KASAN|general protection fault' "$out/$f$sfx.dmesg")
	if [ -n "$hit" ]; then
		res=oops
		note="${note:+$note; }$(echo "$hit" | sed 's/^\[[ 0-9.]*\] //' | tr '\t' ' ')"
	fi
	tp=$(grep -E '^ok [0-9]+' "$log" | grep -c -v '# SKIP')
	tf=$(grep -c -E '^not ok [0-9]+' "$log")
	ts=$(grep -E '^(not )?ok [0-9]+' "$log" | grep -c '# SKIP')
	if [ -z "$note" ]; then
		case $res in
		fail) # the first failed case (and how many), else the bail-out
			note=$(grep -m1 -E '^not ok [0-9]+' "$log")
			[ "$tf" -le 1 ] || note="$note (+$((tf - 1)) more)"
			[ -n "$note" ] || note=$(grep -m1 '^Bail out!' "$log")
			[ -n "$note" ] || note=$(grep -v '^$' "$log" | tail -n 1)
			;;
		pass) # kselftest programs that exit 0 after a failed case (mremap_test)
			[ "$tf" -eq 0 ] || note="exit 0, but $tf TAP case(s) not ok: $(grep -m1 -E '^not ok [0-9]+' "$log")"
			;;
		skip) # the first skip reason
			note=$(grep -m1 -E '# SKIP|^Bail out!' "$log")
			[ -n "$note" ] || note=$(grep -v '^$' "$log" | tail -n 1)
			;;
		esac
		note=$(printf '%s' "$note" | cut -c1-150 | tr '\t' ' ')
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$res" "$rc" "$secs" "$tp" "$tf" "$ts" "$note" >>"$tsv"
	# Children that outlived the test (timeout kills only its main process):
	# those running its binary or sitting in its cwd.
	for p in /proc/[0-9]*; do
		if [ "$(readlink "$p/exe" 2>/dev/null)" = "$bin/$f" ] ||
			[ "$(readlink "$p/cwd" 2>/dev/null)" = "$cwd" ]; then
			kill -9 "${p#/proc/}" 2>/dev/null
		fi
	done
	rm -rf "$cwd" "${bin:?}/$f"
done
done
rm -f "$out/current"
echo finished >"$out/finished"
