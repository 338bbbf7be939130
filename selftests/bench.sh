#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside the test guest (scripts/bench.sh boots it):
#   selftests/vm/run-vm.sh --icount 0 --smp 1 -- selftests/bench.sh
#   DPILLAR_ICOUNT=off: selftests/vm/run-vm.sh --smp 2 -- selftests/bench.sh
#
# On instruction-counted time (DPILLAR_ICOUNT set, the default of make
# bench) every chain below is measured by cost(): guest instructions per
# frame of trafgen's own sending loop, the same whatever the host's load
# (a chain's cost repeats within 0.07% between rounds of one boot, and
# within 0.5% between boots and between builds of its chain, one beside
# two busy host cores: Documentation/networking/dpillar-evaluation.rst),
# one round (make bench boots three guests), no TCP and no profile; the
# table is dp_bench.py insn's.  What follows
# describes the wall-clock mode (rate()); the chains are the same.
#
# The relay data path against a Linux bridge and IPv4 forwarding, over the
# same chain of network namespaces and veth cables:
#
#   sender --veth-- relay 1 --veth-- ... relay R --veth-- receiver
#
#   dpillar, dcell, bcube, xdcent, s2, s2plan
#               every node has dp0 of that topology (BENCH_TOPOS, default
#               DPillar (4,4), DCell (3,2), BCube (2,3), XDCent (3,1,2),
#               S2 derived mode, 64 nodes of 4 ports, 2 spaces; hello
#               1 s: this guest holds some 70 servers' dp0, whose Hellos at
#               the default 100 ms would be that many servers' control
#               traffic on one CPU, under every contender's figures); the
#               chain is the path dpsim gives (its default
#               routing mode) between two servers R + 1 hops apart, each
#               switch or cable of the path replaced by a veth between the
#               two servers it joins on the ports the path uses (the other
#               members are absent, the other ports dummies).  s2plan (a
#               word s2:NODES:PORTS:SPACES:plan, in the default as
#               s2:64:4:2:plan): S2
#               in plan mode, the plan from "dpctl plan ... mode plan",
#               each dp0 given its node's coordinates from it, dpsim
#               routing on that plan; the destination is the first whose
#               path the chain alone routes the same way (dp_bench.py
#               s2dst), the frames carry its coordinates, and route trace
#               checks the chain's path (a plan-mode route get predicts
#               the first hop only)
#   bridge      every relay bridges its two veths (one FDB lookup a hop)
#   ip_forward  every relay routes between two /24s (one FIB lookup a hop)
#
# Forwarding rate: trafgen (AF_PACKET TX ring, netsniff-ng) sends one
# crafted frame as fast as it can on the sender's veth, pinned to CPU 0.
# Each frame crosses the whole chain in the softirq its own send raises
# (veth hands it to the next namespace through CPU 0's backlog), before
# trafgen sends the next: the loop is closed, nothing is dropped, and the
# rate is 1 / (generator + every hop).  Overloading the chain instead (the
# generator on another CPU, RPS) measures something else: every hop
# re-enters the one shared backlog, which the generator keeps full, so
# frames are dropped at every hop in proportion and longer chains lose
# more for that alone.  The generator's cost cancels out of the cost of
# one relay hop, (1/rate(3 relays) - 1/rate(1 relay)) / 2, which the
# table prints too.  CPU 1 runs this script, ip and jq.  The
# rate is the receiver's rx_packets (dpillar: its dp0, after delivery; the
# others: its veth) over trafgen's own sending time of BENCH_FRAMES frames.
# Every contender gets the same frame size on the first cable (the dpillar
# frame's IPv4/UDP packet is 20 bytes shorter: its header; s2plan's is
# shorter by the coordinates too, 4 bytes and 4 a space; where that
# leaves no room for an IPv4/UDP packet, as in s2plan's 64-byte frame of
# 2 spaces, the frame is the least that holds one, 74 bytes, and the log
# and the table say so).  TCP: iperf3
# for BENCH_TCP_SECS between the two servers of the 1-relay chain over
# dp0, and between two hosts with one IPv4 router between them (ip_veth).
#
# BENCH_ROUNDS rounds (default 5; 1 on instruction-counted time, where
# make bench boots BENCH_BOOTS guests instead, and BENCH_BUILDS builds
# every chain again every BENCH_ROUNDS rounds), each running every
# contender once,
# the order reversed every other round (A B C, C B A, ...), so that a
# slow spell of the host hits all of them and a drift favours none; the
# table gives the ratios of the medians and the median of the ratios
# within each round.  A benchmark, not a test: it exits 1 only when a contender
# could not run; the figures are whatever they are.  Results:
# $DPILLAR_OUT/bench.txt (table), bench-raw.txt (every figure), and
# bench-profile.txt: with BENCH_PROFILE=1 (the default) and perf, where
# the CPU's time goes per function while each chain of the most relays
# forwards flat out (profile()).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_vm
require_root
require_cmd ip python3 trafgen iperf3 jq

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
DPSIM=${DPSIM:-$DPILLAR_REPO/tools/dpsim/dpsim}
PY=$DPILLAR_REPO/selftests/dp_bench.py
# DPILLAR_ICOUNT (run-vm.sh --icount): the guest's time is its
# instruction count, and each chain's figure is instructions per frame
# (cost(), below); else packets/s by the wall clock (rate()).
ICOUNT=${DPILLAR_ICOUNT:-}
if [ -n "$ICOUNT" ]; then
	# One round a boot: make bench boots BENCH_BOOTS guests
	# (scripts/bench.sh), which is what the rounds' spread was missing.
	ROUNDS=${BENCH_ROUNDS:-1}
	FRAMES=${BENCH_FRAMES:-20000}
