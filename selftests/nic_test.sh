#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hellos through NICs that filter multicast: run in a guest with emulated
# NICs on QEMU hubs (no veth, no bridge on the fabric path), e.g.
#   selftests/vm/run-vm.sh --nic virtio-net-pci:0 --nic virtio-net-pci:0 \
#       --nic virtio-net-pci:1 --nic virtio-net-pci:2 -- selftests/nic_test.sh
# (make check's "nic" step does exactly this).  The i-th --nic has MAC
# 52:54:00:d9:<hub>:<i>.  The fabric is BCube n=2 k=1's servers 0.0 and 0.1
# (ids 0 and 1): both port 0s on hub 0 (their level-0 switch), each port 1
# alone on hub 1 or 2 (a level-1 switch whose other servers are absent),
# left admin down: a QEMU hub with no other port never takes a frame, and
# the NIC's transmit queue would time out.
#
# QEMU's virtio-net drops a multicast frame whose address is not in the
# table the driver programs (hw/net/virtio-net.c, receive_filter(): exact
# match on the MAC table unless promiscuous or allmulti), so without the
# ports' Hello group membership no Hello arrives and this suite fails.
# QEMU's e1000 filters too (an exact match on its 16 receive address
# registers, then a 4096-bit hash of the address's last 12 bits), and
# Linux's e1000 puts the first 15 addresses in the exact registers: with
# NIC_DRIVER=e1000 and --nic e1000:HUB the suite fails the same way
# without the membership.  (Past 15 addresses the hash would let Hellos
# in anyway: 03:44:50:00:00:01 shares its bucket with 01:00:5e:00:00:01
# and 33:33:00:00:00:01, which every IP device joins.)
#
# Checks: the ports join 03:44:50:00:00:01 and the NICs are neither
# promiscuous nor allmulti; Hellos arrive and both servers see each other;
# IPv4 and IPv6 pings cross; the membership survives a port's admin
# down/up and MTU changes; "ip link set NIC nomaster" releases a port and
# "master dp0" attaches a NIC to the lowest free port, with an extack
# when none is free; a driver reload (every NIC unregistered and back)
# leaves dp0 with absent ports, which "master dp0" fills again; deleting
# dp0 leaves the group.
. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip jq ping modprobe
DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
DRIVER=${NIC_DRIVER:-virtio_net}
GROUP=03:44:50:00:00:01
HELLO=100 DEAD=1000

modprobe "$DRIVER" || ktap_skip_all "cannot load $DRIVER"
# Later suites in the same guest must not find stray NICs.
defer "modprobe -r $DRIVER"
load_module || ktap_skip_all "no module"

