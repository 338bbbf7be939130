#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the relay data path against a Linux bridge and IPv4
# forwarding (selftests/bench.sh says how), in one guest on the newest
# stock kernel.  By default on instruction-counted time
# (DPILLAR_ICOUNT, default 0: run-vm.sh --icount, one vCPU): every
# chain's cost in guest instructions per frame, the same on a quiet and
# a busy host; build/bench/ holds bench.txt and bench-raw.txt (every
# figure), and "python3 selftests/dp_bench.py compare RAW_A RAW_B"
# puts two runs' ratios side by side.  DPILLAR_ICOUNT=off: the older
# measure by the wall clock, two vCPUs, a thread each, which moves 3-6%
# from run to run; the guest's files stay in build/bench/ (bench.txt,
# bench-raw.txt, bench-raw-cpu.txt: the rates per second of vCPU 0's host
# CPU time, a diagnostic; bench-profile.txt; the console log).  Environment:
# BENCH_BOOTS (on instruction-counted time: guests, default 3, below),
# BENCH_BUILDS (builds of every chain in a guest, default 1),
# BENCH_ROUNDS, BENCH_FRAMES, BENCH_TCP_SECS, BENCH_SIZES, BENCH_RELAYS,
# BENCH_TOPOS (the default ends with "s2:64:4:2:plan": S2 in plan mode,
# contender s2plan), BENCH_PROFILE, BENCH_PROFILE_SECS
# (passed to the guest), BENCH_KERNEL (a Debian ABI), BENCH_CPU (QEMU's
# CPU model, default max), BENCH_CPU_TIMEOUT (host CPU seconds a guest
# may use, default 3000), BENCH_TIMEOUT (its wall-clock backstop,
# default 14400).
#
# make bench-nic (scripts/bench.sh nic): TCP's cost per byte over emulated
# NICs, dp0 against plain IPv4 (one hop, one relay, offloads on and off,
# MTU 9000), in guest instructions per KiB: one vCPU on instruction-
# counted time (DPILLAR_ICOUNT, default 0), iperf3 moving a fixed amount,
# the guest's busy time (elapsed less idle) over it
# (selftests/nic_tcp_cost.sh says how); files in build/bench-nic/
# (bench-nic.txt, bench-nic-raw.txt).  Also BENCH_NIC_MODELS (QEMU NIC
# models, default e1000e e1000 vmxnet3 rtl8139 virtio-net-pci),
# BENCH_ROUNDS (2), BENCH_TCP_BYTES (iperf3 -n, 16M), BENCH_NIC_ROWS
# (hop-on hop-off relay jumbo), BENCH_NIC_BRIDGE (1: the relay row also
# against a bridge).  BENCH_NIC_MODE=pps: the older packet rates through
# one relay against a bridge and IPv4 forwarding (selftests/nic_bench.sh;
# BENCH_FRAMES, BENCH_SIZES, BENCH_TCP_SECS; models e1000e vmxnet3;
# also bench-nic-drops.txt), by the wall clock unless DPILLAR_ICOUNT is
# set.  BENCH_NIC_SPLIT=1: instead, the relay row's cost split by role,
# the sender's, the relay's and the receiver's instructions per KiB
# apart (selftests/nic_tcp_split.sh says how): three vCPUs on
# instruction-counted time (icount shift 0, sleep=off), the QEMU plugin
# tools/insn-plugin counting each vCPU's instructions; files in
# build/bench-nic-split/ (nic-split.txt, nic-split-raw.txt); models
# BENCH_NIC_MODELS (default e1000e e1000), SPLIT_BYTES (8M), SPLIT_RUNS
# (2), SPLIT_ROUNDS (1), SPLIT_OFFLOADS (on off), SPLIT_CONTENDERS (dp0
# ipv4 dp0-nic), SPLIT_CHECKS (2), SPLIT_TUNE (what makes the runs alike:
# nic_tcp_split.sh; SPLIT_HELLO, SPLIT_WARM ...), SPLIT_PROF (1: the
# plugin's profile of every window, dp_bench.py splitprof), BENCH_BOOTS
# (1: guests, each the whole table; with
# more, nic-split-boots.txt has each figure over all of them and the
# repeatability line).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
sh scripts/deps.sh
read -r _ abi612 <<<"$(sh scripts/deps.sh --print-abis)"
abi=${BENCH_KERNEL:-$abi612}
make -s tools
bash scripts/build-modules.sh "$abi" >/dev/null
out=$repo/build/bench guest=selftests/bench.sh vm=()
icount=${DPILLAR_ICOUNT-0}
[ "$icount" != off ] || icount=
if [ "${1:-}" = nic ]; then
	# TCP's cost per byte (BENCH_NIC_MODE=tcp, the default) is measured
	# on instruction-counted time, one vCPU, as make bench.  The packet
	# rates (pps) were not redesigned for icount: only when asked, and
	# its rates are then per second of guest (instruction-counted) time,
	# the NICs' emulation free of charge.
	if [ "${BENCH_NIC_MODE:-tcp}" = pps ]; then
		icount=${DPILLAR_ICOUNT:-}
		[ "$icount" != off ] || icount=""
	fi
	out=$repo/build/bench-nic guest=selftests/nic_bench.sh
	read -r -a vm <<<"$(BENCH_NIC_MODELS=${BENCH_NIC_MODELS:-} \
		bash selftests/nic_bench.sh --vm-args)"
	# The split by role: three vCPUs, icount shift 0 and sleep=off (the
	# script refuses anything else), the plugin's counts.
	if [ "${BENCH_NIC_SPLIT:-0}" = 1 ]; then
		icount=0
		export DPILLAR_ICOUNT_SLEEP=off
		[ -z "${BENCH_NIC_MODELS:-}" ] || export SPLIT_MODELS=$BENCH_NIC_MODELS
		out=$repo/build/bench-nic-split guest=selftests/nic_tcp_split.sh
		read -r -a vm <<<"$(bash selftests/nic_tcp_split.sh --vm-args) --insn-plugin tools/insn-plugin/insn-plugin.so"
		[ -f tools/insn-plugin/insn-plugin.so ] ||
			{ echo "bench-nic: BENCH_NIC_SPLIT=1 needs tools/insn-plugin (make -C tools/insn-plugin)" >&2; exit 1; }
		# SPLIT_PROF=1: the plugin's profile of each window too.
		[ "${SPLIT_PROF:-0}" != 1 ] || export INSN_PROF=1
	fi
