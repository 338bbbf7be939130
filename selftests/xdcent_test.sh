#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDCent and BCube fabrics in the test guest: selftests/vm/run-vm.sh -- \
#     selftests/xdcent_test.sh [TOPO:N:K[:I][:link] ...]   (default
#     DPILLAR_XDCENT_SIZES, else "xdcent:3:2:2 bcube:3:1 xdcent:3:1:2:link").
# For each:
#  - builds the fabric with plan_fabric.sh from "dpctl plan": one netns
#    per server (xc-<node id>), one bridge per switch in netns pfsw (the
#    members' port of that level), a veth per port; a free (growth) port
#    gets a veth plugged into nothing;
#  - dp0 (topo xdcent or bcube) on every server, IPv4 and IPv6 addresses;
#  - every ordered pair pings over IPv4 and IPv6;
#  - "dpctl route get" equals dpsim's path for every ordered pair in every
#    routing mode (hash, paper, near, rot and each parallel path pM);
#  - path selection: "dpctl route probe" finds a broken parallel path and
#    flows leave it (xc_probe);
#  - failures (a relay server, a server-switch link): the kernel's
#    delivered/dropped outcome of every live pair equals "dpsim pairs";
#    with the link down, dpsim delivers every pair the fabric still
#    connects (pf_connected), and says how many pairs of the link's switch
#    mates go around it; on XDCent(3,1,2), two links down where XDCent's
#    routing drops pairs: the discovery fallback delivers them, and with
#    "fallback off" on every server no discovery starts.
# A size ending in ":link" is a cheaper pass: the fabric, every pair's
# pings, and the link only (no route comparison, probe or relay).  Its
# default, XDCent(3,1,2): with k = 1 one BCube level, so a server whose
# port-0 link is down is reached by its switch mates only through a spare
# port (xdc_dst_entry(), xdc_spare_sideways() in topo_xdcent.c).
. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip python3 jq ethtool ping

require_tools
# A dead interval of 1 s: under TCG, 27 servers' Hellos can starve for 300 ms.
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] ||
	read -r -a sizes <<<"${DPILLAR_XDCENT_SIZES:-xdcent:3:2:2 bcube:3:1 xdcent:3:1:2:link}"

load_module || ktap_skip_all "no module"

. "$(dirname "$0")/plan_fabric.sh"
defer pf_destroy

