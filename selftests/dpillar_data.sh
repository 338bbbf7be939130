#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The data plane on a DPillar fabric, (4,3) with 24 servers unless
# DPILLAR_FABRIC="N K" says otherwise (the debug kernel runs (4,2)):
# IPv4 between every pair, IPv6 from a server of each column to every
# other, relaying in softirq along the path dpsim predicts, TCP, MTU, TTL,
# Hellos, miswiring, malformed frames from the wire, and frame fuzzing
# (random and mutated frames from a neighbour).  The pairs are
# chosen from dpsim's routes, so every check holds on any (n, k).
#
# Under QEMU TCG a process costs 0.1-0.3 s: addresses and namespaces come
# from fabric_index (no subshells), routes from fabric_route (no jq).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"
. "$(dirname "$0")/fabric.sh"

require_vm
require_root
require_cmd ip jq ethtool fping iperf3 python3
require_tools
fabric_size "4 3"

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer fabric_destroy
# A generous dead interval: a TCG guest on a loaded host delays Hellos,
# and a flapping neighbour would make FTRoute detour, so paths would no
# longer be the failure-free ones this test compares with dpsim.  The
# Hello interval: DPILLAR_HELLO_MS (default 100; the debug kernel's
# 1,000), the dead one DPILLAR_DEAD_MS (default 2,000; there 3,000).
fabric_up_test "($N,$K) fabric up: $((K * (N / 2) ** K)) servers with dp0, every port reaches its switch's peers" \
	"$N" "$K" hello "${DPILLAR_HELLO_MS:-100}" dead "${DPILLAR_DEAD_MS:-2000}" || ktap_finish
NS=${#SERVERS[@]}

on() { local a=$1; shift; ip netns exec "${FNS[$a]}" "$@"; }
# --- every ordered pair, IPv4; IPv6 from one server of each column -------
# fping_from A FAMILY: A pings every other server at once; losses are
# reported per target.  -r 3: a pair may miss one Hello round trip while
# ARP-free IP settles.
fping_from() {
	local a=$1 b out targets=()
	for b in "${SERVERS[@]}"; do
		[ "$b" = "$a" ] && continue
		if [ "$2" = 4 ]; then targets+=("${FIP4[$b]}"); else targets+=("${FIP6[$b]}"); fi
	done
	out=$(on "$a" fping -q -r 3 -t 500 "${targets[@]}" 2>&1) ||
		{ ktap_diag "IPv$2 from $a: $out"; return 1; }
}
all_pairs_v4() {
	local a fails=0
	for a in "${SERVERS[@]}"; do
		fping_from "$a" 4 || fails=$((fails + 1))
	done
	return $fails
}
run_test "IPv4: all $((NS * (NS - 1))) ordered pairs reach each other" all_pairs_v4

v6_sources() {
	local c fails=0
	for ((c = 0; c < K; c++)); do
		fping_from "${SERVERS[c * NS / K]}" 6 || fails=$((fails + 1))
	done
	return $fails
}
run_test "IPv6: a server of each column reaches every other ($((K * (NS - 1))) pairs)" v6_sources

# --- relays: the kernel walks the path the simulator predicts -------------
# Routes from server 0 to every other server: the pairs below come from
# them (the farthest, and one relayed pair for every path length).
S0=${SERVERS[0]}
declare -A HOPS=()
far_b='' far_h=0
for b in "${SERVERS[@]:1}"; do
	fabric_route "$S0" "$b" || ktap_diag "dpsim route $S0 $b failed"
	HOPS[$b]=$R_HOPS
	[ "${R_HOPS:-0}" -gt "$far_h" ] && far_h=$R_HOPS far_b=$b
done
PAIRS=("$S0 $far_b")
declare -A seen=([$far_h]=1)
for b in "${SERVERS[@]:1}"; do
	h=${HOPS[$b]:-0}
	[ "$h" -ge 2 ] && [ -z "${seen[$h]:-}" ] && { PAIRS+=("$S0 $b"); seen[$h]=1; }
done
# and a pair between two other servers, across columns
PAIRS+=("${SERVERS[NS / K + 1]} ${SERVERS[NS - 2]}")

# DPILLAR_RELAY_PAIRS: at most that many of the pairs (the farthest
# first; the debug kernel takes one: the counts are the routing core's,
# KUnit's there, and each pair took about 50 s).
fabric_fwd_snapshot
for pair in "${PAIRS[@]:0:${DPILLAR_RELAY_PAIRS:-${#PAIRS[@]}}}"; do
	# shellcheck disable=SC2086
	fabric_relay_test "relay counters match dpsim route: $pair" $pair
done

# --- TCP between the two farthest servers ----------------------------------
far_a=$S0
tcp_test() {
	local out bps
	on "$far_b" iperf3 -s -D -1 -B "${FIP4[$far_b]}" >/dev/null || return 1
	sleep 0.5
	out=$(on "$far_a" iperf3 -c "${FIP4[$far_b]}" -t 3 -J) || return 1
	bps=$(echo "$out" | jq '.end.sum_received.bits_per_second')
	ktap_diag "iperf3 $far_a -> $far_b ($far_h hops): $(echo "$bps" |
		awk '{ printf "%.1f Mbit/s", $1 / 1e6 }') under TCG"
	awk -v b="$bps" 'BEGIN { exit !(b > 0) }'
}
run_test "TCP over the $far_h-hop path $far_a -> $far_b" tcp_test

