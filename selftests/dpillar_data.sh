#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The data plane on a (4,3) fabric of 24 servers: IPv4/IPv6 between every
# pair, relaying in softirq along the path dpsim predicts, TCP, MTU, TTL,
# Hellos, miswiring, and malformed frames from the wire.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/topo.sh"
. "$(dirname "$0")/fabric.sh"

require_vm
require_root
require_cmd ip jq ethtool fping iperf3 python3
[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
[ -x "$DPSIM" ] || ktap_skip_all "dpsim not built"
N=4 K=3
RAW="python3 $DP_SELFTESTS/dp_raw.py"

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer topo_destroy
# A generous dead interval: a TCG guest on a loaded host delays Hellos,
# and a flapping neighbour would make FTRoute detour, so paths would no
# longer be the failure-free ones this test compares with dpsim.
run_test "($N,$K) fabric up: 24 servers with dp0" \
	fabric_up $N $K hello 100 dead 2000 || ktap_finish
topo_load	# run_test ran fabric_up in a subshell
SERVERS=$(topo_servers)

on() { local a=$1; shift; ip netns exec "$(topo_ns_of "$a")" "$@"; }
# sum_stat NAME: the counter summed over every server
sum_stat() { fabric_stats "$1" | awk '{ s += $2 } END { print s + 0 }'; }
# stat_delta NAME CMD...: run CMD, print how much NAME grew fabric-wide
stat_delta() {
	local name=$1 before
	shift
	before=$(sum_stat "$name")
	"$@" >/dev/null 2>&1
	echo $(($(sum_stat "$name") - before))
}

# --- every ordered pair, IPv4 ---------------------------------------------
all_pairs_v4() {
	local a targets fails=0 out
	for a in $SERVERS; do
		targets=$(for b in $SERVERS; do
			[ "$b" != "$a" ] && fabric_ip4 "$b"; done)
		# -r 3: a pair may miss one Hello round trip while ARP-free
		# IP settles; losses are reported per target.
		out=$(on "$a" fping -q -r 3 -t 500 $targets 2>&1) ||
			{ fails=$((fails + 1)); ktap_diag "from $a: $out"; }
	done
	return $fails
}
run_test "IPv4: all 552 ordered pairs reach each other" all_pairs_v4

sample_v6() {
	local a b fails=0
	for a in 0:0.0.0 1:1.0.1 2:1.1.1; do
		for b in 0:1.1.1 1:0.1.0 2:0.0.1 0:0.1.1; do
			[ "$a" = "$b" ] && continue
			on "$a" ping -6 -c 1 -W 2 "$(fabric_ip6 "$b")" >/dev/null ||
				{ fails=$((fails + 1)); ktap_diag "v6 $a -> $b failed"; }
		done
	done
	return $fails
}
run_test "IPv6: a sample of pairs reach each other" sample_v6

# --- relays: the kernel walks the path the simulator predicts -------------
hops() { "$DPSIM" route -n $N -k $K --from "$1" --to "$2" --json | jq .hops; }
relays() { # the servers strictly between $1 and $2 on the dpsim path
	"$DPSIM" route -n $N -k $K --from "$1" --to "$2" --json |
		jq -r '.path[1:-1][]'
}
check_path() {
	local a=$1 b=$2 fwd rev s v d want bad=0
	local -A before=() after=()
	fwd=$(relays "$a" "$b")
	rev=$(relays "$b" "$a")
	while read -r s v; do before[$s]=$v; done <<<"$(fabric_stats forwarded)"
	on "$a" ping -c 4 -i 0.2 -W 2 "$(fabric_ip4 "$b")" >/dev/null || return 1
	while read -r s v; do after[$s]=$v; done <<<"$(fabric_stats forwarded)"
	for s in $SERVERS; do
		d=$((after[$s] - before[$s]))
		# 4 requests and 4 replies; a server on both paths relays 8
		want=0
		grep -qx "$s" <<<"$fwd" && want=$((want + 4))
		grep -qx "$s" <<<"$rev" && want=$((want + 4))
		if [ "$d" -ne "$want" ]; then
			ktap_diag "$a -> $b: $s forwarded $d, dpsim says $want"
			bad=1
		fi
	done
	ktap_diag "$a -> $b: $(hops "$a" "$b") hops, back $(hops "$b" "$a")"
	return $bad
}
for pair in "0:0.0.0 2:1.1.1" "0:0.0.0 1:1.1.0" "1:0.1.0 0:1.0.1" "2:0.0.0 2:1.1.1"; do
	# shellcheck disable=SC2086
	run_test "relay counters match dpsim route: $pair" check_path $pair
done

# --- TCP between the two farthest servers ----------------------------------
far_a=0:0.0.0 far_b= far_h=0
for b in $SERVERS; do
	[ "$b" = "$far_a" ] && continue
	h=$(hops $far_a "$b")
	[ "$h" -gt "$far_h" ] && far_h=$h far_b=$b
done
tcp_test() {
	local out bps
	on "$far_b" iperf3 -s -D -1 -B "$(fabric_ip4 "$far_b")" >/dev/null || return 1
	sleep 0.5
	out=$(on "$far_a" iperf3 -c "$(fabric_ip4 "$far_b")" -t 3 -J) || return 1
	bps=$(echo "$out" | jq '.end.sum_received.bits_per_second')
	ktap_diag "iperf3 $far_a -> $far_b ($far_h hops): $(echo "$bps" |
		awk '{ printf "%.1f Mbit/s", $1 / 1e6 }') under TCG"
	awk -v b="$bps" 'BEGIN { exit !(b > 0) }'
}
run_test "TCP over the $far_h-hop path $far_a -> $far_b" tcp_test

