#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DCell fabrics in the test guest: selftests/vm/run-vm.sh -- \
#     selftests/dcell_test.sh [N:K ...]   (default DPILLAR_DCELL_SIZES, else
#     "4:1 2:2").  For each size:
#  - builds the fabric from "dpsim plan --topo dcell --csv": one netns per
#    server (dc-<address>), one bridge per DCell_0 mini-switch in netns
#    dcsw (port 0 of its members), one veth per level-l cable straight
#    between the two servers (port l at both ends);
#  - dp0 (topo dcell) on every server, with its IPv4 and IPv6 addresses;
#  - every ordered pair pings over IPv4 and IPv6;
#  - "dpctl route get" equals dpsim's path for every ordered pair;
#  - failures (a relay server, a cable, a whole DCell_0, a server's port 0
#    and a whole mini-switch with their servers alive; the port 0 again
#    in mode paper): the kernel's delivered/dropped outcome of every live
#    pair equals "dpsim pairs" (--mode paper);
#  - one miswired cable is counted (hello_miswired) at both ends.
. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip python3 ethtool

require_tools
# Dead after 1 s: at 300 ms a loaded TCG host once starved one server's
# Hellos long enough for a neighbour to be declared dead during "route get"
# (seen in a run beside xdcent_test.sh).  The failure waits below round
# up to whole seconds either way.
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || read -r -a sizes <<<"${DPILLAR_DCELL_SIZES:-4:1 2:2}"
SW=dcsw

load_module || ktap_skip_all "no module"

dc_destroy() { ns_del_matching '^(dc-|dcsw)'; }
defer dc_destroy

