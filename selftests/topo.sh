# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# DPillar topology builder (source it from bash; needs root, ip, a kernel
# with veth and bridge).  Wiring per /work/shared/papers/READING-NOTES.md:
#
#   (n, k), h = n/2; server (C, v_{k-1}..v_0), C in [0,k), v_i in [0,h);
#   N = k*h^k servers, k*h^(k-1) switches of n ports.
#   Server (C, L) port 0 -> switch of S_C       with id = L minus symbol C
#                 port 1 -> switch of S_{C-1}   with id = L minus symbol C-1
#   (k taken mod k; "L minus symbol c" = the other symbols, same order,
#   read as a base-h number, v_{k-1} most significant.)
#
# Names (all derived from the address, so any process can recompute them):
#   address text   C:v_{k-1}.....v_0            e.g. 2:3.0.1 (k = 3)
#   server netns   dp-C-v_{k-1}.....v_0          e.g. dp-2-3.0.1
#                  with interfaces p0 and p1 (ports 0 and 1) and lo
#   switch netns   dpsw: one bridge per switch, named s<c>x<id> (e.g. s1x5)
#   switch side    veth peer of server index i = C*h^k + L, port p:
#                  v<i>p<p> in dpsw (e.g. v17p1), enslaved to its bridge
#   label          L = sum v_i h^i  (base-h number of the symbols)
#
# Bridges: STP off, forward_delay 0, multicast snooping off (multicast
# floods), default ageing.  IPv6 is off in dpsw; server ports get IPv6
# link-local addresses without DAD, router solicitations or autoconf.
#
# API:
#   topo_build N K        build (destroys an older topology first)
#   topo_destroy          delete every dp-* netns and dpsw
#   topo_servers          server addresses, one a line, index order
#   topo_ns_of ADDR       netns of address      (2:3.0.1 -> dp-2-3.0.1)
#   topo_addr_of NS       address of netns      (dp-2-3.0.1 -> 2:3.0.1)
#   topo_switch_of ADDR P bridge of port P      (-> s2x7)
#   topo_peer_of ADDR P   switch-side veth of port P (in dpsw)
#   topo_port_down ADDR P / topo_port_up ADDR P   fail/repair one link
#   topo_server_down ADDR / topo_server_up ADDR   fail/repair both links
# After topo_build (or topo_load), TOPO_N, TOPO_K, TOPO_H, TOPO_NSERVERS,
# TOPO_NSWITCHES are set; topo_load recomputes them from a built topology
# (it reads dpsw's "dpillar.n"/"dpillar.k" bridge alias).

# shellcheck disable=SC2034 # TOPO_* are for the sourcing test
TOPO_SW_NS=dpsw
TOPO_NS_PREFIX=dp-

# Helpers set variables instead of echoing: a $(subshell) costs ~0.1 s in
# a TCG guest and the builder needs thousands of them otherwise.
_topo_set() {
	local i
	TOPO_N=$1 TOPO_K=$2 TOPO_H=$(($1 / 2))
	_TOPO_HP=(1)	# _TOPO_HP[i] = h^i
	for ((i = 1; i <= TOPO_K; i++)); do
		_TOPO_HP[i]=$((_TOPO_HP[i - 1] * TOPO_H))
	done
	_TOPO_HK=${_TOPO_HP[TOPO_K]}
	TOPO_NSERVERS=$((TOPO_K * _TOPO_HK))
	TOPO_NSWITCHES=$((TOPO_K * _TOPO_HK / TOPO_H))
}

# _topo_label_text L: _LT = "v_{k-1}.....v_0"
_topo_label_text() {
	local i
	_LT=
	for ((i = TOPO_K - 1; i >= 0; i--)); do
		_LT+=$((($1 / _TOPO_HP[i]) % TOPO_H))
		[ $i -gt 0 ] && _LT+=.
	done
}

