#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TCP's cost per byte at the sender, the relay and the receiver apart
# (issues 51/52): not part of make check; make bench-nic runs it with
# BENCH_NIC_SPLIT=1 (scripts/bench.sh nic).  In a guest of three vCPUs
# on instruction-counted time with tools/insn-plugin loaded, which
# counts each vCPU's instructions:
#
#   make -C tools/insn-plugin
#   selftests/vm/run-vm.sh --smp 3 --mem 2048 --timeout 3000 \
#       --icount 0 --icount-sleep off \
#       --insn-plugin tools/insn-plugin/insn-plugin.so --out build/nic-split \
#       $(selftests/nic_tcp_split.sh --vm-args) -- selftests/nic_tcp_split.sh
#
# The chain of nic_tcp_cost.sh's relay row (nic_chain_setup: s --NIC-- r
# --NIC-- d) per QEMU NIC model (SPLIT_MODELS, default "e1000e e1000";
# the m-th on hubs 48+2m and 49+2m), one role a vCPU: s on vCPU 0, r
# on 1, d on 2.  Each role's NICs have every IRQ (MSI-X vector or INTx
# line) affine to its vCPU, RPS off (rps_cpus 0), so the NAPI poll, the
# softirq and what it runs (GRO, forwarding, dp0's relay, TCP's receive
# and its ACKs) happen there; the processes (dp_bench.py's tcpsend in s,
# tcpsink in d and r) are pinned there by taskset.  A run sends
# SPLIT_BYTES (default 8 MiB) s -> d by one TCP connection, all of it
# read by d; tcpsend executes the plugin's marker right before it
# connects and right after d's answer (DP_INSN_MARK=1), and the plugin
# writes every vCPU's count at each: the difference is each vCPU's
# instructions over the transfer, per KiB sent.
#
# Time.  The guest must run on instruction-counted time (run-vm.sh
# --icount 0 --icount-sleep off; QEMU -icount shift=0,sleep=off, which
# runs the three vCPUs in turn on one host thread): the clock, the tick
# and every timer (the NICs' interrupt moderation, TCP's delayed ACKs,
# dp0's Hellos) then follow the guest's instructions, not the host's
# load, and a wait with every vCPU idle jumps to the next timer.  On the
# host's clock the ticks and timers that land in a window grow with its
# wall time (the prototype's check counted its loop of 2e7 instructions
# as 21.1-22.0 M on a loaded host); this script refuses to run without
# icount.
#
# First the plugin's check, on each vCPU in turn, SPLIT_CHECKS times
# (default 2): insn-mark 10000000, a loop of exactly 2 x 10^7
# instructions between two markers, counted as that in user space (the
# run fails beyond 0.1%; it was exact in every run so far) plus, in the
# kernel, the interrupts (the tick, the NICs' watchdogs) that land in
# the loop's 20 ms of guest time.
#
# Contenders (as nic_tcp_cost.sh's relay row): dp0 (DPillar (4,2) on the
# chain, r the relay, nic_offload off), ipv4 (plain IPv4 with
# ip_forward on r) and, on e1000 only (the one qualified NIC), dp0-nic
# (dp0 with nic_offload on); SPLIT_CONTENDERS chooses among them.  NIC
# offloads (SPLIT_OFFLOADS, default "on off"): on as the driver sets
# them, off by ethtool -K tx off sg off tso off gso off gro off on all
# four NICs (dp0-nic only with them on).  SPLIT_ROUNDS rounds (default
# 1), each building every contender afresh, SPLIT_RUNS runs a build
# (default 2).  Per model, before its rounds, an idle window (markers
# 2 s of guest time apart, nothing sent) gives each vCPU's background.
#
# The transfer made alike run by run (SPLIT_TUNE, words; default all but
# lowat and tcpcork, "none" for none; Documentation/networking/dpillar-evaluation.rst
# says what each changed):
#   ack      no delayed ACKs: quickack 1 on s's and d's routes
#   cwnd     a fixed congestion window: initcwnd and a locked cwnd of
#            SPLIT_CWND segments (32) on those routes, no slow start
#            after idle
#   cc       reno (no cubic: its growth and HyStart follow the clock)
#   buf      fixed socket buffers: tcp_rmem and tcp_wmem SPLIT_BUF (1M)
#            each, no receive buffer autotuning
#   cork     no TCP autocorking (it waits on the NIC's transmit
#            completions)
#   itr      interrupt moderation fixed: ethtool -C rx-usecs SPLIT_ITR (0:
#            none) on the four NICs, instead of the drivers' adaptive
#            rate, which carries over from run to run; e1000's driver
#            refuses it: its module's InterruptThrottleRate=0 (off)
#   ring     receive rings of SPLIT_RING (4096) descriptors
#   flush    TCP's metrics cache flushed before every run
#   warm     a transfer of SPLIT_WARM (default SPLIT_BYTES: a run's size)
#            after the first connection, not counted; a smaller one left
#            the allocators growing in the first run (new slabs, their
#            pages zeroed: dp0's sender 7.5% above its later runs)
#   lowat    the receiver's reads return a whole chunk (SO_RCVLOWAT at
#            each read's size; with it fixed at a chunk transfers stalled)
#   tcpcork  the sender corked (TCP_CORK) until its last write: full
#            segments only
#   timers   kernel.timer_migration 0: a timer fires on the CPU that armed
#            it, not on a busy one when that CPU is idle
#   hello    dp0's Hellos every SPLIT_HELLO ms (10000, the most; dead
#            30000) once a contender is up, instead of every 100 ms
# Each NIC's counters (ethtool -S) and each role's TCP counters (nstat)
# over every window go to nic-split-stats.txt: retransmissions, drops at
# a ring, out-of-order segments, ACKs.
#
# What it does not control: work items run on the CPU that queued them
# (dp0's Hellos, every 100 ms on each node unless "hello", TCP's timers
# on the socket's CPU, and with "timers" every timer on the CPU that
# armed it), RCU and the tick on all three; the allocators' state (a
# warm-up as large as a run leaves them grown).  /proc/interrupts
# (the NICs' IRQs) and /proc/softirqs (NET_RX, NET_TX) per vCPU over
# each run say where the work landed.  A run fails (exit 1) when the
# check misses, a contender cannot be built, a transfer does not
# complete or a NIC driver warning appears.
#
# Results in $DPILLAR_OUT: nic-split.txt (the table, and the
# repeatability line of dp_bench.py split: how many per-role figures
# repeat within 1%), nic-split-raw.txt (a line a window) and
# nic-split-stats.txt (the counters a window).  SPLIT_PROF=1: also the
# guest's /proc/kallsyms (kallsyms.txt), for the plugin's profile of
# each window (run-vm.sh with INSN_PROF=1: insn-prof.txt; dp_bench.py
# splitprof).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read -r -a MODELS <<<"${SPLIT_MODELS:-e1000e e1000}"
if [ "${1:-}" = --vm-args ]; then
	nic_chain_vm_args 48 "${MODELS[@]}"
	exit 0
