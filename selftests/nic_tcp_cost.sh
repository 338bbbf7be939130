#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-nic, inside the test guest: TCP's cost per byte over emulated
# NICs, dp0 against plain IPv4 on the same NICs (issue 52; issue 51's "TCP
# per byte").  scripts/bench.sh nic boots it:
#
#   selftests/vm/run-vm.sh --icount 0 --smp 1 \
#       $(selftests/nic_bench.sh --vm-args) -- selftests/nic_bench.sh
#
# (nic_bench.sh hands over to this script unless BENCH_NIC_MODE=pps, the
# older packet-rate bench by the wall clock.)
#
# The instrument.  One vCPU on instruction-counted time (run-vm.sh
# --icount SHIFT, QEMU -icount shift=SHIFT,sleep=off): the guest's clock
# advances by 2^SHIFT ns per instruction it executes, whatever the host's
# load.  With sleep=off an idle vCPU does not wait: the clock jumps to
# the next timer.  So elapsed guest time is busy instructions plus those
# jumps, and the busy part is elapsed less idle: /proc/timer_list's "now
# at" less the CPU's idle_sleeptime and iowait_sleeptime (ns; nohz keeps
# them exact; they are complete whenever this CPU reads them, as it is
# then busy).  busy ns >> SHIFT = instructions.  A run moves a FIXED
# amount of data by one TCP connection, BENCH_TCP_BYTES (default 32 MiB),
# from s to the receiver, all of it read there: dp_bench.py's tcpsend (in
# s) and tcpsink (in r and d), Python processes started with the chain
# that write and read 128 KiB at a time (iperf3's default), so that no
# process starts inside a run (iperf3 -n was the first design: its
# server stopped reading before the end, 11.7 of 16 MiB in one run, and
# its start cost 30-50 ms of instructions).  The figure is the guest's
# busy ns over the run per KiB: the sender, the relay and the receiver
# all run on the one vCPU, so it is the cost of the whole chain (the
# NICs' emulation itself is QEMU's and costs no guest instruction; the
# drivers' work on their rings and registers is counted).  The run's
# fixed part (connect, the length, the answer, close; some 5 ms) is in
# both contenders' figures; the "start" line of bench-nic-raw.txt
# measures it, a run of 1 byte.
#
# Repeatability.  The cost per byte follows how many segments each ACK
# and each GRO/NAPI batch covers (the receiver's segments sent, its ACKs,
# are in the raw line), which hangs on when the receiving process runs
# against its softirq (the NIC models' interrupt timers, on the virtual
# clock) and on losses (a retransmission halves cwnd and the aggregates
# shrink: one in a 32-MiB run costs some 3%; rtl8139's emulation drops
# frames).  A run settles into one regime early, so short runs spread:
# 8 MiB a run, up to 8% between rounds (20% once, with a 9-s idle wait
# inside the run); 32 MiB, 0.3-2% for dp0, more for a round with a
# retransmission.  Each row's spread is printed; the raw lines hold the
# retransmissions and ACK counts that explain it.
#
# The chain (nic_chain_vm_args, as nic_bench.sh and nic_tcp_test.sh): per
# QEMU NIC model four NICs on two QEMU hubs, hub A joining s.p1 and r.p1,
# hub B r.p0 and d.p0:
#
#   s (sender) --NIC-- r --NIC-- d
#
# Rows, per model (BENCH_NIC_ROWS, default "hop-on hop-off relay jumbo"):
#   hop-on    s -> r over one NIC pair, offloads as the driver sets them:
#             TCP over dp0 (DPillar (4,2), ids 0 2 3 as nic_tcp_test.sh)
#             against plain IPv4 on s.p1 and r.p1
#   hop-off   the same with every NIC's offloads off (ethtool -K tx off sg
#             off tso off gso off gro off on all four)
#   relay     s -> r -> d, offloads on: dp0 through the relay against IPv4
#             forwarding on r (two /24s), and a Linux bridge on r
#             (BENCH_NIC_BRIDGE=1, the default; 0 leaves it out)
#   jumbo     hop-on with the four NICs at MTU 9000 (dp0 at 8980), for the
#             models that take it and carry a 9,000-byte frame (a row
#             "n/a" otherwise: rtl8139 refuses the MTU, vmxnet3 on a hub
#             drops the frame); these rows run after all the others, as
#             vmxnet3 once came back from MTU 9000 taking no unicast
# Goals (baseline busy ns/KiB over dp0's: the speed of dp0 against plain
# IP): hop-on >= 0.9 for e1000 and virtio-net-pci, every hop and relay
# row >= 0.75, relay >= 0.9 x ip_forward, jumbo >= 0.95; the table says
# "met" or "missed" for each.
#
# Rounds: BENCH_ROUNDS (default 2) rounds, each building every contender
# afresh, in the same order (dp0, then IPv4, then the bridge, per model);
# the figure is the median, and the spread (max - min) / min is printed
# per row and contender.  Retransmissions: TcpRetransSegs of the sender's
# namespace (and of the receiver's, for the ACK direction) per run.
#
# A run fails (exit 1) when a contender cannot be built, a transfer does
# not complete, any dpillar malformed-frame counter (drop_short, drop_inner,
# drop_proto, drop_version, drop_type, tx_complete_fail) or the stack's
# checksum/header error counter moves, or a NIC driver warning appears in
# the kernel log (nic_malformed, nic_warnings in lib.sh, the checks of
# nic_tcp_test.sh).
#
# Not split into sender, relay and receiver.  Each in a guest of its own
# (QEMU's -netdev dgram/socket between them) would count each one's busy
# instructions, but on icount with sleep=off each guest's clock then runs
# on its own: a guest that waits for a frame from another idles and its
# clock jumps to its next timer, so the round trip TCP sees, its ACK
# clocking, delayed ACKs, NAPI and GRO batch sizes, all follow the host's
# scheduling of three QEMU processes rather than the instructions, and the
# per-byte cost would move with the host's load, which is what this
# instrument exists to avoid (sleep=on ties the clocks to the host's and
# loses the instruction count).  In one guest every frame is handed from
# NIC to NIC inside QEMU at an instant of the one clock; the split inside
# it (perf per namespace) is a profile, not an exact count.  Not done
# here; the split by role counts each vCPU's instructions instead, with
# s, r and d on three vCPUs of one guest on instruction-counted time:
# selftests/nic_tcp_split.sh (tools/insn-plugin; BENCH_NIC_SPLIT=1).
#
# Results: $DPILLAR_OUT/bench-nic.txt (the table), bench-nic-raw.txt
# (every run: row contender model round busy_ns bytes ns/KiB retrans).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODELS=(${BENCH_NIC_MODELS:-e1000e e1000 vmxnet3 rtl8139 virtio-net-pci})
hub_a() { echo $((48 + 2 * $1)); }
hub_b() { echo $((49 + 2 * $1)); }

