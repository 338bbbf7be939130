#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-nic, inside the test guest (scripts/bench.sh nic boots it):
#   selftests/vm/run-vm.sh --smp 2 $(selftests/nic_bench.sh --vm-args) \
#       -- selftests/nic_bench.sh
#
# The relay data path over emulated NICs against a Linux bridge and IPv4
# forwarding on the same NICs.  Per QEMU NIC model (BENCH_NIC_MODELS,
# default e1000e vmxnet3), four NICs on two hubs (cables), as in
# nic_tcp_test.sh: hub A joins s.p1 and r.p1, hub B r.p0 and d.p0:
#
#   s (sender) --NIC-- r (one relay) --NIC-- d (receiver)
#
#   wire        nothing on r: s sends to r's NIC, counted there (no relay;
#               the baseline of the per-hop cost)
#   dpillar     dp0 of DPillar (4,2) on s, r and d, servers 0:0.0, 0:1.0 and
#               0:1.1 (node ids 0, 2, 3; the other five absent); s.p0 and
#               d.p1 have no NIC (a veth, released once dp0 exists)
#   bridge      r bridges its two NICs (br0)
#   ip_forward  r routes between two /24s on its two NICs
#
# The contenders take turns on the same four NICs: each is built, measured
# and taken down before the next, in the same order every round (wire
# dpillar bridge ip_forward, per model), so that a slow spell of the host
# hits all of them.  IPv6 is off in the three namespaces (no router or
# MLD chatter in the counters).
#
# Packets/s.  A NIC breaks the closed loop of bench.sh: the sender's frame
# is handed to the emulated NIC's ring and trafgen goes on at once, while
# the relay's NIC raises an interrupt of its own.  So this is an open
# loop, flat out: trafgen (pinned to CPU 0) sends BENCH_FRAMES identical
# frames on s's NIC as fast as the NIC takes them, and the figures are
#   offered    frames s's NIC put on the cable (its tx_packets) over
#              trafgen's sending time
#   delivered  frames d's NIC received (rx_packets; for wire: r's NIC; for
#              dpillar: d's dp0, since the Hellos cross the NICs too) over
#              the same time: the rate the table shows, the relay's
#              throughput when it is the bottleneck
#   lost       offered - delivered, and where: r's NIC received (rx), r's
#              other NIC sent (tx), d's NIC received; for dpillar also
#              the relay's "forwarded" counter (bench-nic-drops.txt)
# Counters are read when the receiver's stopped moving after trafgen's end
# (at most a ring or two of frames drains after the sending time).
# One relay hop costs 1e9/delivered(contender) - 1e9/delivered(wire) ns:
# the generator, the cable and the last NIC's receive are in both and
# cancel, as long as everything shares the vCPUs (they do under TCG).
# Every contender gets the same frame size on the cable (64 or 1,514 B;
# the dpillar frame's IPv4/UDP packet is 20 bytes shorter: its header).
#
# TCP: iperf3 for BENCH_TCP_SECS from s to d through r, over dp0, the
# bridge and the routed NICs, offloads as the driver sets them.
#
# A benchmark, not a test: exits 1 only when a contender could not run.
# Results: $DPILLAR_OUT/bench-nic.txt (table), bench-nic-raw.txt (every
# figure), bench-nic-drops.txt (every run's counters).
#
# BENCH_NIC_MODE=pps runs this (make bench-nic's first design, by the wall
# clock); the default, tcp, is TCP's cost per byte on instruction-counted
# time (selftests/nic_tcp_cost.sh, which says how), on the same chain of
# NICs: per model, hubs 48+2m and 49+2m, BENCH_NIC_MODELS (default e1000e
# e1000 vmxnet3 rtl8139 virtio-net-pci; pps: e1000e vmxnet3).
MODE=${BENCH_NIC_MODE:-tcp}
case "$MODE" in
tcp) MODELS=(${BENCH_NIC_MODELS:-e1000e e1000 vmxnet3 rtl8139 virtio-net-pci}) ;;
pps) MODELS=(${BENCH_NIC_MODELS:-e1000e vmxnet3}) ;;
*) echo "bench-nic: BENCH_NIC_MODE is tcp or pps" >&2; exit 1 ;;
esac

if [ "${1:-}" = --vm-args ]; then
	. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
	nic_chain_vm_args 48 "${MODELS[@]}"
	exit 0
fi
[ "$MODE" = pps ] ||
	BENCH_NIC_MODELS=${MODELS[*]} exec bash "$(dirname "${BASH_SOURCE[0]}")/nic_tcp_cost.sh" "$@"

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

hub_a() { echo $((48 + 2 * $1)); }
hub_b() { echo $((49 + 2 * $1)); }

