#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's cost per byte of one TCP stream over dp0 and over plain
# IPv4 on the same pair of emulated NICs, in guest time.  Run on
# instruction-counted time with one vCPU:
#
#   selftests/vm/run-vm.sh --smp 1 --icount 3 \
#       $(selftests/nic_cost.sh --vm-args) -- selftests/nic_cost.sh
#
# (the COST_* variables below reach the guest by run-vm.sh --env; the
# host's COST_MODELS must match for --vm-args).
# Per QEMU NIC model (COST_MODELS, default e1000e virtio-net-pci), two
# NICs on hub 64+m (m the model's index): s's p0 and d's p0, one cable.
# dp0 is BCube n=2 k=1 on both (servers 0.0 and 0.1, node ids 0 and 1,
# their level-0 switch; port 1 a placeholder veth, released); the same
# NICs also carry plain IPv4 (192.168.m.1 and .2 on p0: dpillar passes
# every other ethertype up).  Each case sends COST_BYTES (default 64M) by
# iperf3 -n from s to d:
#
#   ipv4 / dp0                  offloads as the drivers set them
#   ipv4-grooff / dp0-grooff    the same with d's NIC's GRO off
#
# in COST_ROUNDS (default 2) rounds, each case once a round.  The cost
# is the guest's busy time: the guest clock's elapsed time over the
# transfer minus the idle and iowait time /proc/stat counts (under
# icount sleep=off an idle guest's clock jumps to its next timer, so the
# elapsed time alone counts nothing real), per KiB sent.  Both ends run
# on the one vCPU: sender, receiver and the NIC drivers are all in it;
# QEMU's NIC emulation is not (it runs no guest instructions).
# /proc/stat counts in 1/USER_HZ (10 ms): a run of a second or more is
# good to 1-2%.
#
# A benchmark: prints one line per run (ktap diagnostics) and writes
# $DPILLAR_OUT/nic-cost.txt; exits 1 only when a case could not run.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODELS=(${COST_MODELS:-e1000e virtio-net-pci})
CASES=(${COST_CASES:-ipv4 dp0 dp0-grooff ipv4-grooff})
ROUNDS=${COST_ROUNDS:-2}
BYTES=${COST_BYTES:-64M}

hub() { echo $((64 + $1)); }

if [ "${1:-}" = --vm-args ]; then
	for m in "${!MODELS[@]}"; do
		printf -- '--nic %s:%s ' "${MODELS[m]}" "$(hub "$m")" \
			"${MODELS[m]}" "$(hub "$m")"
	done
	echo
	exit 0
fi

require_vm
require_root
require_cmd ip jq ethtool iperf3 modprobe
DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
for m in "${MODELS[@]}"; do
	nic_drivers_load "$m" || ktap_skip_all "cannot load $(nic_driver "$m")"
done
load_module || ktap_skip_all "no module"
OUT=${DPILLAR_OUT:-/tmp}/nic-cost.txt
: > "$OUT"

ns() { echo "nc$1-$2"; }			# ns MODEL ROLE
nc_cleanup() {
	local n
	for n in /tmp/iperf.nc*.pid; do
		[ -f "$n" ] && kill "$(cat "$n")" 2>/dev/null
		rm -f "$n"
	done
	for n in $(ip netns list | awk '/^nc[0-9]+-/ {print $1}'); do
		ip netns del "$n"
	done
}
defer nc_cleanup

# setup M: s and d with the model's two NICs as p0, dp0 on both,
# IPv4 on p0, an iperf3 server in d.
setup() {
	local m=$1 i n a
	wait_for 20 nic_count "$(hub "$m")" 2 || { echo "no NICs"; return 1; }
	a=($(nics "$(hub "$m")"))
	for i in 0 1; do
		n=$(ns "$m" "$([ "$i" = 0 ] && echo s || echo d)")
		ip netns add "$n" && ip -n "$n" link set lo up || return 1
		ip link set "${a[i]}" netns "$n" name p0 || return 1
		ip -n "$n" link add p1 type veth peer name p1x || return 1
		ip -n "$n" link set p0 up && ip -n "$n" link set p1 up || return 1
		ip -n "$n" addr add "192.168.$m.$((i + 1))/24" dev p0 || return 1
		"$DPCTL" -n "$n" link add dp0 topo bcube n 2 k 1 \
			addr "#$i" port0 p0 port1 p1 hello 100 dead 1000 ||
			return 1
		dp0_up "$n" "10.0.0.$i" "fd64:7069:6c6c:6172::0:$i" || return 1
		ip -n "$n" link set p1 nomaster || return 1
	done
	wait_for 30 ip netns exec "$(ns "$m" s)" ping -c1 -W1 -q 10.0.0.1 \
		>/dev/null || { echo "s cannot reach d over dp0"; return 1; }
	wait_for 30 ip netns exec "$(ns "$m" d)" ping -c1 -W1 -q 10.0.0.0 \
		>/dev/null || { echo "d cannot reach s over dp0"; return 1; }
	ip netns exec "$(ns "$m" s)" ping -c1 -W2 -q "192.168.$m.2" \
		>/dev/null || { echo "s cannot reach d over IPv4"; return 1; }
	n=$(ns "$m" d)
	ip netns exec "$n" iperf3 -s -D -I "/tmp/iperf.$n.pid" || return 1
	sleep 1
}

