# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# One fabric builder for every topology, from its plan: "dpctl -j plan
# WORDS" (the same words as "dpctl link add") says which server port goes
# to which switch or cable, dp_fabric.py turns that into an ip batch
# file, and this file runs it: one network namespace per server
# (PREFIX<node id>), one namespace of Linux bridges for the switches and
# cables (a cable is a two-port bridge c<i>, so it can fail or be
# miswired on the switch side), a veth per server port (p<port> in the
# server, v<id>p<port> among the switches).  Used by the demo (every
# topology), dpillar_probe.sh, dcell_test.sh, xdcent_test.sh, the
# test fixtures' suites, failover_test.sh (all five topologies, pf_up),
# s2_test.sh (both modes, with PF_DIRECT) and, through
# fabric.sh, the DPillar suites: every guest suite's fabric.
#
#   pf_plan PREFIX WORDS...    the plan only (no namespace yet): PF_IDS
#                              (node ids), PF_ADDR[id], PF_ID[address],
#                              PF_NPORTS, PF_SWITCH[bridge] (its members'
#                              ids), PF_CABLES[i] ("ID/PORT ID/PORT",
#                              bridge c<i>); its files go to PF_DIR (a
#                              new temporary directory unless set)
#   pf_make                    the fabric of the last pf_plan (namespaces
#                              by fabric_netns, lib.sh), every port up
#   pf_build PREFIX WORDS...   pf_plan and pf_make (in a PF_DIR of its
#                              own, removed after)
#   pf_dp0 [SETTINGS...]       dp0 on every server: dpctl link add dp0
#                              WORDS addr #ID port0 p0 ... SETTINGS, up,
#                              with pf_ip4/pf_ip6 and the fabric's routes
#                              (two processes in all, not two a server)
#   pf_up PREFIX WORDS... -- SETTINGS...
#                              pf_plan, pf_bridges, pf_make and pf_dp0
#                              SETTINGS: a fabric up (in this shell, not
#                              run_test's subshell: run_here)
#   pf_set SETTINGS...         "dpctl set dp0 SETTINGS" on every server,
#                              one dpctl
#   pf_on ID CMD...            CMD in server ID's namespace
#   pf_links up|down X...      the switch ends of X: ID (a server: all its
#                              ports) or ID/PORT; one ip process
#   pf_links_at up|down X...   the same, X by address: ADDR or ADDR/PORT
#   pf_port_down/up ID PORT    one port's switch end
#   pf_ping WANT [ROUNDS]      every ordered pair of live servers pings
#                              (dp_fabric.py ping; WANT's lines "SRC DST
#                              delivered|dropped" name servers by address)
#   pf_ping_until T0 WANT OUT [ROUNDS]
#                              pf_ping into OUT (ROUNDS rounds, default
#                              10) until it agrees or 30 s have passed
#                              since T0 ($SECONDS then), two passes at
#                              least: its last line, or all of OUT and 1
#   pf_destroy                 every namespace of the fabric
#   pf_bridges                 after pf_plan (its PF_DIR still there):
#                              PF_BR[ID/PORT], the bridge (switch s...
#                              or cable c<i>) of each server port
#   pf_connected SPEC          after pf_bridges: PF_CONN, the ordered
#                              pairs of live servers the bridges still
#                              connect with dpsim's failure set SPEC;
#                              PF_LAB[ID], each live server's component
#   pf_want_connected          after pf_connected: "A B delivered|dropped"
#                              for every ordered pair of live servers, as
#                              connected (what pf_ping takes)
# Direct cables and growth (S2; below):
#   PF_DIRECT=1                before pf_plan: a cable is a veth straight
#                              between its servers' namespaces, not a
#                              bridge; pf_links acts on the server's p<port>
#   pf_cables del|add "A/P B/Q"...  unplug / plug in direct cables
#   pf_dp0_each < "ID WORDS" lines  dp0 on those servers, words each
#   pf_dp0_readd ID...         dp0 up again, addresses and routes replaced
#   pf_plan_grow WORDS...      the grown plan ("... grow M"): PF_GROW_DEL,
#                              PF_GROW_ADD, $PF_DIR/grown
#   pf_grow                    that growth wired; PF_IDS etc. grown
# Needs lib.sh (require_tools: DPCTL, FABRIC_PY).

PF_SW=pfsw
PF_PREFIX=pf-

pf_destroy() {
	ns_del_matching "^($PF_PREFIX|$PF_SW\$)"
	rm -f "${TMPDIR:-/tmp}/pf-ips.$$"	# pf_ping's
}

