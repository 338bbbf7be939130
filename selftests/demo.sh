#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run in the guest: a fabric of servers (network namespaces) and
# switches (Linux bridges; S2 cables servers directly), one dpillar device
# per server, and IP traffic relayed across it by the servers themselves.
# DEMO_TOPO picks the topology (make demo TOPO=...): dpillar (default, a
# (4,3) DPillar of 24 servers), dcell (DCell(4,1), 20), bcube (BCube(4,1),
# 16), xdcent (XDCent(3,2,2), 27) or s2 (16 nodes of 4 ports, 2 spaces).
# DEMO_WORDS overrides the topology words (as dpctl link add takes them),
# DEMO_SIM the matching dpsim options.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"

require_vm
require_root
require_tools
TOPO=${DEMO_TOPO:-dpillar}
case $TOPO in
dpillar) words="n 4 k 3" sim="-n 4 -k 3"
	 what="DPillar(4,3): servers on 12 switches of 4 ports" ;;
dcell)	 words="topo dcell n 4 k 1" sim="--topo dcell -n 4 -k 1"
	 what="DCell(4,1): 5 racks of 4 servers, racks joined by server cables" ;;
bcube)	 words="topo bcube n 4 k 1" sim="--topo bcube -n 4 -k 1"
	 what="BCube(4,1): every server on one switch per level" ;;
xdcent)	 words="topo xdcent n 3 k 2 level 2" sim="--topo xdcent -n 3 -k 2 --level 2"
	 what="XDCent(3,2,2): BCube levels, spare ports for the top level" ;;
s2)	 words="topo s2 nodes 16 n 4 spaces 2 seed 1"
	 sim="--topo s2 --switches 16 --ports 4 --servers 0 --spaces 2 --seed 1 --fabric derived"
	 what="Space Shuffle: 16 nodes, 4 cable ports each, 2 ring spaces" ;;
*)	 echo "demo: unknown topology '$TOPO' (dpillar dcell bcube xdcent s2)" >&2
	 exit 2 ;;
esac
read -r -a WORDS <<<"${DEMO_WORDS:-$words}"
read -r -a SIM <<<"${DEMO_SIM:-$sim}"
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000}

say() { printf '\n### %s\n' "$*"; }
secs() { date +%s.%N; }
# forwarded: "ID COUNT" per server (one ip and an ethtool per server)
forwarded() {
	ip -all netns exec ethtool -S dp0 2>/dev/null | awk -v p="$PF_PREFIX" '
		$1 == "netns:" && index($2, p) == 1 { id = substr($2, length(p) + 1) }
		$1 == "forwarded:" && id != "" { print id, $2 }'
}

load_module || exit 1
defer pf_destroy

say "Building $what"
echo "(dpctl plan ${WORDS[*]}: servers are netns, switches and cables are"
echo "bridges; every server gets a dp0 bound to its ports)"
t=$(secs)
pf_build demo- "${WORDS[@]}" || exit 1
pf_dp0 hello "$HELLO" dead "$DEAD" || exit 1
nsrv=${#PF_IDS[@]}
printf '%d servers of %d ports, up in %.1f s\n' "$nsrv" "$PF_NPORTS" \
	"$(echo "$(secs) - $t" | bc)"
sleep $(((DEAD + 999) / 1000))	# the Hellos find the neighbours

a=0 b=$((nsrv - 1))
say "Server ${PF_ADDR[$a]} (#$a): dpctl show"
pf_on $a "$DPCTL" show

say "Every server pings every other one (fping, $((nsrv * (nsrv - 1))) ordered pairs)"
ok=0 bad=0
for s in "${PF_IDS[@]}"; do
	targets=$(for d in "${PF_IDS[@]}"; do
		[ "$d" != "$s" ] && pf_ip4 "$d"; done)
	# shellcheck disable=SC2086 # targets are words
	alive=$(pf_on "$s" fping -a -r 2 -t 500 $targets 2>/dev/null | wc -l)
	ok=$((ok + alive)) bad=$((bad + nsrv - 1 - alive))
done
echo "$ok pairs reachable, $bad unreachable"

say "#$a's neighbours, as its Hellos found them (dpctl neigh)"
pf_on $a "$DPCTL" neigh

say "A packet from #$a to #$b: the route #$a's kernel takes (dpctl route get)"
pf_on $a "$DPCTL" route get "#$b"
say "... and the one dpsim computes with the same code"
if [ "$TOPO" = s2 ]; then
	"$DPSIM" route "${SIM[@]}" --from $a --to $b
else
	"$DPSIM" route "${SIM[@]}" --from "#$a" --to "#$b"
fi
# Path selection (XDCent, BCube) probes the paths of recent flows for a
# while: wait until nothing is relayed (at most 20 s), so that what the
# ping makes stands alone.
prev='' cur=$(forwarded) i=0
while [ "$cur" != "$prev" ] && [ $((i += 1)) -le 40 ]; do
	sleep 0.5
	prev=$cur cur=$(forwarded)
done
[ "$cur" = "$prev" ] || echo "(the fabric still relays other frames)"
declare -A before=()
while read -r s v; do before[$s]=$v; done <<<"$cur"
pf_on $a ping -c 3 -i 0.3 "$(pf_ip4 $b)" | sed -n '2,4p'
case $TOPO in
bcube|xdcent) probes=", and path selection's probes of this flow" ;;
*) probes='' ;;
esac
echo "servers that relayed (forwarded counter: 3 requests + 3 replies$probes):"
while read -r s v; do
	d=$((v - ${before[$s]:-0}))
	[ "$d" -gt 0 ] && echo "  #$s (${PF_ADDR[$s]}) relayed $d"
done <<<"$(forwarded)"

say "TCP across the fabric (iperf3, 3 s, under software emulation)"
pf_on $b iperf3 -s -D -1 -B "$(pf_ip4 $b)" >/dev/null && sleep 0.5
pf_on $a iperf3 -c "$(pf_ip4 $b)" -t 3 -J |
	jq -r '"\(.end.sum_received.bits_per_second / 1e6 | floor) Mbit/s received"'

say "#$a's counters (dpctl stats: the non-zero ones)"
pf_on $a "$DPCTL" stats

v=$(pf_on $a "$DPCTL" -j neigh |
	jq -r '[.[] | select(.state == "reachable")][0].node_id')
say "A failure as the operator sees it: dpctl monitor on #$a while its"
echo "neighbour #$v loses every port for a second"
echo "(dpctl -t: each event with the time it came; the cabling changes are"
echo "marked in between)"
mon=$(mktemp)
marks=$(mktemp)
pf_on $a "$DPCTL" -t monitor >"$mon" 2>&1 &
mon_pid=$!
sleep 1
echo "[$(date +%FT%T.%6N)] --- #$v: every cable pulled" >>"$marks"
for ((p = 0; p < PF_NPORTS; p++)); do pf_port_down "$v" $p; done
sleep 1
echo "[$(date +%FT%T.%6N)] --- #$v: cables back" >>"$marks"
for ((p = 0; p < PF_NPORTS; p++)); do pf_port_up "$v" $p; done
sleep 1
kill $mon_pid
wait $mon_pid 2>/dev/null
sort "$mon" "$marks"
rm -f "$mon" "$marks"

[ $bad -eq 0 ] || { echo "demo: $bad pairs unreachable"; exit 1; }
echo
echo "demo: ok"
