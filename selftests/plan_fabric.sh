# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# One fabric builder for every topology, from its plan: "dpctl -j plan
# WORDS" (the same words as "dpctl link add") says which server port goes
# to which switch or cable, dp_fabric.py turns that into two ip batch
# files, and this file runs them: one network namespace per server
# (PREFIX<node id>), one namespace of Linux bridges for the switches and
# cables (a cable is a two-port bridge, so it can fail on the switch
# side), a veth per server port (p<port> in the server, v<id>p<port> among
# the switches).  Used by the demo (every topology); the per-topology
# builders of topo.sh, dcell_test.sh, xdcent_test.sh and s2_test.sh are
# still their own (issue 30 moves them onto this one).
#
#   pf_build PREFIX WORDS...   the fabric, every port up; PF_IDS (node
#                              ids), PF_ADDR[id], PF_NPORTS
#   pf_dp0 [SETTINGS...]       dp0 on every server: dpctl link add dp0
#                              WORDS addr #ID port0 p0 ... SETTINGS, up,
#                              with pf_ip4/pf_ip6 and the fabric's routes
#   pf_on ID CMD...            CMD in server ID's namespace
#   pf_port_down/up ID PORT    the switch end of a server port
#   pf_destroy                 every namespace of the fabric
# Needs lib.sh (require_tools: DPCTL, FABRIC_PY).

PF_SW=pfsw
PF_PREFIX=pf-

pf_destroy() { ns_del_matching "^($PF_PREFIX|$PF_SW\$)"; }

pf_ip4() { echo "10.$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
pf_ip6() { printf 'fd64:7069:6c6c:6172::%x:%x\n' $(($1 >> 16)) $(($1 & 65535)); }
pf_on() { local id=$1; shift; ip netns exec "$PF_PREFIX$id" "$@"; }
pf_port_down() { ip -n $PF_SW link set "v$1p$2" down; }
pf_port_up() { ip -n $PF_SW link set "v$1p$2" up; }

pf_build() {
	local dir id a n rc=0
	PF_PREFIX=$1
	shift
	PF_WORDS=("$@")
	pf_destroy
	dir=$(mktemp -d) || return 1
	"$DPCTL" -j plan "$@" > "$dir/plan.json" &&
		python3 -S -E "$FABRIC_PY" plan "$PF_PREFIX" $PF_SW "$dir" \
			< "$dir/plan.json" || rc=1
	PF_IDS=()
	declare -gA PF_ADDR=()
	while read -r id a n; do
		PF_IDS+=("$id")
		PF_ADDR[$id]=$a
		PF_NPORTS=$n
	done < "$dir/servers"
	if [ $rc = 0 ]; then
		ns_quiet_push
		ip -batch "$dir/ns.batch" || rc=1
		ip netns exec $PF_SW sysctl -qw \
			net.ipv6.conf.default.disable_ipv6=1 \
			net.ipv6.conf.all.disable_ipv6=1 || rc=1
		ip -n $PF_SW link set lo up || rc=1
		ip -n $PF_SW -batch "$dir/sw.batch" || rc=1
		ns_quiet_pop
	fi
	rm -rf "$dir"
	[ $rc = 0 ] && [ ${#PF_IDS[@]} -gt 0 ] || return 1
	python3 -S -E "$FABRIC_PY" ports "$PF_PREFIX" up $((PF_NPORTS - 1)) \
		"${PF_IDS[@]}"
}

pf_dp0() {
	local id p ports
	for id in "${PF_IDS[@]}"; do
		ports=()
		for ((p = 0; p < PF_NPORTS; p++)); do ports+=("port$p" "p$p"); done
		"$DPCTL" -n "$PF_PREFIX$id" link add dp0 "${PF_WORDS[@]}" \
			addr "#$id" "${ports[@]}" "$@" || return 1
		ip -n "$PF_PREFIX$id" -b - <<-EOF || return 1
		link set dp0 up
		addr add $(pf_ip4 "$id")/32 dev dp0
		route add 10.0.0.0/8 dev dp0
		addr add $(pf_ip6 "$id")/128 dev dp0 nodad
		route add fd64:7069:6c6c:6172::/96 dev dp0
		EOF
	done
}