fi

require_vm
require_root
require_cmd ip python3 jq taskset ethtool

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
PY=$DPILLAR_REPO/selftests/dp_bench.py
MARKER=$DPILLAR_REPO/tools/insn-plugin/insn-mark
INSNS=${DPILLAR_INSNS:-}
WORK=$(mktemp -d)
ROUNDS=${SPLIT_ROUNDS:-1}
RUNS=${SPLIT_RUNS:-2}
CHECKS=${SPLIT_CHECKS:-2}
read -r -a OFFLOADS <<<"${SPLIT_OFFLOADS:-on off}"
BYTES=$(numfmt --from=iec "${SPLIT_BYTES:-8M}")
OUT=${DPILLAR_OUT:-/tmp}
RAW=$OUT/nic-split-raw.txt
STATS=$OUT/nic-split-stats.txt
: > "$RAW"
: > "$STATS"
NICS=(s:p1:0 r:p1:1 r:p0:1 d:p0:2)	# role:port:vCPU
read -r -a TUNE <<<"${SPLIT_TUNE-ack cwnd buf cc cork itr ring flush warm timers hello}"
CWND=${SPLIT_CWND:-32}
TBUF=$(numfmt --from=iec "${SPLIT_BUF:-1M}")
WARM=$(numfmt --from=iec "${SPLIT_WARM:-${SPLIT_BYTES:-8M}}")
tune_has() { [[ " ${TUNE[*]} " == *" $1 "* ]]; }