# --- MTU ----------------------------------------------------------------------
a=0:0.0.0 b=2:1.1.1
run_test "full-MTU packet (1480 bytes) crosses the fabric" \
	on $a ping -c 1 -W 2 -M do -s 1452 "$(fabric_ip4 $b)"
check_fail -m "mtu=1480" "oversize DF packet gets the PMTU error" \
	on $a ping -c 1 -W 2 -M do -s 1453 "$(fabric_ip4 $b)"
run_test "oversize packet without DF is fragmented and delivered" \
	on $a ping -c 1 -W 2 -s 4000 "$(fabric_ip4 $b)"
check_eq "$(sum_stat drop_mtu)" 0 "no relay dropped a frame for its size"
check_fail "a destination outside the fabric is refused" \
	on $a ping -c 1 -W 1 10.0.0.200
check_eq "$(fabric_stat $a tx_not_fabric)" 1 "and counted as tx_not_fabric"

# --- Hellos -----------------------------------------------------------------
check_eq "$(stat_delta forwarded sleep 1)" 0 "Hellos are never forwarded"
check_eq "$(sum_stat hello_miswired)" 0 "no Hello crosses into another segment"
hello_all() { # every server hears from all 3 peers of each port
	local a
	for a in $SERVERS; do
		[ "$(fabric_stat "$a" hello_rx)" -gt 0 ] || return 1
	done
}
run_test "every server hears Hellos" hello_all

# Re-cable 0:0.0.0's port 0 onto a switch of another column.
miswire() {
	local peer
	peer=$(topo_peer_of 0:0.0.0 0)
	ip -n dpsw link set "$peer" nomaster &&
	ip -n dpsw link set "$peer" master "$(topo_switch_of 1:1.1.1 0)" &&
	sleep 0.5
	[ "$(fabric_stat 0:0.0.0 hello_miswired)" -gt 0 ] &&
	[ "$(fabric_stat 1:1.1.1 hello_miswired)" -gt 0 ]
	local rc=$?
	ip -n dpsw link set "$peer" nomaster
	ip -n dpsw link set "$peer" master "$(topo_switch_of 0:0.0.0 0)"
	return $rc
}
run_test "a miswired server is detected on both sides" miswire