# _pf_ips ID: PF_IP4, PF_IP6 of server ID (no subshell: loops over every
# server use it).
_pf_ips() {
	PF_IP4=10.$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))
	printf -v PF_IP6 'fd64:7069:6c6c:6172::%x:%x' $(($1 >> 16)) $(($1 & 65535))
}
pf_ip4() { _pf_ips "$1"; echo "$PF_IP4"; }
pf_ip6() { _pf_ips "$1"; echo "$PF_IP6"; }
pf_on() { local id=$1; shift; ip netns exec "$PF_PREFIX$id" "$@"; }
pf_port_down() { pf_links down "$1/$2"; }
pf_port_up() { pf_links up "$1/$2"; }

pf_links() {
	local how=$1 x p b=''
	shift
	[ -z "${PF_DIRECT:-}" ] || { _pf_links_direct "$how" "$@"; return; }
	for x in "$@"; do
		case $x in
		*/*) b+="link set v${x%/*}p${x#*/} $how"$'\n' ;;
		*) for ((p = 0; p < PF_NPORTS; p++)); do
			b+="link set v${x}p$p $how"$'\n'
		   done ;;
		esac
	done
	printf '%s' "$b" | ip -n $PF_SW -batch -
}

pf_links_at() {
	local how=$1 x ids=()
	shift
	for x in "$@"; do
		case $x in
		*/*) ids+=("${PF_ID[${x%/*}]}/${x#*/}") ;;
		*) ids+=("${PF_ID[$x]}") ;;
		esac
	done
	pf_links "$how" "${ids[@]}"
}

# pf_ping_until T0 WANT OUT [ROUNDS]: after a failure, the kernel routes
# into it until the Hellos time out and the view catches up: ping until
# every pair answers as WANT says, for at most 30 s from T0, and at least
# two passes.  Where a fallback discovers shortcuts, a frame the topology
# gives up on at a relay starts a discovery on the account of the
# neighbour it came from (shortcut.h: 5 discoveries a second) and is
# dropped; the next echo takes the shortcut.  One source's echoes to
# every other server can stop at one relay from one neighbour, and the
# shortcuts of the pass before have idled out (10 s) by that source's
# next turn.  So a pass gives each source ROUNDS rounds (default 10:
# 4.6 s, five budget seconds), not pf_ping's 4 (2.2 s, two, the last
# round's discoveries serving no later echo): with 4, the first pass of
# xdcent(3,1,2)'s two-link cases never delivered every pair, the second
# sometimes missed one (CI of 9e8ecc0: 2.2.1 -> 1.1.1); with 10 the
# first pass delivered all 702 pairs in each of 8 runs (21-23 s, not
# 40 s).  Before that, the debug guest's pass of 702 pairs outlasted the
# 30 s alone (CI, stop 47: 15 of one source's 18 echoes to the far cell
# unanswered, no retry): hence two passes at least.
pf_ping_until() {
	local t0=$1 want=$2 out=$3 rounds=${4:-10} pass=0
	until pf_ping "$want" "$rounds" > "$out"; do
		pass=$((pass + 1))
		if [ $pass -ge 2 ] && [ $((SECONDS - t0)) -gt 30 ]; then
			cat "$out"
			return 1
		fi
	done
	tail -n 1 "$out"
}

pf_ping() {
	local id f=${TMPDIR:-/tmp}/pf-ips.$$	# no mktemp, no rm: no process
	for id in "${PF_IDS[@]}"; do
		_pf_ips "$id"
		echo "${PF_ADDR[$id]} $PF_IP4 $PF_IP6 $id"
	done > "$f"
	python3 -S -E "$FABRIC_PY" ping "$PF_PREFIX" "$f" "$1" "${2:-4}"
}