fi
rm -rf "$out"
mkdir -p "$out"
envs=()
for v in BENCH_ROUNDS BENCH_BUILDS BENCH_FRAMES BENCH_TCP_SECS BENCH_SIZES BENCH_RELAYS BENCH_TOPOS \
	BENCH_PROFILE BENCH_PROFILE_SECS \
	BENCH_NIC_MODELS BENCH_NIC_MODE BENCH_TCP_BYTES BENCH_NIC_ROWS BENCH_NIC_BRIDGE \
	BENCH_NIC_OFFLOAD SPLIT_MODELS SPLIT_BYTES SPLIT_RUNS SPLIT_ROUNDS SPLIT_OFFLOADS \
	SPLIT_CONTENDERS SPLIT_CHECKS SPLIT_TUNE SPLIT_CWND SPLIT_BUF SPLIT_WARM SPLIT_RING SPLIT_ITR \
	SPLIT_HELLO SPLIT_PROF; do
	[ -n "${!v:-}" ] && envs+=(--env "$v=${!v}")
done
# A thread per vCPU (run-vm.sh's default is one for all, which make check
# needs): the relay profile pins the generator and the relays to
# different CPUs, which only measure apart when the host runs them apart.
# On instruction-counted time, one vCPU: with two, QEMU runs them in
# turn on one thread and the one virtual clock advances with either's
# instructions, so one CPU's busy time would hold the other's.
cpus=(--smp 2 --tcg-thread multi)
[ -z "$icount" ] || { [ "${1:-}" = nic ] && [ "${BENCH_NIC_MODE:-tcp}" = pps ]; } ||
	cpus=(--smp 1)