# --- relays leave no trace (dpillar-design.rst, "Relaying") ----------------
# With any socket asking for receive timestamps (chrony's does), every
# frame a port receives gets a realtime timestamp; an fq qdisc on a
# relay's way out reads a relayed skb's timestamp as its departure time,
# one far past its horizon, and drops it.  A relay clears it, as IP
# forwarding does (and the mark and priority: KUnit's dpp_relay_no_trace).
# Every port of the relays from $far_a to $far_b gets fq, a timestamping
# socket is open: pings cross, and no fq drops one.  Skipped where the
# kernel has no fq (the debug kernel builds none in).
relay_ports() {
	on "$1" ip -o link show master dp0 |
		awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'
}
no_trace_test() {
	local r p tsp rc=0 drops=0 n
	fabric_route "$far_a" "$far_b" || return 1
	[ ${#R_RELAYS[@]} -gt 0 ] || { echo "no relay on the path"; return 1; }
	on "$S0" tc qdisc add dev lo root fq 2>/dev/null ||
		{ echo "no fq qdisc here"; return "$KSFT_SKIP"; }
	on "$S0" tc qdisc del dev lo root
	for r in "${R_RELAYS[@]}"; do
		for p in $(relay_ports "$r"); do
			on "$r" tc qdisc replace dev "$p" root fq || rc=1
		done
	done
	# SO_TIMESTAMPNS (35): Python's socket module does not name it.
	python3 -S -E -c 'import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 35, 1)
time.sleep(60)' &
	tsp=$!
	# The timestamp key is switched on by a work item.
	sleep 1
	kill -0 "$tsp" || { echo "no timestamping socket"; return 1; }
	on "$far_a" ping -q -c 5 -i 0.2 -W 2 "${FIP4[$far_b]}" ||
		{ echo "pings lost across fq relays"; rc=1; }
	kill "$tsp"
	wait "$tsp" 2>/dev/null
	for r in "${R_RELAYS[@]}"; do
		for p in $(relay_ports "$r"); do
			n=$(on "$r" tc -s qdisc show dev "$p" root |
				sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n 1)
			drops=$((drops + ${n:-0}))
			on "$r" tc qdisc del dev "$p" root
		done
	done
	ktap_diag "fq drops on the relays' ports: $drops"
	[ "$drops" -eq 0 ] && [ $rc -eq 0 ]
}
run_test "relays leave no receive timestamp: pings through fq on every relay port" no_trace_test

# A packet socket sends on dp0 with no IP output path around it: only
# __dev_queue_xmit()'s rcu_read_lock_bh() is held, and dp_xmit() reads the
# ports and neighbour tables with rcu_dereference() (the debug kernel's
# lockdep checks the lock; "no kernel splat" below).  Three ICMP echo
# requests built by hand cross to the farthest server, which answers.
pkt_sock_test() {
	local d0 d1
	fabric_snapshot
	d0=${ST["$far_b delivered"]:-0}
	on "$far_a" python3 - "${FIP4[$far_a]}" "${FIP4[$far_b]}" <<-'PY' || return 1
	import socket, struct, sys
	def csum(b):
	    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
	    s = (s >> 16) + (s & 0xffff)
	    return ~(s + (s >> 16)) & 0xffff
	src, dst = (socket.inet_aton(a) for a in sys.argv[1:3])
	s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
	for seq in range(3):
	    icmp = struct.pack("!BBHHH", 8, 0, 0, 0x4450, seq) + b"dpillar packet socket"
	    icmp = icmp[:2] + struct.pack("!H", csum(icmp + b"\0")) + icmp[4:]
	    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), seq, 0,
	                     64, 1, 0, src, dst)
	    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
	    s.sendto(ip + icmp, ("dp0", 0x0800))
	PY
	sleep 1
	fabric_snapshot
	d1=${ST["$far_b delivered"]:-0}
	echo "$far_b delivered $((d1 - d0)) (3 sent, Hellos are not counted)"
	[ $((d1 - d0)) -ge 3 ]
}
run_test "a packet socket on dp0 sends across the fabric ($far_a -> $far_b)" pkt_sock_test

