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
# topology), dpillar_probe.sh, dcell_test.sh, xdcent_test.sh,
# ring_test.sh and, through fabric.sh, the DPillar suites; s2_test.sh's
# builder (derived mode; plan mode has its own) is still its own (issue
# 30).
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
#   pf_on ID CMD...            CMD in server ID's namespace
#   pf_links up|down X...      the switch ends of X: ID (a server: all its
#                              ports) or ID/PORT; one ip process
#   pf_links_at up|down X...   the same, X by address: ADDR or ADDR/PORT
#   pf_port_down/up ID PORT    one port's switch end
#   pf_ping WANT [ROUNDS]      every ordered pair of live servers pings
#                              (dp_fabric.py ping; WANT's lines "SRC DST
#                              delivered|dropped" name servers by address)
#   pf_destroy                 every namespace of the fabric
#   pf_bridges                 after pf_plan (its PF_DIR still there):
#                              PF_BR[ID/PORT], the bridge (switch s...
#                              or cable c<i>) of each server port
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
			< "$PF_DIR/plan.json" || return 1
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

# One dpctl for every link add (a batch line's own -n: its server's netns)
# and one python3 for every dp0's up, addresses and routes (rtnetlink in
# each netns): a process start costs 0.1-0.5 s under TCG, several times
# that on the debug kernel, and this was two per server (a dpctl and an
# ip -b).
pf_dp0() {
	local id p ports='' b='' ips=()
	for ((p = 0; p < PF_NPORTS; p++)); do ports+=" port$p p$p"; done
	for id in "${PF_IDS[@]}"; do
		b+="-n $PF_PREFIX$id link add dp0 ${PF_WORDS[*]} addr \"#$id\"$ports $*"$'\n'
		_pf_ips "$id"
		ips+=("$id,$PF_IP4,$PF_IP6")
	done
	printf '%s' "$b" | "$DPCTL" -b - &&
		python3 -S -E "$FABRIC_PY" dp0up "$PF_PREFIX" "${ips[@]}"
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
