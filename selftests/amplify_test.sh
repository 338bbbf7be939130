#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What one misbehaving server makes the rest of the fabric send, on every
# topology (dpillar-design.rst, "The discovery fallback"): the
# discovery fallback (DPillar, DCell, BCube, XDCent in their default
# modes) and S2's own discovery share one flood (shortcut.c).  The
# server A sends forged SHORTCUT_PROBEs out of its own ports, from its
# own MACs with its own id (selftests/dp_scforge.py), as any server of
# the fabric could:
#  - one probe per port: the rest of the fabric sends at most one frame
#    per port of the fabric per discovery (each server passes a probe on
#    once per port, to the switch's group; the target's reply goes back
#    along one path), not one per neighbour;
#  - DPILLAR_AMP_RATE a second (default 1000; under TCG a guest's one
#    vCPU cannot pass much more on) for DPILLAR_AMP_SECS (default 3): the rest of
#    the fabric sends at most, a second, A's neighbours' budgets for
#    A's probes (DP_SC_NEIGH_FLOOD passed on and DP_SC_NEIGH_REPLY
#    answered, each) times the fabric's port count, and a neighbour of A
#    still pings a server across the fabric meanwhile.
# Frames are counted on every server but A: its ports' tx_packets less
# its dp0's hello_tx, read in one process per server.  Hellos every 10 s
# (dead 30 s) keep the Hellos out of the figures; the figures are
# printed with the bound.  DPILLAR_AMP_FABRICS: the fabrics, each
# "dpctl link add" words joined by ':' (default below).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"

require_vm
require_root
require_cmd ip ethtool python3 ping
require_tools

# Budgets of one neighbour, a second (shortcut.h).
SC_NEIGH_FLOOD=50 SC_NEIGH_REPLY=10
SECS=${DPILLAR_AMP_SECS:-3} RATE=${DPILLAR_AMP_RATE:-1000}
read -r -a FABRICS <<<"${DPILLAR_AMP_FABRICS:-topo:dpillar:n:6:k:2 topo:dcell:n:4:k:1 topo:bcube:n:4:k:1 topo:xdcent:n:3:k:1:level:2 topo:s2:n:4:nodes:16:spaces:2:seed:7}"
PF_PREFIX=am-

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer pf_destroy
defer unhold

