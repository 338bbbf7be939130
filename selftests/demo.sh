#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run in the guest: a (4,3) DPillar fabric of 24 servers (network
# namespaces) and 12 switches (Linux bridges), one dpillar device per
# server, and IP traffic relayed across it by the servers themselves.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/topo.sh"
. "$(dirname "$0")/fabric.sh"

require_vm
require_root
N=${DEMO_N:-4} K=${DEMO_K:-3}

say() { printf '\n### %s\n' "$*"; }
secs() { date +%s.%N; }
on() { local a=$1; shift; ip netns exec "$(topo_ns_of "$a")" "$@"; }

load_module || exit 1
defer topo_destroy

say "Building a ($N,$K) DPillar: servers are netns, switches are bridges,"
echo "every server gets a dp0 bound to its two cables"
t=$(secs)
fabric_up "$N" "$K" || exit 1
printf '%d servers, %d switches of %d ports, up in %.1f s\n' \
	"$TOPO_NSERVERS" "$TOPO_NSWITCHES" "$N" "$(echo "$(secs) - $t" | bc)"

for a in 0:0.0.0 2:1.1.1; do
	say "Server $a: dpctl show"
	on "$a" "$DPCTL" show
	echo "  cabled to switches $(topo_switch_of "$a" 0) (port0) and" \
	     "$(topo_switch_of "$a" 1) (port1)"
done

say "Every server pings every other one (fping, 552 ordered pairs)"
ok=0 bad=0
for a in $(topo_servers); do
	targets=$(for b in $(topo_servers); do
		[ "$b" != "$a" ] && fabric_ip4 "$b"; done)
	alive=$(on "$a" fping -a -r 2 -t 500 $targets 2>/dev/null | wc -l)
	ok=$((ok + alive)) bad=$((bad + 23 - alive))
done
echo "$ok pairs reachable, $bad unreachable"

a=0:0.0.0 b=2:1.1.1
say "$a's neighbours, as its Hellos found them (dpctl neigh)"
on $a "$DPCTL" neigh

say "A packet from $a to $b: the route $a's kernel takes (dpctl route get)"
on $a "$DPCTL" route get $b
say "... and the one dpsim computes with the same code"
"$DPSIM" route -n "$N" -k "$K" --from $a --to $b
declare -A before=()
while read -r s v; do before[$s]=$v; done <<<"$(fabric_stats forwarded)"
on $a ping -c 3 -i 0.3 "$(fabric_ip4 $b)" | sed -n '2,4p'
echo "servers that relayed (forwarded counter, 3 requests + 3 replies):"
while read -r s v; do
	d=$((v - before[$s]))
	[ "$d" -gt 0 ] && echo "  $s relayed $d"
done <<<"$(fabric_stats forwarded)"

say "TCP across the fabric (iperf3, 3 s, under software emulation)"
on $b iperf3 -s -D -1 -B "$(fabric_ip4 $b)" >/dev/null && sleep 0.5
on $a iperf3 -c "$(fabric_ip4 $b)" -t 3 -J |
	jq -r '"\(.end.sum_received.bits_per_second / 1e6 | floor) Mbit/s received"'

say "$a's counters (dpctl stats: the non-zero ones)"
on $a "$DPCTL" stats

v=0:0.0.1
say "A failure as the operator sees it: dpctl monitor on $a while its"
echo "neighbour $v loses both cables for a second"
echo "(dpctl -t: each event with the time it came; the cabling changes are"
echo "marked in between)"
mon=$(mktemp)
marks=$(mktemp)
on $a "$DPCTL" -t monitor >"$mon" 2>&1 &
mon_pid=$!
sleep 1
echo "[$(date +%FT%T.%6N)] --- $v: both cables pulled" >>"$marks"
topo_server_down $v
sleep 1
echo "[$(date +%FT%T.%6N)] --- $v: cables back" >>"$marks"
topo_server_up $v
sleep 1
kill $mon_pid
wait $mon_pid 2>/dev/null
sort "$mon" "$marks"
rm -f "$mon" "$marks"

[ $bad -eq 0 ] || { echo "demo: $bad pairs unreachable"; exit 1; }
echo
echo "demo: ok"
