# retryscope: measure page-fault retries and mmap_lock fallbacks, stock vs
# the VM_FAULT_RETRY_VMA series.  See README.md.
#
#   make compare   set up, build the six kernels, run the scenarios, write the report
#   make check     the test suite (ends with "N passed, N failed, N skipped")
#   make compare ARCH=arm64, make check-arm64: the same on arm64 kernels

SHELL := /bin/bash
BASE ?= 7.3
KDIR ?= $(CURDIR)/build/obj/$(BASE)-stock-x86_64
# The lab kernels' arch: x86_64, or arm64 (cross-built, qemu -M virt).
ARCH ?= x86_64
ifeq ($(ARCH),arm64)
VARIANTS ?= stock rfc v2
else
VARIANTS ?= stock rfc v2 anon-only retry-hard no-drop
endif

.PHONY: all setup kernels module tools check check-arm64 check-debug compare bench check-arches check-arches-boot check-arches-module check-arches-selftests check-series clean clean-module help

all: kernels module tools

help:
	@sed -n '1,9p' Makefile

setup:
	scripts/setup

kernels: setup
	scripts/build-kernel --base $(BASE) --variant stock
	scripts/build-kernel --base $(BASE) --variant patched

# The module against KDIR (default: the lab's stock kernel); for your own
# kernel: make module KDIR=/lib/modules/$(uname -r)/build
module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools

check:
	tests/run

# The module's VM tests and the load/unload stress on the lab's debug kernels
# (KASAN, lockdep, kmemleak); not in CI's budget, see docs/testing.md.
# The arm64 tests with the arm64 stock and rfc kernels built first (two
# cross builds, about 50 minutes cold): beyond CI's budget (docs/testing.md).
check-arm64:
	RS_ARM64=1 tests/run arm64

check-debug:
	RS_DEBUG=1 tests/run 'kernels|module'

compare:
	scripts/compare --arch $(ARCH) --variants "$(VARIANTS)"

bench:
	scripts/bench --arch $(ARCH)

check-series:
	scripts/check-series --base 7.3
	scripts/check-series --base 6.12

# Every 7.3 variant but stock (they all touch the seven arches' fault
# handlers), and the 6.12 backport.
check-arches:
	for v in $(filter-out stock,$(VARIANTS)); do scripts/check-arches --base 7.3 --variant $$v || exit 1; done
	scripts/check-arches --base 6.12

# The five other arches booted under qemu TCG, stock and the RFC series (and
# retry-hard: ARCHES_BOOT_VARIANTS="stock rfc retry-hard"), with the faults'
# verdict from /proc/vmstat (docs/arches.md): about 10 minutes a kernel on
# 2 cores, outside make check's budget, like check-arm64.
ARCHES_BOOT_VARIANTS ?= stock rfc
check-arches-boot: setup
	scripts/boot-arches --variants "$(ARCHES_BOOT_VARIANTS)"

# The same with retryscope.ko loaded in each guest (kernels with
# configs/arches/module.config, built beside the others): its counts
# against /proc/vmstat and getrusage(), per backend the arch has.
check-arches-module: setup
	scripts/boot-arches --module --variants "$(ARCHES_BOOT_VARIANTS)"

# The mm selftests on those kernels (and arm64's lab kernels), stock vs rfc,
# test by test (docs/arches.md): boots check-arches-boot's kernels, which it
# needs built; a few minutes a kernel, outside make check's budget.
check-arches-selftests: setup
	scripts/arch-selftests

clean: clean-module
	rm -rf build/mod build/check build/vm
	-$(MAKE) -C tools clean

# What make module leaves in the checkout, removed by name: the kernel's M=
# clean would also delete every object below build/ (Kbuild refuses it).
clean-module:
	rm -f retryscope.ko retryscope.o retryscope.mod retryscope.mod.c retryscope.mod.o \
		Module.symvers modules.order .module-common.o .*.cmd module/*.o module/.*.cmd
