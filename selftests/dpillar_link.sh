#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "dpillar" link type: autoload, create, show, every validation error,
# a fabric made and inspected with Debian's own ip and our plugin
# (tools/iproute2), port life cycle (unregister, netns move,
# master/nomaster), netns deletion, and module unload/reload with devices
# present.  Runs in the test guest.

. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip jq python3 insmod rmmod depmod modinfo
DPCTL=$DPILLAR_REPO/tools/dpctl/dpctl
[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
[ -f "${DPILLAR_KO:-}" ] || ktap_skip_all "DPILLAR_KO not set"

S=dpl-srv	# the server under test
P=dpl-peer	# the other ends of its cables
O=dpl-other	# somewhere else
mark=$(dmesg_mark)

dpctl() { "$DPCTL" -n $S "$@"; }
# raw_in NS ARGS...: "dp_raw.py ARGS" in netns NS, answered by one
# resident python3 (dp_raw.py -: a start costs 0.3-3 s under TCG, and the
# suite sends a dozen requests); its error on stderr, status 0 or 1.
raw_in() {
	local ns=$1 line
	shift
	printf 'setns /run/netns/%s\n%s\n' "$ns" "$*" >&"${RAWP[1]}" ||
		{ echo "dp_raw.py is gone" >&2; return 1; }
	if ! read -r -t 30 line <&"${RAWP[0]}" || [ "$line" != ok ]; then
		echo "dp_raw.py: setns $ns: ${line:-no answer}" >&2
		return 1
	fi
	read -r -t 30 line <&"${RAWP[0]}" ||
		{ echo "dp_raw.py: no answer to: $*" >&2; return 1; }
	[ "$line" = ok ] && return 0
	echo "$line" >&2
	return 1
}
raw() { raw_in $S "$@"; }
ifindex() { ip -n "$1" -j link show "$2" | jq '.[0].ifindex'; }
dp_json() { dpctl -j link show "$1"; }
# new_port NAME: a veth NAME in $S, its peer pNAME in $P, both up.
new_port() {
	ip -n $S link add "$1" type veth peer name "p$1" netns $P &&
	ip -n $S link set "$1" up && ip -n $P link set "p$1" up
}
ADD="n 4 k 3 addr 2:1.0.1"

# --- autoload through the module alias --------------------------------------
# Install the module the way "make modules_install" does on a server (the
# guest root is a throw-away overlay), so that creating a link proves that
# MODULE_ALIAS_RTNL_LINK and the kernel's request_module() find it.
setup_autoload() {
	local conf=/etc/modprobe.d/dpillar-selftest.conf
	# A full "depmod -a" reads every module over 9p (minutes under TCG):
	# map the alias in modprobe.d instead.  That the module itself
	# carries the alias is checked with modinfo above.
	{ echo "alias rtnl-link-dpillar dpillar"
	  echo "install dpillar /sbin/insmod $DPILLAR_KO"; } >$conf 2>/dev/null ||
		return 1
	defer "rm -f $conf"
	defer "rmmod dpillar"
}

# wait_eq CMD EXPECTED: poll CMD's output for up to 10 s (carrier changes
# reach us through linkwatch, asynchronously).  Prints the last output.
wait_eq() {
	local out i
	for i in $(seq 100); do
		out=$(eval "$1")
		[ "$out" = "$2" ] && break
		sleep 0.1
	done
	echo "$out"
}

ns_create $S $P $O || ktap_skip_all "cannot create namespaces"
new_port a0 && new_port a1 || ktap_skip_all "cannot create veth"
coproc RAWP { exec python3 -S -E "$DP_SELFTESTS/dp_raw.py" - 2>&1; }
defer "kill $RAWP_PID"

if lsmod | grep -q '^dpillar '; then
	rmmod dpillar
fi
run_test "module alias names rtnl-link-dpillar" \
	sh -c "modinfo -F alias '$DPILLAR_KO' | grep -qx rtnl-link-dpillar"
if setup_autoload; then
	run_test "link add autoloads the module" \
		dpctl link add dp0 $ADD port0 a0 port1 a1
else
	ktap_skip "link add autoloads the module" "read-only /lib/modules"
	insmod "$DPILLAR_KO" && dpctl link add dp0 $ADD port0 a0 port1 a1
fi
run_test "module is loaded" sh -c "lsmod | grep -q '^dpillar '"

# --- what the device looks like ---------------------------------------------
j=$(dp_json dp0)
check_eq "$(echo "$j" | jq -c '.[0] | [.n, .k, .addr, .node_id, .nodes]')" \
	'[4,3,"2:1.0.1",21,24]' "link show reports n, k, address, node id, size"
check_eq "$(echo "$j" | jq -c '[.[0].ports[] | .ifname]')" '["a0","a1"]' \
	"link show lists the ports in order"
run_test "ports have dp0 as master" \
	sh -c "ip -n $S link show a0 | grep -q 'master dp0' &&
	       ip -n $S link show a1 | grep -q 'master dp0'"
check_eq "$(ip -n $S -j link show dp0 | jq -c '.[0] | [.mtu, .link_type]')" \
	'[1480,"none"]' "dp0 is an L3 device with MTU = port MTU - 20"
ip -n $S link set a1 mtu 1400
check_eq "$(ip -n $S -j link show dp0 | jq '.[0].mtu')" 1380 \
	"dp0 MTU follows the smallest port MTU"
ip -n $S link set a1 mtu 1500

ip -n $S link set dp0 up
check_eq "$(wait_eq "dp_json dp0 | jq '.[0].carrier'" true)" true \
	"carrier with ports up"
ip -n $P link set pa0 down
ip -n $P link set pa1 down
check_eq "$(wait_eq "dp_json dp0 | jq '.[0].carrier'" false)" false \
	"no carrier when all ports lose theirs"
ip -n $P link set pa0 up
check_eq "$(wait_eq "dp_json dp0 | jq '.[0].carrier'" true)" true \
	"carrier back with one port"
ip -n $P link set pa1 up

# --- frames: ours are counted and dropped, the rest pass ----------------------
a0mac=$(ip -n $S -j link show a0 | jq -r '.[0].address')
rx_dropped() { ip -n $S -j -s link show dp0 | jq '.[0].stats64.rx.dropped'; }
# dropped_reach N: dp0 counted N drops since $before (or more: then the
# check below fails at once instead of at the timeout).
dropped_reach() { [ "$(($(rx_dropped) - before))" -ge "$1" ]; }
before=$(rx_dropped)
raw_in $P send pa0 "$a0mac" 0x88b5 0100 5
wait_for 5 dropped_reach 5 || ktap_diag "dp0 counted $(($(rx_dropped) - before)) drops in 5 s, not 5"
check_eq "$(($(rx_dropped) - before))" 5 "dpillar frames are counted and dropped"
ip -n $S addr add 192.0.2.1/24 dev a0
ip -n $P addr add 192.0.2.2/24 dev pa0
run_test "other traffic still flows over a port" \
	ip netns exec $P ping -c 2 -i 0.2 -W 2 192.0.2.1
ip -n $S addr flush dev a0

# dp0 carries IP with no link-layer header: a VLAN on it would put a tag
# where nothing reads one.  The 802.1Q code refuses it (not Ethernet), and
# dp0 says so itself: vlan-challenged, for whatever else stacks VLANs.
# (Without 802.1Q, the debug kernel, the refusal is "Unknown device type".)
vlan_refused() {
	local out
	ip netns exec $S ethtool -k dp0 | grep -x 'vlan-challenged: on \[fixed\]' ||
		return 1
	if out=$(ip -n $S link add link dp0 name dp0.5 type vlan id 5 2>&1); then
		echo "a VLAN device on dp0 was created"
		ip -n $S link del dp0.5
		return 1
	fi
	echo "$out"
}
run_test "dp0 is vlan-challenged, and a VLAN device on it is refused" vlan_refused

# --- validation: every reason gets its own message ----------------------------
new_port b0 && new_port b1
bad() { # bad DESC MESSAGE ARGS...
	local desc=$1 msg=$2
	shift 2
	check_fail -m "$msg" "rejects $desc" dpctl link add dpx "$@"
}
bad "odd n" "n must be even" n 5 k 3 addr 2:1.0.1 port0 b0 port1 b1
bad "n < 4" "n out of range" n 2 k 3 addr 2:0.0.0 port0 b0 port1 b1
bad "n > 256" "n out of range" n 258 k 2 addr 1:0.0 port0 b0 port1 b1
bad "k < 2" "k must be >= 2" n 4 k 1 addr 0:1 port0 b0 port1 b1
bad "N beyond 32 bits" "too many servers" n 48 k 7 addr 0:0.0.0.0.0.0.0 port0 b0 port1 b1
bad "column >= k" "column out of range" n 4 k 3 addr 3:1.0.1 port0 b0 port1 b1
bad "label symbol >= n/2" "label symbol out of range" n 4 k 3 addr 2:2.0.1 port0 b0 port1 b1
bad "label of wrong length" "label must have k symbols" n 4 k 3 addr 2:1.0 port0 b0 port1 b1
bad "loopback port" "Port cannot be a loopback device" $ADD port0 lo port1 b1
bad "the same port twice" "Ports must be distinct devices" $ADD port0 b0 port1 b0
bad "a port of another dpillar device" "Device is already a dpillar port" $ADD port0 a0 port1 b1
ip -n $S link add br0 type bridge && ip -n $S link set b1 master br0
bad "a bridge port" "already a port of another device" $ADD port0 b0 port1 b1
ip -n $S link set b1 nomaster && ip -n $S link del br0
if ip -n $S link add tn0 type ipip local 192.0.2.8 remote 192.0.2.9 2>/dev/null; then
	bad "a non-Ethernet port" "Port must be an Ethernet device" $ADD port0 b0 port1 tn0
	ip -n $S link del tn0
else
	ktap_skip "rejects a non-Ethernet port" "no ipip"
fi
b0=$(ifindex $S b0) b1=$(ifindex $S b1)
G="n=u32:4 k=u32:3 column=u32:2 label=bytes:01.00.01"
check_fail -m "Missing n" "rejects a missing n" raw newlink dpx k=u32:3 column=u32:2 label=bytes:01.00.01 ports=$b0,$b1
check_fail -m "Missing ports" "rejects missing ports" raw newlink dpx $G
check_fail -m "Too few ports" "rejects one port" raw newlink dpx $G ports=$b0
check_fail -m "Too many ports" "rejects three ports" raw newlink dpx $G ports=$b0,$b1,1
check_fail -m "Port device does not exist" "rejects an unknown ifindex" raw newlink dpx $G ports=$b0,99999
check_fail -m "Node id is read-only" "rejects a node id" raw newlink dpx $G ports=$b0,$b1 node_id=u32:1
check_fail -m "policy validation" "rejects a wrongly typed n" raw newlink dpx n=u16:4 k=u32:3 column=u32:2 label=bytes:01.00.01 ports=$b0,$b1
check_fail -m "range" "rejects an unknown topology" raw newlink dpx $G topo=u32:9 ports=$b0,$b1
check_fail -m "network namespace" "rejects a device outside its ports' netns" \
	raw newlink dpx $G ports=$b0,$b1 netns=/run/netns/$O
run_test "(48,5), ~40 million servers, is accepted" \
	dpctl link add dpx n 48 k 5 addr 4:23.0.1.2.3 port0 b0 port1 b1
check_eq "$(dp_json dpx | jq '.[0].nodes')" 39813120 "(48,5) has 39813120 servers"
run_test "link del" dpctl link del dpx
check_eq "$(ip -n $S -j link show b0 | jq -r '.[0].master // "none"')" none \
	"deleting the device releases its ports"
# S2 plan mode: the node's own coordinates, through dpctl to the kernel
# (rtnetlink newlink, genetlink DEV_SET) and back (fill_info, DEV_GET).
S2ADD="topo s2 nodes 16 n 2 spaces 1 seed 5 id 3"
run_test "S2 plan mode: link add with coords" \
	dpctl link add dpx $S2ADD coords 0x80000001 port0 b0 port1 b1
check_eq "$(dp_json dpx | jq -c '.[0].coords')" '[2147483649]' \
	"link show -j: the coords the node was given"
check_eq "$(dpctl -j show dpx | jq -c '[.[0].coords_mode, .[0].coords]')" \
	'["plan",[2147483649]]' "show -j: plan mode and its coords"
check_eq "$(dpctl show dpx | grep -cF 's2 n 2 spaces 1 seed 5 coords 2147483649 (16 servers)')" 1 \
	"show: plan mode and its coords, as link add takes them"
run_test "set without coords: derived mode" dpctl set dpx $S2ADD
check_eq "$(dpctl -j show dpx | jq -c '[.[0].coords_mode, .[0].coords]')" \
	'["derived",null]' "show -j: derived mode, no coords"
run_test "set with coords: plan mode" dpctl set dpx $S2ADD coords 7
check_eq "$(dp_json dpx | jq -c '.[0].coords')" '[7]' "link show -j: coords 7"
ip -n $S link set dpx up
check_fail -m "Device must be down" "coords change only while down" \
	dpctl set dpx $S2ADD coords 8
check_eq "$(dp_json dpx | jq -c '.[0].coords')" '[7]' "... and stay as they were"
run_test "link del of the S2 device" dpctl link del dpx
# The discovery fallback: on by default; off and on through rtnetlink
# (link add, link set: newlink, changelink) and genetlink (set: DEV_SET),
# and back (fill_info, DEV_GET, showconf); taken in a paper mode too.
run_test "link add: the fallback on by default" \
	dpctl link add dpx $ADD port0 b0 port1 b1
check_eq "$(dp_json dpx | jq -c '.[0].fallback')" true "link show -j: fallback on"
run_test "link del" dpctl link del dpx
run_test "link add ... fallback off" \
	dpctl link add dpx $ADD port0 b0 port1 b1 fallback off
check_eq "$(dp_json dpx | jq -c '.[0].fallback')" false "link show -j: fallback off"
check_eq "$(dpctl showconf dpx | grep -cx 'fallback off')" 1 "showconf: fallback off"
run_test "set fallback on (genetlink)" dpctl set dpx fallback on
check_eq "$(dpctl -j show dpx | jq -c '.[0].fallback')" true "show -j: fallback on"
check_eq "$(dpctl showconf dpx | grep -c fallback)" 0 "showconf: the default, no line"
ip -n $S link set dpx up
run_test "link set mode paper fallback off (changelink, running)" \
	dpctl link set dpx mode paper fallback off
check_eq "$(dpctl show dpx | grep -c 'mode paper fallback off$')" 1 \
	"show: paper mode, fallback off"
check_fail -m "fallback takes on or off" "fallback 1 is a usage error" \
	dpctl set dpx fallback 1
run_test "link del" dpctl link del dpx
check_fail -m "not a dpillar device" "link del refuses other devices" dpctl link del b0
check_fail -m "not a dpillar device" "link show of another device fails" dpctl link show b0
run_test "a usage error exits 2" \
	sh -c "ip netns exec $S $DPCTL link add 2>/dev/null; [ \$? -eq 2 ]"

# --- ip link ... type dpillar: Debian's ip with link_dpillar.so ---------------
# A device made, set and shown with ip commands only (IP_LIB_DIR: the
# plugin as built, not installed); the ports by "master", as for a bond.
# That this ip matches the plugin (check-ip.sh: 14 s here, nm under TCG),
# and ip link help dpillar, are install-check.sh's, on the host, whose ip
# this is.
IPL=$DPILLAR_REPO/tools/iproute2
ipd() { IP_LIB_DIR=$IPL ip -n $S "$@"; }
ipinfo() { # ipinfo DEV JQ: JQ of DEV's linkinfo in ip -j -d link show
	ipd -j -d link show "$1" | jq -c ".[0].linkinfo | $2"
}
# unconfigured_up DEV: DEV, with ports and no topology, set up: what it
# is asked to send is dropped and counted (tx_not_fabric; >= 2: IPv6
# sends its own multicast too, counted the same way), it sends no Hello,
# and genetlink's ROUTE_GET is refused with a reason while DEV_GET and
# NEIGH_GET answer (one device, no neighbour).  Down again after.  (This
# is also in dpillar_up.sh, which the debug kernel does not run: there
# these are the only unconfigured transmit and genetlink paths.)
unconfigured_up() {
	local dev=$1 got n h rc=0
	ipd link set "$dev" up && ipd addr add 10.9.0.10/32 dev "$dev" &&
		ipd route add 10.9.0.0/16 dev "$dev" || return 1
	ip netns exec $S ping -c 2 -i 0.2 -W 1 10.9.0.11 >/dev/null 2>&1 &&
		{ echo "a ping went through"; rc=1; }
	read -r n h < <(dp_stats $S "$dev" tx_not_fabric hello_tx)
	[ "${n:-0}" -ge 2 ] && [ "$h" = 0 ] ||
		{ echo "tx_not_fabric ${n:-?}, hello_tx ${h:-?}"; rc=1; }
	got=$(genl_unconfigured $S "$dev")
	[ "$got" = "error EINVAL: reason ok 1 ok 0" ] ||
		{ echo "genetlink: $got"; rc=1; }
	ipd link set "$dev" down && ipd addr flush dev "$dev" || rc=1
	return $rc
}

ip_link_tests() {
	run_test "ip link add dpi type dpillar SETTINGS: unconfigured" \
		ipd link add dpi type dpillar hello 200 dead 900
	run_test "ip link set NIC master dpi, twice" \
		sh -c "IP_LIB_DIR=$IPL ip -n $S link set b0 master dpi &&
		       IP_LIB_DIR=$IPL ip -n $S link set b1 master dpi"
	run_test "an unconfigured device up: its packets dropped and counted, no Hello; genetlink answers" \
		unconfigured_up dpi
	run_test "ip link set dpi type dpillar TOPOLOGY SETTINGS" \
		ipd link set dpi type dpillar n 4 k 3 addr 1:0.1.0 \
		ip4 10.9.0.0/16 mode paper
	check_eq "$(ipinfo dpi '[.info_kind, (.info_data |
		  .topo, .n, .k, .addr, .node_id, .nodes, .hello, .dead, .ip4,
		  .mode, .ports)]')" \
		'["dpillar","dpillar",4,3,"1:0.1.0",10,24,200,900,"10.9.0.0/16","paper",["b0","b1"]]' \
		"ip -j -d link show: topology, address, settings, ports"
	run_test "ip link set dpi type dpillar (mode by the device's name for it)" \
		ipd link set dpi type dpillar hello 300 mode cw ip6 fd00:1::/96 \
		fallback off
	check_eq "$(ipd -d link show dpi | grep -o 'dpillar topo .* ports [^ ]*')" \
		"dpillar topo dpillar n 4 k 3 addr 1:0.1.0 node_id 10 nodes 24 hello 300 dead 900 ip4 10.9.0.0/16 ip6 fd00:1::/96 mode cw fallback off ports b0,b1" \
		"ip -d link show: what was set, in ip's words"
	check_eq "$(ipinfo dpi '.info_data.fallback')" false \
		"ip -j -d link show: fallback false"
	run_test "ip link set dpi type dpillar fallback on" \
		ipd link set dpi type dpillar fallback on
	check_eq "$(ipinfo dpi '.info_data.fallback')" true \
		"ip -j -d link show: fallback true"
	check_eq "$(ipinfo b1 '[.info_slave_kind, (.info_slave_data |
		  .port, .state, .neighs)]')" '["dpillar",1,"up",3]' \
		"ip -j -d link show PORT: port number, state, neighbour slots"
	check_eq "$(ipd -d link show b0 | grep -o 'dpillar_slave port [0-9]* state [a-z]*')" \
		"dpillar_slave port 0 state up" "ip -d link show PORT: port 0"
	check_fail -m 'unknown key "port0"' "ip link set rejects portN" \
		ipd link set dpi type dpillar port0 b0
	check_fail -m "n must be even" "ip shows the kernel's extack" \
		ipd link add dpj type dpillar n 5 k 3 addr 0:0.0.0 port0 lo port1 lo
	run_test "ip link del dpi" ipd link del dpi
	run_test "ip link add dpi type dpillar TOPOLOGY NICS" \
		ipd link add dpi type dpillar n 4 k 3 addr 0:0.0.0 port0 b1 port1 b0
	check_eq "$(ipinfo dpi '.info_data | [.addr, .ports]')" \
		'["0:0.0.0",["b1","b0"]]' "... has the ports in order"
	run_test "ip link add dpu type dpillar, set TOPOLOGY: S2 in plan mode" \
		sh -c "IP_LIB_DIR=$IPL ip -n $S link add dpu type dpillar &&
		       IP_LIB_DIR=$IPL ip -n $S link set dpu type dpillar topo s2 \
		       nodes 16 n 2 spaces 1 seed 5 id 3 coords 0x80000001"
	check_eq "$(ipinfo dpu '.info_data | [.topo, .nodes, .n, .spaces,
		  .seed, .coords, .node_id]')" \
		'["s2",16,2,1,5,[2147483649],3]' "ip -j -d link show: S2"
	run_test "ip link del dpi, dpu" \
		sh -c "IP_LIB_DIR=$IPL ip -n $S link del dpi &&
		       IP_LIB_DIR=$IPL ip -n $S link del dpu"
}
if [ -f "$IPL/link_dpillar.so" ]; then
	ip_link_tests
