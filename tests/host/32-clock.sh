#!/usr/bin/env bash
# The guest's clock under qemu's instruction counting (scripts/vm RS_ICOUNT,
# as make bench runs) follows the guest's own work, not the host: a fixed
# amount of guest work (faultload minor, anonymous, a fixed number of passes),
# timed by the guest's clock, takes the same guest time with the host idle and
# beside a CPU hog on every host core.  The same pair on the host's clock (no
# icount) shows that the hog does move that clock, so the comparison can fail.
# Both under TCG (RS_ACCEL=tcg: icount has no KVM); the host-clock half is a
# SKIP on a host that the hog does not slow.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=$(mktemp -d "$RS_BUILD/check-clock.XXXXXX")
trap 'hog_stop; rm -rf "$out"' EXIT
shift_n=${RS_CLOCK_SHIFT:-2}
img=$(kernel_image stock 2>/dev/null) || { not_ok "no stock kernel to boot"; exit 1; }

# guest_time CLOCK TAG: the guest-measured seconds (faultload's wall_s, from
# clock_gettime in the guest) of the fixed work; CLOCK icount or host
guest_time() {
	local clock=$1 tag=$2 icount=()
	[ "$clock" = host ] || icount=(RS_ICOUNT="$shift_n")
	env "${icount[@]}" RS_TCG_THREAD=single RS_ACCEL=tcg "$top/scripts/vm" --kernel "$img" --out "$out/$tag" \
		--add "$(guest_tool x86_64 faultload)" --timeout 600 -- \
		sh -c 'faultload minor --kind anon --threads 1 --size 4M --passes 20 --json /out/f.json >/out/f.log 2>&1' \
		>"$out/$tag.log" 2>&1 || { tail -n 10 "$out/$tag.log" | sed 's/^/#   /' >&2; return 1; }
	sed -n 's/.*"wall_s": *\([0-9.]*\).*/\1/p' "$out/$tag/f.json" | head -n 1
}

# ratio A B: B / A to 3 places
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (a > 0 ? b / a : 0) }'; }

for clock in icount host; do
	t0=$(date +%s)
	idle=$(guest_time "$clock" "$clock-idle") || { not_ok "$clock clock: the idle run"; continue; }
	w_idle=$(($(date +%s) - t0))
	hog_start 600
	t0=$(date +%s)
	busy=$(guest_time "$clock" "$clock-hog")
	rc=$?
	w_busy=$(($(date +%s) - t0))
	hog_stop
	[ "$rc" = 0 ] || { not_ok "$clock clock: the run beside the hog"; continue; }
	r=$(ratio "$idle" "$busy")
	seen="guest time $idle s idle, $busy s beside $(nproc) busy loops (x$r); host time $w_idle s and $w_busy s"
	if [ "$clock" = icount ]; then
		# 2%: the guest's timer interrupts land at the same instruction counts
		check "icount shift=$shift_n: the hog did not move the guest's clock ($seen)" \
			awk -v r="$r" 'BEGIN { exit !(r >= 0.98 && r <= 1.02) }'
	elif awk -v r="$r" 'BEGIN { exit !(r >= 1.1) }'; then
		ok "host clock: the hog moved the guest's clock, as the icount check would see ($seen)"
	else
		ok "host clock: a clock the hog moves # SKIP the hog did not slow this host's TCG ($seen)"
	fi
done