pf_plan() {
	local id a n rest
	PF_PREFIX=$1
	shift
	PF_WORDS=("$@")
	PF_IDS=() PF_CABLES=()
	declare -gA PF_ADDR=() PF_ID=() PF_SWITCH=()
	[ -n "${PF_DIR:-}" ] || PF_DIR=$(mktemp -d) || return 1
	"$DPCTL" -j plan "$@" > "$PF_DIR/plan.json" &&
		python3 -S -E "$FABRIC_PY" plan "$PF_PREFIX" "$PF_DIR" \
			${PF_DIRECT:+direct} < "$PF_DIR/plan.json" || return 1
	while read -r id a n; do
		PF_IDS+=("$id")
		PF_ADDR[$id]=$a
		PF_ID[$a]=$id
		PF_NPORTS=$n
	done < "$PF_DIR/servers"
	# shellcheck disable=SC2034 # the suites read them
	while read -r a rest; do PF_SWITCH[$a]=$rest; done < "$PF_DIR/switches"
	# shellcheck disable=SC2034
	mapfile -t PF_CABLES < "$PF_DIR/cables"
	[ ${#PF_IDS[@]} -gt 0 ]
}

pf_make() {
	pf_destroy
	fabric_netns $PF_SW "${PF_IDS[@]/#/$PF_PREFIX}" &&
		ip -n $PF_SW -batch "$PF_DIR/sw.batch" || return 1
	python3 -S -E "$FABRIC_PY" ports "$PF_PREFIX" up $((PF_NPORTS - 1)) \
		"${PF_IDS[@]}"
}

pf_build() {
	local rc=0 PF_DIR=
	pf_plan "$@" && pf_make || rc=1
	rm -rf "$PF_DIR"
	return $rc
}

pf_up() {
	local prefix=$1 w=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do w+=("$1"); shift; done
	shift
	pf_plan "$prefix" "${w[@]}" && pf_bridges && pf_make && pf_dp0 "$@"
}

pf_set() {
	local id b=''
	for id in "${PF_IDS[@]}"; do
		b+="-n $PF_PREFIX$id set dp0 $*"$'\n'
	done
	printf '%s' "$b" | "$DPCTL" -b -
}

# One dpctl for every link add (a batch line's own -n: its server's netns)
# and one python3 for every dp0's up, addresses and routes (rtnetlink in
# each netns): a process start costs 0.1-0.5 s under TCG, several times
# that on the debug kernel, and this was two per server (a dpctl and an
# ip -b).
pf_dp0() {
	local id
	for id in "${PF_IDS[@]}"; do
		echo "$id ${PF_WORDS[*]} addr \"#$id\" $*"
	done | pf_dp0_each
}

# pf_bridges: PF_BR from the master of each veth in the last pf_plan's
# sw.batch ("link set v<ID>p<PORT> master BRIDGE up"); no process.
pf_bridges() {
	local w1 w2 v w4 b
	declare -gA PF_BR=()
	while read -r w1 w2 v w4 b _; do
		[ "$w1 $w2 $w4" = "link set master" ] || continue
		v=${v#v}
		PF_BR[${v%p*}/${v##*p}]=$b
	done < "$PF_DIR/sw.batch"
	[ ${#PF_BR[@]} -gt 0 ]
}

# pf_connected SPEC: PF_CONN, the ordered pairs of live servers that some
# path joins with SPEC failed (dpsim's --fail: ADDR for a server, ADDR/PORT
# for one of its links, comma separated): what a routing that delivers
# every connected pair delivers.  The graph is pf_bridges' PF_BR (switches
# and cable bridges; not PF_DIRECT's cables); a server's label becomes the
# least id it reaches, bridge by bridge, until no label changes; no
# process.
pf_connected() {
	local x id b lo more=1
	local -A dead=() mem=() lab=() size=()
	for x in ${1//,/ }; do
		case $x in
		*/*) dead[${PF_ID[${x%/*}]}/${x#*/}]=1 ;;
		*) dead[${PF_ID[$x]}]=1 ;;
		esac
	done
	for x in "${!PF_BR[@]}"; do
		id=${x%/*}
		[ -z "${dead[$id]:-}${dead[$x]:-}" ] || continue
		mem[${PF_BR[$x]}]+=" $id"
		lab[$id]=$id
	done
	while [ $more = 1 ]; do
		more=0
		for b in "${!mem[@]}"; do
			lo=''
			for id in ${mem[$b]}; do
				[ -n "$lo" ] && [ "${lab[$id]}" -ge "$lo" ] || lo=${lab[$id]}
			done
			for id in ${mem[$b]}; do
				[ "${lab[$id]}" = "$lo" ] || { lab[$id]=$lo; more=1; }
			done
		done
	done
	PF_CONN=0
	declare -gA PF_LAB=()
	for id in "${PF_IDS[@]}"; do
		[ -z "${dead[$id]:-}" ] || continue
		x=${lab[$id]:-i$id}	# no live port: alone
		PF_LAB[$id]=$x
		size[$x]=$((${size[$x]:-0} + 1))
	done
	for x in "${size[@]}"; do PF_CONN=$((PF_CONN + x * (x - 1))); done
}

pf_want_connected() {
	local a b
	for a in "${!PF_LAB[@]}"; do
		for b in "${!PF_LAB[@]}"; do
			[ "$a" != "$b" ] || continue
			if [ "${PF_LAB[$a]}" = "${PF_LAB[$b]}" ]; then
				echo "${PF_ADDR[$a]} ${PF_ADDR[$b]} delivered"
			else
				echo "${PF_ADDR[$a]} ${PF_ADDR[$b]} dropped"
			fi
		done
	done
}

# ---- direct cables (PF_DIRECT) and S2's growth ------------------------------
# PF_DIRECT=1 (set before pf_plan): a cable is one veth straight between
# its two servers' namespaces (p<port> at both ends), not a two-port
# bridge; a server port no cable takes still gets a veth whose other end
# (v<id>p<port>) is in $PF_SW.  Why: s2_test.sh moves cables the way an
# operator does (miswiring swaps two cables' far ends, growth unplugs some
# and plugs others in, pf_cables) and injects frames from a cable's far
# end, the neighbour's own port (dp_s2flood.py, dp_framefuzz.py: the
# frame arrives as from that neighbour's NIC).  Switches keep their
# bridges either way.

# _pf_links_direct up|down X...: pf_links under PF_DIRECT: the server's
# own end p<port> (its peer, the cable's other end, loses its carrier);
# one ip process per server.
_pf_links_direct() {
	local how=$1 x p
	local -A per=()
	shift
	for x in "$@"; do
		case $x in
		*/*) per[${x%/*}]+="link set p${x#*/} $how"$'\n' ;;
		*) for ((p = 0; p < PF_NPORTS; p++)); do
			per[$x]+="link set p$p $how"$'\n'
		   done ;;
		esac
	done
	for x in "${!per[@]}"; do
		printf '%s' "${per[$x]}" | ip -n "$PF_PREFIX$x" -batch - || return 1
	done
}

# pf_cables del|add "A/P B/Q"...: direct cables (PF_DIRECT) unplugged (the
# veth deleted at A's end, which takes B's end with it) or plugged in
# (one ip process for all; both servers' namespaces exist, the ports are
# free).
pf_cables() {
	local how=$1 c a d b=''
	shift
	for c in "$@"; do
		a=${c% *} d=${c#* }
		if [ "$how" = del ]; then
			ip -n "$PF_PREFIX${a%/*}" link del "p${a#*/}" || return 1
		else
			b+="link add p${a#*/} netns $PF_PREFIX${a%/*} type veth peer name p${d#*/} netns $PF_PREFIX${d%/*}"$'\n'
		fi
	done
	[ -z "$b" ] || printf '%s' "$b" | ip -n $PF_SW -batch -
}

# pf_dp0_each: pf_dp0 for the servers of stdin's "ID WORDS..." lines, each
# with its own words (S2's plan mode: a node's coordinates; a subset of
# the servers: dp0 made again after a miswiring, the new servers of a
# growth): dpctl link add dp0 WORDS port0 p0 ... in its namespace, then
# up with its addresses and routes; two processes in all.
pf_dp0_each() {
	local id w p ports='' b='' ips=()
	for ((p = 0; p < PF_NPORTS; p++)); do ports+=" port$p p$p"; done
	while read -r id w; do
		b+="-n $PF_PREFIX$id link add dp0 $w$ports"$'\n'
		_pf_ips "$id"
		ips+=("$id,$PF_IP4,$PF_IP6")
	done
	printf '%s' "$b" | "$DPCTL" -b - &&
		python3 -S -E "$FABRIC_PY" dp0up "$PF_PREFIX" "${ips[@]}"
}

# pf_dp0_readd ID...: those servers' dp0 (taken down) up again, their
# addresses and routes replaced (dp_fabric.py dp0up --replace).
pf_dp0_readd() {
	local id ips=()
	for id; do
		_pf_ips "$id"
		ips+=("$id,$PF_IP4,$PF_IP6")
	done
	python3 -S -E "$FABRIC_PY" dp0up "$PF_PREFIX" --replace "${ips[@]}"
}

# pf_plan_grow WORDS...: the plan of the last pf_plan's fabric grown
# ("dpctl -j plan ... grow M": S2's plan mode) into $PF_DIR/grown (its
# coords file has the new servers' coordinates); PF_GROW_DEL and
# PF_GROW_ADD the cables growth unplugs and plugs in ("ID/PORT ID/PORT").
pf_plan_grow() {
	local g=$PF_DIR/grown
	mkdir -p "$g" &&
		"$DPCTL" -j plan "$@" > "$g/plan.json" &&
		python3 -S -E "$FABRIC_PY" plan "$PF_PREFIX" "$g" \
			${PF_DIRECT:+direct} < "$g/plan.json" || return 1
	mapfile -t PF_GROW_DEL < "$g/removed"
	mapfile -t PF_GROW_ADD < "$g/added"
	[ ${#PF_GROW_ADD[@]} -gt 0 ]
}

# pf_grow: the growth of the last pf_plan_grow, as an operator wires it
# (PF_DIRECT only): PF_GROW_DEL unplugged, the new servers' namespaces,
# PF_GROW_ADD plugged in, a veth to $PF_SW for each port the grown plan
# leaves free that was not before, the new servers' ports up; PF_IDS,
# PF_ADDR, PF_ID then name the grown fabric's servers.  Their dp0 (and
# what the old servers' dp0 make of their new ports) is the caller's.
pf_grow() {
	local g=$PF_DIR/grown id a n x b='' rc=0 new=()
	local -A old=() was=()
	for id in "${PF_IDS[@]}"; do old[$id]=1; done
	while read -r x; do was[$x]=1; done < "$PF_DIR/unused"
	pf_cables del "${PF_GROW_DEL[@]}" || return 1
	while read -r id a n; do
		[ -n "${old[$id]:-}" ] && continue
		new+=("$id")
		PF_IDS+=("$id")
		PF_ADDR[$id]=$a
		PF_ID[$a]=$id
		b+="netns add $PF_PREFIX$id"$'\n'
	done < "$g/servers"
	ns_quiet_push
	printf '%s' "$b" | ip -batch - || rc=1
	ns_quiet_pop
	[ $rc = 0 ] || return 1
	# A port that was free and takes a cable now: its veth to $PF_SW goes.
	for x in "${PF_GROW_ADD[@]}"; do
		for a in "${x% *}" "${x#* }"; do
			[ -z "${was[$a]:-}" ] ||
				ip -n $PF_SW link del "v${a%/*}p${a#*/}" || return 1
		done
	done
	pf_cables add "${PF_GROW_ADD[@]}" || return 1
	b=''
	while read -r x; do
		[ -n "${was[$x]:-}" ] ||
			b+="link add v${x%/*}p${x#*/} type veth peer name p${x#*/} netns $PF_PREFIX${x%/*}"$'\n'
	done < "$g/unused"
	[ -z "$b" ] || printf '%s' "$b" | ip -n $PF_SW -batch - || return 1
	python3 -S -E "$FABRIC_PY" ports "$PF_PREFIX" up $((PF_NPORTS - 1)) \
		"${new[@]}"
}

# ---- a topology's suite as a table (pf_suite) --------------------------------
# A topology's guest suite is a table: its sizes, the words of each, the
# cables a plan must have and its failure cases; pf_size runs the checks
# every such suite makes, kernel against dpsim pair by pair
# (selftests/ring_test.sh, dcell_test.sh, xdcent_test.sh are tables; S2's
# suite uses pf_routes and pf_case under its own fabric).  Set before
# pf_size:
#   PF_TOPO=(WORDS...)     dpctl's words (topo ring n 6)
#   PF_OPTS=(OPTIONS...)   dpsim's for the same fabric (--topo ring -n 6)
#   PF_WANT_CABLES         "ID/PORT ID/PORT" lines the plan must hold, in
#                          either order, and no other cable (unset: not
#                          checked)
#   PF_MODES               routing modes in which route get must equal
#                          "dpsim pairs --mode M" ("": the device's own
#                          mode only; "none": no route comparison)
#   PF_CASES=("DESC|SPEC|FLAG..." ...)
#                          a failure each, pf_case SPEC FLAG...; or
#                          "DESC|@FUNC ARG..." a check of the suite's own,
#                          run_test'd in its turn
#   PF_CASES_FN            a function run once the plan is known
#                          (PF_IDS, PF_ADDR, PF_SWITCH, PF_CABLES, PF_BR):
#                          it may set PF_CASES, PF_MODES from them
#   PF_MODE0               the mode a case's mode=M returns to
#   PF_DIAG                a function given the pings' output when a
#                          case's pings never agree with dpsim
#   HELLO, DEAD            as for pf_dp0
# pf_begin (the module, PF_DIR), pf_size NAME PREFIX for each size (the
# plan's cables; the fabric with dp0 on every server; every ordered pair
# pings, IPv4 and IPv6; route get equals dpsim's path in each of
# PF_MODES; each case), pf_end (no kernel splat; the TAP plan).
# pf_suite NAME PREFIX: the three for one size.

# pf_probe_json S D: dpctl route probe from S to D as one line of
# "path:alive:avoided" words (avoided "-" when D is not followed).
pf_probe_json() {
	"$DPCTL" -n "$PF_PREFIX${PF_ID[$1]}" -j route probe "$2" timeout 500 |
		jq -r '[.[0].paths[] | "\(.path):\(.alive):\(if has("avoided")
			then .avoided else "-" end)"] |
			join(" ")'
}

# pf_probe: path selection over a topology's parallel paths (modes pM,
# the candidates of path selection; XDCent's, BCube's, DCell's), for a
# suite's case "...|@pf_probe", with SERVERS (addresses in id order),
# NSRV, NPORTS set by its PF_CASES_FN and PF_DETOURS, an ERE of the
# detour counters of ethtool -S dp0 (printed).  From the first server
# to the last, find a relay R on one parallel path M only (dpsim --mode
# pM), not next to the first server where there is one (BCube (n,1) has
# none); route probe finds every path alive; with R's links down it
# finds path M failed and path selection avoids it (the time it took is
# printed); then the paths of 16 flow hashes (route trace) cross none of
# path M's own relays, and 16 ping flows are all answered.
pf_probe() {
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
	got=$(pf_probe_json "$s" "$dst")
	echo "path $pm crosses $r; before: $got"
	for ((m = 0; m < NPORTS; m++)); do
		[[ " $got " == *" $m:true:"* ]] || { echo "path $m not alive"; return 1; }
	done
	# Traffic to d, so that path selection follows it.
	pf_on "${PF_ID[$s]}" ping -q -i 0.2 -w 120 \
		"$(pf_ip4 "${PF_ID[$dst]}")" >/dev/null 2>&1 &
	pid=$!
	sleep 2
	pf_links_at down "$r" || return 1
	t0=$(date +%s%N)
	until got=$(pf_probe_json "$s" "$dst"); [[ " $got " == *" $pm:false:true "* ]]; do
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
		"$DPCTL" -n "$PF_PREFIX${PF_ID[$s]}" route probe "$dst" timeout 2000
		sleep 1
		got=$(pf_probe_json "$s" "$dst")
	done
	[ $o = 0 ] || { echo "other paths should be alive and in use"; rc=1; }
	if [ $far = 0 ]; then
		echo "every such relay is next to $s: flows not checked"
	else
		pf_probe_flows || rc=1
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pf_links_at up "$r" || return 1
	sleep $(( DEAD / 1000 + 1 ))
	return $rc
}

# pf_probe_flows (pf_probe's locals): with path pm avoided, 16 flow
# hashes traced cross none of its own relays, 16 ping flows are answered.
pf_probe_flows() {
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
		read -r -a tr <<<"$("$DPCTL" -n "$PF_PREFIX${PF_ID[$s]}" -j route trace \
			"$dst" hash $((i * 4099)) timeout 1000 |
			jq -r '.[0] | ([.hops[] | .addr // "*"] | join(" ")) +
				" " + (.delivered | tostring)')"
		for x in $only; do
			[[ " ${tr[*]} " != *" $x "* ]] ||
				{ echo "hash $((i * 4099)) crosses $x: ${tr[*]}"; rc=1; }
		done
		[ "${tr[-1]}" = true ] || { echo "hash $((i * 4099)) not delivered: ${tr[*]}"; rc=1; }
		pf_on "${PF_ID[$s]}" ping -q -c 3 -i 0.2 -W 2 \
			"$(pf_ip4 "${PF_ID[$dst]}")" >/dev/null 2>&1 &
		flows+=($!)
	done
	for i in "${flows[@]}"; do
		wait "$i" || { echo "a ping flow lost packets"; rc=1; }
	done
	echo "16 flow hashes traced around path $pm's relays${only}; detour hops: $(pf_detours)"
	return $rc
}

# pf_detours: the detour hops taken so far (PF_DETOURS's counters, the
# topology's detours: ethtool -S dp0 route_NAME), summed over every
# server.
pf_detours() {
	local id
	for id in "${PF_IDS[@]}"; do
		pf_on "$id" ethtool -S dp0
	done | awk -v re="^ *route_($PF_DETOURS):" '$0 ~ re { s += $2 }
		END { print s + 0 }'
}

pf_begin() {
	PF_MARK=$(dmesg_mark)
	load_module || ktap_skip_all "no module"
	defer pf_destroy
	PF_DIR=$(mktemp -d) || ktap_skip_all "no temporary directory"
	defer rm -rf "$PF_DIR"
}

pf_end() {
	run_test "no kernel splat" dmesg_check "$PF_MARK"
	ktap_finish
}

pf_suite() {
	pf_begin
	pf_size "$@"
	pf_end
}

# pf_cables_check: the last pf_plan has exactly PF_WANT_CABLES.
pf_cables_check() {
	local c a b n=0 rc=0
	local -A have=()
	for c in "${PF_CABLES[@]}"; do have[$c]=1; done
	while read -r a b; do
		[ -n "$a" ] || continue
		n=$((n + 1))
		[ -n "${have[$a $b]:-}${have[$b $a]:-}" ] ||
			{ echo "no cable $a - $b"; rc=1; }
	done <<<"$PF_WANT_CABLES"
	[ "${#PF_CABLES[@]}" = "$n" ] ||
		{ echo "${#PF_CABLES[@]} cables, the table has $n"; rc=1; }
	return $rc
}

# pf_all_ping [WANT]: every ordered pair pings as WANT ($PF_DIR/all: dpsim
# pairs, no failure) says, within 40 s.
pf_all_ping() {
	local t=$SECONDS
	until pf_ping "${1:-$PF_DIR/all}" 10 > "$PF_DIR/out"; do
		[ $((SECONDS - t)) -lt 40 ] || { cat "$PF_DIR/out"; return 1; }
	done
	tail -n 1 "$PF_DIR/out"
}

# pf_routes: in each of PF_MODES ("": the device's own, $PF_DIR/all),
# dpctl route get on every server equals dpsim's path for every ordered
# pair (every DPILLAR_PAIR_STRIDE'th: route_get_cmp), one dpctl per source
# for every mode (dpsim's --mode, S2's rules included).
pf_routes() {
	local m s d path id cmp=0 bad=0 f
	local -A want=()
	local -a dl
	for m in ${PF_MODES:--}; do
		f=$PF_DIR/all
		if [ "$m" != - ]; then
			f=$PF_DIR/mode-$m
			"$DPSIM" pairs "${PF_OPTS[@]}" --mode "$m" \
				> "$f" || return 1
		fi
		while read -r s d _ _ path; do
			if [ "$m" = - ]; then
				want["$s $d"]=$path
			else
				want["$m $s $d"]=$path
			fi
		done < "$f"
	done
	for id in "${PF_IDS[@]}"; do
		dl=()
		for s in "${PF_IDS[@]}"; do
			[ "$s" = "$id" ] || dl+=("${PF_ADDR[$s]}")
		done
		route_get_cmp "$PF_PREFIX$id" "${PF_ADDR[$id]}" "$PF_MODES" "$id" want "${dl[@]}"
		cmp=$((cmp + RG_CMP)) bad=$((bad + RG_BAD))
	done
	echo "$cmp (mode, pair) compared${PF_MODES:+ over modes $PF_MODES}, $bad differ"
	[ $bad = 0 ]
}

# pf_stat_sum COUNTER: its sum over every server's dp0, by its ethtool -S
# name, from one dpctl -j stats (a batch line per server) and one jq, not
# two processes a server; a name dp0 lacks fails.
pf_stat_sum() {
	local id
	for id in "${PF_IDS[@]}"; do echo "-n $PF_PREFIX$id -j stats dp0"; done |
		"$DPCTL" -b - | jq -n --arg c "$1" '[inputs | .[0].stats |
			if has($c) then .[$c] else error("dp0 has no \($c)") end] |
			add'
}

# pf_case SPEC [FLAG...]: a failure.  The links of SPEC (dpsim's --fail:
# ADDR, ADDR/PORT, comma separated) go down; once the Hellos have expired,
# every live pair pings as "dpsim pairs --fail SPEC --discover" (the
# kernel's discovery fallback where the topology's routing gives up)
# says, until it agrees (pf_ping_until); SPEC up again, every pair pings.
# FLAGs:
#   counter=NAME   NAME (summed over the servers) has grown
#   mode=M         every server in mode M (dpsim --mode M), PF_MODE0
#                  after
#   connected      dpsim without the fallback delivers every pair the
#                  failure leaves connected (pf_connected)
#   fallback       dpsim without the fallback drops some connected pair,
#                  with it delivers them all (a case for the fallback)
#   now            the pings start at once, not once the Hellos have
#                  expired: where every pair stays deliverable, a pass's
#                  rounds (4.6 s) outlast the far end's dead interval
#   links=X,...    the links that go down (pf_links_at's words), not
#                  SPEC's (S2: SPEC names cables A-B, these their ports)
# A suite with a failure model of its own sets:
#   PF_WANT_FN     "FN SPEC" writes the pings' WANT, not dpsim --discover
#                  (S2: the pairs the live cables connect)
#   PF_CASE_PRE, PF_CASE_POST
#                  "FN SPEC", before the Hellos expire and after the
#                  pings agree (S2: its counters and a stuck pair's trace)
#   PF_ALL         what every pair does after the repair ($PF_DIR/all)
#   PF_REPAIR_WAIT seconds from the repair to those pings (1)
pf_case() {
	local spec=$1 f counter='' mode='' conn=0 fb=0 now=0 rc=0 t0=$SECONDS
	local n nd c0=0 c1
	local links=${1//,/ }
	shift
	for f; do
		case $f in
		links=*) links=${f#*=}; links=${links//,/ } ;;
		counter=*) counter=${f#*=} ;;
		mode=*) mode=${f#*=} ;;
		connected) conn=1 ;;
		fallback) fb=1 ;;
		now) now=1 ;;
		*) echo "pf_case: what is $f?"; return 1 ;;
		esac
	done
	[ -z "$mode" ] || pf_set mode "$mode" || return 1
	[ -z "$counter" ] || c0=$(pf_stat_sum "$counter") || return 1
	# shellcheck disable=SC2086 # the failure's words
	pf_links_at down $links || return 1
	if [ -n "${PF_WANT_FN:-}" ]; then
		"$PF_WANT_FN" "$spec" > "$PF_DIR/want" || rc=1
	else
		"$DPSIM" pairs "${PF_OPTS[@]}" --fail "$spec" --discover \
			${mode:+--mode "$mode"} > "$PF_DIR/want" || rc=1
	fi
	nd=$(grep -c ' delivered ' "$PF_DIR/want")
	echo "to deliver $nd pairs, to drop $(grep -c ' dropped ' "$PF_DIR/want") (${PF_WANT_FN:-dpsim})"
	if [ $conn = 1 ] || [ $fb = 1 ]; then
		n=$("$DPSIM" pairs "${PF_OPTS[@]}" --fail "$spec" --no-discover \
			${mode:+--mode "$mode"} | grep -c ' delivered ')
		pf_connected "$spec"
		echo "dpsim: the routing alone delivers $n, with the fallback $nd; $PF_CONN pairs connected"
		if [ $conn = 1 ] && [ "$n" != "$PF_CONN" ]; then
			echo "dpsim does not deliver every connected pair"
			rc=1
		fi
		if [ $fb = 1 ] && { [ "$n" -ge "$PF_CONN" ] || [ "$nd" != "$PF_CONN" ]; }; then
			echo "not a case for the fallback"
			rc=1
		fi
	fi
	[ -z "${PF_CASE_PRE:-}" ] || "$PF_CASE_PRE" "$spec" || rc=1
	# Until the Hellos time out, the kernel still routes into the failure.
	[ $now = 1 ] || sleep $(( (DEAD + 999) / 1000 + 1 ))
	if ! pf_ping_until "$t0" "$PF_DIR/want" "$PF_DIR/out"; then
		rc=1
		[ -z "${PF_DIAG:-}" ] || "$PF_DIAG" "$PF_DIR/out"
	fi
	[ -z "${PF_CASE_POST:-}" ] || "$PF_CASE_POST" "$spec" || rc=1
	if [ -n "$counter" ]; then
		if c1=$(pf_stat_sum "$counter"); then
			echo "$counter: $((c1 - c0)) more"
			[ "$c1" -gt "$c0" ] || rc=1
		else
			rc=1
		fi
	fi
	# shellcheck disable=SC2086
	pf_links_at up $links || return 1
	[ -z "$mode" ] || pf_set mode "$PF_MODE0" || rc=1
	sleep "${PF_REPAIR_WAIT:-1}"
	pf_ping "${PF_ALL:-$PF_DIR/all}" 10 > "$PF_DIR/out" ||
		{ cat "$PF_DIR/out"; rc=1; }
	return $rc
}

# pf_size NAME PREFIX: one size of a table (above).
pf_size() {
	local name=$1 c desc spec flags t0=$SECONDS n
	PF_PREFIX=$2
	if ! pf_plan "$PF_PREFIX" "${PF_TOPO[@]}" || ! pf_bridges; then
		ktap_fail "$name: dpctl plan"
		return 1
	fi
	[ -z "${PF_CASES_FN:-}" ] || "$PF_CASES_FN"
	[ -z "${PF_WANT_CABLES:-}" ] ||
		run_test "$name: dpctl plan has the table's cables" pf_cables_check
	n=${#PF_IDS[@]}
	run_test "$name: $n servers, ${#PF_SWITCH[@]} switch bridges, ${#PF_CABLES[@]} cables built from dpctl plan" \
		pf_make || return 1
	run_test "$name: dp0 (${PF_TOPO[*]}) on every server" \
		pf_dp0 hello "$HELLO" dead "$DEAD" || return 1
	if ! "$DPSIM" pairs "${PF_OPTS[@]}" > "$PF_DIR/all" ||
	   [ "$(wc -l < "$PF_DIR/all")" != $((n * (n - 1))) ]; then
		ktap_fail "$name: dpsim pairs"
		return 1
	fi
	run_test "$name: all $((n * (n - 1))) ordered pairs ping over IPv4 and IPv6" \
		pf_all_ping
	[ "${PF_MODES:-}" = none ] ||
		run_test "$name: dpctl route get equals dpsim's path for every ordered pair${PF_MODES:+ in modes $PF_MODES}" \
			pf_routes
	for c in "${PF_CASES[@]}"; do
		IFS='|' read -r desc spec flags <<<"$c"
		# shellcheck disable=SC2086 # @FUNC ARG..., FLAG...: words
		case $spec in
		@*) run_test "$name: $desc" ${spec#@} ;;
		*) run_test "$name: $desc: every live pair as dpsim says" \
			pf_case "$spec" $flags ;;
		esac
	done
	ktap_diag "$name: $((SECONDS - t0)) s"
	pf_destroy
}