require_vm
require_root
require_cmd ip python3 jq ethtool modprobe

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
PY=$DPILLAR_REPO/selftests/dp_bench.py
WORK=$(mktemp -d)
ROUNDS=${BENCH_ROUNDS:-2}
BYTES=$(numfmt --from=iec "${BENCH_TCP_BYTES:-32M}")
ROWS=(${BENCH_NIC_ROWS:-hop-on hop-off relay jumbo})
BRIDGE=${BENCH_NIC_BRIDGE:-1}
SHIFT=${DPILLAR_ICOUNT:-}
OUT=${DPILLAR_OUT:-/tmp}
RAW=$OUT/bench-nic-raw.txt
: > "$RAW"
FAIL=0

die() { echo "bench-nic: $*" >&2; exit 1; }
[ -n "$SHIFT" ] || echo "# bench-nic: not on instruction-counted time (DPILLAR_ICOUNT unset): busy ns are the guest's clock's, not instructions"

nic_drivers_load "${MODELS[@]}" || die "cannot load the NIC drivers"
load_module || die "no dpillar module"

ns() { echo "nc$1-$2"; }			# ns MODEL ROLE

defer nic_chain_destroy

# busy_ns: the CPU's busy guest ns since boot (elapsed less idle and
# iowait; one CPU).
busy_ns() {
	awk '/^now at/ { n = $3 }
		/^  \.idle_sleeptime/ { i += $3 } /^  \.iowait_sleeptime/ { i += $3 }
		END { printf "%.0f %.0f\n", n - i, n }' /proc/timer_list
}

