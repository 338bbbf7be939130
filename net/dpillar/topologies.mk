# SPDX-License-Identifier: GPL-2.0
#
# The topologies' files, read from the one list, topologies.h (a
# DP_TOPO(KIND, name, file) line per topology, DP_TEST_TOPO for a test
# fixture): the module (Kbuild), its KUnit suites, dpctl, dpsim, ip's
# plugin, ns-3 and the fuzzers build topo_<file>.c of each, once (XDCent
# and BCube share theirs).  A new topology is a line there, not here
# (Documentation/networking/dpillar-design.rst, "Adding a topology").
dp_topo_list := $(dir $(lastword $(MAKEFILE_LIST)))topologies.h
dp_topo_files = $(shell sed -n 's/^[[:space:]]*$(1)([A-Z0-9_]*, *[a-z0-9_]*, *\([a-z0-9_]*\)).*/\1/p' \
	$(dp_topo_list) | awk '!seen[$$0]++')
DP_TOPOLOGIES := $(call dp_topo_files,DP_TOPO)
ifeq ($(strip $(DP_TOPOLOGIES)),)
$(error no topology read from $(dp_topo_list))
endif
# Test fixtures (topologies added by their own files, proving the
# boundary): built into every userspace tool, into the module only
# with DPILLAR_TEST_TOPOLOGIES=y (scripts/build-modules.sh, the tests'
# builds; never dkms or the packages), which the Kbuild passes on to
# topologies.h as -DDPILLAR_TEST_TOPOLOGIES.
DP_TEST_TOPOLOGIES := $(call dp_topo_files,DP_TEST_TOPO)
ifeq ($(if $(KERNELRELEASE),$(DPILLAR_TEST_TOPOLOGIES),y),y)
DP_TOPOLOGIES += $(DP_TEST_TOPOLOGIES)
endif
