#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TCP's cost per byte at the sender, the relay and the receiver apart
# (issues 51/52), a prototype: not part of make check or make bench-nic.
# In a guest of three vCPUs with tools/insn-plugin loaded, which counts
# each vCPU's instructions exactly:
#
#   make -C tools/insn-plugin
#   selftests/vm/run-vm.sh --smp 3 --mem 2048 --timeout 3000 \
#       --insn-plugin tools/insn-plugin/insn-plugin.so --out build/nic-split \
#       $(selftests/nic_tcp_split.sh --vm-args) -- selftests/nic_tcp_split.sh
#
# The chain of nic_tcp_cost.sh's relay row (nic_chain_setup: s --NIC-- r
# --NIC-- d, e1000e unless SPLIT_MODEL), one role a vCPU: s on vCPU 0, r
# on 1, d on 2.  Each role's NICs have every IRQ (MSI-X vector or INTx
# line) affine to its vCPU, RPS off (rps_cpus 0), so the NAPI poll, the
# softirq and what it runs (GRO, forwarding, dp0's relay, TCP's receive
# and its ACKs) happen there; the processes (dp_bench.py's tcpsend in s,
# tcpsink in d and r) are pinned there by taskset.  A run sends
# SPLIT_BYTES (default 16 MiB) s -> d by one TCP connection, all of it
# read by d; tcpsend executes the plugin's marker right before it
# connects and right after d's answer (DP_INSN_MARK=1), and the plugin
# writes every vCPU's count at each: the difference is each vCPU's
# instructions over the transfer, per KiB sent.
#
# First the plugin's check (insn-mark 10000000 on vCPU 1: a loop of
# 2 x 10^7 instructions between two markers, counted as that plus the
# interrupts that land in it).

# Contenders: dp0 (DPillar (4,2) on the chain, r the relay) and plain
# IPv4 with ip_forward on r, as nic_tcp_cost.sh; SPLIT_ROUNDS rounds
# (default 2), each building both afresh, SPLIT_RUNS runs a build (default
# 2).  Before the rounds, an idle window (markers 2 s apart, nothing sent)
# gives each vCPU's background instructions a second.
#
# What it does not control: timers and work items run on the CPU that
# armed them (dp0's Hellos, every 100 ms on each node, TCP's timers on
# the socket's CPU), RCU and the tick on all three; the guest runs on
# the host's clock (no icount: instructions are counted, not time), so
# batching (GRO, NAPI, ACK aggregation) follows the host's timing and
# varies between runs.  /proc/interrupts (the NICs' IRQs) and
# /proc/softirqs (NET_RX, NET_TX) per vCPU over each run say where the
# work landed.
#
# Results in $DPILLAR_OUT: nic-split.txt (the table) and
# nic-split-raw.txt (a line a run).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODEL=${SPLIT_MODEL:-e1000e}
if [ "${1:-}" = --vm-args ]; then
	nic_chain_vm_args 48 "$MODEL"
	exit 0
fi

require_vm
require_root
require_cmd ip python3 jq taskset

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
PY=$DPILLAR_REPO/selftests/dp_bench.py
INSNS=${DPILLAR_INSNS:-}
WORK=$(mktemp -d)
ROUNDS=${SPLIT_ROUNDS:-2}
RUNS=${SPLIT_RUNS:-2}
BYTES=$(numfmt --from=iec "${SPLIT_BYTES:-16M}")
OUT=${DPILLAR_OUT:-/tmp}
RAW=$OUT/nic-split-raw.txt
: > "$RAW"
ROLES=(s r d)
MODELS=("$MODEL")

die() { echo "nic-split: $*" >&2; exit 1; }
[ -n "$INSNS" ] && [ -f "$INSNS" ] ||
	die "no insn-plugin (run-vm.sh --insn-plugin tools/insn-plugin/insn-plugin.so)"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 3 ] || die "needs 3 CPUs (run-vm.sh --smp 3)"

# This shell and what it starts on vCPU 0 (s's); it sleeps in a read
# while a run is measured.
taskset -p -c 0 $$ >/dev/null