# dp0 offers TSO (gso.c): TCP hands it 64 KB super-packets.  With the
# sender's ports unable to checksum or gather, as a NIC is for a header it
# does not know, the core cuts each one into frames with dpillar's GSO
# callback before the port; without that callback they are dropped and
# TCP stalls.
# port_stat ADDR NAME: the sum of a statistic of ADDR's two ports.
port_stat() {
	local p n=0
	for p in p0 p1; do
		n=$((n + $(on "$1" cat "/sys/class/net/$p/statistics/$2")))
	done
	echo "$n"
}
gso_test() {
	local out bytes tx0 tx1 dr0 dr1 re p rc=0
	on "$far_a" ethtool -k dp0 | grep -q '^tcp-segmentation-offload: on' ||
		{ ktap_diag "dp0 offers no TSO"; return 1; }
	for p in p0 p1; do
		on "$far_a" ethtool -K "$p" tx off sg off >/dev/null || return 1
	done
	tx0=$(port_stat "$far_a" tx_packets) dr0=$(port_stat "$far_a" tx_dropped)
	on "$far_b" iperf3 -s -D -1 -B "${FIP4[$far_b]}" >/dev/null || rc=1
	sleep 0.5
	out=$(on "$far_a" iperf3 -c "${FIP4[$far_b]}" -n 4M -J) || rc=1
	tx1=$(port_stat "$far_a" tx_packets) dr1=$(port_stat "$far_a" tx_dropped)
	for p in p0 p1; do
		on "$far_a" ethtool -K "$p" tx on sg on >/dev/null
	done
	bytes=$(echo "$out" | jq '.end.sum_received.bytes')
	re=$(echo "$out" | jq '.end.sum_sent.retransmits')
	ktap_diag "$bytes bytes received, $((tx1 - tx0)) frames sent, $((dr1 - dr0)) dropped at the ports, $re retransmits"
	# A super-packet the port could not segment is dropped there (counted
	# in tx_dropped), and TCP gets through anyway by retransmitting single
	# segments: so the drops are what tells.  Retransmissions are only
	# shown: a loaded TCG host makes a few spurious ones (3 seen on 6.1).
	# iperf3 stops counting before the last bytes in flight arrive; at
	# most MTU-sized frames: at least half of them left as such.
	[ "$rc" = 0 ] && [ "${bytes:-0}" -ge 1048576 ] && [ "$dr1" = "$dr0" ] &&
		[ $(((tx1 - tx0) * 1480)) -ge $((bytes / 2)) ]
}
run_test "TCP through ports without offloads: dpillar's GSO callback segments" gso_test

