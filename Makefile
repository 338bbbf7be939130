# SPDX-License-Identifier: GPL-2.0
#
# dpillar: kernel module, control tool, simulator, tests.
#
#   make                 module for KDIR + dpctl + dpsim
#   make KDIR=<dir>      build the module against another kernel tree
#   make install         module (then depmod), dpctl, man page
#   make deps            install the Debian packages everything needs
#   make check           all tests (host, module builds, guest selftests)
#   make check TESTS=link,genl KERNELS=6.12    a subset (scripts/check.sh)
#   make demo            boot a guest and build a DPillar fabric in it
#   make fuzz            libFuzzer targets of the routing core, the Hello
#                        TLV parser and the address parsers, FUZZ_TIME s each
#                        (default 600; make check runs them 20 s each)

# A real server builds for the kernel it runs.  This project's own machines
# cannot load modules and have no headers for their running kernel, so fall
# back to the newest Debian headers that `make deps` installed.
KVER ?= $(shell uname -r)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
	  $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | \
		  grep -v -e cloud -e '-rt-' | sort -V | tail -n 1))

PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man

.PHONY: all module tools dpctl dpsim modules_install install clean \
	deps check demo bench checkpatch fuzz

all: module tools

module:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || \
		{ echo "No kernel build tree: run 'make deps' or set KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools: dpctl dpsim

dpctl:
	$(MAKE) -C tools/dpctl

dpsim:
	$(MAKE) -C tools/dpsim

# DESTDIR works for the module too (kbuild calls it INSTALL_MOD_PATH), so
# packagers can stage everything in one tree.
modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install

install: modules_install dpctl
	install -D -m 0755 tools/dpctl/dpctl $(DESTDIR)$(SBINDIR)/dpctl
	install -D -m 0644 Documentation/dpctl.8 $(DESTDIR)$(MANDIR)/man8/dpctl.8

deps:
	sh scripts/deps.sh

# TESTS and KERNELS only from make's command line: a variable of that
# name in CI's environment must not shrink make check.
check:
	bash scripts/check.sh \
		$(if $(filter command line,$(origin TESTS)),--tests '$(TESTS)') \
		$(if $(filter command line,$(origin KERNELS)),--kernels '$(KERNELS)')

demo:
	bash scripts/demo.sh

bench:
	bash scripts/bench.sh

checkpatch:
	bash scripts/checkpatch.sh

FUZZ_TIME ?= 600
fuzz:
	$(MAKE) -C tools/fuzz run FUZZ_TIME=$(FUZZ_TIME)

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/dpctl clean
	$(MAKE) -C tools/dpsim clean
	$(MAKE) -C tools/fuzz clean
	rm -rf build
