# SPDX-License-Identifier: GPL-2.0
#
# dpillar: kernel module, control tool, simulator, tests.
#
#   make                 module for KDIR + dpctl + dpsim
#   make KDIR=<dir>      build the module against another kernel tree
#   make install         module (then depmod), dpctl, dpsim, man pages,
#                        bash completion, dpillar@.service, the Wireshark
#                        dissector, the ifupdown hook
#                        (/etc/network/if-{pre-up,post-down}.d), the iproute2
#                        plugin (ip link ... type dpillar) in IPLIBDIR
#   make install-tools   the same without the module (DKMS installs it)
#   make deb             Debian packages dpillar-dkms, dpillar-tools and
#                        dpillar-iproute2 (the ip plugin)
#                        (debian/, scripts/deb.sh), here at the top
#   make ns3             tools/ns3/dpns3: TCP throughput (ABT, fairness, flow
#                        completion times) of a fabric in ns-3, routed by
#                        the routing core (Debian's libns3-dev)
#   make deps            install the Debian packages everything needs
#   make check           all tests (host, module builds, guest selftests)
#   make check TESTS=link,genl KERNELS=6.12    a subset (scripts/check.sh)
#   make demo            boot a guest and build a DPillar fabric in it
#                        (TOPO=dcell|bcube|xdcent|s2: that topology's)
#   make bench           the relay data path against a bridge and IPv4
#                        forwarding over veth chains, in instructions
#                        (selftests/bench.sh; DPILLAR_ICOUNT=off: by the
#                        wall clock)
#   make bench-nic       TCP's cost per byte over emulated NICs, dp0
#                        against plain IPv4, in instructions per KiB
#                        (selftests/nic_tcp_cost.sh; BENCH_NIC_MODE=pps:
#                        packets/s, selftests/nic_bench.sh; BENCH_NIC_SPLIT=1:
#                        the relay row per role, sender, relay and receiver
#                        apart, selftests/nic_tcp_split.sh)
#   make fuzz            libFuzzer targets of the routing core, the Hello
#                        TLV parser and the address parsers, FUZZ_TIME s each
#                        (default 600; make check runs them 5 s each)
#   make fuzz-frames     random and mutated frames from a neighbour into a
#                        live DPillar fabric, then an S2 plan-mode one, in a
#                        debug-kernel guest, FUZZ_FRAMES_TIME s each (default
#                        600, a new seed each run, printed; FUZZ_FRAMES_SEED=
#                        replays one; make check runs DPillar's 60 s from a
#                        fixed seed)

# The module is built for the kernel this machine runs, from its headers
# (/lib/modules/$(uname -r)/build), and for no other unless told: a module
# built for the newest other headers would install where the running
# kernel never looks.  KDIR= (a build tree) or KVER= (an installed
# kernel's release) chooses another; this project's own machines, which
# run a kernel without headers, build with scripts/build-modules.sh.
KVER ?= $(shell uname -r)
KDIR ?= $(wildcard /lib/modules/$(KVER)/build)

PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
UNITDIR ?= $(PREFIX)/lib/systemd/system
COMPLDIR ?= $(PREFIX)/share/bash-completion/completions
# The Wireshark dissector: Wireshark's global Lua plugin directory under
# PREFIX ("tshark -G folders": /usr/lib/x86_64-linux-gnu/wireshark/plugins
# on Debian 12 with PREFIX=/usr; Wireshark reads no /usr/local one, see
# Documentation/networking/dpillar-admin-guide.rst, "Capturing frames").
MULTIARCH ?= $(shell $(or $(CC),cc) -print-multiarch 2>/dev/null)
WSLUADIR ?= $(PREFIX)/lib/$(if $(MULTIARCH),$(MULTIARCH)/)wireshark/plugins
# Where ip looks for link_<kind>.so: Debian's ip, only in
# /usr/lib/<multiarch>/ip (so PREFIX=/usr), or where IP_LIB_DIR says.
IPLIBDIR ?= $(PREFIX)/lib/$(if $(MULTIARCH),$(MULTIARCH)/)ip
# ifupdown reads its hooks from /etc/network only: /etc for /usr and
# /usr/local, a scratch prefix's own etc otherwise (scripts/install-check.sh).
SYSCONFDIR ?= $(if $(filter /usr /usr/local,$(PREFIX)),/etc,$(PREFIX)/etc)
IFUPDOWNDIR ?= $(SYSCONFDIR)/network

.PHONY: all module tools dpctl dpsim iproute2 insn-plugin modules_install install \
	install-tools \
	deb clean \
	deps check demo bench bench-nic hostile checkpatch fuzz fuzz-frames ns3

all: module tools

module:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || { \
		echo "No headers for the running kernel $(KVER)" \
		     "(/lib/modules/$(KVER)/build)." >&2; \
		echo "Install them (Debian: apt install linux-headers-$(KVER))," \
		     "or build for another kernel with KDIR=<its build tree>." >&2; \
		exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools: dpctl dpsim iproute2 insn-plugin

dpctl:
	$(MAKE) -C tools/dpctl

dpsim:
	$(MAKE) -C tools/dpsim

iproute2:
	$(MAKE) -C tools/iproute2

# A QEMU TCG plugin counting guest instructions per vCPU (issues 51/52,
# the per-role cost of TCP): only the evaluation uses it, so a host where
# it does not compile still builds the tools (a warning, not a failure).
insn-plugin:
	-$(MAKE) -C tools/insn-plugin

# Not part of "tools": it needs ns-3, which only the evaluation uses.
ns3:
	$(MAKE) -C tools/ns3

# DESTDIR works for the module too (kbuild calls it INSTALL_MOD_PATH), so
# packagers can stage everything in one tree.
modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install

install: modules_install install-tools

# @SBINDIR@ in the unit and the ifupdown hook: where dpctl really went.
install-tools: dpctl dpsim iproute2
	install -D -m 0755 tools/dpctl/dpctl $(DESTDIR)$(SBINDIR)/dpctl
	install -D -m 0755 tools/dpsim/dpsim $(DESTDIR)$(BINDIR)/dpsim
	install -D -m 0644 Documentation/dpctl.8 $(DESTDIR)$(MANDIR)/man8/dpctl.8
	install -D -m 0644 Documentation/dpsim.1 $(DESTDIR)$(MANDIR)/man1/dpsim.1
	install -D -m 0644 tools/completion/dpctl \
		$(DESTDIR)$(COMPLDIR)/dpctl
	install -D -m 0644 tools/completion/dpsim \
		$(DESTDIR)$(COMPLDIR)/dpsim
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@SBINDIR@|$(SBINDIR)|g' tools/systemd/dpillar@.service \
		>$(DESTDIR)$(UNITDIR)/dpillar@.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/dpillar@.service
	install -D -m 0644 tools/iproute2/link_dpillar.so \
		$(DESTDIR)$(IPLIBDIR)/link_dpillar.so
	ln -sf link_dpillar.so $(DESTDIR)$(IPLIBDIR)/link_dpillar_slave.so
	install -D -m 0644 tools/wireshark/dpillar.lua \
		$(DESTDIR)$(WSLUADIR)/dpillar.lua
	for d in if-pre-up.d if-post-down.d; do \
		install -d $(DESTDIR)$(IFUPDOWNDIR)/$$d && \
		sed 's|@SBINDIR@|$(SBINDIR)|g' tools/ifupdown/dpillar \
			>$(DESTDIR)$(IFUPDOWNDIR)/$$d/dpillar && \
		chmod 0755 $(DESTDIR)$(IFUPDOWNDIR)/$$d/dpillar || exit; \
	done

deb:
	bash scripts/deb.sh

deps:
	sh scripts/deps.sh

# TESTS and KERNELS only from make's command line: a variable of that
# name in CI's environment must not shrink make check.
check:
	bash scripts/check.sh \
		$(if $(filter command line,$(origin TESTS)),--tests '$(TESTS)') \
		$(if $(filter command line,$(origin KERNELS)),--kernels '$(KERNELS)')

demo:
	bash scripts/demo.sh $(TOPO)

bench:
	bash scripts/bench.sh

bench-nic:
	bash scripts/bench.sh nic

# selftests/amplify_test.sh and failover_test.sh: scripts/hostile.sh
hostile:
	bash scripts/hostile.sh

checkpatch:
	bash scripts/checkpatch.sh

FUZZ_TIME ?= 600
fuzz:
	$(MAKE) -C tools/fuzz run FUZZ_TIME=$(FUZZ_TIME)

# FUZZ_FRAMES_TIME, FUZZ_FRAMES_SEED, FUZZ_FRAMES_RATE: scripts/fuzz-frames.sh
fuzz-frames:
	bash scripts/fuzz-frames.sh

clean:
	$(if $(KDIR),-$(MAKE) -C $(KDIR) M=$(CURDIR) clean)
	$(MAKE) -C tools/dpctl clean
	$(MAKE) -C tools/dpsim clean
	$(MAKE) -C tools/iproute2 clean
	$(MAKE) -C tools/insn-plugin clean
	$(MAKE) -C tools/fuzz clean
	$(MAKE) -C tools/ns3 clean
	rm -rf build
	rm -f dpillar-dkms_*.deb dpillar-tools_*.deb dpillar-iproute2_*.deb