nic_drivers_load "$MODEL" || die "cannot load the NIC driver"
load_module || die "no dpillar module"

ns() { echo "nc$1-$2"; }			# ns MODEL ROLE (as nic_tcp_cost.sh)

split_destroy() {
	local n
	[ ${#PIDS[@]} = 0 ] || kill "${PIDS[@]}" 2>/dev/null
	rm -rf "$WORK"
	for n in $(ip netns list | awk '/^nc[0-9]+-/ { print $1 }'); do
		ip netns del "$n"
	done
}
defer split_destroy

nic_chain_setup 0 48 49 || die "the chain could not be built"

# ---- each role on its vCPU -----------------------------------------------
# nic_irqs NS DEV: DEV's IRQs (its MSI/MSI-X vectors, else its INTx line).
nic_irqs() {
	local d
	d=$(ip netns exec "$1" readlink -f "/sys/class/net/$2/device") || return 1
	if [ -n "$(ls "$d/msi_irqs" 2>/dev/null)" ]; then
		ls "$d/msi_irqs"
	else
		cat "$d/irq"
	fi
}
IRQS=()
declare -A IRQ_CPU=()
for x in s:p1:0 r:p1:1 r:p0:1 d:p0:2; do
	IFS=: read -r role dev cpu <<<"$x"
	n=$(ns 0 "$role")
	for i in $(nic_irqs "$n" "$dev"); do
		echo "$cpu" > "/proc/irq/$i/smp_affinity_list" ||
			die "IRQ $i ($role.$dev) not movable to CPU $cpu"
		IRQS+=("$i") IRQ_CPU[$i]=$cpu
	done
	ip netns exec "$n" sh -c "for f in /sys/class/net/$dev/queues/rx-*/rps_cpus; do echo 0 > \$f; done"
	echo "# $role.$dev ($(ip netns exec "$n" readlink /sys/class/net/$dev/device/driver | sed 's,.*/,,')): IRQs" \
		"$(for i in $(nic_irqs "$n" "$dev"); do printf '%s->%s ' "$i" "$(cat /proc/irq/$i/effective_affinity_list)"; done)" \
		"rps_cpus $(ip netns exec "$n" cat /sys/class/net/$dev/queues/rx-0/rps_cpus)"
done

# irq_report: each pinned IRQ's wanted CPU, its effective affinity (on
# x86 an MSI's move can wait for its next interrupt) and its count per
# CPU so far.
irq_report() {
	local i
	for i in "${IRQS[@]}"; do
		printf '# IRQ %s (%s): wanted CPU %s, effective %s, count per CPU %s\n' \
			"$i" "$(awk -v i="$i:" '$1 == i { print $NF }' /proc/interrupts)" \
			"${IRQ_CPU[$i]}" "$(cat "/proc/irq/$i/effective_affinity_list")" \
			"$(awk -v i="$i:" '$1 == i { print $2 "/" $3 "/" $4 }' /proc/interrupts)"
	done
}

# The processes, started once (no process starts inside a run): tcpsink
# in r and d, tcpsend in s with the markers, a line in and a line out
# through two FIFOs.
PIDS=()
taskset -c 1 ip netns exec "$(ns 0 r)" python3 "$PY" tcpsink 5300 &
PIDS+=($!)
taskset -c 2 ip netns exec "$(ns 0 d)" python3 "$PY" tcpsink 5300 &
PIDS+=($!)
mkfifo "$WORK/in" "$WORK/out" || die "mkfifo"
DP_INSN_MARK=1 taskset -c 0 ip netns exec "$(ns 0 s)" python3 "$PY" tcpsend \
	< "$WORK/in" > "$WORK/out" &
PIDS+=($!)
exec {SEND_W}> "$WORK/in" {SEND_R}< "$WORK/out"

# ---- counters -------------------------------------------------------------
# marks [VCPU]: the last two marker lines of the plugin's file, as the
# three vCPUs' differences "D0 D1 D2" (false unless both came from VCPU,
# default 0, and follow each other).
marks() {
	tail -n 2 "$INSNS" | awk -v v="${1:-0}" '
		$1 != "mark" || $3 != v { bad = 1 }
		NR == 1 { s = $2; for (i = 4; i <= NF; i++) a[i] = $i }
		NR == 2 { if ($2 != s + 1) bad = 1
			  for (i = 4; i <= NF; i++) printf "%s%d", (i > 4 ? " " : ""), $i - a[i] }
		END { exit bad }'
}
# irq_counts: each pinned IRQ's count per CPU, summed per CPU: "C0 C1 C2".
irq_counts() {
	awk -v l=" ${IRQS[*]} " '{ i = $1; sub(":", "", i) }
		index(l, " " i " ") { for (c = 0; c < 3; c++) n[c] += $(c + 2) }
		END { print n[0] + 0, n[1] + 0, n[2] + 0 }' /proc/interrupts
}
# softirqs: NET_RX and NET_TX per CPU: "RX0 RX1 RX2 TX0 TX1 TX2".
softirqs() {
	awk '$1 == "NET_RX:" { r = $2 " " $3 " " $4 } $1 == "NET_TX:" { t = $2 " " $3 " " $4 }
		END { print r, t }' /proc/softirqs
}
# retrans NS: TcpRetransSegs in NS.
retrans() {
	ip netns exec "$1" awk '$1 == "Tcp:" { if (!h) { for (i = 2; i <= NF; i++) if ($i == "RetransSegs") c = i; h = 1; next } print $c }' /proc/net/snmp
}
diffs() {	# diffs "A..." "B...": B - A, word by word
	local -a a=($1) b=($2)
	local i out=()
	for i in "${!a[@]}"; do out+=($((b[i] - a[i]))); done
	echo "${out[*]}"
}

# window WHAT ROW C ROUND RUN BYTES: send WHAT to tcpsend (a transfer
# line, or "idle SECS"), the raw line of the window.
window() {
	local what=$1 row=$2 c=$3 round=$4 run=$5 bytes=$6 ans i0 i1 s0 s1 r0 r1 d
	sleep 0.2
	i0=$(irq_counts) s0=$(softirqs) r0=$(retrans "$(ns 0 s)")
	echo "$what" >&"$SEND_W" || return 1
	read -r -t 900 -u "$SEND_R" ans || return 1
	i1=$(irq_counts) s1=$(softirqs) r1=$(retrans "$(ns 0 s)")
	case "$ans" in ok*) ;; *) echo "nic-split: $row $c: $ans" >&2; return 1 ;; esac
	d=$(marks) || { echo "nic-split: $row $c: markers out of order: $(tail -n 2 "$INSNS")" >&2; return 1; }
	# row contender round run bytes I0 I1 I2 irq0 irq1 irq2 rx0 rx1 rx2 tx0 tx1 tx2 retrans
	echo "$row $c $round $run $bytes $d $(diffs "$i0" "$i1") $(diffs "$s0" "$s1") $((r1 - r0))" |
		tee -a "$RAW" | sed 's/^/# /'
}