else
	ROUNDS=${BENCH_ROUNDS:-5}
	FRAMES=${BENCH_FRAMES:-100000}
fi
TCP_SECS=${BENCH_TCP_SECS:-3}
SIZES=${BENCH_SIZES:-64 1514}
RELAYS=${BENCH_RELAYS:-1 3}
BUILDS=${BENCH_BUILDS:-1}
# TOPO:N:K[:I] (XDCent's I), s2:NODES:PORTS:SPACES (derived mode, seed 1),
# s2:NODES:PORTS:SPACES:plan (plan mode, seed 1: contender s2plan)
read -r -a TOPOS <<<"${BENCH_TOPOS:-dpillar:4:4 dcell:3:2 bcube:2:3 xdcent:3:1:2 s2:64:4:2 s2:64:4:2:plan}"
OUT=${DPILLAR_OUT:-/tmp}
RAW=$OUT/bench-raw.txt
RAW_CPU=$OUT/bench-raw-cpu.txt
WORK=$(mktemp -d)
: > "$RAW"
: > "$RAW_CPU"

load_module || { echo "bench: no dpillar module"; exit 1; }
# trafgen's socket holds every frame it sent until the frame is freed at
# the end of the chain: a small send buffer makes its sendto() fail with
# EAGAIN and trafgen exits.  These are global (init_net) sysctls: trafgen
# cannot raise them from inside a namespace itself.
sysctl -qw net.core.wmem_max=67108864 net.core.wmem_default=67108864 \
	net.core.rmem_max=67108864 net.core.rmem_default=67108864

# teardown_chains: every chain's sinks and namespaces (setup_chains, below,
# builds them).
teardown_chains() {
	local ns
	if [ ${#SINKS[@]} -gt 0 ]; then
		kill "${SINKS[@]}" 2>/dev/null
		wait "${SINKS[@]}" 2>/dev/null
	fi
	SINKS=()
	for ns in $(ip netns list | awk '/^bn-/ { print $1 }'); do
		ip netns del "$ns"
	done
}
bench_destroy() {
	pkill -x trafgen 2>/dev/null
	pkill -x iperf3 2>/dev/null
	teardown_chains
	rm -rf "$WORK"
}
defer bench_destroy

die() { echo "bench: $*" >&2; exit 1; }

# sink C R: the receiver of contender C's R-relay chain drops the crafted
# UDP packets at a socket (dp_bench.py sink) instead of answering each with
# an ICMP port unreachable, whose route lookups and way back through the
# relays would be measured too.
SINKS=()
sink() {
	ip netns exec "$(ns "$1" "$2" $(($2 + 1)))" python3 "$PY" sink &
	SINKS+=($!)
}

# code C: a contender's letter in its namespaces' names.
code() {
	case $1 in
	dpillar) echo d ;; dcell) echo c ;; bcube) echo u ;; xdcent) echo x ;;
	s2) echo s ;; s2plan) echo p ;; bridge) echo b ;; ip_forward) echo i ;;
	*) return 1 ;;
	esac
}

# topo_name SPEC: the contender of a BENCH_TOPOS word, its topology's name
# but for S2's plan mode, s2plan: a chain, rows and namespaces of its own
# beside the derived mode's.
topo_name() {
	case $1 in
	s2:*:plan) echo s2plan ;;
	*) echo "${1%%:*}" ;;
	esac
}

