#!/usr/bin/env bash
# tests/unit/host-window.sh: scripts/lib.sh host_window (the host over one
# run's window, from host_sampler's lines "epoch load1 busy steal total")
# and storage_profile (a configs/storage/ profile's null_blk settings, or a
# refusal that names what is wrong), on fixtures.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=host-window
# shellcheck source=tests/unit/lib/check.sh
. "$top/tests/unit/lib/check.sh"
key() { printf '%s\n' "$1" | awk -v k="$2" -F= '$1 == k { print $2 }'; }

# 100 s of host, 2 CPUs: before the window 50% busy, inside it (t 110..120)
# fully busy with 10% steal; the load peaks at 2.50 inside
s=$tmp/samples
{
	echo "1000 0.50 0 0 0"
	echo "1100 0.60 100 0 200"
	echo "1105 2.50 200 10 300"
	echo "1110 1.90 300 20 400"
	echo "1121 1.00 520 42 620"
	echo "1200 0.10 600 42 800"
} >"$s"
w=$(host_window "$s" 1102 1118)
t "start and end in UTC" "$(key "$w" run_wall_start) $(key "$w" run_wall_end)" \
	"1970-01-01T00:18:22Z 1970-01-01T00:18:38Z"
t "the window's length" "$(key "$w" run_wall_s)" 16
# bracketed by the samples at 1100 and 1121: busy 420 of 420, steal 42
t "busy share between the bracketing samples" "$(key "$w" run_host_busy_pct)" 100.0
t "steal share" "$(key "$w" run_host_steal_pct)" 10.0
t "highest load inside the window" "$(key "$w" run_host_load_max)" 2.5
t "samples inside the window (a second either side)" "$(key "$w" run_host_samples)" 2
w=$(host_window "$s" 1300 1310)
t "a window after the last sample: no shares, said so" "$w" \
	"$(printf 'run_wall_start=1970-01-01T00:21:40Z\nrun_wall_end=1970-01-01T00:21:50Z\nrun_wall_s=10\nrun_host_samples=0')"
w=$(host_window "$tmp/none" 1102 1118)
t "no samples file: run_host_samples=0" "$(key "$w" run_host_samples)" 0

t "the ufs31 profile" "$(storage_profile ufs31)" "100000 32 1024"
t "the emmc51 profile" "$(storage_profile emmc51)" "300000 1 1024"
msg=$( (storage_profile nosuch) 2>&1) && rc=0 || rc=$?
t "a missing profile is refused, the profiles listed (exit $rc)" \
	"$rc:$(printf '%s' "$msg" | grep -c 'no .*configs/storage/nosuch.conf (the profiles: virtio .*ufs31')" "1:1"
mkdir -p "$tmp/top/configs/storage"
printf 'completion_nsec=100us\nhw_queue_depth=4\nmax_sectors=8\n' >"$tmp/top/configs/storage/bad.conf"
msg=$( (RS_TOP=$tmp/top storage_profile bad) 2>&1) && rc=0 || rc=$?
t "a profile with a bad number names the field (exit $rc)" \
	"$rc:$(printf '%s' "$msg" | grep -c "completion_nsec must be a positive whole number, not '100us'")" "1:1"
msg=$( (storage_profile '../x') 2>&1) && rc=0 || rc=$?
t "a profile name with a slash is refused (exit $rc)" "$rc:$(printf '%s' "$msg" | grep -c 'not a profile name')" "1:1"

t_done
