# SPDX-License-Identifier: GPL-2.0
#
# The topologies of the routing core: net/dpillar/topo_<name>.c and
# topo_<name>.h each, registered in dp_topologies[] (topo.c).  The one
# list that the module (Kbuild), dpctl, dpsim and the fuzzers build:
# a new topology is added here (Documentation/networking/dpillar.rst,
# "Adding a topology").
DP_TOPOLOGIES := dpillar dcell xdcent s2
