# SPDX-License-Identifier: GPL-2.0
#
# Ring(n), the test fixture, in dpsim: no dpsim code of its own, its
# table's words.  Sourced by tests/run.sh (check, has, $D), as each
# topology's tests/topo_<file>.sh of the list (net/dpillar/topologies.h).
check "ring without -n" 2 $D paths --topo ring
check "ring pairs, a cable cut" 0 $D pairs --topo ring -n 6 --fail '#0/0'
has "ring pairs: 0 -> 1 the other way" "0 1 delivered 5 0,5,4,3,2,1"
has "ring pairs: 2 -> 0 turns back at 1" "2 0 delivered 6 2,1,2,3,4,5,0"
check "ring ft, one server down" 0 $D ft --topo ring -n 40 --failed 1 --pairs 1000
has "ring ft: every pair" "delivered 1000 (100.000%)"
