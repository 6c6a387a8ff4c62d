# retryscope: measure page-fault retries and mmap_lock fallbacks, stock vs
# the VM_FAULT_RETRY_VMA series.  See README.md.
#
#   make compare   set up, build the six kernels, run the scenarios, write the report
#   make check     the test suite (ends with "N passed, N failed, N skipped")

SHELL := /bin/bash
BASE ?= 7.3
KDIR ?= $(CURDIR)/build/obj/$(BASE)-stock-x86_64
VARIANTS ?= stock rfc v2 anon-only retry-hard no-drop

.PHONY: all setup kernels module tools check check-debug compare bench check-arches check-series clean help

all: kernels module tools

help:
	@sed -n '1,8p' Makefile

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
# (KASAN, lockdep, kmemleak); not in CI's budget, see README.md.
check-debug:
	RS_DEBUG=1 tests/run 'kernels|module'

compare:
	scripts/compare --variants "$(VARIANTS)"

bench:
	scripts/bench

check-series:
	scripts/check-series --base 7.3
	scripts/check-series --base 6.12

# Every 7.3 variant but stock (they all touch the seven arches' fault
# handlers), and the 6.12 backport.
check-arches:
	for v in $(filter-out stock,$(VARIANTS)); do scripts/check-arches --base 7.3 --variant $$v || exit 1; done
	scripts/check-arches --base 6.12

clean:
	rm -rf build/mod build/check build/vm
	-$(MAKE) -C tools clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