# nic HUB I: the guest's name of the I-th --nic (on hub HUB), found by MAC.
nic() {
	local want f
	want=$(printf '52:54:00:d9:%02x:%02x' "$1" "$2")
	for f in /sys/class/net/*/address; do
		[ "$(cat "$f")" = "$want" ] && { basename "$(dirname "$f")"; return; }
	done
	return 1
}

S=(nic-s0 nic-s1)
ADDR=(0.0 0.1)
IP4=(10.0.0.0 10.0.0.1)
IP6=(fd64:7069:6c6c:6172::0:0 fd64:7069:6c6c:6172::0:1)
declare -A P0 P1

nic_destroy() {
	local ns
	for ns in "${S[@]}"; do ip netns del "$ns" 2>/dev/null; done
}
defer nic_destroy

# The NICs: wait for the driver to register them (udev-less guest).
wait_for 20 nic 2 3 >/dev/null || ktap_skip_all "no emulated NICs (run-vm.sh --nic)"
P0[0]=$(nic 0 0) P0[1]=$(nic 0 1) P1[0]=$(nic 1 2) P1[1]=$(nic 2 3)

ktap_plan 14

build() {
	local i
	sysctl -qw net.ipv6.conf.default.accept_dad=0 || return 1
	for i in 0 1; do
		ip netns add "${S[i]}" || return 1
		ip link set "${P0[$i]}" netns "${S[i]}" name p0 || return 1
		ip link set "${P1[$i]}" netns "${S[i]}" name p1 || return 1
		ip -n "${S[i]}" link set lo up || return 1
		ip -n "${S[i]}" link set p0 up || return 1
		"$DPCTL" -n "${S[i]}" link add dp0 topo bcube n 2 \
			k 1 addr "${ADDR[i]}" port0 p0 port1 p1 \
			hello $HELLO dead $DEAD || return 1
		dp0_up "${S[i]}" "${IP4[i]}" "${IP6[i]}" || return 1
	done
}
run_test "two servers, ports on emulated $DRIVER NICs" build

# in_group NS DEV: DEV's multicast list holds the Hello group.
in_group() {
	ip -n "$1" maddr show dev "$2" | grep -qi "link  *$GROUP"
}
members() {
	local i l
	for i in 0 1; do
		for l in p0 p1; do
			in_group "${S[i]}" $l ||
				{ echo "${S[i]} $l: not in $GROUP"; return 1; }
		done
	done
}
run_test "every port joined $GROUP" members

# No shortcut: the NICs filter, nobody asked for everything.
unfiltered() {
	local i flags
	for i in 0 1; do
		flags=$(ip -n "${S[i]}" -j link show p0 | jq -r '.[0].flags[]')
		if grep -qx -e PROMISC -e ALLMULTI <<<"$flags"; then
			echo "${S[i]} p0: $flags"
			return 1
		fi
	done
}
run_test "ports are neither promiscuous nor allmulti" unfiltered

# sees NS: NS has a reachable neighbour on port 0 (the other server).
sees() {
	"$DPCTL" -n "$1" -j neigh dp0 port 0 |
		jq -e '[.. | objects | select(.state? == "reachable")] | length > 0' \
		>/dev/null
}
both_see() { sees "${S[0]}" && sees "${S[1]}"; }
blind() { ! sees "$1"; }
hello_rx() {
	"$DPCTL" -n "$1" -j stats dp0 |
		jq '[.. | objects | .hello_rx? // empty] | add // 0'
}
neighbours() {
	if ! wait_for 10 both_see; then
		echo "hello_rx: ${S[0]} $(hello_rx "${S[0]}"), ${S[1]} $(hello_rx "${S[1]}")"
		return 1
	fi
}
run_test "Hellos arrive: both servers see each other" neighbours

pings() {
	ip netns exec "${S[0]}" ping -c 2 -i 0.2 -W 2 "${IP4[1]}" >/dev/null &&
	ip netns exec "${S[1]}" ping -c 2 -i 0.2 -W 2 "${IP4[0]}" >/dev/null &&
	ip netns exec "${S[0]}" ping -6 -c 2 -i 0.2 -W 2 "${IP6[1]}" >/dev/null &&
	ip netns exec "${S[1]}" ping -6 -c 2 -i 0.2 -W 2 "${IP6[0]}" >/dev/null
}
run_test "IPv4 and IPv6 ping across the fabric" pings

# The port's multicast list outlives admin down (the driver's filter is
# reprogrammed on open): the neighbour must come back.
admin_cycle() {
	ip -n "${S[1]}" link set p0 down || return 1
	wait_for 5 blind "${S[0]}" ||
		{ echo "neighbour still reachable with its port down"; return 1; }
	ip -n "${S[1]}" link set p0 up || return 1
	in_group "${S[1]}" p0 || { echo "group lost on admin down/up"; return 1; }
	wait_for 10 both_see || { echo "no Hellos after admin up"; return 1; }
}
run_test "membership survives admin down/up" admin_cycle

mtu_cycle() {
	local i
	for i in 0 1; do
		ip -n "${S[i]}" link set p0 mtu 1400 || return 1
	done
	for i in 0 1; do
		in_group "${S[i]}" p0 || { echo "group lost on MTU change"; return 1; }
	done
	wait_for 10 both_see || { echo "no Hellos after MTU change"; return 1; }
	pings || return 1
	for i in 0 1; do
		ip -n "${S[i]}" link set p0 mtu 1500 || return 1
	done
}
run_test "membership survives MTU changes" mtu_cycle

# dp0's MTU follows the ports down and back up, up to jumbo frames; an
# MTU the operator set lower stays (dpillar.rst, "Ports").
dp0_mtu() { ip -n "${S[0]}" -j link show dp0 | jq '.[0].mtu'; }
ports_mtu() {
	ip -n "${S[0]}" link set p0 mtu "$1" && ip -n "${S[0]}" link set p1 mtu "$1"
}
mtu_follow() {
	local m
	ip -n "${S[0]}" link set p0 mtu 1400 || return 1
	m=$(dp0_mtu)
	[ "$m" = 1380 ] || { echo "dp0 mtu $m with a 1400 port"; return 1; }
	ip -n "${S[0]}" link set p0 mtu 1500 || return 1
	m=$(dp0_mtu)
	[ "$m" = 1480 ] || { echo "dp0 mtu $m with 1500 ports again"; return 1; }
	ports_mtu 9000 || return 1
	m=$(dp0_mtu)
	[ "$m" = 8980 ] || { echo "dp0 mtu $m with 9000 ports"; return 1; }
	ports_mtu 1500 || return 1
	ip -n "${S[0]}" link set dp0 mtu 1300 || return 1
	ports_mtu 9000 || return 1
	m=$(dp0_mtu)
	ports_mtu 1500 || return 1
	[ "$m" = 1300 ] || { echo "operator's 1300 became $m"; return 1; }
	ip -n "${S[0]}" link set dp0 mtu 1480
}
run_test "dp0's MTU follows the ports down, back up and to jumbo" mtu_follow

after_traffic() { wait_for 10 both_see && pings; }
run_test "fabric still carries traffic" after_traffic

# ports NS: "index:ifname:state ..." of NS's dp0.
ports() {
	"$DPCTL" -n "$1" -j show dp0 |
		jq -r '[.. | objects | select(has("ports")) | .ports[] |
			"\(.port):\(.ifname // "-"):\(.state)"] | join(" ")'
}

nomaster() {
	local out
	ip -n "${S[0]}" link set p0 nomaster || return 1
	out=$(ports "${S[0]}")
	[ "$out" = "0:-:absent 1:p1:down" ] || { echo "ports: $out"; return 1; }
	! in_group "${S[0]}" p0 || { echo "released p0 still in $GROUP"; return 1; }
	wait_for 5 blind "${S[1]}" || { echo "peer still sees the server"; return 1; }
	ip -n "${S[0]}" link set p0 master dp0 || return 1
	out=$(ports "${S[0]}")
	[ "$out" = "0:p0:up 1:p1:down" ] || { echo "ports: $out"; return 1; }
	in_group "${S[0]}" p0 || { echo "re-attached p0 not in $GROUP"; return 1; }
	wait_for 10 both_see && pings
}
run_test "nomaster releases a port, master dp0 attaches it again" nomaster

full() {
	local out
	ip -n "${S[0]}" link add d0 type dummy || return 1
	out=$(ip -n "${S[0]}" link set d0 master dp0 2>&1) &&
		{ echo "a third port was accepted"; return 1; }
	ip -n "${S[0]}" link del d0
	grep -q "Every port of the device has a NIC" <<<"$out" ||
		{ echo "no extack: $out"; return 1; }
	ip -n "${S[0]}" link set p1 nomaster || return 1
	out=$(ip -n "${S[0]}" link set lo master dp0 2>&1) &&
		{ echo "loopback accepted as a port"; return 1; }
	grep -q "Port cannot be a loopback device" <<<"$out" ||
		{ echo "no extack: $out"; return 1; }
	ip -n "${S[0]}" link set p1 master dp0
}
run_test "master dp0 is refused with an extack when no port is free" full

# Every NIC unregisters and comes back with its MAC in the initial netns:
# dp0 stays, its ports absent, until they are moved back and attached.
reload() {
	local i out
	modprobe -r "$DRIVER" || return 1
	for i in 0 1; do
		out=$(ports "${S[i]}")
		[ "$out" = "0:-:absent 1:-:absent" ] ||
			{ echo "${S[i]} after rmmod: $out"; return 1; }
	done
	modprobe "$DRIVER" || return 1
	wait_for 20 nic 2 3 >/dev/null || { echo "NICs did not come back"; return 1; }
	P0[0]=$(nic 0 0) P0[1]=$(nic 0 1) P1[0]=$(nic 1 2) P1[1]=$(nic 2 3)
	for i in 0 1; do
		ip link set "${P0[$i]}" netns "${S[i]}" name p0 || return 1
		ip link set "${P1[$i]}" netns "${S[i]}" name p1 || return 1
		ip -n "${S[i]}" link set p0 up || return 1
		ip -n "${S[i]}" link set p0 master dp0 || return 1
		ip -n "${S[i]}" link set p1 master dp0 || return 1
		out=$(ports "${S[i]}")
		[ "$out" = "0:p0:up 1:p1:down" ] ||
			{ echo "${S[i]} re-attached: $out"; return 1; }
	done
	members || return 1
	wait_for 10 both_see && pings
}
run_test "driver reload: the NICs are attached again with master dp0" reload

leave() {
	ip -n "${S[0]}" link del dp0 || return 1
	! in_group "${S[0]}" p0 || { echo "p0 still in $GROUP"; return 1; }
	! in_group "${S[0]}" p1 || { echo "p1 still in $GROUP"; return 1; }
}
run_test "deleting dp0 leaves the group" leave

# The other server loses its neighbour once the group is gone.
gone() {
	wait_for 5 blind "${S[1]}"
}
run_test "the peer sees the server go" gone

ktap_finish