require_vm
require_root
require_cmd ip python3 trafgen iperf3 jq bc modprobe

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
DPSIM=${DPSIM:-$DPILLAR_REPO/tools/dpsim/dpsim}
PY=$DPILLAR_REPO/selftests/dp_bench.py
ROUNDS=${BENCH_ROUNDS:-5}
FRAMES=${BENCH_FRAMES:-100000}
TCP_SECS=${BENCH_TCP_SECS:-3}
SIZES=${BENCH_SIZES:-64 1514}
CONTENDERS=(wire dpillar bridge ip_forward)
OUT=${DPILLAR_OUT:-/tmp}
RAW=$OUT/bench-nic-raw.txt
DROPS=$OUT/bench-nic-drops.txt
WORK=$(mktemp -d)
: > "$RAW"
echo "# name round sent_by_trafgen s_tx r_rx r_tx d_rx d_dp0_rx forwarded secs" > "$DROPS"

die() { echo "bench-nic: $*" >&2; exit 1; }

nic_drivers_load "${MODELS[@]}" || die "cannot load the NIC drivers"
load_module || die "no dpillar module"
# As in bench.sh: trafgen's socket must hold every frame in flight.
sysctl -qw net.core.wmem_max=67108864 net.core.wmem_default=67108864 \
	net.core.rmem_max=67108864 net.core.rmem_default=67108864

bench_destroy() {
	local ns
	pkill -x trafgen 2>/dev/null
	pkill -x iperf3 2>/dev/null
	for ns in $(ip netns list | awk '/^nb[0-9]+-/ { print $1 }'); do
		ip netns del "$ns"
	done
	rm -rf "$WORK"
}
defer bench_destroy

ns() { echo "nb$1-$2"; }			# ns MODEL ROLE

