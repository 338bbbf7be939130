#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ring(6), the test fixture topology (topo_ring.c, in the tests' module
# only), on the shared builder plan_fabric.sh: dpctl plan cables server i's
# port 0 to server i+1's port 1; every ordered pair pings (IPv4, IPv6) and
# dpctl route get equals dpsim's path; with server 0's port 0 cable cut,
# every pair is still delivered (turning back once), as dpsim says.
# About 20 s in a 6.12 TCG guest (27 s with the boot).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"

require_vm
require_root
require_cmd ip bridge python3
require_tools
N=${DPILLAR_RING_N:-6}
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000}
WORDS=(topo ring n "$N") OPTS=(--topo ring -n "$N")
PF_PREFIX=rg- PF_NPORTS=2
mapfile -t PF_IDS < <(seq 0 $((N - 1)))
mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer pf_destroy
RG_TMP=$(mktemp -d)
defer rm -rf "$RG_TMP"

wiring() {
	local i plan
	plan=$("$DPCTL" plan "${WORDS[@]}") || return 1
	[ "$(grep -c '^cable ' <<<"$plan")" = "$N" ] || return 1
	for ((i = 0; i < N; i++)); do
		grep -qE "^cable ($i/0 <-> $(((i + 1) % N))/1|$(((i + 1) % N))/1 <-> $i/0)$" <<<"$plan" ||
			{ echo "no cable $i/0 - $(((i + 1) % N))/1"; return 1; }
	done
}

# pairs [SPEC]: every ordered pair pings as "dpsim pairs --fail SPEC"
# says (all delivered); failure-free, dpctl route get on each server equals
# dpsim's path (with a failure it cannot: a source sees only its own
# neighbours); with one, servers next to it turned back (route_turns).
pairs() {
	local s d path cmp=0 bad=0 dl turns=0
	local -A want=()	# dpsim's paths, for route_get_cmp
	"$DPSIM" pairs "${OPTS[@]}" ${1:+--fail "$1"} --no-discover > "$RG_TMP/want" || return 1
	! grep -v ' delivered ' "$RG_TMP/want" || return 1
	while read -r s d _ _ path; do want["$s $d"]=$path; done < "$RG_TMP/want"
	for s in "${PF_IDS[@]}"; do
		echo "$s $(pf_ip4 "$s") $(pf_ip6 "$s")"
	done > "$RG_TMP/ips"
	python3 -S -E "$FABRIC_PY" ping "$PF_PREFIX" "$RG_TMP/ips" \
		"$RG_TMP/want" 10 || return 1
	if [ -n "$1" ]; then
		for s in "${PF_IDS[@]}"; do
			turns=$((turns + $(dp0_stat "$PF_PREFIX$s" route_turns)))
		done
		echo "$turns hops turned back"
		[ $turns -gt 0 ]
		return
	fi
	for s in "${PF_IDS[@]}"; do
		mapfile -t dl < <(printf '%s\n' "${PF_IDS[@]}" | grep -vx "$s")
		route_get_cmp "$PF_PREFIX$s" "$s" "" "$s" want "${dl[@]}"
		cmp=$((cmp + RG_CMP)) bad=$((bad + RG_BAD))
	done
	echo "$cmp pairs' route get compared, $bad differ"
	[ $bad = 0 ]
}

build() {
	pf_build "$PF_PREFIX" "${WORDS[@]}" && pf_dp0 hello "$HELLO" dead "$DEAD"
}

run_test "Ring($N): dpctl plan cables each server's port 0 to the next one's port 1" wiring
run_test "Ring($N): $N servers from dpctl plan, dp0 on each" build ||
	ktap_skip_all "no fabric"
run_test "Ring($N): every pair pings, route get equals dpsim" \
	wait_for 20 pairs
pf_port_down 0 0
run_test "Ring($N): server 0's port 0 cut: every pair delivered as dpsim says" \
	wait_for 20 pairs '#0/0'
run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