die() { echo "nic-split: $*" >&2; exit 1; }
[ -n "$INSNS" ] && [ -f "$INSNS" ] ||
	die "no insn-plugin (run-vm.sh --insn-plugin tools/insn-plugin/insn-plugin.so)"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 3 ] || die "needs 3 CPUs (run-vm.sh --smp 3)"
[ -n "${DPILLAR_ICOUNT:-}" ] && [ "${DPILLAR_ICOUNT_SLEEP:-}" = off ] ||
	die "needs instruction-counted time (run-vm.sh --icount 0 --icount-sleep off)"

# This shell and what it starts on vCPU 0 (s's); it sleeps in a read
# while a run is measured.
taskset -p -c 0 $$ >/dev/null

# itr on e1000, whose driver refuses ethtool -C: its moderation is the
# module's InterruptThrottleRate (default 3, adaptive), 0 for each NIC
# (off: QEMU's e1000 then raises each interrupt as its cause comes).
if tune_has itr && [[ " ${MODELS[*]} " == *" e1000 "* ]]; then
	[ ! -d /sys/bus/pci/drivers/e1000 ] || modprobe -r e1000 ||
		die "e1000 loaded and not removable (InterruptThrottleRate)"
	modprobe e1000 InterruptThrottleRate=0,0,0,0,0,0,0,0 || die "e1000 not loaded"
	echo "# e1000: $(dmesg | grep -c 'Interrupt Throttling Rate (ints/sec) turned off') NICs with interrupt throttling off (InterruptThrottleRate=0)"
fi
nic_drivers_load "${MODELS[@]}" || die "cannot load the NIC drivers"
load_module || die "no dpillar module"

ns() { echo "nc$1-$2"; }			# ns M ROLE (as nic_tcp_cost.sh)

PIDS=()
defer nic_chain_destroy

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
# pin M: model M's NICs' IRQs on their roles' vCPUs, RPS off.  An IRQ
# that two roles' NICs share (an INTx line: QEMU's i440fx routes every
# slot's INTx to IRQ 10 or 11, so e1000's four NICs cannot have three
# lines) stays on the first role's vCPU and SHARED[M] says so: the NAPI
# polls then run in threads pinned to the roles' vCPUs (napi_threads).
IRQS=()
declare -A IRQ_CPU=() IRQ_WHO=() SHARED=()
pin() {
	local m=$1 x role dev cpu n i
	for x in "${NICS[@]}"; do
		IFS=: read -r role dev cpu <<<"$x"
		n=$(ns "$m" "$role")
		for i in $(nic_irqs "$n" "$dev"); do
			if [ -n "${IRQ_CPU[$i]:-}" ] && [ "${IRQ_WHO[$i]}" != "$m.$role.$dev" ] &&
				[ "${IRQ_CPU[$i]}" != "$cpu" ]; then
				[ -n "${SHARED[$m]:-}" ] ||
					echo "# ${MODELS[m]}: IRQ $i shared by ${IRQ_WHO[$i]} and $m.$role.$dev: stays on CPU ${IRQ_CPU[$i]}"
				SHARED[$m]=1
				continue
			fi
			echo "$cpu" > "/proc/irq/$i/smp_affinity_list" || {
				echo "nic-split: IRQ $i ($role.$dev) not movable to CPU $cpu" >&2
				return 1
			}
			[ -n "${IRQ_CPU[$i]:-}" ] || IRQS+=("$i")
			IRQ_CPU[$i]=$cpu IRQ_WHO[$i]=$m.$role.$dev
		done
		ip netns exec "$n" sh -c "for f in /sys/class/net/$dev/queues/rx-*/rps_cpus; do echo 0 > \$f; done"
	done
}
# napi_threads M: model M's NICs' NAPI polls in threads (the device's
# "threaded" in sysfs), each NIC's pinned to its role's vCPU: the hard
# IRQ of a shared line runs both NICs' handlers on one vCPU (a read of
# each NIC's cause register and a wake-up), the poll (the rings, GRO,
# the stack above) on the role's.
napi_threads() {
	local m=$1 x role dev cpu n before p
	for x in "${NICS[@]}"; do
		IFS=: read -r role dev cpu <<<"$x"
		n=$(ns "$m" "$role")
		before=" $(pgrep -d ' ' '^napi/') "
		ip netns exec "$n" sh -c "echo 1 > /sys/class/net/$dev/threaded" || return 1
		for p in $(pgrep '^napi/'); do
			[[ "$before" == *" $p "* ]] && continue
			taskset -p -c "$cpu" "$p" >/dev/null || return 1
			echo "# ${MODELS[m]} $role.$dev: NAPI thread $p ($(cat "/proc/$p/comm")) on CPU $cpu"
		done
	done
}
pin_report() {
	local m=$1 x role dev cpu n i
	for x in "${NICS[@]}"; do
		IFS=: read -r role dev cpu <<<"$x"
		n=$(ns "$m" "$role")
		echo "# ${MODELS[m]} $role.$dev ($(ip netns exec "$n" readlink /sys/class/net/$dev/device/driver | sed 's,.*/,,')): IRQs" \
			"$(for i in $(nic_irqs "$n" "$dev"); do printf '%s->%s ' "$i" "$(cat /proc/irq/$i/effective_affinity_list)"; done)" \
			"rps_cpus $(ip netns exec "$n" cat /sys/class/net/$dev/queues/rx-0/rps_cpus)"
	done
}