mac_of() { ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'; }
# ctr NS FILE...: the counters /sys/class/net/FILE, one process (each
# process costs a good part of a second under TCG).
ctr() {
	local n=$1 f
	shift
	for f; do set -- "$@" "/sys/class/net/$f"; shift; done
	ip netns exec "$n" cat "$@" | tr '\n' ' '
}

# setup M: the model's NICs into s, r and d as p0/p1; s.p0 and d.p1 are
# veths (dp0 needs two ports; released again once it exists).
setup() {
	nic_chain_setup "$1" "$(hub_a "$1")" "$(hub_b "$1")" ||
		die "${MODELS[$1]}: the chain could not be built"
}

# ---- contenders: up_C M, down_C M, frame_C M SIZE, the receiver's IP ------
up_wire() { :; }
down_wire() { :; }
frame_wire() {
	python3 "$PY" frame ip "$2" "$(mac_of "$(ns "$1" r)" p1)" \
		"$(mac_of "$(ns "$1" s)" p1)" 172.31.0.1 172.31.0.2
}

# DPillar (4,2): node ids 0 (s), 2 (r), 3 (d) (lib.sh, nic_chain_dp0).
up_dpillar() { nic_chain_dp0 "$1" bench-nic; }
# The placeholders become dp0's ports again next round.
down_dpillar() { nic_chain_dp0_down "$1"; }
frame_dpillar() {
	python3 "$PY" frame dpillar "$2" "$(mac_of "$(ns "$1" r)" p1)" \
		"$(mac_of "$(ns "$1" s)" p1)" 10.0.0.0 10.0.0.3 \
		"$(cat "$WORK/route.json")"
}
tcp_dst_dpillar() { echo 10.0.0.3; }

up_bridge() {
	local m=$1
	ip -n "$(ns "$m" r)" -b - <<-EOF || return 1
	link add br0 type bridge
	link set p0 master br0
	link set p1 master br0
	link set br0 up
	EOF
	ip -n "$(ns "$m" s)" addr add 192.168.50.1/24 dev p1 || return 1
	ip -n "$(ns "$m" d)" addr add 192.168.50.2/24 dev p0 || return 1
	# Until the ports forward (no STP: at once) and the FDB knows both ends.
	wait_for 30 ip netns exec "$(ns "$m" s)" ping -c1 -W1 -q 192.168.50.2 \
		>/dev/null || { echo "bench-nic: bridge: no ping" >&2; return 1; }
}
down_bridge() {
	ip -n "$(ns "$1" r)" link del br0
	ip -n "$(ns "$1" s)" addr flush dev p1
	ip -n "$(ns "$1" d)" addr flush dev p0
}
frame_bridge() {
	python3 "$PY" frame ip "$2" "$(mac_of "$(ns "$1" d)" p0)" \
		"$(mac_of "$(ns "$1" s)" p1)" 192.168.50.1 192.168.50.2
}
tcp_dst_bridge() { echo 192.168.50.2; }

# s.p1 172.16.1.1/24 -- r.p1 .2 | r.p0 172.16.2.1/24 -- d.p0 .2
up_ip_forward() {
	local m=$1
	ip netns exec "$(ns "$m" r)" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$(ns "$m" s)" addr add 172.16.1.1/24 dev p1 || return 1
	ip -n "$(ns "$m" r)" addr add 172.16.1.2/24 dev p1 || return 1
	ip -n "$(ns "$m" r)" addr add 172.16.2.1/24 dev p0 || return 1
	ip -n "$(ns "$m" d)" addr add 172.16.2.2/24 dev p0 || return 1
	ip -n "$(ns "$m" s)" route add 172.16.0.0/16 via 172.16.1.2 || return 1
	ip -n "$(ns "$m" d)" route add 172.16.0.0/16 via 172.16.2.1 || return 1
	# ARP resolved at both ends and on the relay.
	wait_for 30 ip netns exec "$(ns "$m" s)" ping -c1 -W1 -q 172.16.2.2 \
		>/dev/null || { echo "bench-nic: ip_forward: no ping" >&2; return 1; }
}
down_ip_forward() {
	ip netns exec "$(ns "$1" r)" sysctl -qw net.ipv4.ip_forward=0
	ip -n "$(ns "$1" s)" addr flush dev p1
	ip -n "$(ns "$1" r)" addr flush dev p1
	ip -n "$(ns "$1" r)" addr flush dev p0
	ip -n "$(ns "$1" d)" addr flush dev p0
}
frame_ip_forward() {
	python3 "$PY" frame ip "$2" "$(mac_of "$(ns "$1" r)" p1)" \
		"$(mac_of "$(ns "$1" s)" p1)" 172.16.1.1 172.16.2.2
}
tcp_dst_ip_forward() { echo 172.16.2.2; }

# ---- measurement ------------------------------------------------------------
forwarded() {
	"$DPCTL" -n "$1" -j stats dp0 2>/dev/null |
		jq '.[0].stats.forwarded // 0' 2>/dev/null || echo 0
}

# counters M C: "s_tx r_rx r_tx d_rx d_dp0_rx forwarded" now.  dpillar's
# Hellos (every 100 ms each way) cross the NICs too: its delivered frames
# are d's dp0 rx_packets (data only, as in bench.sh), the others' d's NIC.
counters() {
	local m=$1 c=$2 s r d f=0 dp=0
	s=$(ns "$m" s) r=$(ns "$m" r) d=$(ns "$m" d)
	if [ "$c" = dpillar ]; then
		f=$(forwarded "$r")
		dp=$(ctr "$d" dp0/statistics/rx_packets)
	fi
	echo "$(ctr "$s" p1/statistics/tx_packets)" \
		"$(ctr "$r" p1/statistics/rx_packets p0/statistics/tx_packets)" \
		"$(ctr "$d" p0/statistics/rx_packets) $dp $f"
}

# receiver M C: the receiver's counter of C's delivered frames.
receiver() {
	case "$2" in
	wire) ctr "$(ns "$1" r)" p1/statistics/rx_packets ;;
	dpillar) ctr "$(ns "$1" d)" dp0/statistics/rx_packets ;;
	*) ctr "$(ns "$1" d)" p0/statistics/rx_packets ;;
	esac
}

# rate M C SIZE: RATE (delivered/s), OFFERED (s's NIC's frames/s) and the
# line of counters for $DROPS (LINE).
rate() {
	local m=$1 c=$2 size=$3 out t a b prev cur i rxd=4
	[ "$c" = wire ] && rxd=2
	[ "$c" = dpillar ] && rxd=5
	"frame_$c" "$m" "$size" > "$WORK/frame.cfg" || return 1
	read -r -a a <<<"$(counters "$m" "$c")"
	# trafgen's exit status says nothing useful (1 after some EAGAINs).
	out=$(ip netns exec "$(ns "$m" s)" taskset -c 0 trafgen -o p1 \
		-i "$WORK/frame.cfg" -P 1 -n "$FRAMES" 2>&1)
	# Drained: the receiver's counter stood still for 0.3 s (at most 10
	# tries).
	prev=-1
	for ((i = 0; i < 10; i++)); do
		sleep 0.3
		cur=$(receiver "$m" "$c")
		[ "$cur" = "$prev" ] && break
		prev=$cur
	done
	read -r -a b <<<"$(counters "$m" "$c")"
	# "  6 sec, 646477 usec on CPU0 (200000 packets)"
	t=$(tr -d '\r' <<<"$out" |
		awk '/ sec, .* usec on CPU/ { print $1 + $3 / 1e6; exit }')
	[ -n "$t" ] || { echo "bench-nic: trafgen: $out" >&2; return 1; }
	sent=$(tr -d '\r' <<<"$out" |
		awk '/ sec, .* usec on CPU/ { gsub(/[()]/, "", $7); print $7; exit }')
	RATE=$(echo "(${b[rxd - 1]} - ${a[rxd - 1]}) / $t" | bc -l)
	OFFERED=$(echo "(${b[0]} - ${a[0]}) / $t" | bc -l)
	LINE="${sent:-?} $((b[0] - a[0])) $((b[1] - a[1])) $((b[2] - a[2]))"
	LINE+=" $((b[3] - a[3])) $((b[4] - a[4])) $((b[5] - a[5])) $t"
	[ "${b[rxd - 1]}" -gt "${a[rxd - 1]}" ]
}