# A process in each server's namespace (HOLD[id]), whose /proc/PID/net/dev
# shows that namespace's devices: one cat reads every server's ports.
declare -A HOLD=()
hold() {
	local id
	for id in "${PF_IDS[@]}"; do
		ip netns exec "$PF_PREFIX$id" sleep 100000 &
		HOLD[$id]=$!
	done
}
unhold() {
	[ ${#HOLD[@]} -gt 0 ] || return 0
	kill "${HOLD[@]}" 2>/dev/null
	wait "${HOLD[@]}" 2>/dev/null
	HOLD=()
}
# frames ID...: the frames the servers ID sent but their Hellos, summed:
# their ports' tx_packets (/proc/net/dev's 10th number), less each dp0's
# hello_tx (one dpctl a server).
frames() {
	local id sum hello=0 n files=()
	for id in "$@"; do
		files+=("/proc/${HOLD[$id]}/net/dev")
		n=$("$DPCTL" -n "$PF_PREFIX$id" stats dp0 all |
			awk '$1 == "hello_tx:" { print $2 }')
		hello=$((hello + ${n:-0}))
	done
	sum=$(awk '$1 ~ /^p[0-9]+:$/ { s += $11 } END { print s + 0 }' "${files[@]}")
	echo $((sum - hello))
}

# The neighbours server $1 hears (node ids): its dpctl neigh's reachable.
neighbours() {
	pf_on "$1" "$DPCTL" -j neigh dp0 | python3 -S -E -c '
import json, sys
ids = {n["node_id"] for n in json.load(sys.stdin)
       if n.get("state") == "reachable"}
print(" ".join(str(i) for i in sorted(ids)))'
}

amplify() {
	local words=(${1//:/ }) name a others=() ports p0 p1 extra secs t0 t1
	local nb=() victim far bound out rc=0 sent pingp

	name="${words[1]}(${words[*]:2})"
	PF_DIRECT=0
	[ "${words[1]}" = s2 ] && PF_DIRECT=1
	unhold
	pf_destroy
	# Not in run_test: its subshell would keep pf_build's PF_* to itself.
	if pf_build "$PF_PREFIX" "${words[@]}" > "$AMP_TMP/build" 2>&1 &&
	   pf_dp0 hello 10000 dead 30000 >> "$AMP_TMP/build" 2>&1; then
		ktap_ok "$name: fabric built, dp0 on every server (Hello 10 s)"
	else
		ktap_diag "$(cat "$AMP_TMP/build")"
		ktap_fail "$name: fabric built, dp0 on every server (Hello 10 s)"
		return 1
	fi
	a=${PF_IDS[0]}
	others=("${PF_IDS[@]:1}")
	hold
	ports=$((${#PF_IDS[@]} * PF_NPORTS))
	# Every server's first Hellos, sent as dp0 came up, are heard.
	sleep 2
	read -r -a nb <<<"$(neighbours "$a")"
	[ ${#nb[@]} -gt 0 ] || { ktap_fail "$name: A ($a) hears no neighbour"; return 1; }

	p0=$(frames "${others[@]}")
	pf_on "$a" python3 -S -E "$DP_SELFTESTS/dp_scforge.py" --count 1 \
		--self "$a" --nodes "${#PF_IDS[@]}" \
		$(printf 'p%s ' $(seq 0 $((PF_NPORTS - 1)))) >/dev/null
	sleep 2
	p1=$(frames "${others[@]}")
	extra=$((p1 - p0))
	ktap_diag "$name: $PF_NPORTS forged probes made the other servers send $extra frames; the fabric has $ports ports"
	check_eq "$((extra <= PF_NPORTS * ports))" 1 \
		"$name: one discovery, at most one frame per port of the fabric"

	victim=${nb[0]} far=${others[-1]}
	[ "$far" = "$victim" ] && far=${others[-2]}
	bound=$((${#nb[@]} * (SC_NEIGH_FLOOD + SC_NEIGH_REPLY) * ports))
	p0=$(frames "${others[@]}")
	t0=$(date +%s%N)
	pf_on "$victim" ping -q -c $((SECS * 5)) -i 0.2 -W 1 "$(pf_ip4 "$far")" \
		> "$AMP_TMP/ping" 2>&1 &
	pingp=$!
	sent=$(pf_on "$a" python3 -S -E "$DP_SELFTESTS/dp_scforge.py" \
		--secs "$SECS" --rate "$RATE" --self "$a" \
		--nodes "${#PF_IDS[@]}" --seed 2 \
		$(printf 'p%s ' $(seq 0 $((PF_NPORTS - 1)))))
	wait "$pingp"
	t1=$(date +%s%N)
	p1=$(frames "${others[@]}")
	secs=$(((t1 - t0) / 1000000))
	extra=$(((p1 - p0) * 1000 / secs))
	out=$(grep -o '[0-9]* received' "$AMP_TMP/ping")
	ktap_diag "$name: A $sent; the other servers sent $extra frames/s beyond their Hellos over $secs ms (bound $bound/s: ${#nb[@]} neighbours x $((SC_NEIGH_FLOOD + SC_NEIGH_REPLY)) x $ports ports); $victim -> $far ping: ${out:-none} of $((SECS * 5))"
	check_eq "$((extra <= bound))" 1 "$name: a flood of forged probes, within the neighbours' budgets"
	check_eq "$((${out% *} * 10 >= SECS * 5 * 8))" 1 \
		"$name: a neighbour's own pings cross the fabric meanwhile (80%)"
	unhold
}

AMP_TMP=$(mktemp -d)
defer rm -rf "$AMP_TMP"
for f in "${FABRICS[@]}"; do
	amplify "$f"
done
pf_destroy
run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