# irq_report: each pinned IRQ's wanted CPU, its effective affinity (on
# x86 an MSI's move can wait for its next interrupt) and its count per
# CPU so far.
irq_report() {
	local i
	for i in "${IRQS[@]}"; do
		printf '# IRQ %s (%s, %s): wanted CPU %s, effective %s, count per CPU %s\n' \
			"$i" "${IRQ_WHO[$i]}" "$(awk -v i="$i:" '$1 == i { print $NF }' /proc/interrupts)" \
			"${IRQ_CPU[$i]}" "$(cat "/proc/irq/$i/effective_affinity_list")" \
			"$(awk -v i="$i:" '$1 == i { print $2 "/" $3 "/" $4 }' /proc/interrupts)"
	done
}


# ---- counters -------------------------------------------------------------
# marks [VCPU]: the last two marker lines of the plugin's file, as the
# three vCPUs' differences and those of their kernel instructions, "D0
# D1 D2 K0 K1 K2" (false unless both came from VCPU, default 0, and
# follow each other).
marks() {
	tail -n 2 "$INSNS" | awk -v v="${1:-0}" '
		$1 != "mark" || $3 != v { bad = 1 }
		{ n = 0; for (i = 4; i <= NF; i++) if ($i != "k") c[NR, ++n] = $i }
		NR == 1 { s = $2 }
		NR == 2 { if ($2 != s + 1) bad = 1
			  for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), c[2, i] - c[1, i] }
		END { exit bad }'
}
# irq_counts M: model M's pinned IRQs' counts, summed per CPU: "C0 C1 C2".
irq_counts() {
	local i l=" "
	for i in "${IRQS[@]}"; do
		[[ "${IRQ_WHO[$i]}" == "$1".* ]] && l+="$i "
	done
	awk -v l="$l" '{ i = $1; sub(":", "", i) }
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
# stats M: the counters that say what a transfer did, "ROLE.NAME VALUE"
# a line: each role's TCP and IP counters (nstat) and each NIC's
# (ethtool -S: drops at a ring, interrupts, ...).
stats() {
	local x role dev
	for role in s r d; do
		ip netns exec "$(ns "$1" "$role")" nstat -asz 2>/dev/null |
			awk -v r=$role 'NF >= 2 && $1 !~ /^#/ { print r "." $1, $2 }'
	done
	for x in "${NICS[@]}"; do
		IFS=: read -r role dev _ <<<"$x"
		ip netns exec "$(ns "$1" "$role")" ethtool -S "$dev" 2>/dev/null |
			awk -v p="$role.$dev" -F': *' 'NF == 2 { gsub(/ /, "", $1); print p "." $1, $2 }'
	done
}
# stats_diff BEFORE AFTER: the counters that changed, "NAME=DELTA ...".
stats_diff() {
	awk 'NR == FNR { a[$1] = $2; next }
		$2 != a[$1] { printf "%s%s=%d", n++ ? " " : "", $1, $2 - a[$1] } END { print "" }' "$1" "$2"
}
# ---- the transfer made alike run by run (SPLIT_TUNE) ---------------------
# tune_model M: the namespaces' TCP settings (before the contenders).
tune_model() {
	local x n
	for x in s r d; do
		n=$(ns "$1" "$x")
		! tune_has cc || ip netns exec "$n" sysctl -qw net.ipv4.tcp_congestion_control=reno || return 1
		! tune_has cork || ip netns exec "$n" sysctl -qw net.ipv4.tcp_autocorking=0 || return 1
		! tune_has cwnd || ip netns exec "$n" sysctl -qw net.ipv4.tcp_slow_start_after_idle=0 || return 1
		! tune_has timers || sysctl -qw kernel.timer_migration=0 || return 1
		! tune_has buf || ip netns exec "$n" sysctl -qw net.ipv4.tcp_moderate_rcvbuf=0 \
			"net.ipv4.tcp_rmem=4096 $TBUF $TBUF" "net.ipv4.tcp_wmem=4096 $TBUF $TBUF" || return 1
	done
}
# tune_nics M: the NICs' rings and interrupt moderation (after ethtool -K,
# which may reset a NIC, and before its IRQs are pinned again).
tune_nics() {
	local x role dev
	for x in "${NICS[@]}"; do
		IFS=: read -r role dev _ <<<"$x"
		if tune_has ring; then
			ip netns exec "$(ns "$1" "$role")" ethtool -G "$dev" rx "${SPLIT_RING:-4096}" >/dev/null 2>&1 ||
				echo "# ${MODELS[$1]} $role.$dev: ring not set: $(ip netns exec "$(ns "$1" "$role")" ethtool -G "$dev" rx "${SPLIT_RING:-4096}" 2>&1)"
		fi
		if tune_has itr; then
			ip netns exec "$(ns "$1" "$role")" ethtool -C "$dev" rx-usecs "${SPLIT_ITR:-0}" >/dev/null 2>&1 ||
				echo "# ${MODELS[$1]} $role.$dev: rx-usecs not set: $(ip netns exec "$(ns "$1" "$role")" ethtool -C "$dev" rx-usecs "${SPLIT_ITR:-0}" 2>&1)"
		fi
	done
}
# tune_routes M C: contender C's routes at s and d (each end's route to
# the other): no delayed ACKs, a fixed congestion window.
tune_routes() {
	local a=()
	! tune_has ack || a+=(quickack 1)
	! tune_has cwnd || a+=(initcwnd "$CWND" cwnd lock "$CWND")
	[ ${#a[@]} -gt 0 ] || return 0
	case $2 in
	ipv4)	ip -n "$(ns "$1" s)" route change 172.16.0.0/16 via 172.16.1.2 "${a[@]}" &&
		ip -n "$(ns "$1" d)" route change 172.16.0.0/16 via 172.16.2.1 "${a[@]}" ;;
	*)	ip -n "$(ns "$1" s)" route change 10.0.0.0/8 dev dp0 "${a[@]}" &&
		ip -n "$(ns "$1" d)" route change 10.0.0.0/8 dev dp0 "${a[@]}" ;;
	esac
}
# tune_hello M C: dp0's Hellos every SPLIT_HELLO ms on the three nodes
# (after it is up: its neighbours are heard by then).
tune_hello() {
	local x
	tune_has hello && [[ "$2" == dp0* ]] || return 0
	for x in s r d; do
		"$DPCTL" -n "$(ns "$1" $x)" set dp0 hello "${SPLIT_HELLO:-10000}" dead 30000 || return 1
	done
}
tune_show() {
	echo "# ${MODELS[$1]} $2 routes: s $(ip -n "$(ns "$1" s)" route show | tr '\n' ';') d $(ip -n "$(ns "$1" d)" route show | tr '\n' ';')"
	echo "# ${MODELS[$1]} r.p1 coalescing: $(ip netns exec "$(ns "$1" r)" ethtool -c p1 2>/dev/null | awk '/^rx-usecs:/ { print $2 }'), ring $(ip netns exec "$(ns "$1" r)" ethtool -g p1 2>/dev/null | awk '/^RX:/ { print $2 }' | tr '\n' ' ')"
}

diffs() {	# diffs "A..." "B...": B - A, word by word
	local -a a=($1) b=($2)
	local i out=()
	for i in "${!a[@]}"; do out+=($((b[i] - a[i]))); done
	echo "${out[*]}"
}

# window M WHAT ROW OFFL C ROUND RUN BYTES: send WHAT to model M's
# tcpsend (a transfer line, or "idle SECS"), the raw line of the window:
# row model offloads contender round run bytes I0 I1 I2 irq0 irq1 irq2
# rx0 rx1 rx2 tx0 tx1 tx2 retrans K0 K1 K2 ns (I: each vCPU's
# instructions, K: those in the kernel, ns: the guest's clock over the
# transfer, tcpsend's, 0 for an idle window; on icount shift 0 it is
# I0 + I1 + I2 plus the clock's jumps while all three vCPUs were idle)
window() {
	local m=$1 what=$2 row=$3 offl=$4 c=$5 round=$6 run=$7 bytes=$8 ans i0 i1 s0 s1 r0 r1 d
	local -a dd aa
	sleep 0.2
	stats "$m" > "$WORK/st0"
	i0=$(irq_counts "$m") s0=$(softirqs) r0=$(retrans "$(ns "$m" s)")
	echo "$what" >&"${SEND_W[m]}" || return 1
	read -r -t 900 -u "${SEND_R[m]}" ans || return 1
	i1=$(irq_counts "$m") s1=$(softirqs) r1=$(retrans "$(ns "$m" s)")
	stats "$m" > "$WORK/st1"
	echo "$row ${MODELS[m]} $offl $c $round $run $(stats_diff "$WORK/st0" "$WORK/st1")" >> "$STATS"
	case "$ans" in ok*) ;; *) echo "nic-split: $row ${MODELS[m]} $c: $ans" >&2; return 1 ;; esac
	d=$(marks) || { echo "nic-split: $row ${MODELS[m]} $c: markers out of order: $(tail -n 2 "$INSNS")" >&2; return 1; }
	read -r -a dd <<<"$d"
	read -r -a aa <<<"$ans"
	[[ "${aa[2]:-}" =~ ^[0-9]+$ ]] || aa[2]=0
	echo "$row ${MODELS[m]} $offl $c $round $run $bytes ${dd[*]:0:3} $(diffs "$i0" "$i1") $(diffs "$s0" "$s1") $((r1 - r0)) ${dd[*]:3:3} ${aa[2]}" |
		tee -a "$RAW" | sed 's/^/# /'
}