# xc_plan WORDS...: pf_plan and pf_bridges, and SERVERS (addresses in id
# order), NPORTS, NSW (switch bridges).
xc_plan() {
	local id
	pf_plan xc- "$@" && pf_bridges || return 1
	SERVERS=()
	for id in "${PF_IDS[@]}"; do SERVERS+=("${PF_ADDR[$id]}"); done
	NPORTS=$PF_NPORTS NSW=${#PF_SWITCH[@]}
}

# xc_routes: for every routing mode, dpctl route get equals dpsim's path
# for every ordered pair (one dpctl per source for every mode).
xc_routes() {
	local mode s d path cmp=0 bad=0
	local -A want=() dsts=()
	for mode in $MODES; do
		while read -r s d _ _ path; do
			want["$mode $s $d"]=$path
			[ "$mode" != hash ] || dsts[$s]+=" $d"
		done < <("$DPSIM" pairs "${OPTS[@]}" --mode "$mode")
	done
	for s in "${SERVERS[@]}"; do
		read -r -a d <<<"${dsts[$s]}"
		route_get_cmp "xc-${PF_ID[$s]}" "$s" "$MODES" "${PF_ID[$s]}" want "${d[@]}"
		cmp=$((cmp + RG_CMP)) bad=$((bad + RG_BAD))
	done
	echo "$cmp (mode, pair) compared over modes $MODES, $bad differ"
	[ $bad = 0 ]
}

# xc_fail SPEC X...: X down, every live pair as "dpsim pairs --fail SPEC
# --discover" (the kernel's discovery fallback where XDCent's routing
# gives up) says, after the Hellos expire, then repaired and every pair
# again.  With XC_ALL=1, XDCent's own routing (dpsim without the
# fallback) must also deliver every pair the failure leaves connected
# (pf_connected).
xc_fail() {
	local spec=$1 rc=0 t0=$SECONDS n nd
	shift
	pf_links_at down "$@" || return 1
	"$DPSIM" pairs "${OPTS[@]}" --fail "$spec" --discover > "$XC_TMP/want" || rc=1
	n=$("$DPSIM" pairs "${OPTS[@]}" --fail "$spec" --no-discover | grep -c ' delivered ')
	nd=$(grep -c ' delivered ' "$XC_TMP/want")
	pf_connected "$spec"
	echo "dpsim: XDCent's routing delivers $n, with the fallback $nd (dropped $(grep -c ' dropped ' "$XC_TMP/want")); $PF_CONN pairs connected"
	if [ "${XC_ALL:-0}" = 1 ] && [ "$n" != "$PF_CONN" ]; then
		echo "dpsim does not deliver every connected pair"
		rc=1
	fi
	# XC_CONN=1: a case for the fallback: XDCent alone must drop some
	# connected pair, and with the fallback dpsim must deliver them all.
	if [ "${XC_CONN:-0}" = 1 ] &&
	   { [ "$n" -ge "$PF_CONN" ] || [ "$nd" != "$PF_CONN" ]; }; then
		echo "not a case for the fallback: XDCent delivers $n, with it $nd, $PF_CONN connected"
		rc=1
	fi
	sleep $(( (DEAD + 999) / 1000 + 1 ))
	pf_ping_until "$t0" "$XC_TMP/want" "$XC_TMP/out" ||
		{ rc=1; xc_sc_diag "$XC_TMP/out"; }
	pf_links_at up "$@" || return 1
	sleep 1
	pf_ping "$XC_TMP/all" 10 > "$XC_TMP/out" || { cat "$XC_TMP/out"; rc=1; }
	return $rc
}

# xc_mates ADDR/PORT: XC_MATES, the pairs between ADDR and the others on
# that port's switch that "dpsim pairs --fail ADDR/PORT" delivers in more
# than one hop (around the failed link), as "SRC>DST:HOPS" words.
xc_mates() {
	local a=${1%/*} b m s d w h
	local -A mate=()
	b=${PF_BR[${PF_ID[$a]}/${1#*/}]}
	XC_MATES=''
	for m in "${!PF_BR[@]}"; do
		[ "${PF_BR[$m]}" != "$b" ] || mate[${PF_ADDR[${m%/*}]}]=1
	done
	while read -r s d w h _; do
		if [ "$w" != delivered ] || [ "$h" -le 1 ]; then
			continue
		elif [ "$s" = "$a" ]; then
			m=$d
		elif [ "$d" = "$a" ]; then
			m=$s
		else
			continue
		fi
		[ -z "${mate[$m]:-}" ] || XC_MATES+="${XC_MATES:+ }$s>$d:$h"
	done < <("$DPSIM" pairs "${OPTS[@]}" --fail "$1" --no-discover)
}

# xc_stats: every server's counters (ethtool -S dp0), one after another.
xc_stats() {
	local id
	for id in "${PF_IDS[@]}"; do
		ip netns exec "$PF_PREFIX$id" ethtool -S dp0
	done
}

# xc_detours: the detour hops taken so far, summed over every server.
xc_detours() {
	xc_stats | awk '/ (sideways_hops|word_switches):/ { s += $2 }
		END { print s + 0 }'
}

# xc_fallback on|off: the discovery fallback of every server (DEV_SET),
# one dpctl for them all.
xc_fallback() {
	local id b=''
	for id in "${PF_IDS[@]}"; do
		b+="-n $PF_PREFIX$id set dp0 fallback $1"$'\n'
	done
	printf '%s' "$b" | "$DPCTL" -b -
}

# xc_sc_counts: the discoveries started and the frames sent or relayed on
# a shortcut so far, summed over every server.
xc_sc_counts() {
	xc_stats | awk '$1 == "shortcut_discover:" { d += $2 }
		$1 == "shortcut_data:" { c += $2 }
		END { print d + 0, c + 0 }'
}

# xc_sc_counts_all: every non-zero shortcut and route counter, summed
# over the servers, on one line.
xc_sc_counts_all() {
	xc_stats | awk '$1 ~ /^(shortcut|route)_/ && $2 > 0 { s[$1] += $2 }
		END { for (k in s) printf "%s %d ", k, s[k]; print "" }'
}

# xc_sc_diag OUT: after a failed pf_ping_until (its output OUT), what a
# reader needs: the counters, and the shortcut tables of the servers of
# the first pair that failed.
xc_sc_diag() {
	local s d
	echo "counters: $(xc_sc_counts_all)"
	read -r s _ d _ < <(grep -m 1 ' -> ' "$1")
	for s in $s $d; do
		[ -n "${PF_ID[$s]:-}" ] || continue
		echo "shortcuts of $s:"
		"$DPCTL" -n "$PF_PREFIX${PF_ID[$s]}" shortcut
	done
}

# xc_fallback_off SPEC X...: X down with the discovery fallback off on
# every server ("dpctl set dp0 fallback off"): XDCent's routing alone.
# While every pair SPEC leaves connected is pinged, not one discovery
# starts and not one frame goes on a shortcut (those learned in the case
# before may still be in the tables: unused).  Then the fallback on
# again, X still down: every connected pair delivered.  Which pairs
# XDCent drops depends on the flow hashes of the pings, which dpsim
# cannot know (its 162 are for hash 0): printed, not asserted.
xc_fallback_off() {
	local spec=$1 rc=0 t0 d0 c0 d1 c1
	shift
	xc_fallback off || return 1
	pf_links_at down "$@" || return 1
	sleep $(( (DEAD + 999) / 1000 + 1 ))
	pf_connected "$spec"
	pf_want_connected > "$XC_TMP/conn"
	read -r d0 c0 < <(xc_sc_counts)
	pf_ping "$XC_TMP/conn" 2 > "$XC_TMP/out"
	read -r d1 c1 < <(xc_sc_counts)
	echo "fallback off: $(tail -n 1 "$XC_TMP/out") (against every connected pair delivered); $((d1 - d0)) discoveries, $((c1 - c0)) frames on shortcuts"
	[ "$d1" = "$d0" ] && [ "$c1" = "$c0" ] || rc=1
	xc_fallback on || rc=1
	t0=$SECONDS
	pf_ping_until "$t0" "$XC_TMP/conn" "$XC_TMP/out" ||
		{ rc=1; xc_sc_diag "$XC_TMP/out"; }
	pf_links_at up "$@" || return 1
	sleep 1
	return $rc
}

# xc_probe_json S D: dpctl route probe from S to D as one line of
# "path:alive:avoided" words (avoided "-" when D is not followed).
xc_probe_json() {
	"$DPCTL" -n "xc-${PF_ID[$1]}" -j route probe "$2" timeout 500 |
		jq -r '[.[0].paths[] | "\(.path):\(.alive):\(if has("avoided")
			then .avoided else "-" end)"] |
			join(" ")'
}

# xc_probe: path selection.  From the first server to the last, find a
# relay R on one parallel path M only (dpsim --mode pM), not next to the
# first server where there is one (BCube (n,1) has none); route probe
# finds every path alive; with R's links down it finds path M failed and
# path selection avoids it (the time it took is printed); then the paths
# of 16 flow hashes (route trace) cross none of path M's own relays, and
# 16 ping flows are all answered.
xc_probe() {
	local s=${SERVERS[0]} dst=${SERVERS[NSRV - 1]} m o r="" pm=-1 got
	local -a rel=()
	local t0 ms pid i x rc=0
	local far=0 first
	for ((m = 0; m < NPORTS; m++)); do
		rel[m]=" $("$DPSIM" route "${OPTS[@]}" --from "$s" --to "$dst" \
			--mode "p$m" --json | jq -r '.path[1:-1] | join(" ")') "
	done
	# Best a relay the source is not cabled to: next to the source, the
	# source's own hop-by-hop routing goes around it with no detour hop
	# at all, and the flows check below could not tell path selection
	# from no path selection.
	for first in 0 1; do
		for ((m = 0; m < NPORTS && pm < 0; m++)); do
			for r in ${rel[m]}; do
				[ $first = 1 ] || [ "$r" != "$(awk '{ print $1 }' <<<"${rel[m]}")" ] ||
					continue
				for ((o = 0; o < NPORTS; o++)); do
					[ $o = $m ] || [[ ${rel[o]} != *" $r "* ]] || continue 2
				done
				pm=$m far=$((1 - first))
				break
			done
		done
		[ $pm -lt 0 ] || break
	done
	if [ $pm -lt 0 ]; then
		echo "no relay on one parallel path only from $s to $dst"
		return 1
	fi
	got=$(xc_probe_json "$s" "$dst")
	echo "path $pm crosses $r; before: $got"
	for ((m = 0; m < NPORTS; m++)); do
		[[ " $got " == *" $m:true:"* ]] || { echo "path $m not alive"; return 1; }
	done
	# Traffic to d, so that path selection follows it.
	ip netns exec "xc-${PF_ID[$s]}" ping -q -i 0.2 -w 120 \
		"$(pf_ip4 "${PF_ID[$dst]}")" >/dev/null 2>&1 &
	pid=$!
	sleep 2
	pf_links_at down "$r" || return 1
	t0=$(date +%s%N)
	until got=$(xc_probe_json "$s" "$dst"); [[ " $got " == *" $pm:false:true "* ]]; do
		if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 30000 ]; then
			echo "path $pm never avoided: $got"
			rc=1
			break
		fi
		sleep 0.1
	done
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	echo "after $r down: $got (avoided after $ms ms; probe interval $DEAD ms)"
	# The other paths alive and in use (three tries: one probe lost to a
	# busy TCG host is not a failed path).
	for i in 1 2 3; do
		o=0
		for ((m = 0; m < NPORTS; m++)); do
			[ $m = $pm ] || [[ " $got " == *" $m:true:false "* ]] ||
				o=$((o + 1))
		done
		[ $o = 0 ] && break
		echo "try $i: $o other paths not alive and in use: $got"
		"$DPCTL" -n "xc-${PF_ID[$s]}" route probe "$dst" timeout 2000
		sleep 1
		got=$(xc_probe_json "$s" "$dst")
	done
	[ $o = 0 ] || { echo "other paths should be alive and in use"; rc=1; }
	if [ $far = 0 ]; then
		echo "every such relay is next to $s: flows not checked"
	else
		xc_flows || rc=1
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pf_links_at up "$r" || return 1
	sleep $(( DEAD / 1000 + 1 ))
	return $rc
}

# xc_flows (xc_probe's locals): with path pm avoided, 16 flow hashes
# traced cross none of its own relays, 16 ping flows are answered.
xc_flows() {
	local x o i rc=0 only=''
	# The relays of path pm only (r is down): no flow may cross them.
	for x in ${rel[pm]}; do
		[ "$x" != "$r" ] || continue
		for ((o = 0; o < NPORTS; o++)); do
			[ $o = $pm ] || [[ ${rel[o]} != *" $x "* ]] || continue 2
		done
		only+=" $x"
	done
	# 16 flow hashes traced (route trace routes as dp_xmit does, path
	# selection included), and 16 ping flows (16 ICMP ids) answered.
	local -a flows=() tr
	for ((i = 0; i < 16; i++)); do
		read -r -a tr <<<"$("$DPCTL" -n "xc-${PF_ID[$s]}" -j route trace \
			"$dst" hash $((i * 4099)) timeout 1000 |
			jq -r '.[0] | ([.hops[] | .addr // "*"] | join(" ")) +
				" " + (.delivered | tostring)')"
		for x in $only; do
			[[ " ${tr[*]} " != *" $x "* ]] ||
				{ echo "hash $((i * 4099)) crosses $x: ${tr[*]}"; rc=1; }
		done
		[ "${tr[-1]}" = true ] || { echo "hash $((i * 4099)) not delivered: ${tr[*]}"; rc=1; }
		ip netns exec "xc-${PF_ID[$s]}" ping -q -c 3 -i 0.2 -W 2 \
			"$(pf_ip4 "${PF_ID[$dst]}")" >/dev/null 2>&1 &
		flows+=($!)
	done
	for i in "${flows[@]}"; do
		wait "$i" || { echo "a ping flow lost packets"; rc=1; }
	done
	echo "16 flow hashes traced around path $pm's relays${only}; detour hops: $(xc_detours)"
	return $rc
}

XC_TMP=$(mktemp -d)
defer rm -rf "$XC_TMP"
PF_DIR=$XC_TMP
for size in "${sizes[@]}"; do
	IFS=: read -r TOPO N K I ONLY <<<"$size"
	[ "$I" != link ] || I='' ONLY=link
	OPTS=(--topo "$TOPO" -n "$N" -k "$K")
	[ -z "$I" ] || OPTS+=(-i "$I")
	NAME="$TOPO($N,$K${I:+,$I})"
	if ! xc_plan topo "$TOPO" n "$N" k "$K" ${I:+level "$I"}; then
		ktap_fail "$NAME: dpctl plan"
		continue
	fi
	NSRV=${#SERVERS[@]}
	t0=$SECONDS
	MODES="hash paper near rot"
	for ((m = 0; m < NPORTS; m++)); do MODES+=" p$m"; done
	run_test "$NAME: $NSRV servers, $NSW switch bridges built from dpctl plan" \
		pf_make || continue
	run_test "$NAME: dp0 (topo $TOPO) on every server" \
		pf_dp0 hello "$HELLO" dead "$DEAD" || continue
	if ! "$DPSIM" pairs "${OPTS[@]}" > "$XC_TMP/all" ||
	   [ "$(wc -l < "$XC_TMP/all")" != $((NSRV * (NSRV - 1))) ]; then
		ktap_fail "$NAME: dpsim pairs"
		continue
	fi
	up() {
		local t=$SECONDS
		until pf_ping "$XC_TMP/all" 10 > "$XC_TMP/out"; do
			[ $((SECONDS - t)) -lt 40 ] || { cat "$XC_TMP/out"; return 1; }
		done
		tail -n 1 "$XC_TMP/out"
	}
	run_test "$NAME: all $((NSRV * (NSRV - 1))) ordered pairs ping over IPv4 and IPv6" up
	if [ "$ONLY" != link ]; then
		run_test "$NAME: dpctl route get equals dpsim's path for every ordered pair in every mode" \
			xc_routes
		run_test "$NAME: route probe and path selection move flows off a broken path" \
			xc_probe
		relay=${SERVERS[NSRV / 2]}
		run_test "$NAME: server $relay down: every live pair as dpsim says" \
			xc_fail "$relay" "$relay"
	fi
	# Server 1's port 0: its switch mates include server 0 (with k = 1,
	# only a spare port goes around it).  DPILLAR_XDCENT_ONE_LINK=0
	# leaves this case out (the debug kernel's make check: 100-130 s
	# there; the spare-port walk is the routing core's, which KUnit and
	# the fuzzers' ASan/UBSan builds run, and the Hello expiry of a link
	# is the two-link case's too).
	if [ "${DPILLAR_XDCENT_ONE_LINK:-1}" = 1 ]; then
		link="${SERVERS[1]}/0"
		pf_connected "$link"
		xc_mates "$link"
		ktap_diag "$NAME: link $link down: dpsim: $(wc -w <<<"$XC_MATES") pairs of its switch mates go around it: $XC_MATES"
		XC_ALL=1 run_test "$NAME: link $link down: every pair as dpsim says, all $PF_CONN connected delivered" \
			xc_fail "$link" "$link"
	fi
	# The discovery fallback (shortcut.c): on (3,1,2) these two links
	# down make XDCent's routing drop 162 connected pairs (dpsim, hash
	# 0); the fallback delivers every connected pair.
	if [ "$NAME" = "xdcent(3,1,2)" ]; then
		two="1.0.2/1,2.1.2/1"
		pf_connected "$two"
		XC_CONN=1 run_test "$NAME: links ${two/,/ and } down: XDCent's routing alone drops pairs, the discovery fallback delivers all $PF_CONN connected, as dpsim --discover says" \
			xc_fail "$two" "${two%,*}" "${two#*,}"
		# DPILLAR_XDCENT_FALLBACK_OFF=0 leaves this case out (the debug
		# kernel's make check: 75 s on 6.12, its setting path is
		# dpillar_link.sh's and dpillar_hostile.sh's there).
		if [ "${DPILLAR_XDCENT_FALLBACK_OFF:-1}" = 1 ]; then
			run_test "$NAME: the same links down, fallback off on every server: no discovery, no shortcut frame; on again: every connected pair delivered" \
				xc_fallback_off "$two" "${two%,*}" "${two#*,}"
		fi
	fi
	ktap_diag "$NAME: $((SECONDS - t0)) s"
	pf_destroy
done
ktap_finish
