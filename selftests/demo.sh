#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run in the guest: a (4,3) DPillar fabric of 24 servers (network
# namespaces) and 12 switches (Linux bridges), one dpillar device per
# server bound to its two cables.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/topo.sh"

require_vm
require_root
DPCTL=$DPILLAR_REPO/tools/dpctl/dpctl
DPSIM=$DPILLAR_REPO/tools/dpsim/dpsim
N=${DEMO_N:-4} K=${DEMO_K:-3}

say() { printf '\n### %s\n' "$*"; }
secs() { date +%s.%N; }

load_module || exit 1
defer topo_destroy

say "Building a ($N,$K) DPillar: servers are netns, switches are bridges"
t=$(secs)
topo_build "$N" "$K" || exit 1
printf '%d servers, %d switches of %d ports, built in %.1f s\n' \
	"$TOPO_NSERVERS" "$TOPO_NSWITCHES" "$N" "$(echo "$(secs) - $t" | bc)"

say "Creating one dpillar device per server"
t=$(secs)
fails=0
for a in $(topo_servers); do
	ip netns exec "$(topo_ns_of "$a")" "$DPCTL" link add dp0 \
		n "$N" k "$K" addr "$a" port0 p0 port1 p1 &&
	ip -n "$(topo_ns_of "$a")" link set dp0 up || fails=$((fails + 1))
done
printf '%d dpillar devices created in %.1f s, %d failures\n' \
	"$TOPO_NSERVERS" "$(echo "$(secs) - $t" | bc)" "$fails"

for a in $(topo_servers | sed -n '1p;6p;24p'); do
	say "Server $a: dpctl link show"
	ip netns exec "$(topo_ns_of "$a")" "$DPCTL" link show
	echo "  port0 is cabled to switch $(topo_switch_of "$a" 0)," \
	     "port1 to switch $(topo_switch_of "$a" 1)"
done

say "One server's view as JSON (dpctl -j -p link show)"
a=$(topo_servers | sed -n 6p)
ip netns exec "$(topo_ns_of "$a")" "$DPCTL" -j -p link show

if [ -x "$DPSIM" ]; then
	say "How a packet will cross this fabric (dpsim route, same routing code)"
	"$DPSIM" route -n "$N" -k "$K" --from 0:0.0.0 --to 2:1.1.1
fi

say "Switch s0x0 and the servers plugged into it"
ip -n "$TOPO_SW_NS" -br link show master s0x0

[ $fails -eq 0 ] || { echo "demo: $fails devices failed"; exit 1; }
echo
echo "demo: ok"