# ---- contenders (as nic_tcp_cost.sh's) -------------------------------------
up_dp0() { BENCH_NIC_OFFLOAD=off nic_chain_dp0 "$1" nic-split && DST=10.0.0.3; }
down_dp0() { nic_chain_dp0_down "$1"; }
up_dp0-nic() { BENCH_NIC_OFFLOAD=on nic_chain_dp0 "$1" nic-split && DST=10.0.0.3; }
down_dp0-nic() {
	local r
	for r in s r; do
		echo "# ${MODELS[$1]} dp0-nic at $r: tx_nic_offload $("$DPCTL" -n "$(ns "$1" $r)" -j stats dp0 | jq '.[0].stats.tx_nic_offload // "n/a"')"
	done
	nic_chain_dp0_down "$1"
}
up_ipv4() { nic_chain_ipv4_up "$1" && DST=172.16.2.2; }
down_ipv4() { nic_chain_ipv4_down "$1"; }
# contenders M OFFL: model M's contenders with its NICs' offloads OFFL.
contenders() {
	local c
	for c in ${SPLIT_CONTENDERS:-dp0 ipv4 dp0-nic}; do
		[ "$c" != dp0-nic ] || { [ "${MODELS[$1]}" = e1000 ] && [ "$2" = on ]; } || continue
		echo "$c"
	done
}

