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
#    flows leave it (pf_probe, plan_fabric.sh);
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
# shellcheck disable=SC2034 # pf_probe prints them
PF_DETOURS='sideways_hops|word_switches'
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
		PF_CASES+=("route probe and path selection move flows off a broken path|@pf_probe"
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