# segs NS: TcpRetransSegs and TcpOutSegs in NS.
segs() {
	ip netns exec "$1" awk '$1 == "Tcp:" { if (!h) { for (i = 2; i <= NF; i++) { if ($i == "RetransSegs") c = i; if ($i == "OutSegs") o = i }; h = 1; next } print $c, $o }' /proc/net/snmp
}

# ---- the chain --------------------------------------------------------------
setup() {
	nic_chain_setup "$1" "$(hub_a "$1")" "$(hub_b "$1")" ||
		die "${MODELS[$1]}: the chain could not be built"
	transfer_start "$1"
}

# transfer_start M: dp_bench.py's tcpsink (port 5300) in r and d, and its
# tcpsend in s, a line in and a line out through two FIFOs (SEND_W[M],
# SEND_R[M]: this shell's ends).  They live as long as the namespaces,
# across contenders and rounds: no process starts inside a measurement.
PIDS=()
declare -A SEND_W=() SEND_R=()
transfer_start() {
	local m=$1 r fin fo w rd
	for r in r d; do
		ip netns exec "$(ns "$m" $r)" python3 "$PY" tcpsink 5300 &
		PIDS+=($!)
	done
	fin=$WORK/send-in.$m fo=$WORK/send-out.$m
	mkfifo "$fin" "$fo" || return 1
	ip netns exec "$(ns "$m" s)" python3 "$PY" tcpsend < "$fin" > "$fo" &
	PIDS+=($!)
	exec {w}> "$fin" {rd}< "$fo"
	SEND_W[$m]=$w SEND_R[$m]=$rd
}

# transfer M DST BYTES: BYTES from s to DST's tcpsink, all read there.
transfer() {
	local ans
	echo "$2 5300 $3" >&"${SEND_W[$1]}" || return 1
	read -r -t 600 -u "${SEND_R[$1]}" ans || return 1
	[ "$ans" = "ok $3" ] || { echo "bench-nic: transfer: $ans" >&2; return 1; }
}

# NICS: the chain's NIC ports, "role:port".
NICS=(s:p1 r:p1 r:p0 d:p0)


# mtu M MTU: every NIC of the chain (and the placeholder veths) at MTU.
mtu() {
	local m=$1 v=$2 x
	for x in "${NICS[@]}" s:p0 d:p1; do
		ip -n "$(ns "$m" "${x%:*}")" link set "${x#*:}" mtu "$v" 2>/dev/null ||
			return 1
	done
}

# jumbo_carried M: a frame of 9,000 bytes crosses hub A from s.p1 to
# r.p1 (plain IPv4 on two addresses of a /30, taken off again).
jumbo_carried() {
	local m=$1 s r rc=0
	s=$(ns "$m" s) r=$(ns "$m" r)
	ip -n "$s" addr add 172.30.0.1/30 dev p1 && ip -n "$r" addr add 172.30.0.2/30 dev p1 &&
		wait_for 10 ip netns exec "$s" ping -c1 -W1 -q -M do -s 8972 172.30.0.2 \
			>/dev/null || rc=1
	ip -n "$s" addr flush dev p1
	ip -n "$r" addr flush dev p1
	ip -n "$s" neigh flush dev p1
	ip -n "$r" neigh flush dev p1
	return $rc
}

