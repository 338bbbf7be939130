# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for dpillar selftests (source it from bash), in the style of the
# kernel's tools/testing/selftests/net/lib.sh.
#
#   . "$(dirname "$0")/lib.sh"
#   require_root; require_cmd ip
#   ktap_plan 2                        # optional; else the plan is printed last
#   ns_create a
#   run_test "lo is up" ns_exec a ip link show lo up
#   check_fail -m "No such" "no such dev" ip link show nosuchdev
#   ktap_finish                        # exit 0 all pass, 1 any fail, 4 all skip
#
# Output is KTAP: "TAP version 13", "1..N", "ok N - desc",
# "not ok N - desc", "ok N - desc # SKIP why", diagnostics start with "# ".
# Exit codes follow kselftest: 0 pass, 1 fail, 4 skip (KSFT_SKIP).
#
# Everything a test creates through these helpers (netns, links, a loaded
# module, "defer" commands) is undone by an EXIT trap, even on failure.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

DP_SELFTESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$DP_SELFTESTS/qemuproc.sh"
: "${DPILLAR_REPO:=$(cd "$DP_SELFTESTS/.." && pwd)}"
: "${V:=0}"

# jq: gojq where it is installed (scripts/deps.sh installs it), Debian's
# jq otherwise; every suite's jq is this function, so both must pass.
# Debian 12's jq (1.6) compiles its builtins at every start: in a 6.12
# guest on icount (shift 3) a call took 1.43 s of guest time, gojq's
# 0.095 s, /bin/true 0.017 s (selftests/proc_cost.sh, 2026-11-30), and
# dpillar_link.sh's 38 calls were 56 s of its 82.  gojq prints an
# object's keys sorted: compare arrays, not objects, in checks.
# DPILLAR_JQ=jq: Debian's jq whatever is installed.
if [ "${DPILLAR_JQ:-}" != jq ] && command -v gojq >/dev/null 2>&1; then
	jq() { gojq "$@"; }
fi

_ktap_n=0 _ktap_pass=0 _ktap_fail=0 _ktap_skip=0
_ktap_planned='' _ktap_header=0 _ktap_done=0
_ktap_t=${EPOCHREALTIME//[.,]/}

# _ktap_time: seconds since the previous result (or the start), as a
# diagnostic after each result line, for profiling slow guests (bash
# arithmetic on microseconds: no process).
_ktap_time() {
	local now=${EPOCHREALTIME//[.,]/} d
	d=$(((now - _ktap_t) / 100000))
	echo "#   ($((d / 10)).$((d % 10)) s)"
	_ktap_t=$now
}

_ktap_hdr() {
	[ $_ktap_header = 1 ] && return
	_ktap_header=1
	echo "TAP version 13"
}

# ktap_plan N: announce N tests (optional).
ktap_plan() {
	_ktap_hdr
	_ktap_planned=$1
	echo "1..$1"
}

# ktap_diag MSG...: a diagnostic line (each line of MSG prefixed with "# ").
ktap_diag() {
	_ktap_hdr
	printf '%s\n' "$*" | sed 's/^/# /'
}
log() { ktap_diag "$@"; }

ktap_ok() {
	_ktap_hdr
	_ktap_n=$((_ktap_n + 1)) _ktap_pass=$((_ktap_pass + 1))
	echo "ok $_ktap_n - $*"
	_ktap_time
}

ktap_fail() {
	_ktap_hdr
	_ktap_n=$((_ktap_n + 1)) _ktap_fail=$((_ktap_fail + 1))
	echo "not ok $_ktap_n - $*"
	_ktap_time
}

# ktap_skip DESC REASON
ktap_skip() {
	_ktap_hdr
	_ktap_n=$((_ktap_n + 1)) _ktap_skip=$((_ktap_skip + 1))
	echo "ok $_ktap_n - $1 # SKIP ${2:-}"
	_ktap_time
}

# ktap_result DESC RC: ok if RC is 0, skip if 4, else not ok.
ktap_result() {
	case "$2" in
	0) ktap_ok "$1" ;;
	"$KSFT_SKIP") ktap_skip "$1" ;;
	*) ktap_fail "$1" ;;
	esac
}

# run_test DESC CMD...: run CMD; its output is shown as diagnostics when it
# fails (always with V=1).  Returns CMD's status.  CMD exiting 4 = skip.
run_test() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || [ "$V" = 1 ]; then
		[ -n "$out" ] && ktap_diag "$out"
	fi
	[ $rc -ne 0 ] && [ $rc -ne "$KSFT_SKIP" ] && ktap_diag "failed (rc=$rc): $*"
	ktap_result "$desc" $rc
	return $rc
}

