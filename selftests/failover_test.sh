#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Failover, every topology (issue 53): the loss window of a 1 kHz probe
# stream through a relay while the relay's cable or the relay fails, in
# a small fabric of each of the five topologies:
#     selftests/vm/run-vm.sh --smp 1 -- selftests/failover_test.sh \
#         [TOPO:ARGS ...]   (default DPILLAR_FAILOVER_TOPOS, else
#         "dpillar:4:2 dcell:2:1 bcube:3:1 xdcent:3:1:1 s2:8:4:2:7")
# TOPO:ARGS is dpillar:N:K, dcell:N:K, bcube:N:K, xdcent:N:K:LEVEL or
# s2:NODES:PORTS:SPACES:SEED.  For each:
#  - the fabric from "dpctl plan" (plan_fabric.sh: a netns per server,
#    fo-<node id>, bridges for switches and cables in pfsw), dp0 on every
#    server with the first Hello/dead pair of DPILLAR_FAILOVER_INTERVALS
#    (default "100/300 10/30": the defaults, then BFD-like fast Hellos);
#  - the stream: UDP from the first server to DST, one frame a ms, each
#    with a sequence number (dp_failover.py, one process for the suite);
#    DST is, of the servers the fabric keeps joined to the first whichever
#    other server fails (pf_connected), the one "dpctl route get" gives
#    the longest path to;
#  - three failures, each while the stream runs, with each pair of
#    intervals, then repaired while it still runs.  Each fails the
#    stream's first relay R as the stream's last 500 ms found it (the
#    servers whose ports' frame counts grew with it; the flow hash and
#    the failures before choose the path, not dpsim's hash 0), or R's
#    out port e:
#      cable, switch side   e's switch-side veth out of its bridge, still
#                           up: R keeps carrier, only Hellos tell (a
#                           veth down would take its peer's carrier);
#      relay dies           every switch-side veth of R down at once;
#      cable, carrier lost  e's switch-side veth down: R's port loses
#                           carrier, which R sees at once.
#    A cable (DCell, S2) is a two-port bridge, so its far end keeps
#    carrier in all three;
#  - the loss window: the longest run of lost frames after the failure,
#    in ms of send time (at 1 kHz, the frames lost).
# Asserted, as robust under TCG on a busy host: the stream recovers, its
# loss window under a ceiling of 10 times the bound (dead + 2 Hellos, at
# least 1 s: a descheduled guest), it flows after the repair, no TTL
# expires and no frame arrives twice (no loop), no kernel splat.  Printed,
# not asserted, in a table: each loss window against the issue's goals
# (<= dead + 2 Hellos, which with hello 10 dead 30 is BFD's 50 ms; no
# frame lost when the relay's own NIC loses carrier).  Under TCG the
# guest's timers follow the host's load, so the windows do too.
# Why a UDP stream and not ping -i 0.001: one way only (an echo's reply
# takes another path through other failures); the send time of every
# frame is kept, and windows are measured in it, so a sender the host
# descheduled stretches no window and shrinks none; a missing sequence
# number is a frame the fabric lost (the sender never bursts to catch
# up).  A TCG guest of one vCPU keeps 200-750 frames/s, not 1000 (the
# "hz" of each result): a window is then exact to 1.5-5 ms.
. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip python3

require_tools
topos=("$@")
[ ${#topos[@]} -gt 0 ] || read -r -a topos <<<"${DPILLAR_FAILOVER_TOPOS:-dpillar:4:2 dcell:2:1 bcube:3:1 xdcent:3:1:1 s2:8:4:2:7}"
read -r -a INTERVALS <<<"${DPILLAR_FAILOVER_INTERVALS:-100/300 10/30}"

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"

. "$(dirname "$0")/plan_fabric.sh"
defer pf_destroy

# The stream's process (dp_failover.py): started once, a command a line.
coproc FO { python3 -S -E -u "$DP_SELFTESTS/dp_failover.py" "$PF_SW" 2>&1; }
defer "kill $FO_PID"
read -r -t 60 line <&"${FO[0]}"
[ "$line" = READY ] || ktap_skip_all "dp_failover.py: ${line:-no answer}"

# fo CMD...: one command to dp_failover.py; its answer in FO_OUT.
fo() {
	local l
	FO_OUT=()
	echo "$*" >&"${FO[1]}"
	while read -r -t 300 l <&"${FO[0]}"; do
		[ "$l" = END ] && return 0
		FO_OUT+=("$l")
	done
	return 1
}

# fo_words TOPO:ARGS: NAME and WORDS (dpctl plan's words) of a fabric.
fo_words() {
	local t a b c d
	IFS=: read -r t a b c d <<<"$1"
	case $t in
	dpillar) NAME="DPillar($a,$b)" WORDS="topo dpillar n $a k $b" ;;
	dcell) NAME="DCell($a,$b)" WORDS="topo dcell n $a k $b" ;;
	bcube) NAME="BCube($a,$b)" WORDS="topo bcube n $a k $b" ;;
	xdcent) NAME="XDCent($a,$b,$c)" WORDS="topo xdcent n $a k $b level $c" ;;
	s2) NAME="S2($a,$b,$c)" WORDS="topo s2 nodes $a n $b spaces $c seed $d" ;;
	*) return 1 ;;
	esac
}

