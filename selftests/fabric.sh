# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A running dpillar fabric on top of topo.sh: one dp0 per server, with the
# server's fabric addresses, for tests and the demo.  Source after lib.sh
# and topo.sh.
#
#   fabric_up N K [hello MS dead MS]   build topology, dp0 everywhere, wait
#                                      for the Hellos.  When it ran in a
#                                      subshell (run_test), call topo_load
#                                      after it: the TOPO_* variables it set
#                                      are gone with the subshell.
#   fabric_ip4 ADDR / fabric_ip6 ADDR  a server's fabric addresses
#   fabric_id ADDR                     its node id
#   fabric_stat ADDR NAME              one ethtool -S counter of its dp0
#   fabric_stats NAME                  "ADDR VALUE" for every server, in one
#                                      pass

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
DPSIM=${DPSIM:-$DPILLAR_REPO/tools/dpsim/dpsim}
FABRIC_IP4_NET=10.0.0.0/8
FABRIC_IP6_NET=fd64:7069:6c6c:6172::/96

# fabric_id ADDR: node id = C * h^k + label (label base h, v_0 last).
fabric_id() {
	local c=${1%%:*} l=${1#*:} v id=0
	_topo_need || return 1
	local IFS=.
	for v in $l; do
		id=$((id * TOPO_H + v))
	done
	echo $((c * TOPO_H ** TOPO_K + id))
}

fabric_ip4() {
	local id
	id=$(fabric_id "$1")
	echo "10.$((id >> 16 & 255)).$((id >> 8 & 255)).$((id & 255))"
}

fabric_ip6() {
	printf 'fd64:7069:6c6c:6172::%x:%x\n' $(($(fabric_id "$1") >> 16)) \
		$(($(fabric_id "$1") & 65535))
}

fabric_up() {
	local n=$1 k=$2 a ns
	shift 2
	topo_build "$n" "$k" || return 1
	for a in $(topo_servers); do
		ns=$(topo_ns_of "$a")
		ip netns exec "$ns" "$DPCTL" link add dp0 n "$n" k "$k" \
			addr "$a" port0 p0 port1 p1 "$@" || return 1
		# /32 and /128 plus a route: the fabric prefix is not a LAN (no
		# broadcast address, no subnet-router anycast).
		ip -n "$ns" -b - <<-EOF || return 1
		link set dp0 up
		addr add $(fabric_ip4 "$a")/32 dev dp0
		route add $FABRIC_IP4_NET dev dp0
		addr add $(fabric_ip6 "$a")/128 dev dp0 nodad
		route add $FABRIC_IP6_NET dev dp0
		EOF
	done
	# Three Hello intervals: every neighbour heard at least twice.
	sleep 0.5
}

fabric_stat() {
	ip netns exec "$(topo_ns_of "$1")" ethtool -S dp0 |
		awk -v k="$2:" '$1 == k { print $2 }'
}

# One pass over every server's ethtool -S (a process per counter read
# costs ~0.2 s in a TCG guest; this is one ip and 24 ethtools).
fabric_stats() {
	ip -all netns exec ethtool -S dp0 2>/dev/null | awk -v k="$1:" '
		/^netns: dp-/ { a = substr($2, 4); sub("-", ":", a) }
		$1 == k && a != "" { print a, $2 }'
}
