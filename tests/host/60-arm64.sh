#!/usr/bin/env bash
# arm64, Android's arch (issue 18).  Always: the guest's programs
# (faultload, rs-snap, rs-edgecase) cross-build static for arm64 against
# Debian's arm64 packages (scripts/build-tools, scripts/userland).  With the
# arm64 lab kernels: scripts/vm's contract on arm64 stock (a command's exit
# status and output, a panic, a hang, an x86 binary refused), and the
# module's tests on arm64 stock and rfc exactly as 40-module runs them on
# x86_64 (W=1 and sparse, tests/vm/module.sh, counts.sh, module-stress.sh,
# the kernel console).  `make check-arm64` (RS_ARM64=1) builds those two
# kernels first; `make check` runs these when they are built and skips
# them otherwise: two arm64 builds from a cold cache take more than CI's
# budget (docs/testing.md, "arm64 is outside CI's budget").
set -uo pipefail
. "$(dirname "$0")/lib.sh"
mkdir -p "$RS_BUILD/check"

t0=$(date +%s)
if dir=$("$top/scripts/build-tools" --arch arm64 2>"$RS_BUILD/check/tools-arm64.log"); then
	for t in faultload rs-snap rs-edgecase; do
		desc=$(file -L "$(guest_tool arm64 "$t")")
		if grep -q 'ARM aarch64.*statically linked' <<<"$desc"; then
			ok "arm64: $t cross-builds static (${dir#"$top"/})"
		else
			not_ok "arm64: $t is not a static arm64 binary: $desc"
		fi
	done
	ok "arm64: guest programs built in $(($(date +%s) - t0)) s"
else
	sed 's/^/#   /' "$RS_BUILD/check/tools-arm64.log" | tail -n 20
	not_ok "arm64: scripts/build-tools --arch arm64"
fi
# A file gone from the sysroot brings its package back (the stamps once
# only said "unpacked", and a deleted file stayed deleted).  The file is
# one the guest never uses.
root=$RS_BUILD/userland/arm64/root
gone=usr/share/initramfs-tools/hooks/zz-busybox
if [ -f "$root/$gone" ]; then
	rm -f "$root/$gone"
	"$top/scripts/userland" --arch arm64 >/dev/null 2>"$RS_BUILD/check/userland-arm64.log"
	if [ -f "$root/$gone" ]; then
		ok "arm64: scripts/userland unpacks again a package whose file was deleted ($gone)"
	else
		sed 's/^/#   /' "$RS_BUILD/check/userland-arm64.log" | tail -n 5
		not_ok "arm64: $gone deleted from the sysroot stays deleted after scripts/userland"
	fi
else
	not_ok "arm64: busybox-static unpacked no $gone (scripts/userland)"
fi

imgs=()
for v in stock patched; do
	img=$(obj_dir 7.3 "$v" arm64)/$(kernel_image_rel arm64)
	if [ -n "${RS_ARM64:-}" ]; then
		t0=$(date +%s)
		if ! img=$("$top/scripts/build-kernel" --base 7.3 --variant "$v" --arch arm64 2>"$RS_BUILD/check/kernel-arm64-$v.log"); then
			tail -n 20 "$RS_BUILD/check/kernel-arm64-$v.log" | sed 's/^/#   /'
			not_ok "arm64 $v: kernel build"
			continue
		fi
		ok "arm64 $v: kernel built or up to date in $(($(date +%s) - t0)) s"
	elif [ ! -f "$img" ]; then
		ok "arm64 $v: scripts/vm and module tests # SKIP kernel not built (make check-arm64 builds it)"
		continue
	fi
	imgs+=("$v:$img")
done
[ "${#imgs[@]}" -gt 0 ] || exit 0

out=$(mktemp -d "$RS_BUILD/check-vm-arm64.XXXXXX")
trap 'rm -rf "$out"' EXIT
stock_img=''
for vi in "${imgs[@]}"; do
	[ "${vi%%:*}" != stock ] || stock_img=${vi#*:}
done
if [ -n "$stock_img" ]; then
	vm_command_test arm64-stock "$stock_img" "$out"
	vm_crash_tests arm64-stock "$stock_img" "$out"
	# An x86 program in an arm64 guest would only fail there, as "not found".
	msg=$("$top/scripts/vm" --kernel "$stock_img" --add "$top/tools/snap/rs-snap" --timeout 60 -- true 2>&1)
	rc=$?
	if [ "$rc" != 0 ] && grep -q 'is not an arm64 binary' <<<"$msg"; then
		ok "arm64: scripts/vm refuses an x86-64 --add before booting (exit $rc)"
	else
		printf '%s\n' "$msg" | tail -n 5 | sed 's/^/#   /'
		not_ok "arm64: scripts/vm --add of an x86-64 binary (exit $rc)"
	fi
	# docs/android.md's way for a device kernel: make module KDIR=... ARCH=arm64 ...
	make_module_test arm64-stock "$(obj_dir 7.3 stock arm64)" ARCH=arm64 CROSS_COMPILE="$(cross_prefix arm64)"
fi

disk=$("$top/scripts/mkdisk") || { not_ok "test disk"; exit 1; }
for vi in "${imgs[@]}"; do
	v=${vi%%:*} img=${vi#*:}
	ko=$(module_build_test "arm64-$v" "$(obj_dir_of "$img")") || continue
	module_vm_tests "arm64-$v" "$img" "$ko" "$v" "$disk"
done

# The GKI base built as Android builds it, with clang (scripts/build-kernel
# --base 6.12 --arch arm64 --llvm), when built: docs/android.md's device command
# (make module ... ARCH=arm64 LLVM=1) and the module's tests on it.
gki=$(obj_dir 6.12 stock arm64)-llvm
if [ -f "$gki/$(kernel_image_rel arm64)" ]; then
	make_module_test arm64-6.12-llvm "$gki" ARCH=arm64 LLVM=1
	ko=$(module_build_test arm64-6.12-llvm "$gki") &&
		module_vm_tests arm64-6.12-llvm "$gki/$(kernel_image_rel arm64)" "$ko" stock "$disk"
else
	ok "arm64 6.12 (clang): make module LLVM=1 and module tests # SKIP kernel not built (scripts/build-kernel --base 6.12 --arch arm64 --llvm)"
fi

# The GKI-shaped 7.3 kernel (scripts/build-kernel --gki: no function tracer,
# so kprobes only; issue 30), when built: the module's tests there, counts.sh's
# light=1 case among them.
gki=$(obj_dir 7.3 stock arm64)-gki
if [ -f "$gki/$(kernel_image_rel arm64)" ]; then
	ko=$(module_build_test arm64-gki "$gki") &&
		module_vm_tests arm64-gki "$gki/$(kernel_image_rel arm64)" "$ko" stock "$disk"
else
	ok "arm64 GKI-shaped 7.3: module tests # SKIP kernel not built (scripts/build-kernel --arch arm64 --gki)"
fi