# ---- contenders: up_C M, down_C M; DST_hop, DST_relay ------------------------
up_dp0() {
	nic_chain_dp0 "$1" bench-nic || return 1
	DST_hop=10.0.0.2 DST_relay=10.0.0.3
}
# With BENCH_NIC_OFFLOAD=on, what dp0 handed to its NICs whole (s and r
# send data and ACKs), shown before dp0 goes.
down_dp0() {
	local r
	[ "${BENCH_NIC_OFFLOAD:-off}" = off ] ||
		for r in s r; do
			echo "# ${MODELS[$1]} dp0 at $r: tx_nic_offload $("$DPCTL" -n "$(ns "$1" $r)" -j stats dp0 | jq '.[0].stats.tx_nic_offload // "n/a"')"
		done
	nic_chain_dp0_down "$1"
}

# s.p1 172.16.1.1/24 -- r.p1 .2 | r.p0 172.16.2.1/24 -- d.p0 .2; the
# neighbour entries permanent (make bench: a relay re-probing its next
# hop while data flows costs a few per cent at random).
up_ipv4() {
	nic_chain_ipv4_up "$1" ||
		{ echo "bench-nic: ipv4: no ping" >&2; return 1; }
	DST_hop=172.16.1.2 DST_relay=172.16.2.2
}
down_ipv4() { nic_chain_ipv4_down "$1"; }

up_bridge() {
	local m=$1
	ip -n "$(ns "$m" r)" -b - <<-EOF || return 1
	link add br0 type bridge stp_state 0 ageing_time 100000
	link set p0 master br0
	link set p1 master br0
	link set br0 up
	EOF
	ip -n "$(ns "$m" s)" addr add 192.168.50.1/24 dev p1 || return 1
	ip -n "$(ns "$m" d)" addr add 192.168.50.2/24 dev p0 || return 1
	nic_neigh_pin "$(ns "$m" s)" p1 192.168.50.2 "$(ns "$m" d)" p0 || return 1
	nic_neigh_pin "$(ns "$m" d)" p0 192.168.50.1 "$(ns "$m" s)" p1 || return 1
	wait_for 30 ip netns exec "$(ns "$m" s)" ping -c1 -W1 -q 192.168.50.2 \
		>/dev/null || { echo "bench-nic: bridge: no ping" >&2; return 1; }
	DST_relay=192.168.50.2 DST_hop=192.168.50.2
}
down_bridge() {
	ip -n "$(ns "$1" r)" link del br0
	ip -n "$(ns "$1" s)" addr flush dev p1
	ip -n "$(ns "$1" d)" addr flush dev p0
	ip -n "$(ns "$1" s)" neigh flush dev p1
	ip -n "$(ns "$1" d)" neigh flush dev p0
	ip -n "$(ns "$1" r)" link set p0 up
	ip -n "$(ns "$1" r)" link set p1 up
}

# ---- one run ------------------------------------------------------------------
# run M ROW CONTENDER ROUND SND RCV DST: BYTES from SND to DST (RCV's
# sink); a line of $RAW; NSKIB, the busy ns per KiB.
run() {
	local m=$1 row=$2 c=$3 round=$4 snd rcv dst b0 b1 x0 x1 y0 y1
	snd=$(ns "$m" "$5") rcv=$(ns "$m" "$6") dst=$7
	x0=($(segs "$snd")) y0=($(segs "$rcv"))
	# Console output of the previous line drained (its UART interrupts
	# would fall into the run), at no cost: idle under sleep=off.
	sleep 0.2
	b0=($(busy_ns))
	transfer "$m" "$dst" "$BYTES" ||
		{ echo "bench-nic: $row $c ${MODELS[m]}: no transfer" >&2; return 1; }
	b1=($(busy_ns))
	x1=($(segs "$snd")) y1=($(segs "$rcv"))
	NSKIB=$(awk -v b=$((b1 - b0)) -v n="$BYTES" 'BEGIN { printf "%.1f", b / (n / 1024) }')
	# The raw line: busy ns, bytes, ns/KiB, retransmissions (sender,
	# receiver), then diagnostics: elapsed guest ns, segments the sender
	# and the receiver (ACKs) sent.
	echo "$row $c ${MODELS[m]} $round $((b1 - b0)) $BYTES $NSKIB $((x1 - x0)) $((y1 - y0)) $((b1[1] - b0[1])) $((x1[1] - x0[1])) $((y1[1] - y0[1]))" >> "$RAW"
	printf '# round %d %-8s %-7s %-15s %9.1f busy ns/KiB (%d ns busy of %d; retrans: sender %d, receiver %d; segments: sender %d, receiver %d)\n' \
		"$round" "$row" "$c" "${MODELS[m]}" "$NSKIB" $((b1 - b0)) \
		$((b1[1] - b0[1])) $((x1 - x0)) $((y1 - y0)) \
		$((x1[1] - x0[1])) $((y1[1] - y0[1]))
}