# The split by role runs its three vCPUs in turn on one thread too, but
# counts each vCPU's instructions itself (the plugin), not by the clock.
[ "${1:-}" != nic ] || [ "${BENCH_NIC_SPLIT:-0}" != 1 ] || cpus=(--smp 3)
# Each guest's limit is the host CPU QEMU uses (BENCH_CPU_TIMEOUT,
# run-vm.sh --cpu-timeout), the wall clock (BENCH_TIMEOUT) only a far
# backstop: a busy host stretches a TCG guest's wall time, not the work,
# and the figures are instruction counts that a busy host leaves alone,
# so a bench beside other work must not die of the wall clock.  A boot
# of make bench used 300-500 s of host CPU (2026-11-30).
# BENCH_CPU: QEMU's CPU model (run-vm.sh --cpu, default max: the
# evaluation's figures were measured on it; make check's guests use
# max,-erms, and why is in scripts/check.sh, GUEST_CPU).
run() {
	env DPILLAR_KO="$repo/build/$abi/net/dpillar/dpillar.ko" DPILLAR_ICOUNT="$icount" \
		selftests/vm/run-vm.sh --kernel "$abi" "${cpus[@]}" --mem 2048 \
		--cpu "${BENCH_CPU:-max}" --cpu-timeout "${BENCH_CPU_TIMEOUT:-3000}" \
		--timeout "${BENCH_TIMEOUT:-14400}" --out "$1" --log "$1/console.log" \
		"${vm[@]}" "${envs[@]}" -- "$guest"
}
# make bench on instruction-counted time: BENCH_BOOTS guests (default
# 3), each building every chain and measuring it once, and the table of
# all of them (each chain's least cost over the boots, dp_bench.py's
# INSN_STAT).  Within one boot a chain's cost repeats within 0.07%;
# between boots, and between two builds of the bridge's chain in one
# boot, it moves by up to 0.5% (2026-11-30: the bridge's 3-relay chain
# 16,749-16,776 instructions over four builds in one boot, 16,753-16,835
# over three boots), which is 1-2% of one hop.
boots=1
[ -z "$icount" ] || [ "${1:-}" = nic ] || boots=${BENCH_BOOTS:-3}
# The split by role: BENCH_BOOTS guests (default 1), each the whole
# table, and each figure's runs over all of them (dp_bench.py split).
[ "${1:-}" != nic ] || [ "${BENCH_NIC_SPLIT:-0}" != 1 ] || boots=${BENCH_BOOTS:-1}
if [ "$boots" -le 1 ]; then
	run "$out"
	exit 0
fi
if [ "${1:-}" = nic ]; then
	rc=0
	for ((b = 1; b <= boots; b++)); do
		mkdir -p "$out/boot-$b"
		run "$out/boot-$b" || rc=1
	done
	python3 selftests/dp_bench.py split "$out"/boot-*/nic-split-raw.txt |
		tee "$out/nic-split-boots.txt"
	exit $rc
fi
: > "$out/bench-raw.txt"
for ((b = 1; b <= boots; b++)); do
	mkdir -p "$out/boot-$b"
	run "$out/boot-$b"
	# A round of boot B is round "B.R" of the whole run.
	awk -v b="$b" 'NF == 3 { print $1, b "." $2, $3 }' \
		"$out/boot-$b/bench-raw.txt" >> "$out/bench-raw.txt"
done
{
	sed -n 1p "$out/boot-1/bench.txt" |
		sed "s/one guest CPU/$boots boots, each one guest CPU/"
	grep '^note:' "$out/boot-1/bench.txt" || true
	python3 selftests/dp_bench.py insn "$out/bench-raw.txt"
} > "$out/bench.txt"
cat "$out/bench.txt"
