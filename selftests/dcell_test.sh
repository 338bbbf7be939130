#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DCell fabrics in the test guest: selftests/vm/run-vm.sh -- \
#     selftests/dcell_test.sh [N:K[:ft] ...]   (default DPILLAR_DCELL_SIZES,
#     else "4:1 2:2").  A table for plan_fabric.sh's pf_size: for each
#     size the fabric from "dpctl plan topo dcell" (one netns per server,
#     dc-<node id>; one bridge per DCell_0 mini-switch, port 0 of its
#     members; a two-port bridge per level-l cable, port l at both ends),
#     dp0 (topo dcell) on every server, every ordered pair pings over IPv4
#     and IPv6, "dpctl route get" equals dpsim's path for every ordered
#     pair (in mode dfr and each parallel path pM), path selection over
#     the k + 1 parallel paths ("route probe" finds a broken one, flows
#     leave it: pf_probe, plan_fabric.sh), and the failures below
#     (dc_cases), each compared with "dpsim pairs" pair by pair; one
#     miswired cable is counted (hello_miswired) at both ends.
# A size N:K:ft runs only issue 33's cases (the fabric, every pair's
# ping, a server's port 0 cut, a mini-switch down): the debug kernel's,
# where the rest adds only the routing core, which KUnit runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"
require_vm; require_root; require_cmd ip python3 ethtool jq ping; require_tools
# Dead after 1 s: at 300 ms a loaded TCG host once starved one server's
# Hellos long enough for a neighbour to be declared dead during "route get"
# (seen in a run beside xdcent_test.sh).  The failure waits round up to
# whole seconds either way.
# shellcheck disable=SC2034 # pf_size reads them
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000} PF_MODE0=dfr
# shellcheck disable=SC2034 # pf_probe prints them
PF_DETOURS='proxy_hops|reroutes|jump_ups|cable_entries'
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || read -r -a sizes <<<"${DPILLAR_DCELL_SIZES:-4:1 2:2}"

# dc_cases: the failures of this size, from its plan: CABLES ("A/l B/l" by
# address; CABLES[i] is bridge c<i>), rack (DCell_0 1's servers).
dc_cases() {
	local id c x y relay cab spec m
	CABLES=() rack=() SERVERS=()
	for id in "${PF_IDS[@]}"; do SERVERS+=("${PF_ADDR[$id]}"); done
	NSRV=${#SERVERS[@]} NPORTS=$PF_NPORTS
	for c in "${PF_CABLES[@]}"; do
		read -r x y <<<"$c"
		CABLES+=("${PF_ADDR[${x%/*}]}/${x#*/} ${PF_ADDR[${y%/*}]}/${y#*/}")
	done
	for id in ${PF_SWITCH[s0_1]}; do rack+=("${PF_ADDR[$id]}"); done
	relay=${CABLES[0]#* }		# the far end of server 0's first cable
	relay=${relay%/*}
	cab=${CABLES[-1]%% *}
	spec=$(IFS=,; echo "${rack[*]}")
	PF_CASES=()
	if [ "$only" != ft ]; then
		# route get in mode dfr and each parallel path pM
		PF_MODES=dfr
		for ((m = 1; m < NPORTS; m++)); do PF_MODES+=" p$m"; done
		PF_CASES+=("route probe and path selection move flows off a broken path|@pf_probe")
	fi
	[ "$only" = ft ] || PF_CASES+=(
		"server $relay down|$relay"
		"cable ${CABLES[-1]} down|$cab"
		"DCell_0 1 (${rack[*]}) down|$spec")
	# Cable entry (dpillar-design.rst, "DCell"): a server unheard on its
	# mini-switch, alive, is reached through its level cables.
	spec=$(printf '%s/0,' "${rack[@]}")
	PF_CASES+=("${rack[1]}'s port 0 (its mini-switch link) down|${rack[1]}/0"
		"DCell_0 1's mini-switch down (port 0 of ${rack[*]}), its servers alive|${spec%,}")
	[ "$only" = ft ] || PF_CASES+=(
		"mode paper, ${rack[1]}'s port 0 down|${rack[1]}/0|mode=paper"
		"a miswired cable is counted at both ends|@dc_miswire")
}

# dc_miswire: swap the far ends of two cables of the same level on their
# patch bridges; the Hellos that now arrive from the wrong server are
# counted (hello_miswired) at the near ends.
dc_miswire() {
	local i=0 j=-1 a b c d m1='' m2='' x
	a=${CABLES[0]%% *} b=${CABLES[0]#* }
	for ((x = ${#CABLES[@]} - 1; x > 0; x--)); do
		c=${CABLES[x]%% *}
		[ "${c#*/}" = "${a#*/}" ] && { j=$x; break; }
	done
	[ $j -gt 0 ] || { echo "no second cable of level ${a#*/}"; return 1; }
	c=${CABLES[j]%% *} d=${CABLES[j]#* }
	ip -n "$PF_SW" -b - <<-EOF2 || return 1
	link set v${PF_ID[${a%/*}]}p${a#*/} master c$j
	link set v${PF_ID[${c%/*}]}p${c#*/} master c$i
	EOF2
	echo "moved: $a now meets $d, $c now meets $b"
	miswired() {
		m1=$(dp0_stat "dc-${PF_ID[${a%/*}]}" hello_miswired)
		m2=$(dp0_stat "dc-${PF_ID[${d%/*}]}" hello_miswired)
		[ "${m1:-0}" -gt 0 ] && [ "${m2:-0}" -gt 0 ]
	}
	wait_for 10 miswired
	local rc=$?
	echo "hello_miswired: ${a%/*} ${m1:-0}, ${d%/*} ${m2:-0}"
	return $rc
}

# shellcheck disable=SC2034 # pf_size reads them
PF_CASES_FN=dc_cases
pf_begin
for size in "${sizes[@]}"; do
	IFS=: read -r N K only <<<"$size"
	# shellcheck disable=SC2034
	PF_TOPO=(topo dcell n "$N" k "$K") PF_OPTS=(--topo dcell -n "$N" -k "$K")
	PF_MODES=''
	[ "$only" != ft ] || PF_MODES=none
	pf_size "DCell($N,$K)" dc-
done
pf_end