# start M C ROUND: the fixed cost of a run, 1 byte s -> r (connect, the
# length, the answer, close).
start() {
	local m=$1 c=$2 round=$3 b0 b1
	sleep 0.2
	b0=($(busy_ns))
	transfer "$m" "$DST_hop" 1 || return 1
	b1=($(busy_ns))
	echo "start $c ${MODELS[m]} $round $((b1 - b0)) 1 0 0 0" >> "$RAW"
}

# checks M MARK: nothing counted malformed on the chain, no driver
# warning since MARK; false (and says why) otherwise.
checks() {
	local m=$1 mark=$2 v r w
	v=0
	for r in s r d; do
		w=$(nic_malformed "$(ns "$m" $r)") || w=1
		v=$((v + w))
	done
	w=$(nic_warnings "$mark")
	[ -z "$w" ] || { echo "bench-nic: ${MODELS[m]}: driver warnings:"; echo "$w"; } >&2
	[ "$v" -eq 0 ] || echo "bench-nic: ${MODELS[m]}: $v frames counted malformed" >&2
	[ -z "$w" ] && [ "$v" -eq 0 ]
}

# contender M C ROUND ROW...: build C, run its part of the rows, take it
# down.
contender() {
	local m=$1 c=$2 round=$3 row
	shift 3
	"up_$c" "$m" ||
		{ echo "bench-nic: ${MODELS[m]}: cannot build $c" >&2; "down_$c" "$m"; return 1; }
	# The first run after a build pays for the ARP/Hellos just settled
	# and the sender's first connection: one of 1 byte first (the
	# "start" row).
	start "$m" "$c" "$round" ||
		{ echo "bench-nic: ${MODELS[m]}: $c: no transfer" >&2; "down_$c" "$m"; return 1; }
	for row; do
		case "$row" in
		hop-on) nic_chain_offloads "$m" on "${NICS[@]}"; run "$m" "$row" "$c" "$round" s r "$DST_hop" ;;
		hop-off)
			nic_chain_offloads "$m" off "${NICS[@]}"
			run "$m" "$row" "$c" "$round" s r "$DST_hop"
			nic_chain_offloads "$m" on "${NICS[@]}" ;;
		relay) nic_chain_offloads "$m" on "${NICS[@]}"; run "$m" "$row" "$c" "$round" s d "$DST_relay" ;;
		jumbo) run "$m" "$row" "$c" "$round" s r "$DST_hop" ;;
		esac || { echo "bench-nic: ${MODELS[m]}: $row $c failed" >&2; FAIL=1; }
	done
	[ "$c" != dp0 ] || dp0_malformed "$m" || FAIL=1
	"down_$c" "$m"
}

# dp0_malformed M: dpillar's counters of malformed frames, read before dp0
# goes.
dp0_malformed() {
	local m=$1 r v=0 w
	for r in s r d; do
		w=$(nic_malformed "$(ns "$m" $r)" dp0) || w=1
		v=$((v + w))
	done
	[ "$v" -eq 0 ] || { echo "bench-nic: ${MODELS[m]}: dp0 counted $v malformed frames" >&2; return 1; }
}