# ---- run --------------------------------------------------------------------
FAIL=0
MARK=$(dmesg_mark)
echo "# nic-split: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, icount shift $DPILLAR_ICOUNT sleep=$DPILLAR_ICOUNT_SLEEP, ${MODELS[*]}, offloads ${OFFLOADS[*]}, $ROUNDS rounds x $RUNS runs of $BYTES bytes, SPLIT_TUNE ${TUNE[*]:-none}"
# The plugin's check: a loop of exactly 2 x 10^7 instructions between
# two markers, on each vCPU (insn-mark N), CHECKS times; the vCPU's count
# beyond 0.1% of it fails the run.
for ((k = 1; k <= CHECKS; k++)); do
	for v in 0 1 2; do
		taskset -c "$v" "$MARKER" 10000000 && read -r -a d <<<"$(marks "$v")" &&
			[ ${#d[@]} = 6 ] || die "insn-mark: no markers"
		echo "check - - - $k $v 20000000 ${d[*]}" >> "$RAW"
		echo "# check $k: a loop of 20000000 instructions on vCPU $v counted ${d[v]}, $((d[v] - d[v + 3])) of them in user space (vCPUs 0/1/2 ${d[0]}/${d[1]}/${d[2]}, kernel ${d[3]}/${d[4]}/${d[5]})"
		u=$((d[v] - d[v + 3]))
		[ $(( (u - 20000000) * 1000 )) -le 20000000 ] && [ "$u" -ge 20000000 ] ||
			{ echo "nic-split: check: $u in user space is not 20000000 within 0.1%" >&2; FAIL=1; }
	done
done

declare -a SEND_W SEND_R
for m in "${!MODELS[@]}"; do
	nic_chain_setup "$m" $((48 + 2 * m)) $((49 + 2 * m)) ||
		die "${MODELS[m]}: the chain could not be built"
	# No TCP metrics kept between connections: each run starts as the
	# first (the first icount run, without this, cost more in its second
	# run of a build than in its first in 30 of 36 figures).
	for x in s r d; do
		ip netns exec "$(ns "$m" $x)" sysctl -qw net.ipv4.tcp_no_metrics_save=1
	done
	tune_model "$m" || die "${MODELS[m]}: SPLIT_TUNE not applied"
	pin "$m" || die "${MODELS[m]}: IRQs not pinned"
	[ -z "${SHARED[$m]:-}" ] || napi_threads "$m" ||
		die "${MODELS[m]}: NAPI threads not pinned"
	echo "napi ${MODELS[m]} $([ -n "${SHARED[$m]:-}" ] && echo "in threads pinned per role (an IRQ shared between roles)" || echo "in the softirq of each NIC's IRQ, pinned per role")" >> "$RAW"
	pin_report "$m"
	# The processes, started once per model (no process starts inside a
	# run): tcpsink in r and d, tcpsend in s with the markers, a line in
	# and a line out through two FIFOs.
	lowat=0 cork=0
	! tune_has lowat || lowat=1
	! tune_has tcpcork || cork=1
	DP_TCP_RCVLOWAT=$lowat taskset -c 1 ip netns exec "$(ns "$m" r)" python3 "$PY" tcpsink 5300 &
	PIDS+=($!)
	DP_TCP_RCVLOWAT=$lowat taskset -c 2 ip netns exec "$(ns "$m" d)" python3 "$PY" tcpsink 5300 &
	PIDS+=($!)
	mkfifo "$WORK/in$m" "$WORK/out$m" || die "mkfifo"
	DP_TCP_CORK=$cork DP_INSN_MARK=1 taskset -c 0 ip netns exec "$(ns "$m" s)" python3 "$PY" tcpsend \
		< "$WORK/in$m" > "$WORK/out$m" &
	PIDS+=($!)
	exec {fdw}> "$WORK/in$m" {fdr}< "$WORK/out$m"
	SEND_W[m]=$fdw SEND_R[m]=$fdr
	# The sinks listening (Python's start, its reads over 9p, done)
	# before the idle window, which would count them otherwise.
	for x in r d; do
		wait_for 60 sh -c "ip netns exec $(ns "$m" $x) ss -Hltn 'sport = :5300' | grep -q ." ||
			die "${MODELS[m]}: no sink listening in $x"
	done
	window "$m" "idle 2" idle - - - 0 0 || FAIL=1
	for ((round = 1; round <= ROUNDS; round++)); do
		for offl in "${OFFLOADS[@]}"; do
			nic_chain_offloads "$m" "$offl" "${NICS[@]}"
			tune_nics "$m"
			# ethtool may reset a NIC: its IRQs pinned again.
			pin "$m" || FAIL=1
			for c in $(contenders "$m" "$offl"); do
				"up_$c" "$m" || { echo "nic-split: ${MODELS[m]}: cannot build $c" >&2; "down_$c" "$m"; FAIL=1; continue; }
				tune_routes "$m" "$c" || { echo "nic-split: ${MODELS[m]}: $c: SPLIT_TUNE's routes not set" >&2; FAIL=1; }
				tune_hello "$m" "$c" || { echo "nic-split: ${MODELS[m]}: $c: SPLIT_TUNE's Hello interval not set" >&2; FAIL=1; }
				[ "$round$offl" != "1${OFFLOADS[0]}" ] || tune_show "$m" "$c"
				# The first connection after a build: its fixed cost, 1 byte.
				window "$m" "$DST 5300 1" start "$offl" "$c" "$round" 0 1 || FAIL=1
				! tune_has warm ||
					window "$m" "$DST 5300 $WARM" warm "$offl" "$c" "$round" 0 "$WARM" || FAIL=1
				for ((run = 1; run <= RUNS; run++)); do
					! tune_has flush || for x in s r d; do ip -n "$(ns "$m" $x)" tcp_metrics flush all 2>/dev/null; done
					window "$m" "$DST 5300 $BYTES" relay "$offl" "$c" "$round" "$run" "$BYTES" || FAIL=1
				done
				"down_$c" "$m"
			done
		done
	done
	nic_chain_offloads "$m" on "${NICS[@]}"
done
irq_report
[ "${SPLIT_PROF:-0}" != 1 ] || cp /proc/kallsyms "$OUT/kallsyms.txt"
w=$(nic_warnings "$MARK")
[ -z "$w" ] || { echo "nic-split: driver warnings: $w" >&2; FAIL=1; }

# The table: per model, offloads and contender, each role's instructions
# per KiB, every run (round.run, in order) and the spread (max - min) /
# min; then the same of the kernel's instructions alone (the rest is
# user space: dp_bench.py's loops, Python's).
{
	echo "nic-split: instructions per KiB at s (vCPU 0), r (1) and d (2), kernel $(uname -r), icount shift $DPILLAR_ICOUNT, $BYTES bytes a run, $ROUNDS rounds x $RUNS runs (tools/insn-plugin; selftests/nic_tcp_split.sh)"
	awk '$1 == "check" { c = $(8 + $6); u = c - $(11 + $6)
		printf "check %d: a loop of %d instructions on vCPU %d counted %d (%+.4f%%), %d in user space (%+d)\n", $5, $7, $6, c, (c - $7) * 100 / $7, u, u - $7 }' "$RAW"
	awk '$1 == "napi" { $1 = ""; print "NAPI of" $0 }' "$RAW"
	awk '$1 == "idle" { printf "%s idle: background instructions per second of guest time: s %.0f r %.0f d %.0f\n", $2, $8 / 2, $9 / 2, $10 / 2 }' "$RAW"
	for what in all kernel; do
		echo
		[ "$what" = all ] && echo "all instructions per KiB, each run and the spread:" ||
			echo "kernel instructions per KiB, each run and the spread:"
		awk -v o="$([ "$what" = all ] && echo 8 || echo 21)" '
		function cell(k, j,   i, n, lo, hi, s, v) {
			n = split(runs[k, j], v, " "); lo = hi = v[1]; s = ""
			for (i = 1; i <= n; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i]; s = s (i > 1 ? "/" : "") v[i] }
			return sprintf("%s (%.2f%%)", s, lo > 0 ? (hi - lo) * 100 / lo : 0)
		}
		$1 == "relay" { k = $2 " " $3 " " $4; if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
			kb = $7 / 1024
			for (j = 0; j < 3; j++) runs[k, j + 1] = runs[k, j + 1] " " sprintf("%.0f", $(o + j) / kb)
			runs[k, 4] = runs[k, 4] " " sprintf("%.0f", ($o + $(o + 1) + $(o + 2)) / kb)
			rt[k] = rt[k] (rt[k] == "" ? "" : "/") $20 }
		END {
			printf "%-7s %-4s %-8s %-22s %-22s %-22s %-22s %s\n", "model", "offl", "contender", "s", "r", "d", "total", "retrans"
			for (i = 1; i <= nk; i++) { k = order[i]; split(k, f, " ")
				printf "%-7s %-4s %-8s %-22s %-22s %-22s %-22s %s\n", f[1], f[2], f[3], cell(k, 1), cell(k, 2), cell(k, 3), cell(k, 4), rt[k] }
		}' "$RAW"
	done
	echo
	python3 "$PY" split "$RAW"
} > "$OUT/nic-split.txt"
cat "$OUT/nic-split.txt"
[ "$FAIL" = 0 ] || { echo "nic-split: FAILED (above)"; exit 1; }
exit 0