# _topo_swid L c: _SW = L without symbol c, as a base-h number.
_topo_swid() {
	_SW=$(($1 / _TOPO_HP[$2 + 1] * _TOPO_HP[$2] + $1 % _TOPO_HP[$2]))
}

# _topo_parse ADDR: sets _C and _L (label value); 1 if malformed.
_topo_parse() {
	local a=$1 sym L=0 n=0 IFS=.
	[[ "$a" =~ ^[0-9]+:[0-9]+(\.[0-9]+)*$ ]] || return 1
	_C=${a%%:*}
	for sym in ${a#*:}; do
		[ "$sym" -lt "$TOPO_H" ] || return 1
		L=$((L * TOPO_H + sym))
		n=$((n + 1))
	done
	[ $n -eq "$TOPO_K" ] && [ "$_C" -lt "$TOPO_K" ] || return 1
	_L=$L
}

_topo_need() {
	[ -n "${TOPO_K:-}" ] || topo_load || { echo "topo: no topology" >&2; return 1; }
}

topo_ns_of() {
	_topo_need && _topo_parse "$1" || { echo "topo: bad address '$1'" >&2; return 1; }
	echo "$TOPO_NS_PREFIX${1/:/-}"
}

topo_addr_of() {
	local a=${1#"$TOPO_NS_PREFIX"}
	a=${a/-/:}
	_topo_need && _topo_parse "$a" || { echo "topo: bad netns '$1'" >&2; return 1; }
	echo "$a"
}

topo_servers() {
	local C L
	_topo_need || return 1
	for ((C = 0; C < TOPO_K; C++)); do
		for ((L = 0; L < _TOPO_HK; L++)); do
			_topo_label_text $L
			echo "$C:$_LT"
		done
	done
}

# topo_switch_of ADDR PORT
topo_switch_of() {
	_topo_switch_of "$@" && echo "$_SWN"
}
# _topo_switch_of ADDR PORT: the same into _SWN, without a subshell.
_topo_switch_of() {
	local c
	_topo_need && _topo_parse "$1" || return 1
	case "$2" in
	0) c=$_C ;;
	1) c=$(((_C + TOPO_K - 1) % TOPO_K)) ;;
	*) return 1 ;;
	esac
	_topo_swid $_L $c
	_SWN=s${c}x$_SW
}

topo_peer_of() {
	_topo_need && _topo_parse "$1" || return 1
	case "$2" in 0|1) ;; *) return 1 ;; esac
	echo "v$((_C * _TOPO_HK + _L))p$2"
}

topo_port_down() { ip -n $TOPO_SW_NS link set "$(topo_peer_of "$1" "$2")" down; }
topo_port_up() { ip -n $TOPO_SW_NS link set "$(topo_peer_of "$1" "$2")" up; }
topo_server_down() { topo_port_down "$1" 0 && topo_port_down "$1" 1; }
topo_server_up() { topo_port_up "$1" 0 && topo_port_up "$1" 1; }