# --- GRO: the frames for this server aggregated --------------------------------
# dp_gro_receive() (gso.c) aggregates the data frames for this server,
# whatever their checksum state: the emulated NICs give CHECKSUM_NONE for
# our ethertype (the NIC suites see those aggregated), and veth shows the
# partial checksum's case: a sender's port without TSO but with checksum
# offload has the core cut each super-packet with dpillar's GSO callback,
# and the frames keep their partial checksum across the bridge; a veth
# with GRO on receives through NAPI GRO, when the veth that sends into it
# (the switch's end of the cable) has no TSO (veth_xmit(),
# veth_skb_is_eligible_for_gro()).  Two direct neighbours, on the one
# switch they share; the three ends of that cable are restored after.
gro_a=$S0 gro_b='' gro_pa='' gro_pb=''
for b in "${SERVERS[@]:1}"; do
	[ "${HOPS[$b]:-0}" = 1 ] || continue
	n=0
	for p in 0 1; do
		for q in 0 1; do
			_topo_switch_of "$gro_a" $p && sw=$_SWN &&
				_topo_switch_of "$b" $q && [ "$sw" = "$_SWN" ] &&
				n=$((n + 1)) pa=$p pb=$q
		done
	done
	[ "$n" = 1 ] && { gro_b=$b gro_pa=$pa gro_pb=$pb; break; }