# fo_pair: SRC (the first server) and DST, node ids: of the servers
# the fabric keeps joined to SRC whichever other server fails
# (pf_connected: a failed relay must leave a way around it), the one
# "dpctl route get" gives the longest path from SRC; false when none
# has a relay.
fo_pair() {
	local p i=0 n x id ids=("${PF_IDS[@]:1}") a=() len=()
	SRC=${PF_IDS[0]} DST=''
	for id in "${ids[@]}"; do a+=("${PF_ADDR[$id]}"); done
	while read -r p; do
		n=${p//[^,]/}
		len+=("${#n} ${ids[i]}")
		i=$((i + 1))
	done < <(echo "route get ${a[*]} dev dp0" |
		"$DPCTL" -n "$PF_PREFIX$SRC" -j -b - | dpctl_paths)
	while read -r n id; do
		[ "$n" -ge 2 ] || break
		for x in "${PF_IDS[@]}"; do
			[ "$x" != "$SRC" ] && [ "$x" != "$id" ] || continue
			pf_connected "${PF_ADDR[$x]}"
			[ "${PF_LAB[$SRC]}" = "${PF_LAB[$id]}" ] || {
				echo "$SRC -> $id ($((n - 1)) relays): cut by $x's failure"
				continue 2
			}
		done
		DST=$id
		echo "$SRC -> $DST: $((n - 1)) relays (dpctl route get), joined whichever other server fails"
		return 0
	done < <(printf '%s\n' "${len[@]}" | sort -rn -k1,1 -s)
	echo "no pair from $SRC with a relay and a way around each server"
	return 1
}

# fo_ports: $FO_TMP/ports, dp_failover.py's PORTS ("NS IF VETH BRIDGE",
# a line per server port that plugs into a bridge).
fo_ports() {
	local x
	for x in "${!PF_BR[@]}"; do
		echo "$PF_PREFIX${x%/*} p${x#*/} v${x%/*}p${x#*/} ${PF_BR[$x]}"
	done > "$FO_TMP/ports"
}

# fo_relays: a 300 ms stream SRC -> DST, until it is delivered (up to 40
# s: the fabric converging); R its first relay (the one on the bridge of
# SRC's out port), RIN and E R's in and out ports, RELAYS every relay.
fo_relays() {
	local t=$SECONDS sent=0 got=0
	until fo relays 300 "$PF_PREFIX$SRC" "$PF_PREFIX$DST" "$(pf_ip4 "$DST")" \
		"$FO_TMP/ports" && read -r _ sent _ got <<<"${FO_OUT[0]}" &&
		[ "${got:-0}" -ge $((sent * 9 / 10)) ]; do
		[ $((SECONDS - t)) -lt 40 ] || { echo "${FO_OUT[*]}"; return 1; }
		sleep 0.5
	done
	read -r _ R RIN E <<<"${FO_OUT[1]}"
	read -r _ RELAYS <<<"${FO_OUT[2]}"
	R=${R#"$PF_PREFIX"} RELAYS=${RELAYS//$PF_PREFIX/}
	echo "$got of $sent delivered; relays ${RELAYS:-none}; first relay $R"
	[ "$R" != - ]
}

# fo_stream SCENARIO HELLO DEAD: one measured stream, the failure
# SCENARIO (dp_failover.py's: switch, relay, carrier) of the relay the
# stream crosses; a row of the table in ROWS and a KTAP result.
ROWS=()
fo_stream() {
	local h=$2 d=$3 scen bound ceil hold w goal verdict rc=0
	local -A r=()
	case $1 in
	switch) scen="cable, switch side" ;;
	relay) scen="relay dies" ;;
	carrier) scen="cable, carrier lost" ;;
	esac
	bound=$((d + 2 * h))
	ceil=$((10 * bound)) hold=$((2 * bound))
	[ $ceil -ge 1000 ] || ceil=1000
	[ $hold -ge 300 ] || hold=300
	if ! fo stream "$PF_PREFIX$SRC" "$PF_PREFIX$DST" "$(pf_ip4 "$DST")" \
		500 $hold $ceil $hold "$1" "$FO_TMP/ports" ||
	   [[ ${FO_OUT[0]} != result* ]]; then
		ktap_diag "dp_failover.py: ${FO_OUT[*]}"
		ktap_fail "$NAME, $scen, hello $h dead $d: a measured stream"
		return 1
	fi
	for w in ${FO_OUT[0]#result }; do r[${w%%=*}]=${w#*=}; done
	ktap_diag "$scen, hello $h dead $d: ${FO_OUT[0]#result }"
	if [ "${r[relay]}" = - ]; then
		ktap_fail "$NAME, $scen, hello $h dead $d: the stream crosses a relay"
		return 1
	fi
	TTL=$((TTL + r[ttl])) DUP=$((DUP + r[dup]))
	if [ "$1" = carrier ]; then
		goal=0
		[ "${r[lost]}" = 0 ] && verdict=met || verdict=missed
	else
		goal=$bound
		[ "${r[window]}" -le "$bound" ] && verdict=met || verdict=missed
	fi
	w=${r[window]}
	[ "${r[recovered]}" = 1 ] || w=">${r[window]}"
	ROWS+=("$(printf '%-14s %-19s %4s/%-4s %7s %5s %5s %5s  %-6s %6s' \
		"$NAME" "$scen" "$h" "$d" "$w" "${r[lost]}" "$bound" "$goal" \
		"$verdict" "${r[repair_lost]}")")
	[ "${r[recovered]}" = 1 ] && [ "${r[window]}" -lt $ceil ] &&
		[ "${r[tail_ok]}" = 1 ] || rc=1
	ktap_result "$NAME, $scen, hello $h dead $d: the stream recovers (loss window ${r[window]} ms, ceiling $ceil) and flows after the repair" $rc
	return $rc
}

