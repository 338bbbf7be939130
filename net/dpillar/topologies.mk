# SPDX-License-Identifier: GPL-2.0
#
# The topologies of the routing core: net/dpillar/topo_<name>.c and
# topo_<name>.h each, registered in dp_topologies[] (topo.c).  The one
# list that the module (Kbuild), dpctl, dpsim and the fuzzers build:
# a new topology is added here (Documentation/networking/dpillar.rst,
# "Adding a topology").
DP_TOPOLOGIES := dpillar dcell xdcent s2
# Test fixtures (topo_ring.c: a topology added by its own files, proving
# the boundary): built into every userspace tool, into the module only
# with DPILLAR_TEST_TOPOLOGIES=y (scripts/build-modules.sh, the tests'
# builds; never dkms or the packages), which the Kbuild passes on to
# topo.h as -DDPILLAR_TEST_TOPOLOGIES.
DP_TEST_TOPOLOGIES := ring
ifeq ($(if $(KERNELRELEASE),$(DPILLAR_TEST_TOPOLOGIES),y),y)
DP_TOPOLOGIES += $(DP_TEST_TOPOLOGIES)
endif