# ---- run --------------------------------------------------------------------
start_t=${EPOCHREALTIME%[.,]*}
echo "# bench-nic: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPU, icount shift ${SHIFT:-off}, ${MODELS[*]}, $ROUNDS rounds of $BYTES bytes, rows ${ROWS[*]}, dp0 nic_offload ${BENCH_NIC_OFFLOAD:-off}"
[ "$(getconf _NPROCESSORS_ONLN)" = 1 ] ||
	echo "# bench-nic: more than one CPU: busy time is CPU 0's and the others'"
for m in "${!MODELS[@]}"; do
	setup "$m" || die "${MODELS[m]}: cannot move the NICs"
	echo "# ${MODELS[m]}: driver $(ip netns exec "$(ns "$m" s)" \
		readlink /sys/class/net/p1/device/driver | sed 's,.*/,,'), offloads on: $(ip netns exec "$(ns "$m" s)" ethtool -k p1 | awk '/^(tx-checksumming|scatter-gather|tcp-segmentation-offload|generic-segmentation-offload|generic-receive-offload):/ { printf "%s %s ", $1, $2 }')"
done
MARK=$(dmesg_mark)

want() { [[ " ${ROWS[*]} " == *" $1 "* ]]; }
for ((round = 1; round <= ROUNDS; round++)); do
	for m in "${!MODELS[@]}"; do
		mark=$(dmesg_mark)
		rows=()
		for r in hop-on hop-off relay; do want $r && rows+=($r); done
		if [ ${#rows[@]} -gt 0 ]; then
			contender "$m" dp0 "$round" "${rows[@]}" || FAIL=1
			contender "$m" ipv4 "$round" "${rows[@]}" || FAIL=1
			if want relay && [ "$BRIDGE" = 1 ]; then
				contender "$m" bridge "$round" relay || FAIL=1
			fi
		fi
		checks "$m" "$mark" || FAIL=1
	done
done
# MTU 9000 after every other row: a model may not come back whole from
# the change (vmxnet3 on 6.12: after MTU 9000 and back to 1500, r's
# NIC took no unicast frame, the bridge's promiscuous port still did).
for ((round = 1; round <= ROUNDS; round++)); do
	want jumbo || break
	for m in "${!MODELS[@]}"; do
		mark=$(dmesg_mark)
		why=
		mtu "$m" 9000 || why="the NICs refuse MTU 9000"
		[ -n "$why" ] || jumbo_carried "$m" ||
			why="the model does not carry a 9000-byte frame here"
		if [ -z "$why" ]; then
			contender "$m" dp0 "$round" jumbo || FAIL=1
			contender "$m" ipv4 "$round" jumbo || FAIL=1
		else
			echo "jumbo - ${MODELS[m]} $round n/a: $why" >> "$RAW"
			echo "# round $round jumbo ${MODELS[m]}: n/a: $why"
		fi
		checks "$m" "$mark" || FAIL=1
	done
done
checks_all=0
w=$(nic_warnings "$MARK")
[ -z "$w" ] || { echo "bench-nic: driver warnings: $w" >&2; FAIL=1; }

{
	echo "make bench-nic: TCP's cost per byte, kernel $(uname -r), one vCPU, icount shift ${SHIFT:-off} (busy ns = instructions << shift), $BYTES bytes a run, $ROUNDS rounds, dp0 nic_offload ${BENCH_NIC_OFFLOAD:-off}, $(( ${EPOCHREALTIME%[.,]*} - start_t )) s"
	python3 "$DPILLAR_REPO/selftests/dp_bench.py" tcpcost "$RAW"
} > "$OUT/bench-nic.txt"
cat "$OUT/bench-nic.txt"
[ "$FAIL" = 0 ] || { echo "bench-nic: FAILED: a contender could not run, or malformed frames or driver warnings (above)"; exit 1; }
exit 0
