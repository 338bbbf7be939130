#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dpctl up / down, what dpillar@.service runs at boot and shutdown: a DPillar
# fabric, (4,2) with 8 servers unless DPILLAR_FABRIC says otherwise, whose
# every dp0 comes from a configuration file (one per server namespace).
# Each server gets its fabric addresses and the on-link routes of the
# fabric prefixes, pings cross the fabric over IPv4 and IPv6, a second
# "up" is refused without harm, bad files create nothing, and "down"
# removes addresses, routes and the device and releases the ports.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/topo.sh"
. "$(dirname "$0")/fabric.sh"

require_vm
require_root
require_cmd ip ping jq python3
[ -x "$DPCTL" ] || ktap_skip_all "dpctl not built"
fabric_size "4 2"
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-300}

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer topo_destroy
FABRIC_CONF_DIR=$(mktemp -d)
defer "rm -rf $FABRIC_CONF_DIR"
export FABRIC_CONF_DIR
fabric_up_test "($N,$K) fabric up from one file per server (dpctl up)" \
	"$N" "$K" hello "$HELLO" dead "$DEAD" || ktap_finish
on() { local a=$1; shift; ip netns exec "${FNS[$a]}" "$@"; }

S0=${SERVERS[0]} FAR=${SERVERS[-1]}
ns0=${FNS[$S0]}
conf0=$FABRIC_CONF_DIR/$ns0.conf
# v6 PREFIX ID: the IPv6 address of node ID in PREFIX (a /96), as ip prints it
v6() {
	python3 -c 'import ipaddress, sys
print(ipaddress.IPv6Address(int(ipaddress.IPv6Address(sys.argv[1])) + int(sys.argv[2])))' "$1" "$2"
}
# addrs NS: dp0's addresses, "ADDR/LEN" sorted, one line
addrs() {
	ip -n "$1" -j addr show dev dp0 2>/dev/null |
		jq -r '[.[0].addr_info[]? | select(.scope != "link") |
			"\(.local)/\(.prefixlen)"] | sort | join(" ")'
}
# routes NS: the routes through dp0 (both families) but the kernel's own
# (IPv6 gives a /128 address a /128 route), "DST scope proto", one line
routes() {
	{ ip -n "$1" -j -4 route show dev dp0; ip -n "$1" -j -6 route show dev dp0; } 2>/dev/null |
		jq -rs '[.[][] | select(.protocol != "kernel") |
			"\(.dst) \(.scope // "global") \(.protocol)"] | sort | join(" ")'
}
check_eq "$(addrs "$ns0")" "$(printf '%s\n' "${FIP4[$S0]}/32" "$(v6 "${FABRIC_IP6_NET%/*}" "${FID[$S0]}")/128" | sort | paste -sd' ')" \
	"up adds this server's fabric IPv4 /32 and IPv6 /128"
check_eq "$(routes "$ns0")" "$(printf '%s\n' "$FABRIC_IP4_NET link static" "$FABRIC_IP6_NET global static" | sort | paste -sd' ')" \
	"up adds the on-link routes of both fabric prefixes"
check_eq "$(ip -n "$ns0" -j link show | jq -rc '[.[] | select(.ifname | test("^p[01]$|^dp0$")) | .flags | index("UP") != null] | all')" \
	true "up sets the ports and dp0 up"
run_test "ping across the fabric (IPv4) $S0 -> $FAR" \
	on "$S0" ping -c 2 -i 0.2 -W 5 "${FIP4[$FAR]}"
run_test "ping across the fabric (IPv6) $FAR -> $S0" \
	on "$FAR" ping -6 -c 2 -i 0.2 -W 5 "${FIP6[$S0]}"

# --- dpctl -n NETNS and -batch, as ip's ------------------------------------------
check_eq "$("$DPCTL" -n "$ns0" -j link show dp0 | jq -r '.[0].addr')" "$S0" \
	"dpctl -n NETNS reads the device of that namespace"
printf 'link show dp0\n# a comment\nneigh dp0 -j\n' >"$FABRIC_CONF_DIR/batch"
run_test "dpctl -n NETNS -batch FILE runs each line there" \
	sh -c "'$DPCTL' -n '$ns0' -batch '$FABRIC_CONF_DIR/batch' | grep -q '\"lladdr\"'"

# --- refusals that change nothing ---------------------------------------------
check_fail -m "File exists" "a second up of a running device is refused" \
	on "$S0" "$DPCTL" up dp0 -c "$conf0"
run_test "... and leaves it running" \
	on "$S0" ping -c 1 -W 5 "${FIP4[$FAR]}"
bad="$FABRIC_CONF_DIR/bad.conf"
printf 'n 4\nk 2\naddr 0:0.0\nports p0 p1\nwibble 3\n' >"$bad"
check_fail -m 'unknown argument "wibble"' "an unknown key is refused" \
	on "$S0" "$DPCTL" up dpq -c "$bad"
printf 'n 4\nk 2\naddr 0:0.0\nports p0 nosuch\n' >"$bad"
check_fail -m '"nosuch" does not exist' "a missing port is refused" \
	on "$S0" "$DPCTL" up dpq -c "$bad"
printf 'n 4\nk 2 3\n' >"$bad"
check_fail -m "bad.conf:2" "a line with two values names file and line" \
	on "$S0" "$DPCTL" up dpq -c "$bad"
check_fail -m "No such file" "a missing file is refused" \
	on "$S0" "$DPCTL" up dpq -c "$FABRIC_CONF_DIR/none.conf"
check_eq "$(ip -n "$ns0" -j link show dpq 2>/dev/null | jq length)" "" \
	"no half device is left behind"

# --- down ---------------------------------------------------------------------
downs=0
for a in "${SERVERS[@]}"; do
	on "$a" "$DPCTL" down dp0 && downs=$((downs + 1))
done
check_eq "$downs" "${#SERVERS[@]}" "down on every server"
left=0
for a in "${SERVERS[@]}"; do
	ns=${FNS[$a]}
	ip -n "$ns" link show dp0 >/dev/null 2>&1 && left=$((left + 1))
	[ -n "$(ip -n "$ns" -j link show | jq -r '.[] | .master // empty')" ] &&
		left=$((left + 1))
	[ -n "$(ip -n "$ns" route show "$FABRIC_IP4_NET")$(ip -n "$ns" -6 route show "$FABRIC_IP6_NET")" ] &&
		left=$((left + 1))
done
check_eq "$left" 0 "down leaves no device, no enslaved port, no fabric route"
check_fail -m "No such device" "down of a device that is gone fails" \
	on "$S0" "$DPCTL" down dp0

# --- the prefixes from the file -----------------------------------------------
printf 'ip4 172.16.0.0/12\nip6 fd00:1:2:3::/96\n' >>"$conf0"
id0=$(fabric_id "$S0")
run_test "up again with its own prefixes" on "$S0" "$DPCTL" up dp0 -c "$conf0"
check_eq "$(addrs "$ns0")" "$(printf '%s\n' "172.16.$((id0 >> 8)).$((id0 & 255))/32" "$(v6 fd00:1:2:3:: "$id0")/128" | sort | paste -sd' ')" \
	"the addresses are the node id in the file's prefixes"
check_eq "$(routes "$ns0")" "$(printf '%s\n' "172.16.0.0/12 link static" "fd00:1:2:3::/96 global static" | sort | paste -sd' ')" \
	"the routes are the file's prefixes"
run_test "down again" on "$S0" "$DPCTL" down dp0 -c "$conf0"
check_eq "$(routes "$ns0")" "" "no route through dp0 is left"

run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