# tcp M C: Mbit/s (TCP) and retransmits (RETR) of one iperf3 run s -> d.
tcp() {
	local m=$1 c=$2 j
	ip netns exec "$(ns "$m" d)" iperf3 -s -D -1 -p 5201 >/dev/null 2>&1
	sleep 0.5
	j=$(ip netns exec "$(ns "$m" s)" timeout $((TCP_SECS + 30)) iperf3 \
		-c "$("tcp_dst_$c")" -p 5201 -t "$TCP_SECS" -J --connect-timeout 5000 \
		2>/dev/null)
	TCP=$(jq '.end.sum_received.bits_per_second / 1e6' <<<"$j" 2>/dev/null)
	RETR=$(jq '.end.sum_sent.retransmits' <<<"$j" 2>/dev/null)
	[ -n "$TCP" ] && [ "$TCP" != null ]
}

# ---- run --------------------------------------------------------------------
# This shell and what it starts stay off the generator's CPU, when the
# guest has a second one.
[ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ] && taskset -pc 1 $$ >/dev/null
start=${EPOCHREALTIME%[.,]*}
echo "# bench-nic: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, ${MODELS[*]}, $ROUNDS rounds, $FRAMES frames each"
echo "# generator: CPU 0, flat out (open loop); this script: CPU $(($(getconf _NPROCESSORS_ONLN) > 1))"
# The header s writes with the other five servers dead (never heard).
"$DPSIM" route -n 4 -k 2 --from "#0" --to "#3" --fail "#1,#4,#5,#6,#7" \
	--json > "$WORK/route.json" || die "dpsim route"
jq -e '.path == ["0:0.0", "0:1.0", "0:1.1"]' "$WORK/route.json" >/dev/null ||
	die "dpsim's path from 0 to 3 is not one relay: $(jq -c .path "$WORK/route.json")"
for m in "${!MODELS[@]}"; do
	setup "$m" || die "${MODELS[m]}: cannot move the NICs"
	echo "# ${MODELS[m]}: driver $(ip netns exec "$(ns "$m" s)" \
		readlink /sys/class/net/p1/device/driver | sed 's,.*/,,')"
done

for ((round = 1; round <= ROUNDS; round++)); do
	for m in "${!MODELS[@]}"; do
		model=${MODELS[m]}
		for c in "${CONTENDERS[@]}"; do
			"up_$c" "$m" || die "$model: cannot build $c"
			for size in $SIZES; do
				name=$c/$model/${size}B
				rate "$m" "$c" "$size" || die "$name: nothing received"
				printf '%s %d %.0f\n' "$name" "$round" "$RATE" >> "$RAW"
				echo "$name $round $LINE" >> "$DROPS"
				printf '# round %d %-26s %9.0f pps delivered (offered %.0f; sent s_tx r_rx r_tx d_rx d_dp0 fwd secs: %s)\n' \
					"$round" "$name" "$RATE" "$OFFERED" "$LINE"
			done
			if [ "$c" != wire ]; then
				name=$c/$model/tcp
				tcp "$m" "$c" || die "$name: iperf3 failed"
				printf '%s %d %.1f\n' "$name" "$round" "$TCP" >> "$RAW"
				printf '# round %d %-26s %9.1f Mbit/s (%s retransmits)\n' \
					"$round" "$name" "$TCP" "$RETR"
			fi
			"down_$c" "$m"
		done
	done
done

{
	echo "make bench-nic: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) guest CPUs (TCG), ${MODELS[*]}, $ROUNDS rounds, $FRAMES frames, $(( ${EPOCHREALTIME%[.,]*} - start )) s"
	echo "packets/s delivered through one relay (tcp rows: Mbit/s), median min max"
	python3 "$PY" table "$RAW"
} > "$OUT/bench-nic.txt"
cat "$OUT/bench-nic.txt"

exit 0