# busy_read: T (us of the guest's clock) and IDLE (idle + iowait, in
# 1/USER_HZ).
busy_read() {
	local l
	local -a f
	read -r l < /proc/stat
	T=${EPOCHREALTIME/./}
	read -r -a f <<<"$l"
	IDLE=$((f[4] + f[5]))
}

# dev_rx NS DEV: "packets bytes" its DEV received.
dev_rx() {
	ip -n "$1" -j -s link show dev "$2" |
		jq -r '.[0].stats64.rx | "\(.packets) \(.bytes)"'
}

# run M CASE ROUND: one transfer, one line of figures.
run() {
	local m=$1 c=$2 r=$3 s d to j t0 i0 busy kib retr rx0 rx1 dev
	local -a a b
	s=$(ns "$m" s) d=$(ns "$m" d)
	case "$c" in
	ipv4*) to=192.168.$m.2 dev=p0 ;;
	dp0*) to=10.0.0.1 dev=dp0 ;;
	esac
	case "$c" in
	*-grooff) ip netns exec "$d" ethtool -K p0 gro off >/dev/null 2>&1 ;;
	*) ip netns exec "$d" ethtool -K p0 gro on >/dev/null 2>&1 ;;
	esac
	sleep 0.5
	rx0=$(dev_rx "$d" "$dev")
	busy_read
	t0=$T i0=$IDLE
	j=$(ip netns exec "$s" timeout 600 iperf3 -J -c "$to" -n "$BYTES" \
		--connect-timeout 5000 2>/dev/null)
	busy_read
	rx1=$(dev_rx "$d" "$dev")
	ip netns exec "$d" ethtool -K p0 gro on >/dev/null 2>&1
	a=($rx0) b=($rx1)
	kib=$(jq -r '(.end.sum_sent.bytes // 0) / 1024 | floor' <<<"$j")
	retr=$(jq -r '.end.sum_sent.retransmits // -1' <<<"$j")
	[ "${kib:-0}" -gt 0 ] || { echo "$m $c: no data"; return 1; }
	# busy ns = elapsed (us * 1000) - idle (ticks * 1e9 / USER_HZ)
	busy=$(( (T - t0) * 1000 - (IDLE - i0) * 10000000 ))
	printf '%-15s %-12s %d %9d KiB %6d ms_elapsed %6d ms_busy %7d ns/KiB retr %d rx_pkts %d avg_rx %d\n' \
		"${MODELS[m]}" "$c" "$r" "$kib" $(((T - t0) / 1000)) $((busy / 1000000)) \
		$((busy / kib)) "$retr" $((b[0] - a[0])) \
		$(((b[1] - a[1]) / ((b[0] - a[0]) > 0 ? (b[0] - a[0]) : 1))) |
		tee -a "$OUT"
}

[ "$(getconf CLK_TCK)" = 100 ] || ktap_skip_all "USER_HZ is not 100"
rc=0
ktap_diag "$(uname -r), $(nproc) CPU, icount ${DPILLAR_ICOUNT:-off}, $BYTES per run"
for m in "${!MODELS[@]}"; do
	setup "$m" || { ktap_diag "${MODELS[m]}: setup failed"; rc=1; continue; }
	for r in $(seq 1 "$ROUNDS"); do
		for c in "${CASES[@]}"; do
			run "$m" "$c" "$r" || rc=1
		done
	done
	nc_cleanup
done
cat "$OUT"
exit $rc