# ns C R I: the namespace of node I of contender C's R-relay chain (C a
# contender's name or its letter).
ns() {
	local c=$1
	[ ${#c} -eq 1 ] || c=$(code "$c")
	echo "bn-$c$2-$3"
}

# chain C R: R + 2 namespaces; node I reaches node I+1 through veth "right"
# (in I) and "left" (in I+1).
chain() {
	local c=$1 r=$2 i last=$(($2 + 1))
	for ((i = 0; i <= last; i++)); do
		ip netns add "$(ns "$c" "$r" "$i")" || return 1
		ip -n "$(ns "$c" "$r" "$i")" link set lo up
	done
	for ((i = 0; i < last; i++)); do
		ip link add right netns "$(ns "$c" "$r" "$i")" type veth \
			peer name left netns "$(ns "$c" "$r" $((i + 1)))" || return 1
	done
}

mac_of() { ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'; }
rx_of() { ip -n "$1" -j -s link show dev "$2" | jq '.[0].stats64.rx.packets'; }
tx_of() { ip -n "$1" -j -s link show dev "$2" | jq '.[0].stats64.tx.packets'; }

# ---- the dpillar topologies ------------------------------------------------
# topo_opts SPEC: TOPO, the contender NAME, the dpsim options DOPTS, the
# dp0 arguments DARGS (without the address), the port count NP and the
# source SRC (node 1: node 0 would be 10.0.0.0, the prefix's own address)
# in the topology's text form; PLAN, S2's plan mode only: dpctl's plan
# JSON (DOPTS route on the same plan).
topo_opts() {
	local a b c d m
	IFS=: read -r TOPO a b c m <<<"$1"
	NAME=$(topo_name "$1") PLAN=
	[ -z "$m" ] || [ "$NAME" = s2plan ] ||
		die "unknown topology in BENCH_TOPOS: $1"
	case $TOPO in
	dpillar) DOPTS=(-n "$a" -k "$b") DARGS=(n "$a" k "$b") NP=2 ;;
	dcell | bcube)
		DOPTS=(--topo "$TOPO" -n "$a" -k "$b")
		DARGS=(topo "$TOPO" n "$a" k "$b") NP=$((b + 1)) ;;
	xdcent)
		DOPTS=(--topo xdcent -n "$a" -k "$b" -i "$c")
		DARGS=(topo xdcent n "$a" k "$b" level "$c") NP=$((b + 1)) ;;
	s2)
		DOPTS=(--topo s2 --switches "$a" --ports "$b" --servers 0
		       --spaces "$c" --fabric derived --seed 1)
		DARGS=(topo s2 nodes "$a" n "$b" spaces "$c" seed 1) NP=$b
		SRC=1
		[ "$NAME" = s2plan ] || return 0
		# Plan mode: the plan as the selftests build a plan-mode
		# fabric from it (plan_fabric.sh, s2_test.sh), and dpsim's
		# copy of that very plan (dp_bench.py s2plan).
		PLAN=$WORK/s2plan-$a-$b-$c.json
		"$DPCTL" -j plan "${DARGS[@]}" mode plan > "$PLAN" &&
			python3 "$PY" s2plan "$PLAN" > "${PLAN%.json}.plan" ||
			return 1
		DOPTS=(--topo s2 --plan "${PLAN%.json}.plan")
		return 0 ;;
	*) die "unknown topology in BENCH_TOPOS: $1" ;;
	esac
	d=$("$DPSIM" route "${DOPTS[@]}" --from '#1' --to '#2' --json) || return 1
	SRC=$(jq -r '.path[0]' <<<"$d")
}

# topo_dst R: a server R + 1 hops from SRC on dpsim's path; in plan mode
# the first whose chain routes as the whole plan does (dp_bench.py s2dst:
# a plan-mode relay routes by the neighbours it hears, which the chain
# leaves it but two of).
topo_dst() {
	if [ -n "$PLAN" ]; then
		python3 "$PY" s2dst "$DPSIM" "$PLAN" "$SRC" $(($1 + 1))
		return
	fi
	"$DPSIM" pairs "${DOPTS[@]}" | awk -v s="$SRC" -v h=$(($1 + 1)) \
		'$1 == s && $3 == "delivered" && $4 == h { print $2; exit }'
}

ip4_of_id() {
	local id=$1
	echo "10.$((id >> 16 & 255)).$((id >> 8 & 255)).$((id & 255))"
}

