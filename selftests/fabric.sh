# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A running DPillar fabric for tests: the fabric of plan_fabric.sh ("dpctl
# -j plan topo dpillar n N k K": a netns dp-<node id> per server, the
# switches as bridges s<col>_<id> in $PF_SW, the switch end of server
# port p of node id i is v<i>p<p> there), one dp0 per server, named by
# DPillar addresses (C:v_{k-1}.....v_0, the plan's "server").  Source
# after lib.sh and plan_fabric.sh.
#
#   fabric_build N K                   the fabric without dp0 (pf_plan,
#                                      pf_make; fabric_index); TOPO_N,
#                                      TOPO_K for dpsim
#   fabric_up N K [hello MS dead MS]   fabric_build, dp0 everywhere (pf_dp0:
#                                      two processes in all), wait until
#                                      every port reaches all its switch's
#                                      peers.  With FABRIC_CONF_DIR set,
#                                      each server's dp0 comes from a file
#                                      written there (NS.conf) by "dpctl
#                                      up", as a server boots with
#                                      dpillar@dp0.service: one dpctl per
#                                      server, the path under test.  Its
#                                      state is this shell's variables:
#                                      call it in this shell, not in
#                                      run_test's subshell
#   fabric_up_test DESC N K [ARGS]     fabric_up as a KTAP result, in this
#                                      shell
#   fabric_destroy                     every namespace of the fabric
#   fabric_id ADDR                     a server's node id
#   fabric_size DEFAULT                N and K from DPILLAR_FABRIC ("4 2"),
#                                      else from DEFAULT ("4 3")
#   fabric_index                       after pf_plan: SERVERS (array, node
#                                      id order) and, per address, FNS[]
#                                      FID[] FIP4[] FIP6[]; no process
#   topo_ns_of ADDR                    a server's netns
#   topo_switch_of ADDR P              the bridge of its port P (in $PF_SW);
#                                      _topo_switch_of: into _SWN, no
#                                      subshell
#   topo_peer_of ADDR P                the switch-side veth of its port P
#   topo_port_down ADDR P / topo_port_up ADDR P   fail/repair one link
#   topo_server_down ADDR / topo_server_up ADDR   fail/repair its links
#   fabric_route A B [SPEC]            dpsim's route A -> B (failure set
#                                      SPEC) into R_DELIVERED R_HOPS
#                                      R_PHASES R_PATH[] R_RELAYS[]; one
#                                      process (no jq); the flow of hash 0
#   fabric_routes A B [SPEC]           every path dpsim may give A -> B,
#                                      one per flow-hash class (dpsim route
#                                      --all-hashes JSON on stdout)
#   fabric_mode MODE                   every dp0 sends in routing mode MODE
#                                      (FABRIC_MODE, default shortest); one
#                                      dpctl -b
#   fabric_snapshot                    every counter of every dp0 into
#                                      ST["ADDR NAME"], in one pass;
#                                      snap_sum NAME: its fabric-wide sum
#   fabric_relay_test DESC A B [SPEC]  4 pings A -> B: every server relays
#                                      exactly what dpsim routes both ways
#                                      under failure set SPEC; a KTAP result
#   fabric_neigh                       every port's reachable peers into
#                                      NB["ADDR/P"] ("REACHABLE NEIGHS"), in
#                                      one pass (the reader, genl DEV_GET)
#   fabric_spec_ports SPEC             FE: the ports ("ADDR/P", node id
#                                      order) on the switches failure set
#                                      SPEC touches: those that miss a peer
#                                      once the failure is seen
#   fabric_wait_reach SECS [PORT...]   wait until exactly PORTs (none: no
#                                      port) miss a peer; on timeout say
#                                      which do, and fail
#   fabric_trace_test DESC A B [SPEC]  dpctl route trace A -> B (flow hash
#                                      0) answers with the servers dpsim
#                                      routes that flow through under
#                                      failure set SPEC, delivered or not
#                                      as dpsim says; a KTAP result

DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
# The routing mode the servers send in (dpctl set dp0 mode), which dpsim
# routes with.
FABRIC_MODE=${FABRIC_MODE:-shortest}
DPSIM=${DPSIM:-$DPILLAR_REPO/tools/dpsim/dpsim}
# The servers' namespaces: dp-<node id> (plan_fabric.sh's PF_PREFIX).
FABRIC_PREFIX=dp-
# The fabric's prefixes, on-link on every dp0 (dp_fabric.py dp0up).
# shellcheck disable=SC2034 # dpillar_up.sh checks them
FABRIC_IP4_NET=10.0.0.0/8 FABRIC_IP6_NET=fd64:7069:6c6c:6172::/96

fabric_id() { echo "${PF_ID[$1]}"; }
topo_ns_of() {
	[ -n "${PF_ID[$1]:-}" ] || { echo "fabric: bad address '$1'" >&2; return 1; }
	echo "$PF_PREFIX${PF_ID[$1]}"
}
# _topo_switch_of ADDR PORT: _SWN = the bridge of the port (no subshell).
_topo_switch_of() {
	_SWN=${PF_ID[$1]:+${PF_BR[${PF_ID[$1]}/$2]:-}}
	[ -n "$_SWN" ]
}
topo_switch_of() { _topo_switch_of "$@" && echo "$_SWN"; }
topo_peer_of() {
	[ -n "${PF_BR[${PF_ID[$1]:-x}/$2]:-}" ] || return 1
	echo "v${PF_ID[$1]}p$2"
}
topo_port_down() { pf_links_at down "$1/$2"; }
topo_port_up() { pf_links_at up "$1/$2"; }
topo_server_down() { pf_links_at down "$1"; }
topo_server_up() { pf_links_at up "$1"; }

# fabric_size DEFAULT: N and K of the fabric a suite builds; the debug
# kernel (KASAN, lockdep) runs the suites on a smaller one.
fabric_size() {
	read -r N K <<<"${DPILLAR_FABRIC:-$1}"
	if ! [[ "$N" =~ ^[0-9]+$ && "${K:-}" =~ ^[0-9]+$ ]]; then
		ktap_skip_all "bad DPILLAR_FABRIC '${DPILLAR_FABRIC:-$1}' (want \"N K\")"
	fi
}

# shellcheck disable=SC2034,SC2153 # for the suites; PF_IDS: pf_plan's
fabric_index() {
	local id a
	SERVERS=()
	declare -gA FNS=() FID=() FIP4=() FIP6=()
	for id in "${PF_IDS[@]}"; do
		a=${PF_ADDR[$id]}
		_pf_ips "$id"
		SERVERS+=("$a")
		FNS[$a]=$PF_PREFIX$id
		FID[$a]=$id
		FIP4[$a]=$PF_IP4
		FIP6[$a]=$PF_IP6
	done
}

# shellcheck disable=SC2034 # TOPO_N, TOPO_K: for dpsim and the suites
fabric_build() {
	local rc=0 PF_DIR=
	TOPO_N=$1 TOPO_K=$2
	pf_plan "$FABRIC_PREFIX" topo dpillar n "$1" k "$2" && pf_bridges &&
		pf_make || rc=1
	rm -rf "$PF_DIR"
	[ $rc = 0 ] || { echo "fabric_build: failed building ($1,$2)" >&2; return 1; }
	fabric_index
}

fabric_destroy() {
	local p=${PF_PREFIX:-}
	PF_PREFIX=$FABRIC_PREFIX
	pf_destroy
	PF_PREFIX=$p
}