# run_here DESC CMD...: run_test in this shell, not a subshell, so that
# CMD may set the caller's variables (a fabric's PF_* arrays, a pair
# chosen); its output goes through a file.
run_here() {
	local desc=$1 f rc
	shift
	f=$(mktemp) || return 1
	"$@" > "$f" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ "$V" = 1 ]; then
		[ -s "$f" ] && ktap_diag "$(cat "$f")"
	fi
	rm -f "$f"
	[ $rc -ne 0 ] && [ $rc -ne "$KSFT_SKIP" ] && ktap_diag "failed (rc=$rc): $*"
	ktap_result "$desc" $rc
	return $rc
}

# wait_for TIMEOUT_S CMD...: poll CMD every 0.1 s until it succeeds;
# fails when TIMEOUT_S (whole seconds) passes first.  The clock is bash's
# own (a date process per poll costs ~0.2 s under TCG).  For state that settles
# asynchronously (Hellos, counters, subscriptions): a fixed sleep is
# either too long on a stock guest or too short on a debug one.
wait_for() {
	local end=$((${EPOCHREALTIME//[.,]/} + $1 * 1000000))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME//[.,]/}" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# check_eq ACTUAL EXPECTED DESC
check_eq() {
	if [ "$1" = "$2" ]; then
		ktap_ok "$3"
		return 0
	fi
	ktap_diag "expected: '$2'" "actual:   '$1'"
	ktap_fail "$3"
	return 1
}

# check_fail [-m SUBSTRING] DESC CMD...: CMD must fail (and, with -m, its
# stderr must contain SUBSTRING).
check_fail() {
	local want='' desc err rc
	if [ "$1" = "-m" ]; then want=$2; shift 2; fi
	desc=$1
	shift
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ]; then
		ktap_diag "command unexpectedly succeeded: $*"
		ktap_fail "$desc"
		return 1
	fi
	if [ -n "$want" ] && [[ "$err" != *"$want"* ]]; then
		ktap_diag "stderr lacks '$want':" "$err"
		ktap_fail "$desc"
		return 1
	fi
	ktap_ok "$desc"
	return 0
}

# ktap_finish: print totals, run cleanup, exit 0/1/4.
ktap_finish() {
	_ktap_hdr
	_ktap_done=1
	[ -n "$_ktap_planned" ] || echo "1..$_ktap_n"
	if [ -n "$_ktap_planned" ] && [ "$_ktap_planned" != $_ktap_n ]; then
		ktap_diag "planned $_ktap_planned tests but ran $_ktap_n"
		_ktap_fail=$((_ktap_fail + 1))
	fi
	echo "# Totals: pass:$_ktap_pass fail:$_ktap_fail skip:$_ktap_skip"
	if [ $_ktap_fail -gt 0 ]; then
		exit $KSFT_FAIL
	elif [ $_ktap_pass -eq 0 ] && [ $_ktap_skip -gt 0 ]; then
		exit $KSFT_SKIP
	elif [ $_ktap_pass -eq 0 ]; then
		ktap_diag "no test ran"
		exit $KSFT_FAIL
	fi
	exit $KSFT_PASS
}

# ktap_skip_all REASON: nothing can run here (missing requirement): exit 4.
ktap_skip_all() {
	_ktap_hdr
	_ktap_done=1
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

# ---- requirements -----------------------------------------------------------
require_root() {
	[ "$(id -u)" -eq 0 ] || ktap_skip_all "must be root"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || ktap_skip_all "missing command: $c"
	done
}

# require_vm: the test changes kernel state; only run it in the test guest.
require_vm() {
	[ "${DPILLAR_IN_VM:-0}" = 1 ] ||
		ktap_skip_all "run under selftests/vm/run-vm.sh (DPILLAR_IN_VM unset)"
}

# ---- cleanup ----------------------------------------------------------------
_cleanup_cmds=()
_ns_list=()
_link_list=()
_module_loaded=

# defer CMD...: run CMD (via eval) at exit, in reverse order of registration.
defer() { _cleanup_cmds+=("$*"); }

cleanup() {
	local i ns l
	for ((i = ${#_cleanup_cmds[@]} - 1; i >= 0; i--)); do
		eval "${_cleanup_cmds[i]}" >/dev/null 2>&1
	done
	_cleanup_cmds=()
	for l in "${_link_list[@]}"; do
		# "name" or "name@ns"
		if [[ "$l" == *@* ]]; then
			ip -n "${l#*@}" link del "${l%@*}" >/dev/null 2>&1
		else
			ip link del "$l" >/dev/null 2>&1
		fi
	done
	_link_list=()
	for ns in "${_ns_list[@]}"; do
		ip netns del "$ns" >/dev/null 2>&1
	done
	_ns_list=()
	if [ -n "$_module_loaded" ]; then
		rmmod "$_module_loaded" >/dev/null 2>&1 ||
			echo "# cleanup: rmmod $_module_loaded failed"
		_module_loaded=
	fi
}

_lib_exit() {
	local rc=$?
	trap - EXIT
	cleanup
	exit $rc
}
trap _lib_exit EXIT
trap 'exit 1' INT TERM HUP

# Every ping turns socket timestamps on, and the first user flips the
# netstamp static key, which live-patches __netif_receive_skb_core.  Under
# QEMU TCG with two vCPUs, patching code another vCPU is executing can end
# in an int3 Oops (seen once in ~8 runs, never with the module involved).
# One long-lived ping holds the key on, so it flips once, here, before any
# traffic, instead of with every ping of the test.
if [ "${DPILLAR_IN_VM:-0}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
	ping -q -n -i 30 127.0.0.1 >/dev/null 2>&1 &
	_netstamp_pin=$!
	defer "kill $_netstamp_pin"
	sleep 0.2
fi

# require_tools: DPCTL, DPSIM (built, or the suite is skipped) and
# FABRIC_PY, for the suites that build fabrics from dpsim's plans.
require_tools() {
	DPCTL=${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}
	DPSIM=${DPSIM:-$DPILLAR_REPO/tools/dpsim/dpsim}
	# shellcheck disable=SC2034 # the suites use it
	FABRIC_PY=$(dirname "$0")/dp_fabric.py
	[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
	[ -x "$DPSIM" ] || ktap_skip_all "dpsim not built"
}

# dpctl_paths: the "path" of every answer of "dpctl -j route get ..."
# (or of several, e.g. a -batch of them) on stdin, comma separated, a line
# each, in order; one grep (no jq: ~0.4 s to start under TCG).
dpctl_paths() {
	local p
	while read -r p; do
		p=${p#*[}
		p=${p%]}
		echo "${p//[\" ]/}"
	done < <(grep -o '"path": *\[[^]]*\]')
}

# route_get_cmp NS SRC MODES K WANT DST...: in netns NS (server SRC),
# "dpctl route get DST..." under each routing mode of MODES in turn
# ("link set dp0 mode M" first; the first of MODES is set again at the
# end), each answer's path compared with WANT["M SRC DST"], WANT the name
# of the caller's associative array of dpsim's paths (comma separated);
# MODES empty: the device's mode as it is, and WANT["SRC DST"].  Sets
# RG_CMP and RG_BAD (this call's comparisons and differences), prints
# the first 10 differences; false when one differs.
# DPILLAR_PAIR_STRIDE=S (make check's newest kernel: 2) asks for every
# S-th destination only, a different share each mode and source: source
# number K's share in its m-th mode (m from 0) starts at DST number
# (K + m) mod S, so that the sources K = 0, 1, ... together still cover
# every destination in every mode.
# One dpctl -batch and one dpctl_paths per source, whatever the modes: a TCG
# guest pays ~0.1 s to start a process and ~0.4 s to start jq, which
# was most of the time of the comparisons when each (mode, source) had
# its own "ip netns exec dpctl" pair and jq.
route_get_cmp() {
	local ns=$1 src=$2 modes=${3:--} share=$4 m k i=0 b='' got
	local -n _rg_want=$5
	local stride=${DPILLAR_PAIR_STRIDE:-1}
	shift 5
	local -a keys=() dl first
	RG_CMP=0 RG_BAD=0
	for m in $modes; do
		dl=()
		for ((k = share++ % stride + 1; k <= $#; k += stride)); do
			dl+=("${!k}")
		done
		[ "$m" = - ] || b+="link set dp0 mode $m"$'\n'
		# at most 100 destinations a line (dpctl -batch: 128 words)
		for ((k = 0; k < ${#dl[@]}; k += 100)); do
			b+="route get ${dl[*]:k:100} dev dp0"$'\n'
		done
		for k in "${dl[@]}"; do
			if [ "$m" = - ]; then
				keys+=("$src $k")
			else
				keys+=("$m $src $k")
			fi
		done
	done
	[ ${#keys[@]} -gt 0 ] || return 0
	read -r -a first <<<"$modes"
	[ "${first[0]}" = - ] || b+="link set dp0 mode ${first[0]}"$'\n'
	while read -r got; do
		RG_CMP=$((RG_CMP + 1))
		if [ "$got" != "${_rg_want[${keys[i]:-?}]}" ]; then
			RG_BAD=$((RG_BAD + 1))
			[ $RG_BAD -le 10 ] &&
				echo "${keys[i]}: dpctl $got, dpsim ${_rg_want[${keys[i]:-?}]}"
		fi
		i=$((i + 1))
	done < <(printf '%s' "$b" | "$DPCTL" -n "$ns" -j -b - | dpctl_paths)
	if [ "$i" != "${#keys[@]}" ]; then
		echo "$src: $i answers for ${#keys[@]} (mode, destination)"
		RG_BAD=$((RG_BAD + 1))
	fi
	[ $RG_BAD = 0 ]
}

# fuzz_expect OUT WANT: selftests/dp_framefuzz.py's "expect COUNTER N"
# lines (the drops its frames must cause) in its output OUT, into the
# caller's associative array named WANT; false when there is none.
fuzz_expect() {
	local -n _fw=$2
	local _l _c _n
	while read -r _l; do
		case "$_l" in
		expect\ *) read -r _ _c _n <<<"$_l"; _fw[$_c]=$_n ;;
		esac
	done <<<"$1"
	[ ${#_fw[@]} -gt 0 ]
}

# ns_del_matching ERE: delete every network namespace whose name matches.
ns_del_matching() {
	# One ip for all of them (a process costs 0.1-1 s under TCG, more on
	# the debug kernel); -force: a namespace gone meanwhile stops nothing.
	ip netns list | awk -v re="$1" '$1 ~ re { print "netns del " $1 }' |
		ip -force -batch - 2>/dev/null
	return 0
}

# ns_quiet_push / ns_quiet_pop: while a fabric's namespaces are made, they
# inherit IPv6 defaults from init_net with no DAD, router solicitation,
# autoconf or RA (hundreds of namespaces would otherwise chatter and wait);
# pop restores init_net's values.  Plain file I/O: no process spawns
# (slow under TCG).
ns_quiet_push() {
	local f v
	NS_QUIET_SAVED=()
	for f in core/devconf_inherit_init_net ipv6/conf/default/accept_dad \
		ipv6/conf/default/router_solicitations ipv6/conf/default/autoconf \
		ipv6/conf/default/accept_ra; do
		f=/proc/sys/net/$f
		[ -w "$f" ] || continue
		read -r v < "$f" && NS_QUIET_SAVED+=("$f=$v")
		case "$f" in
		*inherit*) echo 1 > "$f" ;;
		*) echo 0 > "$f" ;;
		esac
	done
}

ns_quiet_pop() {
	local f
	for f in "${NS_QUIET_SAVED[@]}"; do echo "${f#*=}" > "${f%=*}"; done
	NS_QUIET_SAVED=()
}

# fabric_netns SWNS NS...: a fabric's namespaces, one ip -batch under
# quiet IPv6 defaults (ns_quiet_push: veths made in them later inherit
# those): SWNS holds the switches (bridges, veth ends: IPv6 off, which
# would only add link-local chatter to every switch port; lo up), each
# NS a server.  plan_fabric.sh's (every suite's fabric builder) and
# the tests that make namespaces of their own.
fabric_netns() {
	local sw=$1 ns b rc=0
	shift
	b="netns add $sw"$'\n'
	for ns in "$@"; do b+="netns add $ns"$'\n'; done
	ns_quiet_push
	printf '%s' "$b" | ip -batch - || rc=1
	ip netns exec "$sw" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv6.conf.all.disable_ipv6=1 || rc=1
	ip -n "$sw" link set lo up || rc=1
	ns_quiet_pop
	return $rc
}

# ---- namespaces and links ---------------------------------------------------
# ns_create NAME...: new netns (deleted at exit), loopback up.
ns_create() {
	local ns
	for ns in "$@"; do
		ip netns del "$ns" >/dev/null 2>&1
		ip netns add "$ns" || return 1
		_ns_list+=("$ns")
		ip -n "$ns" link set lo up || return 1
	done
}

# ns_exec NAME CMD...
ns_exec() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# dp_stats NETNS DEV NAME...: the ethtool -S counters NAME... of DEV in
# NETNS, from one ethtool, on one line in the order asked (0 for a counter
# DEV does not have).
dp_stats() {
	local ns=$1 dev=$2
	shift 2
	ip netns exec "$ns" ethtool -S "$dev" | awk -v want="$*" '
		{ sub(":$", "", $1); v[$1] = $2 }
		END { n = split(want, k, " ")
		      for (i = 1; i <= n; i++)
			      printf "%s%s", (k[i] in v ? v[k[i]] : 0), (i < n ? " " : "\n") }'
}

# dp0_stat NETNS NAME: the ethtool -S counter NAME of the dp0 in NETNS
# (empty when there is no such counter).
dp0_stat() {
	ip netns exec "$1" ethtool -S dp0 | awk -v k="$2:" '$1 == k { print $2 }'
}

# genl_unconfigured NETNS DEV: ROUTE_GET, DEV_GET and NEIGH_GET (a dump)
# of DEV, an unconfigured dpillar device in NETNS, through dp_genl.py, on
# one line with ROUTE_GET's reason left out: "error EINVAL: reason ok 1
# ok 0" is what the kernel must answer (the route refused with a reason,
# the device, no neighbour).
genl_unconfigured() {
	local idx
	idx=$(ip -n "$1" -j link show "$2" | jq '.[0].ifindex')
	printf '%s\n' "route-get do ifindex=u32:$idx dst=u32:1" \
		"dev-get do ifindex=u32:$idx" "neigh-get dump ifindex=u32:$idx" |
		ip netns exec "$1" python3 "$DP_SELFTESTS/dp_genl.py" |
		sed 's/^error EINVAL: .*/error EINVAL: reason/' | paste -sd' '
}

# ns_nobody NAME CMD...: CMD in netns NAME as nobody, with no capability.
ns_nobody() {
	local ns=$1
	shift
	ip netns exec "$ns" setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all --bounding-set=-all "$@"
}

# track_link NAME [NS]: delete link NAME (in NS) at exit.
track_link() {
	_link_list+=("$1${2:+@$2}")
}

# dp0_up NS IP4 IP6: dp0 up in NS with the fabric addresses of one server
# (IP4/32, IP6/128) and the routes to the rest of the fabric (10/8 and
# the /96 of the default prefixes).
dp0_up() {
	ip -n "$1" -b - <<-EOF
	link set dp0 up
	addr add $2/32 dev dp0
	route add 10.0.0.0/8 dev dp0
	addr add $3/128 dev dp0 nodad
	route add fd64:7069:6c6c:6172::/96 dev dp0
	EOF
}

# ---- emulated NICs (run-vm.sh --nic MODEL:HUB) -------------------------------
# nic_driver MODEL: the guest driver of QEMU NIC model MODEL.
nic_driver() {
	case "$1" in
	virtio-net-pci) echo virtio_net ;;
	rtl8139) echo 8139cp ;;		# QEMU's is a C+ (revision 0x20)
	*) echo "$1" ;;
	esac
}

# nic_malformed NS: the frames NS counted malformed: its dp0's drops of
# bad frames (drop_short, _inner, _proto, _version, _type) and the frames
# it could not segment or checksum for a NIC (tx_complete_fail, gso.c),
# when NS has a dp0; and the stack's checksum and header errors
# (InCsumErrors, InHdrErrors of Ip, Tcp, Udp in /proc/net/snmp).
nic_malformed() {
	local n=$1 v=0 w
	if ip -n "$n" link show dp0 >/dev/null 2>&1; then
		w=$("${DPCTL:-$DPILLAR_REPO/tools/dpctl/dpctl}" -n "$n" -j stats dp0 |
			jq '.[0].stats | [.drop_short, .drop_inner, .drop_proto,
				.drop_version, .drop_type, .tx_complete_fail] |
				map(. // 0) | add') || return 1
		v=$((v + w))
	fi
	w=$(ip netns exec "$n" awk '
		/^(Ip|Tcp|Udp):/ {
			if (!($1 in h)) { for (i = 2; i <= NF; i++) h[$1, i] = $i; h[$1] = 1; next }
			for (i = 2; i <= NF; i++)
				if (h[$1, i] ~ /^(InCsumErrors|InHdrErrors)$/) s += $i
		} END { print s + 0 }' /proc/net/snmp) || return 1
	echo $((v + w))
}

# The NIC driver warnings the NIC suites treat as a splat.
NIC_WARN='checksum_partial|hw csum failure|Detected Tx Unit Hang|NETDEV WATCHDOG|transmit queue [0-9]+ timed out|tx timeout|Bad checksum|skb_warn_bad_offload|bad offload|wrong gso|gso_size'

# nic_warnings MARK: the first five such warnings in the kernel log since
# MARK (dmesg_mark); nothing when there is none.
nic_warnings() {
	dmesg_since "$1" | grep -E -i "$NIC_WARN" | head -n 5
}

# nic_chain_setup M HUB_A HUB_B: the chain of the benches (nic_bench.sh,
# nic_tcp_cost.sh) on model M's four NICs (nic_chain_vm_args): the
# namespaces of the caller's "ns M ROLE" for s, r and d, with IPv6 and
# rp_filter off; HUB_A's two NICs become s.p1 and r.p1, HUB_B's r.p0 and
# d.p0; s.p0 and d.p1 are veths (dp0 needs two ports); every port up.
nic_chain_setup() {
	local m=$1 a b r n
	wait_for 20 nic_count "$2" 2 || { echo "no NICs on hub $2" >&2; return 1; }
	wait_for 20 nic_count "$3" 2 || { echo "no NICs on hub $3" >&2; return 1; }
	read -r -a a <<<"$(nics "$2" | tr '\n' ' ')"
	read -r -a b <<<"$(nics "$3" | tr '\n' ' ')"
	for r in s r d; do
		n=$(ns "$m" $r)
		ip netns add "$n" || return 1
		ip -n "$n" link set lo up
		ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 \
			net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
	done
	ip link set "${a[0]}" netns "$(ns "$m" s)" name p1 || return 1
	ip link set "${a[1]}" netns "$(ns "$m" r)" name p1 || return 1
	ip link set "${b[0]}" netns "$(ns "$m" r)" name p0 || return 1
	ip link set "${b[1]}" netns "$(ns "$m" d)" name p0 || return 1
	ip -n "$(ns "$m" s)" link add p0 type veth peer name p0x || return 1
	ip -n "$(ns "$m" d)" link add p1 type veth peer name p1x || return 1
	for r in s r d; do
		n=$(ns "$m" $r)
		ip -n "$n" link set p0 up && ip -n "$n" link set p1 up || return 1
	done
}

# nic_chain_dp0 M WHO / nic_chain_dp0_down M: dp0 on the chain of
# nic_chain_setup, DPillar (4,2) with node ids 0 (s), 2 (r, the relay)
# and 3 (d), as in nic_tcp_test.sh: 10.0.0.ID/32 on each, 10.0.0.0/8 on
# dp0; s.p0 and d.p1 (the veths) released, an absent port each.  Up when
# s reaches d and r, and d reaches s (WHO names the caller in an error).
# Down: dp0 deleted, the veths and NICs up again for the next contender.
# BENCH_NIC_OFFLOAD=on|off: dp0's nic_offload setting (default: the
# module's, off).
nic_chain_dp0() {
	local m=$1 who=$2 i n ids=(0 2 3) roles=(s r d) s
	for i in 0 1 2; do
		n=$(ns "$m" "${roles[i]}")
		"$DPCTL" -n "$n" link add dp0 topo dpillar n 4 k 2 \
			addr "#${ids[i]}" port0 p0 port1 p1 hello 100 dead 1000 \
			${BENCH_NIC_OFFLOAD:+nic_offload "$BENCH_NIC_OFFLOAD"} ||
			return 1
		ip -n "$n" -b - <<-EOF || return 1
		link set dp0 up
		addr add 10.0.0.${ids[i]}/32 dev dp0
		route add 10.0.0.0/8 dev dp0
		EOF
	done
	s=$(ns "$m" s)
	ip -n "$s" link set p0 nomaster || return 1
	ip -n "$(ns "$m" d)" link set p1 nomaster || return 1
	for i in "$s 10.0.0.3 s cannot reach d" "$s 10.0.0.2 s cannot reach r" \
		 "$(ns "$m" d) 10.0.0.0 d cannot reach s"; do
		set -- $i
		wait_for 30 ip netns exec "$1" ping -c1 -W1 -q "$2" >/dev/null ||
			{ echo "$who: dp0: ${i#* * }" >&2; return 1; }
	done
}
nic_chain_dp0_down() {
	local r
	for r in s r d; do ip -n "$(ns "$1" $r)" link del dp0; done
	for r in s r d; do
		ip -n "$(ns "$1" $r)" link set p0 up
		ip -n "$(ns "$1" $r)" link set p1 up
	done
}

# The rest of the chain's life, shared by nic_tcp_cost.sh and
# nic_tcp_split.sh (both over the caller's "ns M ROLE").
# nic_chain_destroy: kill the caller's PIDS, remove its WORK and every
# chain namespace (nc<M>-<role>).
nic_chain_destroy() {
	local n
	[ ${#PIDS[@]} = 0 ] || kill "${PIDS[@]}" 2>/dev/null
	rm -rf "$WORK"
	for n in $(ip netns list | awk '/^nc[0-9]+-/ { print $1 }'); do
		ip netns del "$n"
	done
}

# nic_neigh_pin NS DEV IP PEERNS PEERDEV: IP (PEERNS's PEERDEV) permanent
# in NS's neighbour table.
nic_neigh_pin() {
	ip -n "$1" neigh replace "$3" dev "$2" nud permanent \
		lladdr "$(ip -n "$4" -j link show dev "$5" | jq -r '.[0].address')"
}

# nic_chain_ipv4_up M: plain IPv4 over model M's chain, r forwarding
# between 172.16.1.0/24 (s.p1, r.p1) and 172.16.2.0/24 (r.p0, d.p0),
# neighbours pinned, d (172.16.2.2) answering s; nic_chain_ipv4_down M
# takes it off again.
nic_chain_ipv4_up() {
	local s r d
	s=$(ns "$1" s) r=$(ns "$1" r) d=$(ns "$1" d)
	ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$s" addr add 172.16.1.1/24 dev p1 &&
	ip -n "$r" addr add 172.16.1.2/24 dev p1 &&
	ip -n "$r" addr add 172.16.2.1/24 dev p0 &&
	ip -n "$d" addr add 172.16.2.2/24 dev p0 &&
	ip -n "$s" route add 172.16.0.0/16 via 172.16.1.2 &&
	ip -n "$d" route add 172.16.0.0/16 via 172.16.2.1 &&
	nic_neigh_pin "$s" p1 172.16.1.2 "$r" p1 &&
	nic_neigh_pin "$r" p1 172.16.1.1 "$s" p1 &&
	nic_neigh_pin "$r" p0 172.16.2.2 "$d" p0 &&
	nic_neigh_pin "$d" p0 172.16.2.1 "$r" p0 || return 1
	wait_for 30 ip netns exec "$s" ping -c1 -W1 -q 172.16.2.2 >/dev/null
}
nic_chain_ipv4_down() {
	local x
	ip netns exec "$(ns "$1" r)" sysctl -qw net.ipv4.ip_forward=0
	for x in s:p1 r:p1 r:p0 d:p0; do
		ip -n "$(ns "$1" "${x%%:*}")" addr flush dev "$(cut -d: -f2 <<<"$x")"
		ip -n "$(ns "$1" "${x%%:*}")" neigh flush dev "$(cut -d: -f2 <<<"$x")"
	done
}

# nic_chain_offloads M on|off ROLE:DEV[:...]...: those NICs' offloads
# (tx, sg, tso, gso, gro); a model that fixes a feature refuses to change
# it, and what could change has.
nic_chain_offloads() {
	local m=$1 v=$2 x
	shift 2
	for x in "$@"; do
		ip netns exec "$(ns "$m" "${x%%:*}")" ethtool -K "$(cut -d: -f2 <<<"$x")" \
			tx "$v" sg "$v" tso "$v" gso "$v" gro "$v" >/dev/null 2>&1
	done
	return 0
}

# nic_drivers_load MODEL...: each model's driver loaded (a no-op where it
# is built in), unloaded at exit so that later suites in the same guest
# find no stray NICs.  Fails when one cannot be loaded.
nic_drivers_load() {
	local m d
	for m in "$@"; do
		d=$(nic_driver "$m")
		[ -d "/sys/bus/pci/drivers/$d" ] ||
			[ -d "/sys/bus/virtio/drivers/$d" ] ||
			modprobe "$d" || return 1
		defer "modprobe -r $d 2>/dev/null"
	done
}

# nics HUB: the guest's names of the NICs on hub HUB, in --nic order
# (run-vm.sh gives the i-th --nic the MAC 52:54:00:d9:HUB:i).
nics() {
	local f a hub out=()
	printf -v hub '52:54:00:d9:%02x:' "$1"
	for f in /sys/class/net/*/address; do
		read -r a < "$f"
		[[ $a == "$hub"* ]] && out+=("$a ${f%/address}")
	done
	[ ${#out[@]} -gt 0 ] || return 0
	printf '%s\n' "${out[@]}" | sort | while read -r a f; do
		echo "${f##*/}"
	done
}

# nic_count HUB N: hub HUB has N NICs in this namespace (for wait_for:
# they appear as their drivers probe them).
nic_count() { [ "$(nics "$1" | wc -l)" -eq "$2" ]; }

# nic_chain_vm_args BASE MODEL...: run-vm.sh's --nic options for a chain
# of three servers per model, four NICs on two hubs: the m-th model (from
# 0) gets hubs BASE+2m (A: s.p1 r.p1) and BASE+2m+1 (B: r.p0 d.p0).
# A model named in NIC_TAP (every model when NIC_MQ is set) has its NICs
# on host taps of NIC_MQ queues (default 1) on host bridges instead (run-vm.sh, --nic MODEL:HUB/Q): a
# tap gives virtio-net the checksum and TSO offloads a hub cannot.  That
# needs root and /dev/net/tun on the host; without them the model stays
# on hubs, and this says so on stderr.
nic_chain_vm_args() {
	local a=$1 m q
	shift
	for m in "$@"; do
		q=
		if [ -n "${NIC_MQ:-}" ] || [[ " ${NIC_TAP:-} " == *" $m "* ]]; then
			if [ "$(id -u)" = 0 ] && [ -c /dev/net/tun ]; then
				q=/${NIC_MQ:-1}
			else
				echo "NIC_TAP: not root or no /dev/net/tun: $m on hubs" >&2
			fi
		fi
		printf -- '--nic %s:%s ' "$m" "$a$q" "$m" "$a$q" "$m" \
			"$((a + 1))$q" "$m" "$((a + 1))$q"
		a=$((a + 2))
	done
	echo
}

# ---- module -----------------------------------------------------------------
# load_module: insmod $DPILLAR_KO, or modprobe dpillar when it is unset.
# Unloaded at exit.  Returns 4 (skip) when no module can be found.
load_module() {
	local name=dpillar
	if lsmod | grep -q "^$name "; then
		ktap_diag "module $name already loaded"
		return 0
	fi
	if [ -n "${DPILLAR_KO:-}" ]; then
		[ -f "$DPILLAR_KO" ] || { ktap_diag "no $DPILLAR_KO"; return $KSFT_SKIP; }
		insmod "$DPILLAR_KO" "$@" || return 1
	else
		modinfo "$name" >/dev/null 2>&1 ||
			{ ktap_diag "no module $name and DPILLAR_KO unset"; return $KSFT_SKIP; }
		modprobe "$name" "$@" || return 1
	fi
	_module_loaded=$name
}

unload_module() {
	[ -n "$_module_loaded" ] || return 0
	rmmod "$_module_loaded" && _module_loaded=
}

# ---- kernel log ---------------------------------------------------------------
# dmesg_mark: write a unique marker into the kernel log; prints the marker.
dmesg_mark() {
	local m
	m="dpillar-selftest-mark-$$-$RANDOM-$(date +%s%N)"
	echo "<6>$m" > /dev/kmsg
	echo "$m"
}

# dmesg_since MARKER: kernel log after MARKER.
dmesg_since() {
	dmesg | sed -n "/$1/,\$p" | tail -n +2
}

# dmesg_check MARKER: fail (1) and show the lines when the kernel log since
# MARKER holds a splat (patterns in selftests/vm/splat-patterns.txt).
dmesg_check() {
	local hits f rc
	# a file, not /dev/stdin: the scan must not depend on /dev/fd
	f=$(mktemp) || return 1
	dmesg_since "$1" > "$f" || { rm -f "$f"; return 1; }
	hits=$("$DP_SELFTESTS/vm/splat-scan.sh" "$f")
	rc=$?
	rm -f "$f"
	[ $rc -eq 0 ] && return 0
	[ $rc -eq 1 ] || { ktap_diag "splat-scan failed (rc=$rc)"; return 1; }
	ktap_diag "kernel splat:" "$hits"
	return 1
}