# ---- contenders (as nic_tcp_cost.sh's) -------------------------------------
up_dp0() { nic_chain_dp0 0 nic-split && DST=10.0.0.3; }
down_dp0() { nic_chain_dp0_down 0; }
neigh_pin() {
	ip -n "$1" neigh replace "$3" dev "$2" nud permanent \
		lladdr "$(ip -n "$4" -j link show dev "$5" | jq -r '.[0].address')"
}
up_ipv4() {
	local s r d
	s=$(ns 0 s) r=$(ns 0 r) d=$(ns 0 d)
	ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$s" addr add 172.16.1.1/24 dev p1 &&
	ip -n "$r" addr add 172.16.1.2/24 dev p1 &&
	ip -n "$r" addr add 172.16.2.1/24 dev p0 &&
	ip -n "$d" addr add 172.16.2.2/24 dev p0 &&
	ip -n "$s" route add 172.16.0.0/16 via 172.16.1.2 &&
	ip -n "$d" route add 172.16.0.0/16 via 172.16.2.1 &&
	neigh_pin "$s" p1 172.16.1.2 "$r" p1 &&
	neigh_pin "$r" p1 172.16.1.1 "$s" p1 &&
	neigh_pin "$r" p0 172.16.2.2 "$d" p0 &&
	neigh_pin "$d" p0 172.16.2.1 "$r" p0 || return 1
	wait_for 30 ip netns exec "$s" ping -c1 -W1 -q 172.16.2.2 >/dev/null || return 1
	DST=172.16.2.2
}
down_ipv4() {
	local x
	ip netns exec "$(ns 0 r)" sysctl -qw net.ipv4.ip_forward=0
	for x in s:p1 r:p1 r:p0 d:p0; do
		ip -n "$(ns 0 "${x%:*}")" addr flush dev "${x#*:}"
		ip -n "$(ns 0 "${x%:*}")" neigh flush dev "${x#*:}"
	done
}