# setup_topo SPEC R: $WORK/route-<contender>-R.json (dpsim's JSON), dp0
# on every node, the chain's cables on the path's ports, dummies on the
# others.
setup_topo() {
	local r=$2 dst route i last=$(($2 + 1)) n p a id pn args c how field
	topo_opts "$1" || return 1
	c=$NAME
	dst=$(topo_dst "$r")
	[ -n "$dst" ] || die "$1: no server $((r + 1)) hops from $SRC"
	route=$("$DPSIM" route "${DOPTS[@]}" --from "$SRC" --to "$dst" --json)
	echo "$route" > "$WORK/route-$c-$r.json"
	chain "$c" "$r" || return 1
	for ((i = 0; i <= last; i++)); do
		n=$(ns "$c" "$r" "$i")
		a=$(jq -r ".path[$i]" <<<"$route")
		pn=()
		for ((p = 0; p < NP; p++)); do pn[p]=x$p; done
		[ "$i" -lt "$last" ] && pn[$(jq ".ports[$i][0]" <<<"$route")]=right
		[ "$i" -gt 0 ] && pn[$(jq ".ports[$((i - 1))][1]" <<<"$route")]=left
		args=("${DARGS[@]}")
		# Plan mode: the node's own coordinates (a plan-mode dp0
		# knows no other node's; it learns its peers from Hellos).
		[ -z "$PLAN" ] || args+=(coords "$(jq -r --argjson a "$a" \
			'.plan[] | select(.node == $a) | .coords | join(",")' "$PLAN")")
		if [ "$TOPO" = s2 ]; then args+=(id "$a"); else args+=(addr "$a"); fi
		for ((p = 0; p < NP; p++)); do
			[ "${pn[p]}" = x$p ] &&
				ip -n "$n" link add "x$p" type dummy
			ip -n "$n" link set "${pn[p]}" up
			args+=("port$p" "${pn[p]}")
		done
		ip netns exec "$n" "$DPCTL" link add dp0 "${args[@]}" \
			hello 1000 dead 4000 || return 1
		id=$(ip netns exec "$n" "$DPCTL" -j show dp0 | jq '.[0].node_id')
		ip -n "$n" -b - <<-EOF || return 1
		link set dp0 up
		addr add $(ip4_of_id "$id")/32 dev dp0
		route add 10.0.0.0/8 dev dp0
		EOF
		ip netns exec "$n" sysctl -qw net.ipv4.conf.all.rp_filter=0
	done
	# Every Hello heard: the receiver answers a ping (in plan mode once
	# the source has resolved its coordinates, and it the source's).
	for ((i = 0; i < 100; i++)); do
		ip netns exec "$(ns "$c" "$r" 0)" ping -c1 -W1 -q \
			"$(ip4_of_id "$(jq .dst_id <<<"$route")")" >/dev/null && break
		sleep 0.2
	done
	[ "$i" -lt 100 ] || die "$c chain of $r relays: no ping"
	# The kernel's path must be dpsim's (every relay of the chain): route
	# get's prediction (addresses, as dpsim's path), or in plan mode,
	# where a node predicts only its own hop, the path route trace's
	# probes take (routed as data, with the destination's coordinates;
	# node ids, which are S2's addresses).
	how="get" field=path
	[ -z "$PLAN" ] || how="trace" field=path_ids
	a=$(ip netns exec "$(ns "$c" "$r" 0)" "$DPCTL" -j route $how \
		"#$(jq .dst_id <<<"$route")" |
		jq -c --arg f "$field" '[.[0][$f][] | tostring]' 2>/dev/null)
	[ "$a" = "$(jq -c '[.path[] | tostring]' <<<"$route")" ] ||
		echo "bench: note: $c: route $how says $a, dpsim $(jq -c .path <<<"$route")"
}

# frame_of C R SIZE: the trafgen config of contender C's R-relay chain.
frame_of() {
	case $1 in
	bridge | ip_forward) "frame_$1" "$2" "$3" ;;
	*) frame_topo "$1" "$2" "$3" ;;
	esac
}

# frame_topo C R SIZE: the frame dp0 of the chain's first node would send.
frame_topo() {
	local c=$1 r=$2 size=$3 route=$WORK/route-$1-$2.json
	python3 "$PY" frame dpillar "$size" \
		"$(mac_of "$(ns "$c" "$r" 1)" left)" "$(mac_of "$(ns "$c" "$r" 0)" right)" \
		"$(ip4_of_id "$(jq .src_id "$route")")" \
		"$(ip4_of_id "$(jq .dst_id "$route")")" "$(cat "$route")"
}

# ---- bridge -----------------------------------------------------------------
setup_bridge() {
	local r=$1 i last=$(($1 + 1)) n
	chain b "$r" || return 1
	for ((i = 1; i < last; i++)); do
		n=$(ns b "$r" "$i")
		# The receiver never answers (its sink reads nothing), so its
		# MAC, learned from the setup's ping, would age out after the
		# default 300 s and every later frame be flooded: br_flood(),
		# dearer than a forward (seen in a profile, 2026-11-28).  The
		# ageing time (centiseconds) outlasts any bench.
		ip -n "$n" -b - <<-EOF || return 1
		link add br0 type bridge ageing_time 8640000
		link set left master br0
		link set right master br0
		link set left up
		link set right up
		link set br0 up
		EOF
	done
	ip -n "$(ns b "$r" 0)" addr add 192.168.$r.1/24 dev right
	ip -n "$(ns b "$r" 0)" link set right up
	ip -n "$(ns b "$r" "$last")" addr add 192.168.$r.2/24 dev left
	ip -n "$(ns b "$r" "$last")" link set left up
	# The FDBs learn both ends (and ARP resolves).
	ip netns exec "$(ns b "$r" 0)" ping -c2 -W2 -q 192.168.$r.2 >/dev/null ||
		die "bridge chain of $r relays: no ping"
}

frame_bridge() {
	local r=$1 size=$2
	python3 "$PY" frame ip "$size" \
		"$(mac_of "$(ns b "$r" $((r + 1)))" left)" \
		"$(mac_of "$(ns b "$r" 0)" right)" 192.168.$r.1 192.168.$r.2
}