else
	ktap_skip "ip link ... type dpillar" "tools/iproute2 not built"
fi

# --- port life cycle ----------------------------------------------------------
run_test "deleting a port leaves the device" ip -n $S link del a0
check_eq "$(dp_json dp0 | jq -c '[.[0].ports[] | .ifindex == 0]')" '[true,false]' \
	"the deleted port shows as detached"
ip -n $S link set a1 netns $O
check_eq "$(dp_json dp0 | jq -c '[.[0].ports[] | .ifindex]')" '[0,0]' \
	"a port moved to another netns is detached"
check_eq "$(wait_eq "dp_json dp0 | jq '.[0].carrier'" false)" false \
	"no ports, no carrier"
# "ip link set NIC master dp0" fills the lowest free port, "nomaster"
# empties it; each refusal carries an extack.
port_names() { dp_json dp0 | jq -c '[.[0].ports[] | .ifname]'; }
in_hello_group() { ip -n $S maddr show dev "$1" | grep -c 03:44:50:00:00:01; }
new_port a2 && new_port a3 || ktap_diag "cannot create veth a2, a3"
run_test "master dp0 attaches a NIC to the lowest free port" \
	ip -n $S link set a2 master dp0
check_eq "$(port_names)" '["a2","-"]' "the NIC is port 0"
run_test "master dp0 attaches the next NIC to the next free port" \
	ip -n $S link set a3 master dp0
