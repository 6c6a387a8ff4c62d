#!/bin/sh
# scripts/guest/storage.sh (in the guest, busybox sh; /init runs it before
# the command): the data disk and the swap that scripts/vm --storage and
# --swap asked for, from the variables scripts/vm wrote to /ctl/env:
#
#   RS_STORAGE        virtio: the data disk is /dev/vda as qemu gives it
#                     (throttled in host time); a profile name: the image
#                     on /dev/vda is copied into a memory-backed null_blk
#                     whose requests complete on a guest hrtimer after
#                     RS_NULLB_NSEC ns, RS_NULLB_QD in flight, at most
#                     RS_NULLB_MAX_SECTORS sectors each (configs/storage/)
#   RS_SWAP           none, disk (/dev/vdb under virtio, a null_blk of the
#                     same profile otherwise) or zram (/dev/zram0)
#   RS_SWAP_BYTES     the swap device's size
#
# Mounts the data disk read-only at /mnt/disk and turns the swap on.  What
# it set up goes to /run/retryscope-storage (key=value: storage, data_dev,
# swap, swap_dev, completion_nsec, hw_queue_depth), which scripts/guest/
# capture.sh copies into every run's meta.  On failure it writes the
# reason to $RS_STORAGE_ERR (default /ctl/storage-error) and exits 1: /init
# then runs no command and scripts/vm prints the reason (lava-run.sh: the
# job fails with it).
set -u
storage=${RS_STORAGE:-virtio} swap=${RS_SWAP:-none} swap_bytes=${RS_SWAP_BYTES:-0}
rec=/run/retryscope-storage

fail() {
	echo "storage: $*" >"${RS_STORAGE_ERR:-/ctl/storage-error}"
	echo "retryscope-guest: storage: $*"
	exit 1
}

# nullb NAME MB: a memory-backed null_blk of MB MiB with the profile's
# latency, queue depth and request size; prints its /dev path.
nullb() {
	d=/sys/kernel/config/nullb/$1
	[ -d /sys/kernel/config/nullb ] || fail "no /sys/kernel/config/nullb: the kernel has no null_blk (CONFIG_BLK_DEV_NULL_BLK=y, configs/common.config)"
	mkdir "$d" || fail "cannot create null_blk device $1"
	for kv in "size=$2" memory_backed=1 blocksize=4096 irqmode=2 \
		"completion_nsec=$RS_NULLB_NSEC" "hw_queue_depth=$RS_NULLB_QD" \
		"max_sectors=$RS_NULLB_MAX_SECTORS" power=1; do
		echo "${kv#*=}" >"$d/${kv%%=*}" || fail "null_blk $1: cannot set ${kv%%=*} to ${kv#*=}"
	done
	# 6.0 and later name the disk after the configfs directory; before,
	# nullb<index>
	if [ -b "/dev/$1" ]; then
		echo "/dev/$1"
	elif [ -b "/dev/nullb$(cat "$d/index")" ]; then
		echo "/dev/nullb$(cat "$d/index")"
	else
		fail "null_blk $1 powered on but no block device appeared"
	fi
}

mkdir -p /mnt/disk /run
data=none
case $storage in
virtio)
	# no --disk: no data disk (a boot that only runs a command)
	[ ! -b /dev/vda ] || data=/dev/vda
	;;
*)
	[ -b /dev/vda ] || fail "no /dev/vda (scripts/vm --disk): nothing to copy to the $storage data disk"
	[ -d /sys/kernel/config ] || fail "no /sys/kernel/config (CONFIG_CONFIGFS_FS)"
	grep -q configfs /proc/mounts || mount -t configfs configfs /sys/kernel/config ||
		fail "cannot mount configfs"
	bytes=$(blockdev --getsize64 /dev/vda) || fail "cannot read the size of /dev/vda"
	data=$(nullb rsdata $(((bytes + 1048575) / 1048576))) || exit 1
	# Filled before any window opens; then both page caches are dropped,
	# so the first read of a page in a run comes from the null_blk.
	dd if=/dev/vda of="$data" bs=1M 2>/dev/null || fail "copying /dev/vda to $data failed"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	;;
esac
[ "$data" = none ] || mount -t ext4 -o ro "$data" /mnt/disk || fail "cannot mount $data (ext4) at /mnt/disk"

swap_dev=none
case $swap in
none) ;;
disk)
	if [ "$storage" = virtio ]; then
		swap_dev=/dev/vdb
		[ -b "$swap_dev" ] || fail "--swap disk under virtio storage needs /dev/vdb (scripts/vm --swap-disk SIZE)"
	else
		swap_dev=$(nullb rsswap $((swap_bytes / 1048576))) || exit 1
	fi
	mkswap "$swap_dev" >/dev/null || fail "mkswap $swap_dev failed"
	;;
zram)
	swap_dev=/dev/zram0
	[ -b "$swap_dev" ] || fail "no /dev/zram0 (CONFIG_ZRAM)"
	echo "$swap_bytes" >/sys/block/zram0/disksize || fail "cannot set zram0's disksize to $swap_bytes"
	mkswap "$swap_dev" >/dev/null || fail "mkswap $swap_dev failed"
	;;
*) fail "RS_SWAP must be none, disk or zram, not '$swap'" ;;
esac
[ "$swap_dev" = none ] || swapon "$swap_dev" || fail "swapon $swap_dev failed"

{
	echo "storage=$storage"
	echo "data_dev=${data#/dev/}"
	echo "swap=$swap"
	echo "swap_dev=${swap_dev#/dev/}"
	if [ "$storage" != virtio ]; then
		echo "completion_nsec=$RS_NULLB_NSEC"
		echo "hw_queue_depth=$RS_NULLB_QD"
		echo "max_sectors=$RS_NULLB_MAX_SECTORS"
	fi
	[ "$swap" != zram ] || echo "zram_comp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/zram0/comp_algorithm)"
} >"$rec"