# topo_load: recover N and K of the topology built in this system.
topo_load() {
	local alias
	alias=$(ip -n $TOPO_SW_NS -o link show dev lo 2>/dev/null |
		sed -n 's/.*alias dpillar\.\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
	[ -n "$alias" ] || return 1
	_topo_set $alias
}

topo_destroy() {
	local f list=()
	for f in /run/netns/"$TOPO_NS_PREFIX"* /run/netns/"$TOPO_SW_NS"; do
		[ -e "$f" ] && list+=("netns del ${f##*/}")
	done
	[ ${#list[@]} -gt 0 ] && printf '%s\n' "${list[@]}" | ip -force -batch - 2>/dev/null
	unset TOPO_N TOPO_K TOPO_H TOPO_NSERVERS TOPO_NSWITCHES _TOPO_HK _TOPO_HP
	return 0
}

# _topo_ifup NS...: set lo, p0 and p1 up in every NS.  One process per
# netns costs ~0.3 s in a TCG guest, so for many namespaces one python3
# process setns()es into each in turn (~3 s to start, then ~10 ms each).
_topo_ifup() {
	local ns
	if [ $# -gt 16 ] && command -v python3 >/dev/null; then
		python3 -S -E - "$@" <<'EOPY'
import ctypes, fcntl, os, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET, SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x40000000, 0x8913, 0x8914, 1
for ns in sys.argv[1:]:
    fd = os.open("/run/netns/" + ns, os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        sys.exit("topo: setns %s: %s" % (ns, os.strerror(ctypes.get_errno())))
    os.close(fd)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for ifn in (b"lo", b"p0", b"p1"):
            req = fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sH22x", ifn, 0))
            flags = struct.unpack("16sH22x", req)[1]
            fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", ifn, flags | IFF_UP))
EOPY
		return
	fi
	for ns in "$@"; do
		printf 'link set lo up\nlink set p0 up\nlink set p1 up\n' |
			ip -n "$ns" -batch - || return 1
	done
}

# TOPO_VERBOSE=1: print the time of each build phase on stderr.
_topo_phase() {
	[ "${TOPO_VERBOSE:-0}" = 1 ] || return 0
	local now=${EPOCHREALTIME/,/.}
	[ "$1" = start ] ||
		printf '# topo: %s %.2fs\n' "$1" "$(echo "$now - $_TOPO_T" | bc)" >&2
	_TOPO_T=$now
}

# topo_build N K
topo_build() {
	local n=$1 k=$2 C L c i p ns sw swc
	if ! [[ "$n" =~ ^[0-9]+$ && "$k" =~ ^[0-9]+$ ]] || [ $((n % 2)) -ne 0 ] ||
	   [ "$n" -lt 2 ] || [ "$k" -lt 2 ]; then
		echo "topo_build: need even n >= 2 and k >= 2 (got n=$n k=$k)" >&2
		return 1
	fi
	topo_destroy
	_topo_set "$n" "$k"
	if [ "$TOPO_NSERVERS" -gt 20000 ]; then
		echo "topo_build: ($n,$k) is too large" >&2
		return 1
	fi

	local nss=() swb
	swb="link set lo alias dpillar.$n.$k"$'\n'
	for ((C = 0; C < k; C++)); do
		for ((L = 0; L < _TOPO_HK; L++)); do
			_topo_label_text $L
			nss+=("$TOPO_NS_PREFIX$C-$_LT")
		done
	done
	for ((c = 0; c < k; c++)); do
		for ((i = 0; i < _TOPO_HK / TOPO_H; i++)); do
			swb+="link add s${c}x$i type bridge stp_state 0 forward_delay 0 mcast_snooping 0"$'\n'
			swb+="link set s${c}x$i up"$'\n'
		done
	done
	for ((C = 0; C < k; C++)); do
		for ((L = 0; L < _TOPO_HK; L++)); do
			_topo_label_text $L
			ns=$TOPO_NS_PREFIX$C-$_LT
			v=v$((C * _TOPO_HK + L))
			for p in 0 1; do
				if [ $p = 0 ]; then swc=$C; else swc=$(((C + k - 1) % k)); fi
				_topo_swid $L $swc
				sw=s${swc}x$_SW
				swb+="link add ${v}p$p type veth peer name p$p netns $ns"$'\n'
				swb+="link set ${v}p$p master $sw up"$'\n'
			done
		done
	done

	local rc=0
	_topo_phase start
	fabric_netns $TOPO_SW_NS "${nss[@]}" || rc=1
	_topo_phase "netns add"
	if [ $rc = 0 ]; then
		printf '%s' "$swb" | ip -n $TOPO_SW_NS -batch - || rc=1
		_topo_phase "bridges+veths"
	fi
	if [ $rc = 0 ]; then
		_topo_ifup "${nss[@]}" || rc=1
		_topo_phase "links up"
	fi

	if [ $rc != 0 ]; then
		echo "topo_build: failed building ($n,$k)" >&2
		topo_destroy
		return 1
	fi
	return 0
}
