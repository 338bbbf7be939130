#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ring(6), the test fixture topology (topo_ring.c, in the tests' module
# only), as a table for plan_fabric.sh's pf_suite: server i's port 0 is
# cabled to server i+1's port 1; every pair pings and route get equals
# dpsim; with server 0's port 0 cut, every pair is still delivered as
# dpsim says, by the ring's routing alone, some turned back (route_turns),
# the pings at once (server 0 sees the cut at once, server 1 within a
# pass's rounds), then every pair again once repaired.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"
require_vm; require_root; require_cmd ip bridge python3 jq; require_tools
N=${DPILLAR_RING_N:-6}
# shellcheck disable=SC2034 # pf_suite reads them
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000}
PF_TOPO=(topo ring n "$N") PF_OPTS=(--topo ring -n "$N")
PF_WANT_CABLES=$(for ((i = 0; i < N; i++)); do echo "$i/0 $(((i + 1) % N))/1"; done)
PF_CASES=("server 0's port 0 cut|0/0|connected counter=route_turns now")
pf_suite "Ring($N)" rg-