FO_TMP=$(mktemp -d)
defer rm -rf "$FO_TMP"
PF_DIR=$FO_TMP
TTL=0 DUP=0
t_all=$SECONDS
for spec in "${topos[@]}"; do
	if ! fo_words "$spec"; then
		ktap_fail "$spec: a topology of dpillar dcell bcube xdcent s2"
		continue
	fi
	t0=$SECONDS
	IFS=/ read -r h d <<<"${INTERVALS[0]}"
	# shellcheck disable=SC2086 # WORDS: words
	if ! run_here "$NAME: fabric from dpctl plan, dp0 everywhere, hello $h dead $d" \
		pf_up fo- $WORDS -- hello "$h" dead "$d" ||
	   ! run_here "$NAME: the stream from the first server to the farthest crosses a relay" \
		eval 'fo_ports && fo_pair && fo_relays'; then
		pf_destroy
		continue
	fi
	ktap_diag "$NAME: stream $SRC (${PF_ADDR[$SRC]}) -> $DST (${PF_ADDR[$DST]}), relays $RELAYS; the first, $R (${PF_ADDR[$R]}), in by port ${RIN#p}, out by port ${E#p}"
	TTL=0 DUP=0
	for iv in "${INTERVALS[@]}"; do
		IFS=/ read -r h d <<<"$iv"
		if [ "$iv" != "${INTERVALS[0]}" ]; then
			# Hello first, then dead: no neighbour dead for a
			# Hello interval still the old one
			pf_set hello "$h" && pf_set dead "$d" ||
				ktap_diag "$NAME: dpctl set hello $h dead $d failed"
			sleep 1
		fi
		for scen in switch relay carrier; do
			fo_stream $scen "$h" "$d"
		done
	done
	check_eq "$TTL/$DUP" 0/0 "$NAME: no loop: no TTL expired, no frame received twice"
	ktap_diag "$NAME: $((SECONDS - t0)) s"
	pf_destroy
done

ktap_diag "Loss windows: ms of a 1 kHz stream through a relay R while R's out cable"
ktap_diag "or R itself fails; lost: its frames lost; bound: dead + 2 Hellos (hello 10"
ktap_diag "dead 30: 50 ms, BFD's); goal: issue 53's, the bound, or 0 frames lost when"
ktap_diag "R's NIC loses carrier; repair: frames lost when the failure is undone."
ktap_diag "Goals printed, not asserted: under TCG the guest's timers follow the host's load."
ktap_diag "$(printf '%-14s %-19s %9s %7s %5s %5s %5s  %-6s %6s' topology scenario hello/dead "loss ms" lost bound goal verdict repair)"
for row in "${ROWS[@]}"; do ktap_diag "$row"; done
ktap_diag "suite: $((SECONDS - t_all)) s"
run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