# --- malformed frames from the wire -----------------------------------------
# inject ADDR COUNTER HEX: send a frame from the switch into ADDR's port 0
# and check that exactly COUNTER grew by one on ADDR.
tgt=1:0.1.0
tgt_id=$(fabric_id $tgt)
tgt_mac=$(ip -n "$(topo_ns_of $tgt)" -j link show p0 | jq -r '.[0].address')
hdr() { # hdr VERSION TYPE TTL PROTO SRC DST WAYPOINT -> hex
	printf '%02x%02x%02x00%04x0000%08x%08x%08x' "$@"
}
declare -A frames=()	# counter -> comma separated frames for it
bad() { frames[$1]+="${frames[$1]:+,}$2"; }
NONE=4294967295
ipv4=450000140000000040110000c0000201c0000202
bad drop_short "0100"
bad drop_version "$(hdr 2 1 9 0x0800 0 $tgt_id $NONE)$ipv4"
bad drop_type "$(hdr 1 9 9 0x0800 0 $tgt_id $NONE)$ipv4"
bad drop_addr "$(hdr 1 1 9 0x0800 0 1000 $NONE)$ipv4"		# dst
bad drop_addr "$(hdr 1 1 9 0x0800 99999 $tgt_id $NONE)$ipv4"	# src
bad drop_addr "$(hdr 1 1 9 0x0800 0 0 77777)$ipv4"		# waypoint
bad drop_ttl "$(hdr 1 1 0 0x0800 0 0 $NONE)$ipv4"		# 0 in transit
bad drop_ttl "$(hdr 1 1 1 0x0800 0 0 $NONE)$ipv4"		# 1 in transit
bad drop_inner "$(hdr 1 1 9 0x0800 0 $tgt_id $NONE)4500"	# IPv4
bad drop_inner "$(hdr 1 1 9 0x86dd 0 $tgt_id $NONE)$ipv4"	# IPv6
bad drop_proto "$(hdr 1 1 9 0x1234 0 $tgt_id $NONE)$ipv4"
bad hello_bad "$(hdr 1 2 1 0 0 $NONE $NONE)"			# truncated
bad hello_bad "$(hdr 1 2 1 0 5000 $NONE $NONE)0000000000000064"	# src
stat_of() { ip netns exec "$(topo_ns_of $tgt)" ethtool -S dp0 |
	awk '{ sub(":", "", $1); print $1, $2 }'; }
declare -A before=()
while read -r k v; do before[$k]=$v; done <<<"$(stat_of)"
all=$(IFS=,; echo "${frames[*]}")
ip netns exec dpsw $RAW send "$(topo_peer_of $tgt 0)" "$tgt_mac" 0x88b5 "$all"
sleep 0.5
declare -A after=()
while read -r k v; do after[$k]=$v; done <<<"$(stat_of)"
for c in "${!frames[@]}"; do
	n=$(tr ',' '\n' <<<"${frames[$c]}" | wc -l)
	check_eq "$((after[$c] - before[$c]))" "$n" \
		"malformed frames are dropped and counted: $c"
done
check_eq "$((after[delivered] - before[delivered]))/$((after[forwarded] - before[forwarded]))" \
	0/0 "no malformed frame was delivered or relayed"
check_eq "$(sum_stat drop_ttl)" 2 "TTL expiries: only the two injected ones"
check_eq "$(sum_stat route_tunnel_hops)/$(sum_stat route_uturns)/$(sum_stat route_ring_reversals)" \
	0/0/0 "no detours: every neighbour stayed reachable"
run_test "the fabric still works after the garbage" \
	on 0:0.0.0 ping -c 1 -W 2 "$(fabric_ip4 $tgt)"

run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