# ---- ip_forward -------------------------------------------------------------
# Link I of the chain (node I to I+1) is 172.16.(10R+I).0/24: .1 on node
# I, .2 on node I+1.  The two hosts have a /16 route to their one
# neighbour; a relay has a /24 route for each link that is not its own.
setup_ip_forward() {
	local r=$1 i j last=$(($1 + 1)) n
	chain i "$r" || return 1
	for ((i = 0; i <= last; i++)); do
		n=$(ns i "$r" "$i")
		ip netns exec "$n" sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv4.conf.all.rp_filter=0
		if [ "$i" -lt "$last" ]; then
			ip -n "$n" addr add "172.16.$((10 * r + i)).1/24" dev right
			ip -n "$n" link set right up
		fi
		if [ "$i" -gt 0 ]; then
			ip -n "$n" addr add "172.16.$((10 * r + i - 1)).2/24" dev left
			ip -n "$n" link set left up
		fi
	done
	ip -n "$(ns i "$r" 0)" route add 172.16.0.0/16 via 172.16.$((10 * r)).2
	ip -n "$(ns i "$r" "$last")" route add 172.16.0.0/16 \
		via 172.16.$((10 * r + r)).1
	for ((i = 1; i <= r; i++)); do
		for ((j = 0; j <= r; j++)); do
			[ "$j" = "$i" ] || [ "$j" = $((i - 1)) ] && continue
			if [ "$j" -gt "$i" ]; then
				ip -n "$(ns i "$r" "$i")" route add \
					172.16.$((10 * r + j)).0/24 \
					via 172.16.$((10 * r + i)).2
			else
				ip -n "$(ns i "$r" "$i")" route add \
					172.16.$((10 * r + j)).0/24 \
					via 172.16.$((10 * r + i - 1)).1
			fi
		done
	done
	ip netns exec "$(ns i "$r" 0)" ping -c2 -W2 -q \
		172.16.$((10 * r + r)).2 >/dev/null ||
		die "ip_forward chain of $r relays: no ping"
	# The receiver never answers, so the neighbour entries the ping made
	# go stale and each relay probes its next hop again (ARP) while the
	# frames flow, as many times as the clock allows: under icount,
	# where idle waits skip ahead, that was a 6% swing of a chain's cost.
	# Pinned (permanent) entries take ARP out, as the bridge's ageing
	# time takes flooding out.
	for ((i = 0; i <= last; i++)); do
		n=$(ns i "$r" "$i")
		ip -n "$n" -j neigh show | jq -r \
			'.[] | select(.lladdr) | "\(.dst) \(.dev) \(.lladdr)"' |
		while read -r a d l; do
			ip -n "$n" neigh replace "$a" dev "$d" lladdr "$l" \
				nud permanent
		done
	done
}

frame_ip_forward() {
	local r=$1 size=$2
	python3 "$PY" frame ip "$size" "$(mac_of "$(ns i "$r" 1)" left)" \
		"$(mac_of "$(ns i "$r" 0)" right)" 172.16.$((10 * r)).1 \
		172.16.$((10 * r + r)).2
}

# ---- measurement ------------------------------------------------------------
# The host CPU time of vCPU 0, the CPU that runs the generator and the
# whole chain: QEMU's thread "CPU 0/TCG" (run-vm.sh names its threads,
# and exports QEMU's /proc/self over 9p as "qemuproc"), its schedstat's
# first field, ns on the host's CPU.  Under TCG a guest's wall clock
# holds whatever time the host did not run that thread.  A diagnostic
# only: each run's line says how much of trafgen's time vCPU 0 ran
# ("2.45 of 2.45 s"), and bench-raw-cpu.txt has the rates per second of
# it; the table stays by the wall clock, because the CPU time strayed
# both ways in a run whose host was busy (0.58 to 1.69 of the wall
# clock's rate, 2026-11-28), where the wall clock's rates held steady.
# VCPU0 is the file, or empty outside run-vm.sh.
VCPU0=
if [ -n "$ICOUNT" ]; then
	:
elif qemuproc_mount; then
	defer "umount /run/qemuproc"