# fabric_route A B [SPEC]: dpsim route, parsed with bash regexes.
fabric_route() {
	local j p re
	R_DELIVERED='' R_HOPS='' R_PHASES='' R_PATH=() R_RELAYS=()
	j=$("$DPSIM" route -n "$TOPO_N" -k "$TOPO_K" --from "$1" --to "$2" \
		${3:+--fail "$3"} --mode "$FABRIC_MODE" --json) || return 1
	re='"delivered": *(true|false)'
	[[ $j =~ $re ]] && R_DELIVERED=${BASH_REMATCH[1]}
	re='"hops": *([0-9]+)'
	[[ $j =~ $re ]] && R_HOPS=${BASH_REMATCH[1]}
	re='"phases": *\[([^]]*)\]'
	[[ $j =~ $re ]] && { p=${BASH_REMATCH[1]//\"/}; R_PHASES=${p// /}; }
	re='"path": *\[([^]]*)\]'
	[[ $j =~ $re ]] || return 1
	p=${BASH_REMATCH[1]//\"/}
	IFS=', ' read -r -a R_PATH <<<"$p"
	R_RELAYS=("${R_PATH[@]:1:${#R_PATH[@]}-2}")
	[ -n "$R_DELIVERED" ] && [ -n "$R_HOPS" ]
}

fabric_routes() {
	"$DPSIM" route -n "$TOPO_N" -k "$TOPO_K" --from "$1" --to "$2" \
		${3:+--fail "$3"} --mode "$FABRIC_MODE" --all-hashes
}

fabric_mode() {
	local a b=''
	for a in "${SERVERS[@]}"; do
		b+="-n ${FNS[$a]} set dp0 mode $1"$'\n'
	done
	printf '%s' "$b" | "$DPCTL" -b - || return 1
	FABRIC_MODE=$1
}

# FABRIC_TIMES: where fabric_up's time went (fabric_up_test prints it).
fabric_up() {
	local n=$1 k=$2 a ns t0=${EPOCHREALTIME//[.,]/} t1 t2 rc
	shift 2
	# The reader's python3 starts while the fabric is built.
	_fabric_reader_start
	fabric_build "$n" "$k" || return 1
	t1=${EPOCHREALTIME//[.,]/}
	if [ -n "${FABRIC_CONF_DIR:-}" ]; then
		# As a server boots: dpillar@dp0.service, its file (a dpctl
		# per server: each reads its own file).
		for a in "${SERVERS[@]}"; do
			ns=${FNS[$a]}
			{ printf 'n %s\nk %s\naddr %s\nports p0 p1\n' \
				"$n" "$k" "$a"
			  [ $# -eq 0 ] || printf '%s %s\n' "$@"
			} >"$FABRIC_CONF_DIR/$ns.conf" &&
			"$DPCTL" -n "$ns" up dp0 \
				-c "$FABRIC_CONF_DIR/$ns.conf" || return 1
		done
	else
		pf_dp0 "$@" || return 1
	fi
	t2=${EPOCHREALTIME//[.,]/}
	# Every port hears all n - 1 peers of its switch.
	fabric_wait_reach "${FABRIC_UP_WAIT:-30}"
	rc=$?
	_fabric_secs "$t0" "$t1"
	FABRIC_TIMES="topology $_FS s"
	_fabric_secs "$t1" "$t2"
	FABRIC_TIMES+=", dp0 on ${#SERVERS[@]} servers $_FS s"
	_fabric_secs "$t2" "${EPOCHREALTIME//[.,]/}"
	FABRIC_TIMES+=", every peer reachable $_FS s later"
	return $rc
}

# _fabric_secs FROM TO: _FS = seconds between two ${EPOCHREALTIME//[.,]/},
# one decimal (no subshell).
_fabric_secs() {
	local d=$((($2 - $1) / 100000))
	_FS=$((d / 10)).$((d % 10))
}

# fabric_up_test DESC N K [ARGS]: fabric_up as a KTAP result, in this shell
# (run_test's subshell would lose the fabric's variables and the reader); its
# output shown on failure or with V=1.
fabric_up_test() {
	local desc=$1 out rc
	shift
	out=$(mktemp)
	FABRIC_TIMES=''
	fabric_up "$@" > "$out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || [ "$V" = 1 ] && [ -s "$out" ] && ktap_diag "$(<"$out")"
	rm -f "$out"
	[ -n "$FABRIC_TIMES" ] && ktap_diag "fabric_up: $FABRIC_TIMES"
	ktap_result "$desc" $rc
	return $rc
}

declare -A ST=()
fabric_snapshot() {
	local a k v
	ST=()
	if _fabric_snap_py && echo snap >&"${_FSNAP[1]}"; then
		while read -r -t 60 a k v <&"${_FSNAP[0]}"; do
			[ "$a" = END ] && return 0
			ST["${PF_ADDR[$a]:-$a} $k"]=$v
		done
		echo "# fabric_snapshot: no answer from the reader, using ethtool" >&2
		ST=()
	fi
	while read -r a k v; do
		[ -n "$v" ] && ST["${PF_ADDR[$a]} $k"]=$v
	done <<<"$(ip -all netns exec ethtool -S dp0 2>/dev/null | awk -v p="$FABRIC_PREFIX" '
		/^netns: / { a = ""; if (index($2, p) == 1) a = substr($2, length(p) + 1); next }
		a != "" && NF == 2 && $1 ~ /:$/ { sub(":$", "", $1); print a, $1, $2 }')"
}

# _fabric_snap_py: the reader, a python3 coprocess that answers each
# "snap" line with "ID NAME VALUE" for every counter of every server's
# dp0 (what ethtool -S shows: ETHTOOL_GSTRINGS and ETHTOOL_GSTATS, after a
# setns() into each dp-<ID> netns), each "neigh" line with "ID PORT STATE
# REACHABLE NEIGHS" for every port (genl DEV_GET through dp_genl.py's
# Genl), then "END".  It costs one python3 start (~3 s under TCG); each
# answer then takes milliseconds instead of one ethtool or dpctl process
# per server (~0.3 s each).  Started on first use, stopped at exit; fails
# (1) when python3 cannot run it, and fabric_snapshot uses ethtool.
_fabric_snap_py() {
	[ -n "${_FSNAP_READY:-}" ] && return 0
	_fabric_reader_start || return 1
	local line
	if ! read -r -t 60 line <&"${_FSNAP[0]}" || [ "$line" != READY ]; then
		echo "# fabric_snapshot: reader failed: $line" >&2
		kill "$_FSNAP_PID" 2>/dev/null
		_FSNAP_PID='' _FSNAP_BROKEN=1
		return 1
	fi
	_FSNAP_READY=1
}

# _fabric_reader_start: start the reader without waiting for it.
_fabric_reader_start() {
	[ -n "${_FSNAP_PID:-}" ] && return 0
	[ "${_FSNAP_BROKEN:-0}" = 1 ] && return 1
	command -v python3 >/dev/null || { _FSNAP_BROKEN=1; return 1; }
	coproc _FSNAP { python3 -S -E -u -c "$_FABRIC_SNAP_PY" "$DP_SELFTESTS" \
		"$FABRIC_PREFIX" 2>&1; }
	defer "kill $_FSNAP_PID"
}
_FABRIC_SNAP_PY='
import ctypes, fcntl, os, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
SIOCETHTOOL, GSSET_INFO, GSTRINGS, GSTATS, SS_STATS = 0x8946, 0x37, 0x1b, 0x1d, 1
def ioctl(s, buf):
    ifr = struct.pack("16sP", b"dp0", ctypes.addressof(buf)) + bytes(16)
    fcntl.ioctl(s, SIOCETHTOOL, ifr)
def counters(s):
    info = ctypes.create_string_buffer(struct.pack("IIQI", GSSET_INFO, 0, 1 << SS_STATS, 0))
    ioctl(s, info)
    n = struct.unpack_from("IIQI", info.raw)[3]
    gs = ctypes.create_string_buffer(struct.pack("III", GSTRINGS, SS_STATS, n) + bytes(32 * n))
    ioctl(s, gs)
    names = [gs.raw[12 + 32 * i:12 + 32 * (i + 1)].split(b"\0")[0].decode() for i in range(n)]
    st = ctypes.create_string_buffer(struct.pack("II", GSTATS, n) + bytes(8 * n))
    ioctl(s, st)
    return zip(names, struct.unpack_from("%dQ" % n, st.raw, 8))
def servers():
    """setns() into each PREFIX<id> netns in turn; yields its id."""
    for ns in sorted(os.listdir("/run/netns")):
        if not ns.startswith(prefix):
            continue
        fd = os.open("/run/netns/" + ns, os.O_RDONLY)
        if libc.setns(fd, 0x40000000) != 0:
            sys.exit("setns " + ns)
        os.close(fd)
        yield ns[len(prefix):]
def snap():
    out = []
    for addr in servers():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                out += ["%s %s %d" % (addr, k, v) for k, v in counters(s)]
            except OSError:
                pass
    return out
DEV_GET, DEV_PORT = 1, 14
PORT_INDEX, PORT_STATE, PORT_NEIGHS, PORT_REACHABLE = 1, 4, 7, 8
fam = None
def neigh():
    global fam
    out = []
    for addr in servers():
        g = dp_genl.Genl()  # a socket of this netns
        try:
            if fam is None:
                fam = g.family("dpillar")
            msgs, err, text = g.request(fam, DEV_GET, dp_genl.NLM_F_DUMP, b"")
        finally:
            g.s.close()
        for m in msgs:
            for atype, val in dp_genl.attrs(m):
                if atype == DEV_PORT:
                    p = {t: struct.unpack_from("=I", v)[0]
                         for t, v in dp_genl.attrs(val) if len(v) == 4}
                    out.append("%s %d %d %d %d" % (addr, p.get(PORT_INDEX, 9),
                               p.get(PORT_STATE, 0), p.get(PORT_REACHABLE, 0),
                               p.get(PORT_NEIGHS, 0)))
    return out
sys.path.insert(0, sys.argv[1])
prefix = sys.argv[2]
import dp_genl
print("READY")
for line in sys.stdin:
    try:
        out = {"snap": snap, "neigh": neigh}[line.strip()]()
    except (OSError, SystemExit, KeyError) as e:
        out = ["ERROR %s" % e]
    out.append("END")
    print("\n".join(out))
'

# fabric_neigh: NB["ADDR/P"]="REACHABLE NEIGHS" for every port of every
# server, one pass of the reader; 1 when the reader cannot answer.
declare -A NB=()
fabric_neigh() {
	local a p st r n rc=0
	NB=()
	_fabric_snap_py && echo neigh >&"${_FSNAP[1]}" || return 1
	while read -r -t 60 a p st r n <&"${_FSNAP[0]}"; do
		case "$a" in
		END) return $rc ;;
		ERROR) echo "fabric_neigh: $p $st $r $n" >&2; rc=1 ;;
		*) NB[${PF_ADDR[$a]:-$a}/$p]="$r $n" ;;
		esac
	done
	echo "# fabric_neigh: no answer from the reader" >&2
	return 1
}

# fabric_unreached: FU = the ports ("ADDR/P", index order) that do not
# reach all n - 1 peers of their switch (a port without carrier reaches
# none).
fabric_unreached() {
	local a p v
	FU=''
	fabric_neigh || return 1
	for a in "${SERVERS[@]}"; do
		for p in 0 1; do
			v=${NB[$a/$p]:-}
			[ "$v" = "$((TOPO_N - 1)) $((TOPO_N - 1))" ] || FU+="${FU:+ }$a/$p"
		done
	done
}

# fabric_spec_ports SPEC: FE = the ports ("ADDR/P", index order) on the
# switches that failure set SPEC (dpsim --fail: ADDR for a server, ADDR/P
# for a port, comma separated) touches.  Once the failure is seen, exactly
# these miss a peer: the failed ports reach none, their peers one fewer.
fabric_spec_ports() {
	local x a p
	local -A sw=()
	for x in ${1//,/ }; do
		if [[ $x == */* ]]; then
			_topo_switch_of "${x%/*}" "${x#*/}" && sw[$_SWN]=1
		else
			_topo_switch_of "$x" 0 && sw[$_SWN]=1
			_topo_switch_of "$x" 1 && sw[$_SWN]=1
		fi
	done
	FE=''
	for a in "${SERVERS[@]}"; do
		for p in 0 1; do
			_topo_switch_of "$a" $p
			[ -n "${sw[$_SWN]:-}" ] && FE+="${FE:+ }$a/$p"
		done
	done
}

_fabric_unreached_is() { fabric_unreached && [ "$FU" = "$1" ]; }

# fabric_wait_reach SECS [PORT...]: wait until exactly PORTs ("ADDR/P",
# index order; none: every port) miss a peer.  Fails (1) after SECS with
# what differs.
fabric_wait_reach() {
	local secs=$1
	shift
	wait_for "$secs" _fabric_unreached_is "$*" && return 0
	echo "after $secs s, ports missing a peer: ${FU:-none}"
	echo "                           expected: ${*:-none}"
	return 1
}

snap_sum() {
	local a n=0
	for a in "${SERVERS[@]}"; do n=$((n + ${ST["$a $1"]:-0})); done
	echo $n
}

# ---- relay counters vs dpsim ------------------------------------------------
# FWD[addr]: every server's "forwarded" counter, one ethtool pass.  Each
# check reads it after its pings and keeps it as the next check's
# "before": N checks in a row cost N + 1 passes (a pass is one ethtool per
# server).  Only the checks' pings are relayed in between (Hellos never
# are); anything else must call fabric_fwd_snapshot again.
declare -A FWD=()
FWD_OK=0
fabric_fwd_snapshot() {
	local s
	fabric_snapshot
	FWD=()
	for s in "${SERVERS[@]}"; do FWD[$s]=${ST["$s forwarded"]:-}; done
	FWD_OK=1
}

# fabric_check_relays A B [SPEC]: diagnostics on stdout; 0 when every
# server relayed what dpsim predicts (4 requests A -> B and 4 replies; a
# server on both paths, or twice on one after a u-turn, relays more).  In
# the shortest mode a flow's path depends on its hash, which only the
# kernel knows: the relays must match one of dpsim's paths each way
# (dp_relays.py pairs them up).
fabric_check_relays() {
	local a=$1 b=$2 spec=${3:-} s d bad=0 fh rh ph want got='' tmp pong
	local -A exp=() before=() st0=()
	[ "$FWD_OK" = 1 ] || fabric_fwd_snapshot
	FWD_OK=0
	fabric_route "$a" "$b" "$spec" || return 1
	fh=$R_HOPS ph=$R_PHASES
	[ "$R_DELIVERED" = true ] || { echo "# dpsim cannot deliver $a -> $b${spec:+ under $spec}"; bad=1; }
	for s in "${R_RELAYS[@]}"; do exp[$s]=$((${exp[$s]:-0} + 4)); done
	fabric_route "$b" "$a" "$spec" || return 1
	rh=$R_HOPS
	[ "$R_DELIVERED" = true ] || { echo "# dpsim cannot deliver $b -> $a${spec:+ under $spec}"; bad=1; }
	for s in "${R_RELAYS[@]}"; do exp[$s]=$((${exp[$s]:-0} + 4)); done
	for s in "${SERVERS[@]}"; do before[$s]=${FWD[$s]:-0}; done
	# DPILLAR_RELAY_DIAG=1: also every counter that moved meanwhile (but
	# the Hellos'), shown with a mismatch: which server tunnelled,
	# u-turned or dropped the frame that went astray (one more snapshot
	# and about 3 s of guest time per check, so not by default).
	[ -z "${DPILLAR_RELAY_DIAG:-}" ] ||
		{ fabric_snapshot; for s in "${!ST[@]}"; do st0[$s]=${ST[$s]}; done; }
	pong=$(ip netns exec "${FNS[$a]}" ping -c 4 -i 0.2 -W 2 "${FIP4[$b]}") ||
		{ echo "# ping $a -> $b failed"; bad=1; }
	echo "# answered:$(grep -o ' icmp_seq=[0-9]*' <<<"$pong" | tr -d '\n')"
	fabric_fwd_snapshot
	if [ -n "${DPILLAR_RELAY_DIAG:-}" ]; then
		for s in "${!ST[@]}"; do
			[[ $s == *hello* ]] || [ "${ST[$s]}" = "${st0[$s]:-0}" ] ||
				echo "# counter $s: ${st0[$s]:-0} -> ${ST[$s]}"
		done | sort
	fi
	if [ "$FABRIC_MODE" = shortest ]; then
		for s in "${SERVERS[@]}"; do
			d=$((${FWD[$s]:-0} - before[$s]))
			[ "$d" -ne 0 ] && got+=" $s=$d"
		done
		tmp=$(mktemp -d)
		if fabric_routes "$a" "$b" "$spec" > "$tmp/fwd" &&
		   fabric_routes "$b" "$a" "$spec" > "$tmp/rev"; then
			python3 "$DPILLAR_REPO/selftests/dp_relays.py" "$got" \
				"$tmp/fwd" "$tmp/rev" || bad=1
		else
			echo "# dpsim route --all-hashes failed"
			bad=1
		fi
		rm -rf "$tmp"
	else
		for s in "${SERVERS[@]}"; do
			d=$((${FWD[$s]:-0} - before[$s]))
			want=${exp[$s]:-0}
			if [ "$d" -ne "$want" ]; then
				echo "# $a -> $b: $s relayed $d, dpsim says $want"
				bad=1
			fi
		done
	fi
	echo "# $a -> $b: $fh hops ($ph), back $rh; mode $FABRIC_MODE"
	return $bad
}

# fabric_relay_test DESC A B [SPEC]: fabric_check_relays as a KTAP result,
# in this shell (run_test's subshell would lose the snapshot); its
# diagnostics shown on failure or with V=1.
fabric_relay_test() {
	local desc=$1 out rc
	shift
	out=$(mktemp)
	fabric_check_relays "$@" > "$out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || [ "$V" = 1 ] && cat "$out"
	rm -f "$out"
	ktap_result "$desc" $rc
	return $rc
}

# fabric_trace A B: the servers that answered A's route trace to B (flow
# hash 0), A first, "*" for a probe not answered, and "delivered" or
# "dropped" last.  A server that could not route a probe answers
# "noroute" after answering the probe before it as a relay: it is on the
# path once.
fabric_trace() {
	"$DPCTL" -n "${FNS[$1]}" -j route trace "$2" hash 0 \
		timeout 2000 |
		jq -r '.[0] | [.src] + [.hops[] | select(.status != "noroute" and
			.status != "noneigh") | .addr // "*"] +
			[if .delivered then "delivered" else "dropped" end] |
			join(" ")'
}

# fabric_trace_test DESC A B [SPEC]: see the list at the top.
fabric_trace_test() {
	local desc=$1 a=$2 b=$3 spec=$4 got want
	got=$(fabric_trace "$a" "$b")
	# dpsim routes to no failed server: the trace toward one is
	# dropped, every probe answered, and the failed server answers none.
	if [[ ,$spec, == *",$b,"* ]]; then
		[[ $got == *" dropped" && $got != *"*"* &&
			" $got " != *" $b "* ]]
		check_eq "$?" 0 "$desc" || ktap_diag "trace: $got"
		return
	fi
	if ! fabric_route "$a" "$b" "$spec"; then
		ktap_result "$desc (dpsim route failed)" 1
		return 1
	fi
	want="${R_PATH[*]} $([ "$R_DELIVERED" = true ] && echo delivered || echo dropped)"
	# dpsim ends a dropped path at the server that dropped it; the trace
	# names it too (its noroute answer), so both lists end the same way.
	check_eq "$got" "$want" "$desc"
}
