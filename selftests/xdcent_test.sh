#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDCent and BCube fabrics in the test guest: selftests/vm/run-vm.sh -- \
#     selftests/xdcent_test.sh [TOPO:N:K[:I][:link] ...]   (default
#     DPILLAR_XDCENT_SIZES, else "xdcent:3:2:2 bcube:3:1 xdcent:3:1:2:link").
# A table for plan_fabric.sh's pf_size: for each size the fabric from
# "dpctl plan" (one netns per server, xc-<node id>; one bridge per switch,
# the members' port of that level; a free (growth) port's veth plugged
# into nothing), dp0 (topo xdcent or bcube) on every server, every
# ordered pair pings over IPv4 and IPv6, "dpctl route get" equals dpsim's
# path for every ordered pair in every routing mode (hash, paper, near,
# rot and each parallel path pM), and the cases of xc_cases, each
# compared with "dpsim pairs" pair by pair:
#  - path selection: "dpctl route probe" finds a broken parallel path and
#    flows leave it (xc_probe);
#  - a relay server, a server-switch link down: with the link down, dpsim
#    delivers every pair the fabric still connects (pf_connected), and
#    says how many pairs of the link's switch mates go around it; on
#    XDCent(3,1,2), two links down where XDCent's routing drops pairs:
#    the discovery fallback delivers them, and with "fallback off" on
#    every server no discovery starts (xc_fallback_off).
# A size ending in ":link" is a cheaper pass: the fabric, every pair's
# pings, and the link only (no route comparison, probe or relay).  Its
# default, XDCent(3,1,2): with k = 1 one BCube level, so a server whose
# port-0 link is down is reached by its switch mates only through a spare
# port (xdc_dst_entry(), xdc_spare_sideways() in topo_xdcent.c).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"
require_vm; require_root; require_cmd ip python3 jq ethtool ping; require_tools
# A dead interval of 1 s: under TCG, 27 servers' Hellos can starve for 300 ms.
# shellcheck disable=SC2034 # pf_size reads them
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000} PF_DIAG=xc_sc_diag
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] ||
	read -r -a sizes <<<"${DPILLAR_XDCENT_SIZES:-xdcent:3:2:2 bcube:3:1 xdcent:3:1:2:link}"

# xc_cases: this size's modes and cases, from its plan: SERVERS
# (addresses in id order), NSRV, NPORTS.
xc_cases() {
	local id m relay link two
	SERVERS=()
	for id in "${PF_IDS[@]}"; do SERVERS+=("${PF_ADDR[$id]}"); done
	NSRV=${#SERVERS[@]} NPORTS=$PF_NPORTS PF_MODES=none PF_CASES=()
	if [ "$ONLY" != link ]; then
		PF_MODES="hash paper near rot"
		for ((m = 0; m < NPORTS; m++)); do PF_MODES+=" p$m"; done
		relay=${SERVERS[NSRV / 2]}
		PF_CASES+=("route probe and path selection move flows off a broken path|@xc_probe"
			"server $relay down|$relay")
	fi
	# Server 1's port 0: its switch mates include server 0 (with k = 1,
	# only a spare port goes around it).  DPILLAR_XDCENT_ONE_LINK=0
	# leaves this case out (the debug kernel's make check: 100-130 s
	# there; the spare-port walk is the routing core's, which KUnit and
	# the fuzzers' ASan/UBSan builds run, and the Hello expiry of a link
	# is the two-link case's too).
	if [ "${DPILLAR_XDCENT_ONE_LINK:-1}" = 1 ]; then
		link="${SERVERS[1]}/0"
		xc_mates "$link"
		ktap_diag "$NAME: link $link down: dpsim: $(wc -w <<<"$XC_MATES") pairs of its switch mates go around it: $XC_MATES"
		PF_CASES+=("link $link down, every connected pair delivered|$link|connected")
	fi
	# The discovery fallback (shortcut.c): on (3,1,2) these two links
	# down make XDCent's routing drop 162 connected pairs (dpsim, hash
	# 0); the fallback delivers every connected pair.
	[ "$NAME" = "xdcent(3,1,2)" ] || return 0
	two="1.0.2/1,2.1.2/1"
	PF_CASES+=("links ${two/,/ and } down: XDCent's routing alone drops pairs, the discovery fallback delivers every connected pair, as dpsim --discover says|$two|fallback")
	# DPILLAR_XDCENT_FALLBACK_OFF=0 leaves this case out (the debug
	# kernel's make check: 75 s on 6.12, its setting path is
	# dpillar_link.sh's and dpillar_hostile.sh's there).
	[ "${DPILLAR_XDCENT_FALLBACK_OFF:-1}" = 1 ] &&
		PF_CASES+=("the same links down, fallback off on every server: no discovery, no shortcut frame; on again: every connected pair delivered|@xc_fallback_off $two ${two%,*} ${two#*,}")
	return 0
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
	done < <("$DPSIM" pairs "${PF_OPTS[@]}" --fail "$1" --no-discover)
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
	pf_set fallback off || return 1
	pf_links_at down "$@" || return 1
	sleep $(( (DEAD + 999) / 1000 + 1 ))
	pf_connected "$spec"
	pf_want_connected > "$PF_DIR/conn"
	read -r d0 c0 < <(xc_sc_counts)
	pf_ping "$PF_DIR/conn" 2 > "$PF_DIR/out"
	read -r d1 c1 < <(xc_sc_counts)
	echo "fallback off: $(tail -n 1 "$PF_DIR/out") (against every connected pair delivered); $((d1 - d0)) discoveries, $((c1 - c0)) frames on shortcuts"
	[ "$d1" = "$d0" ] && [ "$c1" = "$c0" ] || rc=1
	pf_set fallback on || rc=1
	t0=$SECONDS
	pf_ping_until "$t0" "$PF_DIR/conn" "$PF_DIR/out" ||
		{ rc=1; xc_sc_diag "$PF_DIR/out"; }
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
		rel[m]=" $("$DPSIM" route "${PF_OPTS[@]}" --from "$s" --to "$dst" \
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

# shellcheck disable=SC2034 # pf_size reads them
PF_CASES_FN=xc_cases
pf_begin
for size in "${sizes[@]}"; do
	IFS=: read -r TOPO N K I ONLY <<<"$size"
	[ "$I" != link ] || I='' ONLY=link
	# shellcheck disable=SC2034
	PF_TOPO=(topo "$TOPO" n "$N" k "$K" ${I:+level "$I"})
	PF_OPTS=(--topo "$TOPO" -n "$N" -k "$K" ${I:+-i "$I"})
	NAME="$TOPO($N,$K${I:+,$I})"
	pf_size "$NAME" xc-
done
pf_end