fi
for t in ${QEMUPROC:-/nonexistent}/task/*; do
	[ -r "$t/comm" ] && [ "$(cat "$t/comm")" = "CPU 0/TCG" ] &&
		VCPU0=$t/schedstat
done
[ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ] || VCPU0=
vcpu0_ns() {
	local a
	if [ -n "$VCPU0" ] && read -r a _ < "$VCPU0"; then echo "$a"; else echo 0; fi
}

# startup_ns: STARTUP_NS, what vCPU 0 spends on a run of trafgen besides
# its frames (starting it, compiling the config, the ring, the 0.5-s
# wait of rate()): the median of five runs sending one frame on the
# first topology's 1-relay chain.  rate() takes it off every run's CPU
# time, which otherwise pulls every ratio toward 1.
STARTUP_NS=0
startup_ns() {
	local i c0 c1 v=() c=${CONTENDERS[0]} r=${RELAYS%% *}
	[ -n "$VCPU0" ] || return 0
	frame_of "$c" "$r" "${SIZES%% *}" > "$WORK/frame.cfg" || return 1
	for i in 1 2 3 4 5; do
		c0=$(vcpu0_ns)
		ip netns exec "$(ns "$c" "$r" 0)" taskset -c 0 trafgen -o right \
			-i "$WORK/frame.cfg" -P 1 -n 1 >/dev/null 2>&1
		sleep 0.5
		c1=$(vcpu0_ns)
		v+=($((c1 - c0)))
	done
	STARTUP_NS=$(printf '%s\n' "${v[@]}" | sort -n | sed -n 3p)
}

# rate C R SIZE: packets/s the receiver got while trafgen sent BENCH_FRAMES
# frames (RATE), and the rate trafgen sent them at (GEN), both over
# trafgen's own sending time; RATE_CPU, the received frames over what
# vCPU 0 spent from trafgen's start to the chain's end (CPU, seconds,
# less STARTUP_NS).  Nothing samples counters while it runs: the
# generator and the relays keep both vCPUs busy, and a monitoring process
# would crawl and disturb them.
rate() {
	local c=$1 r=$2 size=$3 dev rx0 rx1 out t c0 c1
	local rcv=$(ns "$c" "$r" $((r + 1))) snd=$(ns "$c" "$r" 0)
	dev=dp0
	case $c in bridge | ip_forward) dev=left ;; esac
	frame_of "$c" "$r" "$size" > "$WORK/frame.cfg" || return 1
	rx0=$(rx_of "$rcv" "$dev")
	c0=$(vcpu0_ns)
	# trafgen's exit status says nothing useful (1 after some EAGAINs).
	out=$(ip netns exec "$snd" taskset -c 0 trafgen -o right \
		-i "$WORK/frame.cfg" -P 1 -n "$FRAMES" 2>&1)
	# The frames still queued in the chain (at most a backlog).
	sleep 0.5
	c1=$(vcpu0_ns)
	rx1=$(rx_of "$rcv" "$dev")
	# "  6 sec, 646477 usec on CPU0 (200000 packets)"
	t=$(tr -d '\r' <<<"$out" |
		awk '/ sec, .* usec on CPU/ { print $1 + $3 / 1e6; exit }')
	[ -n "$t" ] || { echo "bench: trafgen: $out" >&2; return 1; }
	RATE=$(echo "($rx1 - $rx0) / $t" | bc -l)
	GEN=$(echo "$FRAMES / $t" | bc -l)
	SECS=$t
	CPU=$(echo "($c1 - $c0 - $STARTUP_NS) / 1000000000" | bc -l)
	RATE_CPU=0
	[ "$((c1 - c0))" -le "$STARTUP_NS" ] ||
		RATE_CPU=$(echo "($rx1 - $rx0) / $CPU" | bc -l)
	[ "$rx1" -gt "$rx0" ]
}

# cost C R SIZE (instruction-counted time, DPILLAR_ICOUNT=SHIFT): INSN,
# the guest instructions per frame of trafgen's sending loop, BENCH_FRAMES
# frames through contender C's R-relay chain: the loop's own time as
# trafgen reports it ("N sec, M usec on CPU0"), guest ns, which under
# icount are the instructions the one vCPU ran in it times 2^SHIFT.  The
# loop is closed (one frame crosses the whole chain in the softirq its
# send raises, rate()), so the CPU never idles in it and no idle-time
# jump enters the figure; trafgen's start (exec, ip netns exec, the
# config's compilation: some 22 ms of guest time, varying by a few ms
# with what else the guest ran then) and exit are outside it.  What the
# loop holds besides the frames is what the guest runs on its own in
# that time (the tick, dp0's Hellos, RCU): it is proportional to the
# loop's length, and the same in every round.  BUSY: the CPU's busy
# time over the whole run, start included (/proc/timer_list: elapsed
# less idle_sleeptime), a diagnostic.  The 0.2 s wait before (idle: it
# costs the host nothing under sleep=off) lets the console's output of
# the previous line drain first, whose UART interrupts would otherwise
# fall into the loop.
busy_ns() {
	awk '/^now at/ { n = $3 } /idle_sleeptime/ { i = $3 }
		END { printf "%.0f\n", n - i }' /proc/timer_list
}
cost() {
	local c=$1 r=$2 size=$3 dev rx0 rx1 out t b0 b1 rcv snd
	rcv=$(ns "$c" "$r" $((r + 1))) snd=$(ns "$c" "$r" 0)
	dev=dp0
	case $c in bridge | ip_forward) dev=left ;; esac
	frame_of "$c" "$r" "$size" > "$WORK/frame.cfg" || return 1
	rx0=$(rx_of "$rcv" "$dev")
	sleep 0.2
	b0=$(busy_ns)
	out=$(ip netns exec "$snd" trafgen -o right -i "$WORK/frame.cfg" \
		-P 1 -n "$FRAMES" 2>&1)
	b1=$(busy_ns)
	rx1=$(rx_of "$rcv" "$dev")
	t=$(tr -d '\r' <<<"$out" |
		awk '/ sec, .* usec on CPU/ { printf "%.0f", $1 * 1e9 + $3 * 1e3; exit }')
	[ -n "$t" ] || { echo "bench: trafgen: $out" >&2; return 1; }
	INSN=$(echo "$t / 2^$ICOUNT / $FRAMES" | bc -l)
	LOOP=$t BUSY=$((b1 - b0)) RX=$((rx1 - rx0))
	[ "$RX" -gt 0 ]
}

tcp() {
	local snd=$1 rcv=$2 dip=$3 bps
	ip netns exec "$rcv" iperf3 -s -D -1 -p 5201 >/dev/null 2>&1
	sleep 0.5
	bps=$(ip netns exec "$snd" iperf3 -c "$dip" -p 5201 -t "$TCP_SECS" -J \
		2>/dev/null | jq '.end.sum_received.bits_per_second')
	[ -n "$bps" ] && [ "$bps" != null ] || return 1
	TCP=$(echo "$bps / 1000000" | bc -l)
}

# ---- profile ----------------------------------------------------------------
# profile C R: where CPU 0's time goes while trafgen feeds contender C's
# R-relay chain flat out (the closed loop of rate(), frames of the first
# size): perf samples CPU 0 by the software clock (TCG has no PMU) from
# CPU 1 for BENCH_PROFILE_SECS, started once the generator runs, so the
# samples fall on the traffic (generator, every relay, the receiver), not
# on an idle CPU.  Per symbol, the share of the samples.
profile() {
	local c=$1 r=$2 snd pid data=$WORK/perf-$1.data
	snd=$(ns "$c" "$r" 0)
	frame_of "$c" "$r" "${SIZES%% *}" > "$WORK/frame.cfg" || return 1
	ip netns exec "$snd" taskset -c 0 trafgen -o right -i "$WORK/frame.cfg" \
		-P 1 -n 100000000 >/dev/null 2>&1 &
	pid=$!
	sleep 2
	perf record -q -e cpu-clock -F 999 -C 0 -o "$data" -- \
		sleep "${BENCH_PROFILE_SECS:-10}" >/dev/null 2>&1
	# trafgen sends from a worker process it forks (-P): kill them all,
	# or this chain's generator runs on under the next chain's profile
	pkill -KILL -x trafgen
	wait "$pid" 2>/dev/null
	echo "== $c, $r relays, ${SIZES%% *} B: share of CPU 0's samples per module"
	perf report -i "$data" --no-children --sort dso --stdio -q 2>/dev/null |
		sed 's/ *$//' | head -n 8
	echo "-- per function (at least 0.5%)"
	perf report -i "$data" --no-children --sort sym --stdio -q \
		--percent-limit 0.5 2>/dev/null | sed 's/ *$//' | head -n 40
	echo
}

# ---- run --------------------------------------------------------------------
# This shell and what it starts stay off the generator's CPU.
[ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || taskset -pc 1 $$ >/dev/null
echo "# bench: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, $ROUNDS rounds, $FRAMES frames each"
if [ -n "$ICOUNT" ]; then
	echo "# instruction-counted time (icount shift $ICOUNT: an instruction is $((1 << ICOUNT)) ns): instructions per frame of trafgen's sending loop"
else
	echo "# generator and relays: CPU 0 (closed loop); this script: CPU 1"
fi
CONTENDERS=()
for t in "${TOPOS[@]}"; do CONTENDERS+=("$(topo_name "$t")"); done
CONTENDERS+=(bridge ip_forward)
# setup_chains: every contender's chains, from nothing (their
# namespaces, dp0s, bridges, routes and sinks); teardown_chains (above)
# undoes it.
setup_chains() {
	local r t c
	for r in $RELAYS; do
		for t in "${TOPOS[@]}"; do
			setup_topo "$t" "$r" ||
				die "cannot build the $(topo_name "$t") chain of $r relays"
		done
		for c in bridge ip_forward; do
			"setup_$c" "$r" || die "cannot build the $c chain of $r relays"
		done
		for c in "${CONTENDERS[@]}"; do sink "$c" "$r"; done
	done
	for t in "${TOPOS[@]}"; do
		for r in $RELAYS; do
			echo "# chain up: $t, $r relays: $(jq -c .path "$WORK/route-$(topo_name "$t")-$r.json")"
		done
	done
}
setup_chains
# Sourced with BENCH_SETUP_ONLY=1: the chains are up, the caller goes on.
[ "${BENCH_SETUP_ONLY:-0}" = 1 ] && return 0

# A frame too small for a topology's headers and an IPv4/UDP packet is
# sent at the least size that holds them (dp_bench.py frame): its rows
# keep their SIZE's name, and NOTES (the log, then the table) the size.
# The sizes smallest first, up to the first that fits (a python start
# costs seconds under TCG); a frame's bytes are the config's commas + 1.
NOTES=()
for t in "${TOPOS[@]}"; do
	c=$(topo_name "$t")
	for size in $(tr ' ' '\n' <<<"$SIZES" | sort -n); do
		a=$(frame_of "$c" "${RELAYS%% *}" "$size") ||
			die "$c: no frame of $size bytes"
		a=${a//[^,]/}
		[ $((${#a} + 1)) != "$size" ] || break
		NOTES+=("note: $c's $size-byte frames are $((${#a} + 1)) bytes (its headers and the smallest IPv4/UDP packet)")
	done
done
for a in "${NOTES[@]}"; do echo "# $a"; done

REVERSED=()
for ((i = ${#CONTENDERS[@]} - 1; i >= 0; i--)); do
	REVERSED+=("${CONTENDERS[i]}")
done
# On instruction-counted time: the same rounds, each chain's cost in
# instructions per frame, no TCP (iperf3 runs for a time, not for a
# fixed amount of work) and no profile (one vCPU: perf would sample
# itself); the table is dp_bench.py insn's.
if [ -n "$ICOUNT" ]; then
	for ((round = 1; round <= ROUNDS * BUILDS; round++)); do
		# A new build of every chain every ROUNDS rounds (BENCH_BUILDS).
		if [ "$round" -gt 1 ] && [ $(((round - 1) % ROUNDS)) = 0 ]; then
			teardown_chains
			setup_chains
		fi
		ORDER=("${CONTENDERS[@]}")
		((round % 2)) || ORDER=("${REVERSED[@]}")
		for size in $SIZES; do
			for r in $RELAYS; do
				for c in "${ORDER[@]}"; do
					name=$c/${r}relay/${size}B
					cost "$c" "$r" "$size" ||
						die "$name: nothing received"
					printf '%s %d %.1f\n' "$name" "$round" "$INSN" >> "$RAW"
					printf '# round %d %-26s %9.1f insn/frame (loop %.6f s, run %.6f s busy, %d of %d frames received)\n' \
						"$round" "$name" "$INSN" "$(echo "$LOOP / 10^9" | bc -l)" \
						"$(echo "$BUSY / 10^9" | bc -l)" "$RX" "$FRAMES"
				done
			done
		done
	done
	{
		echo "make bench: kernel $(uname -r), one guest CPU on instruction-counted time (QEMU -icount shift=$ICOUNT,sleep=off), $BUILDS builds of the chains, $ROUNDS rounds of $FRAMES frames each"
		for a in "${NOTES[@]}"; do echo "$a"; done
		python3 "$PY" insn "$RAW"
	} > "$OUT/bench.txt"
	cat "$OUT/bench.txt"
	exit 0
fi
startup_ns
echo "# a run of trafgen costs vCPU 0 $((STARTUP_NS / 1000000)) ms besides its frames"
for ((round = 1; round <= ROUNDS; round++)); do
	# Odd rounds A B C, even rounds C B A: a host slowing down (or
	# speeding up) across a round favours no contender over two rounds.
	ORDER=("${CONTENDERS[@]}")
	((round % 2)) || ORDER=("${REVERSED[@]}")
	for size in $SIZES; do
		for r in $RELAYS; do
			for c in "${ORDER[@]}"; do
				name=$c/${r}relay/${size}B
				rate "$c" "$r" "$size" ||
					die "$name: nothing received"
				printf '%s %d %.0f\n' "$name" "$round" "$RATE" >> "$RAW"
				printf '%s %d %.0f\n' "$name" "$round" "$RATE_CPU" >> "$RAW_CPU"
				printf '# round %d %-26s %9.0f pps (sent %.0f; %.0f per vCPU second, %.2f of %.2f s)\n' \
					"$round" "$name" "$RATE" "$GEN" "$RATE_CPU" "$CPU" "$SECS"
			done
		done
	done
	# TCP over DPillar's 1-relay chain, when there is one
	if [ -f "$WORK/route-dpillar-1.json" ]; then
		tcp "$(ns d 1 0)" "$(ns d 1 2)" \
			"$(ip4_of_id "$(jq .dst_id "$WORK/route-dpillar-1.json")")" ||
			die "iperf3 over dp0 failed"
		printf '%s %d %.1f\n' dpillar/tcp/1relay "$round" "$TCP" >> "$RAW"
		printf '# round %d dpillar/tcp/1relay %.1f Mbit/s\n' "$round" "$TCP"
	fi
	# and over the 1-relay IPv4 chain, when there is one
	[[ " $RELAYS " == *" 1 "* ]] || continue
	tcp "$(ns i 1 0)" "$(ns i 1 2)" 172.16.11.2 ||
		die "iperf3 over routed veth failed"
	printf '%s %d %.1f\n' ip_veth/tcp/1relay "$round" "$TCP" >> "$RAW"
	printf '# round %d ip_veth/tcp/1relay %.1f Mbit/s\n' "$round" "$TCP"
done

# The profiles: every topology's chain of the most relays, and the bridge's.
if [ "${BENCH_PROFILE:-1}" = 1 ] && command -v perf >/dev/null; then
	sysctl -qw kernel.kptr_restrict=0 kernel.perf_event_paranoid=-1
	r=${RELAYS##* }
	for c in "${CONTENDERS[@]}"; do
		[ "$c" = ip_forward ] || profile "$c" "$r"
	done > "$OUT/bench-profile.txt"
	echo "# profiles: $OUT/bench-profile.txt"
fi

{
	echo "make bench: kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) guest CPUs (TCG), $ROUNDS rounds"
	echo "packets/s at the receiver (tcp rows: Mbit/s), median min max"
	for a in "${NOTES[@]}"; do echo "$a"; done
	python3 "$PY" table "$RAW"
} > "$OUT/bench.txt"
cat "$OUT/bench.txt"

exit 0
