#!/usr/bin/env bash
# The virtual-time lab's storage (scripts/vm --storage, --swap, --clock;
# scripts/guest/storage.sh): what cannot run is refused before the guest
# boots, with the reason; a null_blk profile's latency is what a cold
# fault waits in the guest (faultload's own p50, on the guest's icount
# clock), the host's disk is not read during the run, and zram swaps.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=$(mktemp -d "$RS_BUILD/check-storage.XXXXXX")
trap 'rm -rf "$out"' EXIT
img=$(kernel_image stock 2>/dev/null) || { not_ok "no stock kernel to boot"; exit 1; }
disk=$("$top/scripts/mkdisk")
fl=$(guest_tool x86_64 faultload)

# refused DESC WANT [ENV=V...] -- VM ARGS: scripts/vm exits non-zero, says
# WANT (a regex), and never boots
refused() {
	local desc=$1 want=$2 envs=() rc=0
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" "$top/scripts/vm" --kernel "$img" "$@" -- true >"$out/refused.log" 2>&1 || rc=$?
	if [ "$rc" != 0 ] && grep -qE "$want" "$out/refused.log" && ! grep -q '] boot ' "$out/refused.log"; then
		ok "$desc: refused before boot ($(grep -m1 'error' "$out/refused.log" | cut -c1-160))"
	else
		sed 's/^/#   /' "$out/refused.log" | tail -n 5
		not_ok "$desc: want a refusal matching '$want' before boot, got exit $rc"
	fi
}
refused "icount on multi-threaded TCG" 'needs single-threaded TCG' RS_TCG_THREAD=multi -- --clock icount
refused "--clock bogus" 'must be host or icount' -- --clock bogus
refused "icount under KVM" 'TCG only' RS_ACCEL=kvm -- --clock icount:2
refused "--storage of no profile" 'no .*configs/storage/nosuch.conf' -- --disk "$disk" --storage nosuch
refused "--storage without --disk" 'give --disk' -- --storage ufs31
refused "--swap zram without a size" 'give the size' -- --swap zram
refused "--swap bogus" 'must be disk or zram' -- --swap bogus --swap-disk 64M
# A kernel whose .config has no null_blk (a build directory of its own with
# the same image): the reason names the option
fake=$out/fake-obj
mkdir -p "$fake/arch/x86/boot"
ln -s "$img" "$fake/arch/x86/boot/bzImage"
grep -v '^CONFIG_BLK_DEV_NULL_BLK=' "$(dirname "$img")/../../../.config" >"$fake/.config"
img_real=$img
img=$fake/arch/x86/boot/bzImage
refused "a kernel without null_blk" 'needs CONFIG_BLK_DEV_NULL_BLK=y' -- --disk "$disk" --storage ufs31
img=$img_real

# boot STORAGE SWAP CLOCK TAG: one cold random read run on that lab; the
# guest's storage record, faultload's JSON and the host disks' I/O
# count over the run in $out/TAG
boot() {
	# shellcheck disable=SC2016 # expanded by the guest's shell
	"$top/scripts/vm" --kernel "$img" --disk "$disk" --storage "$1" --swap "$2" --swap-disk 128M \
		--clock "$3" --add "$fl" --out "$out/$4" --timeout 300 -- sh -c '
		cp /run/retryscope-storage /out/storage
		cat /proc/swaps >/out/swaps
		a=$(cat /sys/block/vd*/stat | awk "{ s += \$1 + \$5 } END { print s }")
		faultload file-major --madv random --threads 2 --duration 0.5 --json /tmp/f.json >/out/f.log 2>&1
		rc=$?
		b=$(cat /sys/block/vd*/stat | awk "{ s += \$1 + \$5 } END { print s }")
		cp /tmp/f.json /out/f.json
		echo $((b - a)) >/out/host-ios
		exit $rc' >"$out/$4.log" 2>&1
}
# p50 TAG: faultload's io p50 (us) of the run
p50() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["classes"]["io"]["latency_ns"]["p50"] / 1000)' \
		"$out/$1/f.json" 2>/dev/null
}
for lab in "ufs31 disk icount 100000" "emmc51 zram icount 300000" "virtio disk host 0"; do
	read -r st sw ck nsec <<<"$lab"
	tag=$st-$sw-$ck
	if ! boot "$st" "$sw" "$ck" "$tag"; then
		tail -n 8 "$out/$tag.log" | sed 's/^/#   /'
		not_ok "$tag: the guest ran the cold read"
		continue
	fi
	rec=$(tr '\n' ' ' <"$out/$tag/storage")
	dev=vda
	[ "$st" = virtio ] || dev=rsdata
	swapdev=$(status_get "$out/$tag/storage" swap_dev)
	check "$tag: /mnt/disk on $dev, swap on $swapdev in /proc/swaps ($rec)" \
		sh -c "grep -qx 'data_dev=$dev' '$out/$tag/storage' && grep -q '^/dev/$swapdev ' '$out/$tag/swaps'"
	p=$(p50 "$tag")
	ios=$(cat "$out/$tag/host-ios")
	if [ "$st" = virtio ]; then
		check "virtio: the run read the host's disk ($ios I/Os; p50 $p us)" test "$ios" -gt 0
		continue
	fi
	check "$tag: the run did not touch the host's disks ($ios I/Os)" test "$ios" = 0
	# a cold 4 KiB read waits at least the profile's latency, and not
	# three times as long (the rest is the guest's own fault path)
	check "$tag: a cold fault's p50 ($p us) is the profile's ${nsec} ns and the guest's fault path" \
		awk -v p="$p" -v n="$nsec" 'BEGIN { exit !(p * 1000 >= n && p * 1000 < 3 * n) }'
done
