#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fault tolerance on a (4,3) fabric with the default timers (Hello 100 ms,
# dead 300 ms): a failed relay server, a server losing one port, a whole
# switch down.  For each, traffic keeps flowing once the failure is
# noticed, every server relays exactly what dpsim's FTRoute predicts for
# the same failure set, nothing loops, and recovery restores the
# failure-free paths.  Outages are measured and printed, not asserted.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/topo.sh"
. "$(dirname "$0")/fabric.sh"

require_vm
require_root
require_cmd ip jq ethtool ping
[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
[ -x "$DPSIM" ] || ktap_skip_all "dpsim not built"
N=4 K=3
# The default timers; a debug kernel (KASAN, lockdep) under TCG is many
# times slower and sets DPILLAR_DEAD_MS so that Hellos late by scheduling
# alone do not look like failures.
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-300}
SETTLE=$(awk -v d="$DEAD" 'BEGIN { print d / 1000 + 0.7 }')

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer topo_destroy
run_test "($N,$K) fabric up, Hello $HELLO ms, dead $DEAD ms" \
	fabric_up $N $K hello "$HELLO" dead "$DEAD" || ktap_finish
topo_load	# run_test ran fabric_up in a subshell
SERVERS=$(topo_servers)
on() { local a=$1; shift; ip netns exec "$(topo_ns_of "$a")" "$@"; }
sum_stat() { fabric_stats "$1" | awk '{ s += $2 } END { print s + 0 }'; }

# route A B SPEC: dpsim's FTRoute path as JSON for the failure set SPEC
route() { "$DPSIM" route -n $N -k $K --from "$1" --to "$2" ${3:+--fail "$3"} --json; }

# check_path A B SPEC: 4 pings A -> B; every server must relay exactly what
# dpsim predicts for both directions under SPEC (a server appearing twice
# on a path, e.g. after a u-turn, relays twice).
check_path() {
	local a=$1 b=$2 spec=$3 fwd rev s v d want bad=0 f r
	local -A before=() after=()
	f=$(route "$a" "$b" "$spec")
	r=$(route "$b" "$a" "$spec")
	if [ "$(jq .delivered <<<"$f")/$(jq .delivered <<<"$r")" != true/true ]; then
		ktap_diag "dpsim cannot deliver $a <-> $b under '$spec'"
		return 1
	fi
	fwd=$(jq -r '.path[1:-1][]' <<<"$f")
	rev=$(jq -r '.path[1:-1][]' <<<"$r")
	while read -r s v; do before[$s]=$v; done <<<"$(fabric_stats forwarded)"
	on "$a" ping -c 4 -i 0.2 -W 2 "$(fabric_ip4 "$b")" >/dev/null ||
		{ ktap_diag "ping $a -> $b failed"; return 1; }
	while read -r s v; do after[$s]=$v; done <<<"$(fabric_stats forwarded)"
	for s in $SERVERS; do
		d=$((after[$s] - before[$s]))
		want=$((4 * ($(grep -cx "$s" <<<"$fwd") + $(grep -cx "$s" <<<"$rev"))))
		if [ "$d" -ne "$want" ]; then
			ktap_diag "$a -> $b: $s relayed $d, dpsim says $want"
			bad=1
		fi
	done
	ktap_diag "$a -> $b: $(jq .hops <<<"$f") hops ($(jq -r '.phases | join(",")' <<<"$f")), back $(jq .hops <<<"$r")"
	return $bad
}

# outage A B CMD: a 50 ms ping flow A -> B while CMD fails something;
# prints the outage (lost replies x 50 ms).
outage() {
	local a=$1 b=$2 cmd=$3 out sent got
	local pid
	on "$a" ping -i 0.05 -w $((3 + DEAD / 1000)) -W 1 "$(fabric_ip4 "$b")" \
		>/tmp/dpft.ping 2>&1 &
	pid=$!
	sleep 1
	eval "$cmd"
	wait $pid
	out=$(tail -n 2 /tmp/dpft.ping | head -n 1)
	sent=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' <<<"$out")
	got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' <<<"$out")
	echo "$(((sent - got) * 50))"
}

# scenario DESC SPEC FAIL_CMD RESTORE_CMD PAIR...
scenario() {
	local desc=$1 spec=$2 fail=$3 restore=$4 first ms
	shift 4
	first=$1
	# shellcheck disable=SC2086
	ms=$(outage $first "$fail")
	ktap_diag "$desc: outage of the flow ${first/ / -> }: ${ms} ms ($(tail -n 2 /tmp/dpft.ping | head -n 1))"
	# The flow is back: its last pings were answered.
	run_test "$desc: traffic flows again after the dead interval" \
		on ${first%% *} ping -c 2 -i 0.2 -W 2 "$(fabric_ip4 ${first##* })"
	for pair in "$@"; do
		# shellcheck disable=SC2086
		run_test "$desc: $pair relays as dpsim --fail $spec" \
			check_path $pair "$spec"
	done
	eval "$restore"
	sleep $SETTLE
	# shellcheck disable=SC2086
	run_test "$desc: recovered, $first back on its failure-free path" \
		check_path $first ""
}

check_eq "$(sum_stat route_tunnel_hops)/$(sum_stat route_uturns)" 0/0 \
	"no detours before any failure"

scenario "relay server 1:0.0.1 fails" 1:0.0.1 \
	"topo_server_down 1:0.0.1" "topo_server_up 1:0.0.1" \
	"0:0.0.0 2:1.1.1" "2:1.0.0 2:0.1.1" "0:1.0.1 1:0.0.0"

scenario "server 2:0.1.1 loses port 0" 2:0.1.1/0 \
	"topo_port_down 2:0.1.1 0" "topo_port_up 2:0.1.1 0" \
	"0:0.0.0 2:1.1.1" "2:0.1.1 2:1.1.1" "1:0.0.1 2:1.1.1"

sw=$(topo_switch_of 1:0.0.1 0)
scenario "switch $sw goes down" 1:0.0.1/0,1:0.1.1/0,2:0.0.1/1,2:0.1.1/1 \
	"ip -n dpsw link set $sw down" "ip -n dpsw link set $sw up" \
	"0:0.0.0 2:1.1.1" "1:0.0.1 2:0.1.1" "2:0.0.1 1:0.1.1"

check_eq "$(sum_stat drop_ttl)" 0 "no TTL expired anywhere: no loops"
ktap_diag "detours taken: $(sum_stat route_tunnel_hops) tunnel hops, $(sum_stat route_uturns) u-turns, $(sum_stat route_ring_reversals) ring reversals"
run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
