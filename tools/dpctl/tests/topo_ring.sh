# SPDX-License-Identifier: GPL-2.0
#
# Ring(n), the test fixture, in dpctl: no dpctl code of its own, its
# table's words.  Sourced by test-offline.sh (rc, has, $D, $tmp), as each
# topology's tests/topo_<file>.sh of the list (net/dpillar/topologies.h).
rc "ring: set without n" 2 $D set dp0 topo ring addr 0
has "ring: set without n" "set: n, addr are required" "$tmp/err"
rc "ring: set, address above n" 2 $D set dp0 topo ring n 6 addr 6
has "ring: set, address above n" 'invalid address "6": address must be a server' "$tmp/err"
rc "ring: set, S2's word" 2 $D set dp0 topo ring n 6 seed 1 addr 0
has "ring: set, S2's word" "set: Only S2 has spaces and a seed" "$tmp/err"
rc "ring: plan" 0 $D plan topo ring -n 6
has "ring: plan" "cable 0/1 <-> 5/0"
rc "ring: plan, k" 2 $D plan topo ring -n 6 -k 2
has "ring: plan, k" "bad topology (6,2): Ring takes only n" "$tmp/err"