check_eq "$(port_names)" '["a2","a3"]' "the NIC is port 1"
check_eq "$(in_hello_group a3)" 1 "an attached port joins the Hello group"
check_fail -m "Every port of the device has a NIC" \
	"master dp0 with every port bound is refused" ip -n $S link set lo master dp0
run_test "nomaster releases a port" ip -n $S link set a2 nomaster
check_eq "$(port_names)" '["-","a3"]' "the released port is absent"
check_eq "$(in_hello_group a2)" 0 "a released port leaves the Hello group"
check_fail -m "Port cannot be a loopback device" \
	"master dp0 refuses a loopback device" ip -n $S link set lo master dp0
ip -n $S link del a2
ip -n $S link del a3
run_test "a detached device can be deleted" dpctl link del dp0
ip -n $O link del a1

# --- teardown paths ---------------------------------------------------------
X=dpl-gone
ns_create $X
ip -n $X link add x0 type veth peer name x1
"$DPCTL" -n $X link add dp0 $ADD port0 x0 port1 x1
run_test "netns deletion with a device in it" ip netns del $X
sleep 1
new_port c0 && new_port c1
dpctl link add dp0 $ADD port0 c0 port1 c1
dpctl link add dp1 n 4 k 3 addr 0:0.0.0 port0 b0 port1 b1
run_test "rmmod with devices present" rmmod dpillar
check_eq "$(ip -n $S -j link show c0 | jq -r '.[0].master // "none"')" none \
	"rmmod released the ports"
run_test "module reloads" insmod "$DPILLAR_KO"
run_test "and creates devices again" dpctl link add dp0 $ADD port0 c0 port1 c1
run_test "final unload" rmmod dpillar

run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