# dc_index N K: SERVERS (id order), ID[addr], IP4[addr], IP6[addr],
# RACK[addr] (mini-switch), CABLES ("A/l B/l"), from dpsim's plan.
dc_index() {
	local kind sw a ap b bp id
	SERVERS=() CABLES=()
	declare -gA ID=() IP4=() IP6=() RACK=()
	id=0
	while IFS=, read -r kind _ sw a ap b bp; do
		case $kind in
		switch)
			ID[$a]=$id
			RACK[$a]=$sw
			SERVERS+=("$a")
			IP4[$a]=10.$((id >> 16 & 255)).$((id >> 8 & 255)).$((id & 255))
			printf -v "IP6[$a]" 'fd64:7069:6c6c:6172::%x:%x' \
				$((id >> 16)) $((id & 65535))
			id=$((id + 1)) ;;
		cable) CABLES+=("$a/$ap $b/$bp") ;;
		esac
	done < <("$DPSIM" plan --topo dcell -n "$1" -k "$2" --csv | tail -n +2)
	[ ${#SERVERS[@]} -gt 0 ]
}

# dc_build N K: the namespaces, bridges and veths; links up.
dc_build() {
	local n=$1 k=$2 a c l i x nsb='' swb=''
	dc_destroy
	ns_quiet_push
	nsb="netns add $SW"$'\n'
	for a in "${SERVERS[@]}"; do
		nsb+="netns add dc-$a"$'\n'
	done
	for ((c = 0; c < ${#SERVERS[@]} / n; c++)); do
		swb+="link add b$c type bridge stp_state 0 forward_delay 0 mcast_snooping 0"$'\n'
		swb+="link set b$c up"$'\n'
	done
	for a in "${SERVERS[@]}"; do
		swb+="link add v${ID[$a]}p0 type veth peer name p0 netns dc-$a"$'\n'
		swb+="link set v${ID[$a]}p0 master b${RACK[$a]} up"$'\n'
	done
	# A cable is a two-port bridge c<i> (a patch panel): it can fail, or be
	# miswired, on the switch side without touching the servers' ports.
	for ((i = 0; i < ${#CABLES[@]}; i++)); do
		c=${CABLES[i]}
		swb+="link add c$i type bridge stp_state 0 forward_delay 0 mcast_snooping 0"$'\n'
		swb+="link set c$i up"$'\n'
		for x in ${c}; do
			l=${x#*/} a=${x%/*}
			swb+="link add v${ID[$a]}p$l type veth peer name p$l netns dc-$a"$'\n'
			swb+="link set v${ID[$a]}p$l master c$i up"$'\n'
		done
	done
	local rc=0
	printf '%s' "$nsb" | ip -batch - || rc=1
	ip netns exec $SW sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv6.conf.all.disable_ipv6=1 || rc=1
	ip -n $SW link set lo up || rc=1
	printf '%s' "$swb" | ip -n $SW -batch - || rc=1
	ns_quiet_pop
	[ $rc = 0 ] || return 1
	dc_ports up "$k" "${SERVERS[@]}"
}

# dc_ports up|down K ADDR...: lo and p0..pK of each server up or down
# (down: lo stays up), one python3 process.
dc_ports() {
	python3 -S -E "$FABRIC_PY" ports dc- "$@"
}

# dc_dp0 N K: dp0 on every server.
dc_dp0() {
	local n=$1 k=$2 a l ports
	for a in "${SERVERS[@]}"; do
		ports=''
		for ((l = 0; l <= k; l++)); do ports+=" port$l p$l"; done
		# shellcheck disable=SC2086 # ports are words
		"$DPCTL" -n "dc-$a" link add dp0 topo dcell n "$n" \
			k "$k" addr "$a" $ports hello "$HELLO" dead "$DEAD" ||
			return 1
		ip -n "dc-$a" -b - <<-EOF || return 1
		link set dp0 up
		addr add ${IP4[$a]}/32 dev dp0
		route add 10.0.0.0/8 dev dp0
		addr add ${IP6[$a]}/128 dev dp0 nodad
		route add fd64:7069:6c6c:6172::/96 dev dp0
		EOF
	done
}

# dc_ping WANT: ping every ordered pair of live servers over IPv4 and
# IPv6 (one python3, raw ICMP sockets, a few rounds) and compare with
# WANT, a file of "SRC DST delivered|dropped" lines.  Prints mismatches;
# 0 when every pair's outcome (both families) is as wanted.
dc_ping() {
	local want=$1 a
	for a in "${SERVERS[@]}"; do echo "$a ${IP4[$a]} ${IP6[$a]}"; done > "$DC_TMP/ips"
	python3 -S -E "$FABRIC_PY" ping dc- "$DC_TMP/ips" "$want" "${DC_ROUNDS:-4}"
}

# dc_routes N K: dpctl route get equals dpsim's path for every ordered
# pair: one dpctl per source, asking for every destination in turn.
dc_routes() {
	local n=$1 k=$2 s d path cmp=0 bad=0
	local -A want=() dsts=()
	while read -r s d _ _ path; do
		want["$s $d"]=$path
		dsts[$s]+=" $d"
	done < <("$DPSIM" pairs --topo dcell -n "$n" -k "$k")
	for s in "${SERVERS[@]}"; do
		read -r -a d <<<"${dsts[$s]}"
		route_get_cmp "dc-$s" "$s" "" "${d[@]}"
	done
	echo "$cmp pairs compared, $bad differ"
	[ $bad = 0 ]
}

# dc_fail_case N K DESC SPEC ADDR...: take the servers ADDR (or, for
# A/l, the cable on port l of A) down, compare every live pair with
# "dpsim pairs --fail SPEC" until equal (Hellos must expire first), then
# repair and wait for every pair again.
dc_fail_check() {
	local n=$1 k=$2 spec=$3 t0=$SECONDS
	"$DPSIM" pairs --topo dcell -n "$n" -k "$k" --fail "$spec" \
		${DC_MODE:+--mode "$DC_MODE"} > "$DC_TMP/want" || return 1
	echo "dpsim: $(grep -c ' delivered ' "$DC_TMP/want") delivered, $(grep -c ' dropped ' "$DC_TMP/want") dropped"
	# Until the Hellos time out, the kernel still routes into the failure.
	sleep $(( (DEAD + 999) / 1000 + 1 ))
	until dc_ping "$DC_TMP/want" > "$DC_TMP/out"; do
		if [ $((SECONDS - t0)) -gt 30 ]; then
			cat "$DC_TMP/out"
			return 1
		fi
	done
	tail -n 1 "$DC_TMP/out"
}

# dc_links up|down K X...: the switch-side veths of X (ADDR: all its
# ports, ADDR/l: port l), one ip process.
dc_links() {
	local how=$1 k=$2 x l b=''
	shift 2
	for x in "$@"; do
		case $x in
		*/*) b+="link set v${ID[${x%/*}]}p${x#*/} $how"$'\n' ;;
		*) for ((l = 0; l <= k; l++)); do
			b+="link set v${ID[$x]}p$l $how"$'\n'
		   done ;;
		esac
	done
	printf '%s' "$b" | ip -n $SW -batch -
}

dc_fail() {
	local n=$1 k=$2 spec=$3 rc=0
	shift 3
	dc_links down "$k" "$@" || return 1
	dc_fail_check "$n" "$k" "$spec" || rc=1
	dc_links up "$k" "$@" || return 1
	sleep 1
	DC_ROUNDS=10 dc_ping "$DC_TMP/all" > "$DC_TMP/out" || { cat "$DC_TMP/out"; rc=1; }
	return $rc
}

# dc_paper N K SPEC X...: dc_fail with every server in mode paper (the
# header's bit 6: relays keep the former rules, no cable entry), compared
# with "dpsim pairs --mode paper"; back to the default mode after.
dc_paper() {
	local a rc=0
	for a in "${SERVERS[@]}"; do
		"$DPCTL" -n "dc-$a" set dp0 mode paper || return 1
	done
	DC_MODE=paper dc_fail "$@" || rc=1
	for a in "${SERVERS[@]}"; do
		"$DPCTL" -n "dc-$a" set dp0 mode dfr || return 1
	done
	return $rc
}

# dc_miswire N K: swap the far ends of two cables of the same level on
# their patch bridges; the Hellos that now arrive from the wrong server
# are counted (hello_miswired) at the near ends.
dc_miswire() {
	local i j=-1 a b c d m1='' m2='' x
	i=0
	a=${CABLES[0]%% *} b=${CABLES[0]#* }
	for ((x = ${#CABLES[@]} - 1; x > 0; x--)); do
		c=${CABLES[x]%% *}
		[ "${c#*/}" = "${a#*/}" ] && { j=$x; break; }
	done
	[ $j -gt 0 ] || { echo "no second cable of level ${a#*/}"; return 1; }
	c=${CABLES[j]%% *} d=${CABLES[j]#* }
	ip -n $SW -b - <<-EOF || return 1
	link set v${ID[${a%/*}]}p${a#*/} master c$j
	link set v${ID[${c%/*}]}p${c#*/} master c$i
	EOF
	echo "moved: $a now meets $d, $c now meets $b"
	miswired() {
		m1=$(ip netns exec "dc-${a%/*}" ethtool -S dp0 | awk '$1 == "hello_miswired:" { print $2 }')
		m2=$(ip netns exec "dc-${d%/*}" ethtool -S dp0 | awk '$1 == "hello_miswired:" { print $2 }')
		[ "${m1:-0}" -gt 0 ] && [ "${m2:-0}" -gt 0 ]
	}
	wait_for 10 miswired
	local rc=$?
	echo "hello_miswired: ${a%/*} ${m1:-0}, ${d%/*} ${m2:-0}"
	return $rc
}

DC_TMP=$(mktemp -d)
defer rm -rf "$DC_TMP"
for size in "${sizes[@]}"; do
	N=${size%:*} K=${size#*:}
	if ! dc_index "$N" "$K"; then
		ktap_fail "DCell($N,$K): dpsim plan"
		continue
	fi
	NSRV=${#SERVERS[@]}
	t0=$SECONDS
	run_test "DCell($N,$K): $NSRV servers, $((NSRV / N)) mini-switches, ${#CABLES[@]} cables built from dpsim plan" \
		dc_build "$N" "$K" || continue
	run_test "DCell($N,$K): dp0 (topo dcell) on every server" dc_dp0 "$N" "$K" || continue
	if ! "$DPSIM" pairs --topo dcell -n "$N" -k "$K" > "$DC_TMP/all" ||
	   [ "$(wc -l < "$DC_TMP/all")" != $((NSRV * (NSRV - 1))) ]; then
		ktap_fail "DCell($N,$K): dpsim pairs"
		continue
	fi
	up() {
		local t=$SECONDS
		until DC_ROUNDS=10 dc_ping "$DC_TMP/all" > "$DC_TMP/out"; do
			[ $((SECONDS - t)) -lt 40 ] || { cat "$DC_TMP/out"; return 1; }
		done
		tail -n 1 "$DC_TMP/out"
	}
	run_test "DCell($N,$K): all $((NSRV * (NSRV - 1))) ordered pairs ping over IPv4 and IPv6" up
	run_test "DCell($N,$K): dpctl route get equals dpsim's path for every ordered pair" \
		dc_routes "$N" "$K"
	# a relay: the far end of the first cable of server 0's DCell_0
	relay=${CABLES[0]#* }
	relay=${relay%/*}
	run_test "DCell($N,$K): server $relay down: every live pair as dpsim says" \
		dc_fail "$N" "$K" "$relay" "$relay"
	cab=${CABLES[-1]%% *}
	run_test "DCell($N,$K): cable ${CABLES[-1]} down: every pair as dpsim says" \
		dc_fail "$N" "$K" "$cab" "$cab"
	rack=()
	for a in "${SERVERS[@]}"; do
		[ "${RACK[$a]}" = 1 ] && rack+=("$a")
	done
	spec=$(IFS=,; echo "${rack[*]}")
	run_test "DCell($N,$K): DCell_0 1 (${rack[*]}) down: every live pair as dpsim says" \
		dc_fail "$N" "$K" "$spec" "${rack[@]}"
	# Cable entry (dpillar.rst, "DCell"): a server unheard on its
	# mini-switch, alive, is reached through its level cables.
	run_test "DCell($N,$K): ${rack[1]}'s port 0 (its mini-switch link) down: every pair as dpsim says" \
		dc_fail "$N" "$K" "${rack[1]}/0" "${rack[1]}/0"
	spec=$(printf '%s/0,' "${rack[@]}")
	run_test "DCell($N,$K): DCell_0 1's mini-switch down (port 0 of ${rack[*]}), its servers alive: every pair as dpsim says" \
		dc_fail "$N" "$K" "${spec%,}" "${rack[@]/%//0}"
	run_test "DCell($N,$K): mode paper, ${rack[1]}'s port 0 down: every pair as dpsim --mode paper says" \
		dc_paper "$N" "$K" "${rack[1]}/0" "${rack[1]}/0"
	run_test "DCell($N,$K): a miswired cable is counted at both ends" \
		dc_miswire "$N" "$K"
	ktap_diag "DCell($N,$K): $((SECONDS - t0)) s"
	dc_destroy
done
ktap_finish