done
# gro_iperf: 2 s of TCP gro_a -> gro_b; prints "BYTES BITS_PER_SECOND".
# How much: 2 s, or DPILLAR_GRO_IPERF's iperf3 options (the debug
# kernel's column: "-n 1536K", 1.5 MB however long it takes: at its
# 1 Mbit/s under load, 2 s moved 0.3 MB, below the 1 MB the check needs).
gro_iperf() {
	local out
	on "$gro_b" iperf3 -s -D -1 -B "${FIP4[$gro_b]}" >/dev/null || return 1
	sleep 0.5
	# shellcheck disable=SC2086 # options, split on purpose
	out=$(on "$gro_a" iperf3 -c "${FIP4[$gro_b]}" ${DPILLAR_GRO_IPERF:--t 2} -J) ||
		return 1
	echo "$out" | jq -r '.end.sum_received | "\(.bytes) \(.bits_per_second)"'
}
# gro_counts: RX (frames gro_b's port received), FR and DL (its dp0's
# rx_frames, Hellos included, and delivered: dp0's rx_packets), SD (the
# guest's backlog drops, /proc/net/softnet_stat's second column: a veth
# without NAPI hands each frame to netif_rx(), whose backlog a slow
# kernel overflows, so that a frame the port counted never reaches
# dpillar; the debug kernel under load lost 60% so), BAD (the fabric's
# drops of malformed frames and of frames that could not be completed
# toward a port).
GRO_BAD="drop_short drop_version drop_type drop_addr drop_ttl drop_proto drop_inner tx_complete_fail"
gro_counts() {
	local c
	RX=$(on "$gro_b" cat "/sys/class/net/p$gro_pb/statistics/rx_packets")
	SD=0
	while read -r _ c _; do SD=$((SD + 16#$c)); done < /proc/net/softnet_stat
	fabric_snapshot
	FR=${ST["$gro_b rx_frames"]:-0} DL=${ST["$gro_b delivered"]:-0} BAD=0
	for c in $GRO_BAD; do
		BAD=$((BAD + $(snap_sum "$c")))
	done
}
gro_test() {
	local sw rc=0 rx0 fr0 dl0 sd0 bad0 off on off_ok=0 offrx=0 offdl=0
	sw=$(topo_peer_of "$gro_b" "$gro_pb")
	on "$gro_a" ethtool -K "p$gro_pa" tso off >/dev/null || return 1
	ip netns exec "$PF_SW" ethtool -K "$sw" tso off >/dev/null || rc=1
	# GRO off first: the throughput to compare with, and the control of
	# the counting (a packet on dp0 per frame received, Hellos aside).
	gro_counts; rx0=$RX fr0=$FR dl0=$DL sd0=$SD
	off=$(gro_iperf) || rc=1
	gro_counts
	echo "GRO off: ${off%% *} bytes, $((RX - rx0)) frames into p$gro_pb, backlog drops +$((SD - sd0)), rx_frames +$((FR - fr0)), delivered +$((DL - dl0))"
	# the frames that reached the stack
	offrx=$((RX - rx0 - (SD - sd0))) offdl=$((DL - dl0))
	[ $((offdl * 2)) -ge "$offrx" ] && off_ok=1
	on "$gro_b" ethtool -K "p$gro_pb" gro on >/dev/null || rc=1
	gro_counts; rx0=$RX fr0=$FR dl0=$DL sd0=$SD bad0=$BAD
	on=$(gro_iperf) || rc=1
	gro_counts
	echo "GRO on:  ${on%% *} bytes, $((RX - rx0)) frames into p$gro_pb, backlog drops +$((SD - sd0)), rx_frames +$((FR - fr0)), delivered +$((DL - dl0)), malformed +$((BAD - bad0))"
	RX=$((RX - (SD - sd0)))
	on "$gro_b" ethtool -K "p$gro_pb" gro off >/dev/null
	ip netns exec "$PF_SW" ethtool -K "$sw" tso on >/dev/null
	on "$gro_a" ethtool -K "p$gro_pa" tso on >/dev/null
	# Not a measure of dpillar's aggregation alone: GRO on also moves
	# the veth to NAPI, which batches (with dp_gro_receive() made to
	# aggregate nothing: 175 Mbit/s off, 325 on, in one 6.12 run).
	awk -v off="${off#* }" -v on="${on#* }" 'BEGIN {
		printf "throughput: GRO off %.1f Mbit/s, on %.1f Mbit/s (TCG; not checked)\n",
			off / 1e6, on / 1e6 }'
	# The data arrived (1 MB at least: 700 frames, against a Hello every
	# 100 ms, or DPILLAR_HELLO_MS, from each neighbour on the switch), dp0's packets per frame
	# the port received are at most 3/4 of what they were with GRO off
	# (which must be at least half: on 6.12 GRO takes them from ~1 to
	# ~0.04; on the debug kernel at <1 Mbit/s from 0.52 to 0.27, before
	# the backlog's drops were left out of the frames; with
	# dp_gro_receive() made to flush everything, 1 to 1), and nothing
	# was dropped as malformed.
	[ "$rc" = 0 ] && [ "$off_ok" = 1 ] && [ "${on%% *}" -ge 1048576 ] &&
		[ $((4 * (DL - dl0) * offrx)) -le $((3 * offdl * (RX - rx0))) ] &&
		[ "$BAD" = "$bad0" ]
}
if [ -n "$gro_b" ]; then
	V=1 run_test "GRO: TCP $gro_a -> $gro_b through veth NAPI GRO is aggregated before dp0" gro_test
else
	ktap_skip "GRO: TCP through veth NAPI GRO" "no direct neighbour of $gro_a on one switch only"
fi

# --- MTU ----------------------------------------------------------------------
a=$S0 b=$far_b
run_test "full-MTU packet (1480 bytes) crosses the fabric" \
	on $a ping -c 1 -W 2 -M do -s 1452 "${FIP4[$b]}"
check_fail -m "mtu=1480" "oversize DF packet gets the PMTU error" \
	on $a ping -c 1 -W 2 -M do -s 1453 "${FIP4[$b]}"
run_test "oversize packet without DF is fragmented and delivered" \
	on $a ping -c 1 -W 2 -s 4000 "${FIP4[$b]}"
# the first node id past the fabric
outside=10.$((NS >> 16 & 255)).$((NS >> 8 & 255)).$((NS & 255))
check_fail "a destination outside the fabric ($outside) is refused" \
	on $a ping -c 1 -W 1 $outside
fabric_snapshot
check_eq "${ST["$a tx_not_fabric"]:-}" 1 "and counted as tx_not_fabric"
check_eq "$(snap_sum drop_mtu)" 0 "no relay dropped a frame for its size"

# --- Hellos -----------------------------------------------------------------
fwd=$(snap_sum forwarded)
sleep 1
fabric_snapshot
check_eq "$(($(snap_sum forwarded) - fwd))" 0 "Hellos are never forwarded"
check_eq "$(snap_sum hello_miswired)" 0 "no Hello crosses into another segment"
heard=0
for s in "${SERVERS[@]}"; do
	[ "${ST["$s hello_rx"]:-0}" -gt 0 ] && heard=$((heard + 1))
done
check_eq "$heard" "$NS" "every server hears Hellos"

# Re-cable server 0's port 0 onto a switch of another column (that of the
# last server of column 1).
mis=${SERVERS[2 * NS / K - 1]}
miswired_both() {
	fabric_snapshot
	[ "${ST["$S0 hello_miswired"]:-0}" -gt 0 ] &&
	[ "${ST["$mis hello_miswired"]:-0}" -gt 0 ]
}
miswire() {
	local peer
	peer=$(topo_peer_of $S0 0)
	ip -n "$PF_SW" link set "$peer" nomaster &&
	ip -n "$PF_SW" link set "$peer" master "$(topo_switch_of $mis 0)" &&
	wait_for 10 miswired_both
	local rc=$?
	ip -n "$PF_SW" link set "$peer" nomaster
	ip -n "$PF_SW" link set "$peer" master "$(topo_switch_of $S0 0)"
	return $rc
}
run_test "a miswired server ($S0 onto $mis's switch) is detected on both sides" miswire

# --- malformed frames from the wire -----------------------------------------
# inject ADDR COUNTER HEX: send a frame from the switch into ADDR's port 0
# and check that exactly COUNTER grew by one on ADDR.
tgt=${SERVERS[NS / K + 1]}	# any server but 0 (the transit frames' dst)
tgt_id=${FID[$tgt]}
tgt_mac=$(ip -n "${FNS[$tgt]}" -j link show p0 | jq -r '.[0].address')
hdr() { # hdr VERSION TYPE TTL PROTO SRC DST WAYPOINT -> hex
	printf '%02x%02x%02x00%04x0000%08x%08x%08x' "$@"
}
declare -A frames=()	# counter -> comma separated frames for it
# bad COUNTER HEX [group|vlan]: a frame unicast to tgt (default), sent to
# the Hello group, or unicast with an 802.1Q tag (VLAN 100) in front.
declare -A sends=([uni]='' [group]='' [vlan]='')
bad() {
	local how=${3:-uni} pre=
	[ "$how" = vlan ] && pre=006488b5	# TCI: VLAN 100, then our type
	frames[$1]+="${frames[$1]:+,}$2"
	sends[$how]+="${sends[$how]:+,}$pre$2"
}
HELLO_GROUP=03:44:50:00:00:01
NONE=4294967295
ipv4=450000140000000040110000c0000201c0000202
bad drop_short "0100"
# A path probe and a probe reply cut short after the header, for tgt and
# in transit through it.
bad drop_short "$(hdr 1 3 9 0 0 $tgt_id $NONE)0000"
bad drop_short "$(hdr 1 4 9 0 0 $tgt_id $NONE)"
bad drop_short "$(hdr 1 3 9 0 $tgt_id 0 $NONE)00000000"
# Shortcut discovery frames: DPillar's shortest mode takes them (the
# discovery fallback), from live neighbours only: these name server 0 as
# their sender and come from the switch's MAC.  Data on a shortcut whose
# hop budget (rword) is spent before its destination is lost.
bad shortcut_bad "$(hdr 1 5 9 0 0 $tgt_id $NONE)0000000000000000"
bad shortcut_bad "$(hdr 1 6 9 0 0 $tgt_id $NONE)0000000000000000"
bad shortcut_data_lost "$(hdr 1 7 9 0x0800 0 0 $NONE)$ipv4"	# in transit
bad drop_type "$(hdr 1 8 9 0x0800 0 $tgt_id $NONE)$ipv4"
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
bad hello_bad "$(hdr 1 2 1 0 0 $NONE $NONE)" group		# truncated
bad hello_bad "$(hdr 1 2 1 0 5000 $NONE $NONE)0000000000000064" group	# src
# TLVs: a length past the end, PORTS_UP twice, PORTS_UP of 2 bytes, and a
# tlv_len that claims more than the frame has.
hello="$(hdr 1 2 1 0 0 $NONE $NONE)"
bad hello_bad "${hello}000000080000006400010008000000ff" group
bad hello_bad "${hello}0000001000000064000100040000000300010004000000ff" group
bad hello_bad "${hello}000000080000006400010002ffff0000" group
bad hello_bad "${hello}000004000000006400010004000000ff" group
# A well-formed Hello, but unicast to tgt: not a neighbour's.
bad hello_not_group "${hello}0000000000000064"
# Tagged for a VLAN tgt has no device for: a Hello, data for tgt, and
# data in transit through it.
bad drop_vlan "${hello}0000000000000064" vlan
bad drop_vlan "$(hdr 1 1 9 0x0800 0 $tgt_id $NONE)$ipv4" vlan
bad drop_vlan "$(hdr 1 1 9 0x0800 $tgt_id 0 $NONE)$ipv4" vlan
# tgt's counters from a snapshot into the array named $1
stat_of() {
	# shellcheck disable=SC2034 # st names the caller's array
	local -n st=$1
	local k
	fabric_snapshot
	for k in "${!frames[@]}" delivered forwarded; do
		st[$k]=${ST["$tgt $k"]:-0}
	done
}
declare -A before=() after=() want=()
for c in "${!frames[@]}"; do
	n=${frames[$c]//[^,]/}
	want[$c]=$((${#n} + 1))
done
# all_counted: every counter grew by its frames (or more: then the checks
# below fail at once instead of at the timeout).
all_counted() {
	local c
	stat_of after
	for c in "${!frames[@]}"; do
		[ $((after[$c] - before[$c])) -ge "${want[$c]}" ] || return 1
	done
}
stat_of before
# One dp_raw.py batch: into the switch namespace, then every frame.
out=$(python3 -S -E "$DP_SELFTESTS/dp_raw.py" - <<-EOF
	setns /run/netns/$PF_SW
	send $(topo_peer_of $tgt 0) $tgt_mac 0x88b5 ${sends[uni]}
	send $(topo_peer_of $tgt 0) $HELLO_GROUP 0x88b5 ${sends[group]}
	send $(topo_peer_of $tgt 0) $tgt_mac 0x8100 ${sends[vlan]}
	EOF
)
[ "$out" = $'ok\nok\nok\nok' ] || ktap_diag "dp_raw.py: $out"
wait_for 5 all_counted || ktap_diag "not every malformed frame was counted within 5 s"
stat_of after
for c in "${!frames[@]}"; do
	check_eq "$((after[$c] - before[$c]))" "${want[$c]}" \
		"malformed frames are dropped and counted: $c"
done
check_eq "$((after[delivered] - before[delivered]))/$((after[forwarded] - before[forwarded]))" \
	0/0 "no malformed frame was delivered or relayed"
fabric_snapshot
check_eq "$(snap_sum drop_ttl)" 2 "TTL expiries: only the two injected ones"
check_eq "$(dmesg | grep -c 'routing loop')" 0 "TTL expiries are counted, not logged"
check_eq "$(snap_sum route_tunnel_hops)/$(snap_sum route_uturns)/$(snap_sum route_ring_reversals)" \
	0/0/0 "no detours: every neighbour stayed reachable"
run_test "the fabric still works after the garbage" \
	on $S0 ping -c 1 -W 2 "${FIP4[$tgt]}"

# --- frame fuzzing -----------------------------------------------------------
# A neighbour's raw sockets send random frames of our ethertype into both
# ports of every server (selftests/dp_framefuzz.py: every packet type,
# random header fields, Hello TLVs, probe and shortcut bodies, coordinates
# blocks, 14 bytes to the MTU, valid frames mutated by one field) for
# DPILLAR_FRAME_FUZZ_SECS seconds (default 30; 0: no fuzzing) at most
# DPILLAR_FRAME_FUZZ_RATE frames a second (default 400), from seed
# DPILLAR_FRAME_FUZZ_SEED (default 1; "random": a new one, printed), while
# two servers ping every other.  Then: no splat, every ordered pair
# delivers, and every frame the first checks of the receive path must
# drop (short, version, type, not ours, a Hello off the group or with a
# tlv_len that lies) is counted.  Leaks: debug_checks.sh's kmemleak scan
# after the suites (a scan here costs ~100 s under TCG).
# $DPILLAR_OUT/framefuzz.progress (the guest's shared directory) names the
# last 64 frames sent: after a crash, the fuzzer replays them with those
# options (selftests/dp_framefuzz.py).
FUZZ_SECS=${DPILLAR_FRAME_FUZZ_SECS:-30}
FUZZ_SEED=${DPILLAR_FRAME_FUZZ_SEED:-1}
[ "$FUZZ_SEED" = random ] && FUZZ_SEED=$((RANDOM << 15 | RANDOM))
FUZZ_OUT=
[ -d "${DPILLAR_OUT:-}" ] && FUZZ_OUT=$DPILLAR_OUT/framefuzz.progress
declare -A fz0=() fz_want=()
# fz_sums ARRAY: every counter's fabric-wide sum into ARRAY.
fz_sums() {
	local -n sums=$1
	local k
	fabric_snapshot
	sums=()
	for k in "${!ST[@]}"; do
		sums[${k#* }]=$((${sums[${k#* }]:-0} + ${ST[$k]}))
	done
}
# fz_counted: every expected drop counter grew by its frames at least.
fz_counted() {
	local -A fz1=()
	local c
	fz_sums fz1
	for c in "${!fz_want[@]}"; do
		[ $((${fz1[$c]:-0} - ${fz0[$c]:-0})) -ge "${fz_want[$c]}" ] || return 1
	done
}
frame_fuzz() {
	local s p b out tg=() fp=() pids=() c n line grew='' rc=0 t=$SECONDS
	local -A fz1=()
	# topo_peer_of's names, without a subshell each (a fork costs up to a
	# second in a debug guest).
	for s in "${SERVERS[@]}"; do
		for p in 0 1; do
			tg+=("v${FID[$s]}p$p=${FNS[$s]}:p$p:${FID[$s]}")
		done
	done
	# Traffic while the frames arrive: two servers ping every other.
	for s in "$S0" "$far_b"; do
		fp=()
		for b in "${SERVERS[@]}"; do
			[ "$b" = "$s" ] || fp+=("${FIP4[$b]}")
		done
		on "$s" fping -q -c $((FUZZ_SECS * 4 + 8)) -p 250 -t 500 \
			"${fp[@]}" > "/tmp/fz-ping-$s" 2>&1 &
		pids+=($!)
	done
	fz_sums fz0
	echo "setup: $((SECONDS - t)) s"
	out=$(ip netns exec "$PF_SW" python3 -S -E \
		"$DP_SELFTESTS/dp_framefuzz.py" --secs "$FUZZ_SECS" \
		--seed "$FUZZ_SEED" --rate "${DPILLAR_FRAME_FUZZ_RATE:-400}" \
		--nodes "$NS" --sc-data 1 ${FUZZ_OUT:+--progress "$FUZZ_OUT"} \
		"${tg[@]}" 2>&1) ||
		rc=1
	echo "$out"
	fuzz_expect "$out" fz_want || { echo "no expectations from the fuzzer"; rc=1; }
	echo "fuzzer done: $((SECONDS - t)) s"
	wait_for 10 fz_counted || rc=1
	fz_sums fz1
	for c in "${!fz_want[@]}"; do
		[ $((${fz1[$c]:-0} - ${fz0[$c]:-0})) -ge "${fz_want[$c]}" ] ||
			echo "$c grew by $((${fz1[$c]:-0} - ${fz0[$c]:-0})), less than the ${fz_want[$c]} frames it must count"
	done
	for c in $(printf '%s\n' "${!fz1[@]}" | sort); do
		[ "${fz1[$c]}" != "${fz0[$c]:-0}" ] &&
			grew+=" $c+$((fz1[$c] - ${fz0[$c]:-0}))"
	done
	echo "counters that grew (fabric-wide):$grew"
	wait "${pids[@]}"
	echo "pings done: $((SECONDS - t)) s"
	for s in "$S0" "$far_b"; do
		echo "pings from $s during the fuzz (sent/received/loss):"
		sed 's/^/  /' "/tmp/fz-ping-$s"
		rm -f "/tmp/fz-ping-$s"
	done
	return $rc
}
if [ "$FUZZ_SECS" = 0 ]; then
	ktap_skip "frame fuzzing" "DPILLAR_FRAME_FUZZ_SECS=0"
else
	fmark=$(dmesg_mark)
	V=1 run_test "frame fuzzing: $FUZZ_SECS s of random and mutated frames into every port (seed $FUZZ_SEED), every drop of the first checks counted" \
		frame_fuzz
	run_test "frame fuzzing: no kernel splat" dmesg_check "$fmark"
	run_test "frame fuzzing: every port reaches its switch's peers again" \
		fabric_wait_reach 10
	run_test "frame fuzzing: every ordered pair still delivers" all_pairs_v4
fi

run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