# ---- run --------------------------------------------------------------------
FAIL=0
MARK=$(dmesg_mark)
echo "# nic-split: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, $MODEL, $ROUNDS rounds x $RUNS runs of $BYTES bytes"
# The plugin's check: a loop of exactly 2 x 10^7 instructions between
# two markers, on vCPU 1 (insn-mark N).
taskset -c 1 "$DPILLAR_REPO/tools/insn-plugin/insn-mark" 10000000 &&
	d=($(marks 1)) || die "insn-mark: no markers"
echo "calibration - 0 0 20000000 ${d[*]}" >> "$RAW"
echo "# calibration: a loop of 20000000 instructions on vCPU 1 counted ${d[1]} (vCPU 0 ${d[0]}, vCPU 2 ${d[2]} meanwhile)"
window "idle 2" idle - 0 1 0 || FAIL=1
for ((round = 1; round <= ROUNDS; round++)); do
	for c in dp0 ipv4; do
		"up_$c" || { echo "nic-split: cannot build $c" >&2; "down_$c"; FAIL=1; continue; }
		# The first connection after a build: its fixed cost, 1 byte.
		window "$DST 5300 1" start "$c" "$round" 0 1 || FAIL=1
		for ((run = 1; run <= RUNS; run++)); do
			window "$DST 5300 $BYTES" relay "$c" "$round" "$run" "$BYTES" || FAIL=1
		done
		"down_$c"
	done
done
irq_report
w=$(nic_warnings "$MARK")
[ -z "$w" ] || { echo "nic-split: driver warnings: $w" >&2; FAIL=1; }

# The table: per run, each vCPU's instructions per KiB, and where the
# NICs' interrupts and the NET softirqs ran.
{
	echo "nic-split: instructions per KiB per vCPU (s = vCPU 0, r = 1, d = 2), $MODEL, kernel $(uname -r), $BYTES bytes a run (tools/insn-plugin; selftests/nic_tcp_split.sh)"
	awk '$1 == "calibration" { printf "calibration: a loop of %d instructions on vCPU 1 counted %d (+%d)\n", $5, $7, $7 - $5 }' "$RAW"
	awk '$1 == "idle" { printf "idle: background instructions per second: s %.0f r %.0f d %.0f\n", $6 / 2, $7 / 2, $8 / 2 }' "$RAW"
	printf '%-5s %-5s %5s %3s %9s %9s %9s %9s  %-17s %-20s %-20s %s\n' row contender round run s r d total "irqs s/r/d" "NET_RX s/r/d" "NET_TX s/r/d" retrans
	awk '$1 == "start" { printf "%-5s %-5s %5s %3s %9d %9d %9d %9d  (instructions, not per KiB: the fixed cost of a connection)\n", $1, $2, $3, $4, $6, $7, $8, $6 + $7 + $8 }
		$1 == "relay" { k = $5 / 1024
		printf "%-5s %-5s %5s %3s %9.0f %9.0f %9.0f %9.0f  %-17s %-20s %-20s %s\n", $1, $2, $3, $4, $6 / k, $7 / k, $8 / k, ($6 + $7 + $8) / k, $9 "/" $10 "/" $11, $12 "/" $13 "/" $14, $15 "/" $16 "/" $17, $18 }' "$RAW"
} > "$OUT/nic-split.txt"
cat "$OUT/nic-split.txt"
[ "$FAIL" = 0 ] || { echo "nic-split: FAILED (above)"; exit 1; }
exit 0
