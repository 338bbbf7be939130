#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot is not all-or-nothing (issue 55): "dpctl up -W", what
# dpillar@.service runs, creates dp0 with the NICs that exist, the others
# absent, then attaches each when it appears and again when it comes back
# after going away, from the kernel's link events; SIGTERM or deleting
# dp0 ends it with exit status 0; READY=1 goes to $NOTIFY_SOCKET.  One server, veth NICs, no fabric: the
# ports are what is tested, not the routing.

. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip jq
require_tools

mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
ns=dplate
ns_create "$ns" || ktap_skip_all "cannot create a network namespace"
dir=$(mktemp -d)
defer "rm -rf $dir"
on() { ip netns exec "$ns" "$@"; }

ip -n "$ns" link add p0 type veth peer name p0x
ip -n "$ns" link set p0x up
printf 'n 4\nk 2\naddr 0:0.0\nports p0 p1\nhello 100\ndead 300\n' >"$dir/dp0.conf"

# port NUM: "IFNAME STATE" of port NUM of dp0 ("- absent" without a NIC)
port() {
	on "$DPCTL" -j show dp0 2>/dev/null |
		jq -r --argjson p "$1" '.[0].ports[] | select(.port == $p) |
			"\(.ifname // "-") \(.state)"'
}
port_is() { [ "$(port "$1")" = "$2" ]; }
# watcher_says TEXT: dpctl up -W has logged TEXT (its stderr)
watcher_says() { grep -qF -- "$1" "$dir/up.log"; }

# --- up -W with port1's NIC missing ------------------------------------------
# (ip netns exec, not on(): $! must be dpctl, not a subshell running it)
ip netns exec "$ns" "$DPCTL" up dp0 -c "$dir/dp0.conf" -w 1 -W 2>"$dir/up.log" &
pid=$!
defer "kill $pid 2>/dev/null; ip -n $ns link del dp0 2>/dev/null"
run_test "dpctl up -W creates dp0 though port1's NIC does not exist" \
	wait_for 20 port_is 0 "p0 up"
check_eq "$(port 1)" "- absent" "... port1 is shown absent"
run_test "... and named in a warning" \
	watcher_says 'up dp0: warning: port1 "p1" does not exist (waited 1 s): absent, attached when it appears'
check_eq "$(ip -n "$ns" -j link show dp0 | jq -r '.[0].flags | index("UP") != null')" \
	true "... dp0 is up"
run_test "... and dpctl stays (waits for the port)" kill -0 "$pid"

# --- the NIC appears, goes, comes back ----------------------------------------
ip -n "$ns" link add p1 type veth peer name p1x
ip -n "$ns" link set p1x up
run_test "p1 created: attached to port1 within 5 s" wait_for 5 port_is 1 "p1 up"
run_test "... logged" watcher_says 'up dp0: port1 "p1" attached'
check_eq "$(port 0)" "p0 up" "... port0 kept its NIC"
ip -n "$ns" link del p1
run_test "p1 deleted: port1 absent" wait_for 5 port_is 1 "- absent"
run_test "... logged" watcher_says 'up dp0: port1 "p1" went away: waiting for it'
ip -n "$ns" link add p1 type veth peer name p1x
ip -n "$ns" link set p1x up
run_test "p1 created again: attached again within 5 s" \
	wait_for 5 port_is 1 "p1 up"
# A NIC renamed to the port's name (udev's way) is attached too.
ip -n "$ns" link del p0
run_test "p0 deleted: port0 absent" wait_for 5 port_is 0 "- absent"
ip -n "$ns" link add eth9 type veth peer name p0x
ip -n "$ns" link set p0x up
ip -n "$ns" link set eth9 name p0
run_test "a NIC renamed to p0 is attached to port0" \
	wait_for 5 port_is 0 "p0 up"

# --- SIGTERM: exit 0, dp0 left as it is ----------------------------------------
kill -TERM "$pid"
wait "$pid"
check_eq "$?" 0 "dpctl up -W ends with exit status 0 on SIGTERM"
check_eq "$(port 1)" "p1 up" "... and leaves dp0 as it is"
# Each NIC one attempt, none refused: the events queued before an attach
# (the NIC's own, without a master yet) are not a second one.
check_eq "$(grep -cvE 'waiting up to|warning: port1|" attached$|went away: waiting for it$|no longer watching' "$dir/up.log")" \
	0 "... having logged nothing else (no refusal)" || ktap_diag "$(cat "$dir/up.log")"

# --- by hand: dpctl link set DEV portN IF (changelink's port list) -------------
check_fail -m "Port already has a NIC: release it first (nomaster)" \
	"link set port1 of a port with a NIC: the kernel's reason" \
	on "$DPCTL" link set dp0 port1 p1x
check_fail -m "NIC is already a port of this device" \
	"link set port1 to port0's NIC: the kernel's reason" \
	sh -c "ip -n $ns link set p1 nomaster && ip netns exec $ns '$DPCTL' link set dp0 port1 p0"
check_eq "$(port 1)" "- absent" "... port1 released (nomaster) is absent"
run_test "link set dp0 port1 p1 attaches it" on "$DPCTL" link set dp0 port1 p1
check_eq "$(port 1)/$(port 0)" "p1 up/p0 up" "... to port1, port0 as it was"

# --- dp0 deleted: exit 0 ------------------------------------------------------
run_test "dpctl down dp0" on "$DPCTL" down dp0
# systemd's readiness datagram (Type=notify), to a socket of our own
python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(60)
print(s.recv(256).decode(), flush=True)' "$dir/notify" >"$dir/notify.out" &
run_test "(a NOTIFY_SOCKET listens)" wait_for 20 test -S "$dir/notify"
NOTIFY_SOCKET=$dir/notify ip netns exec "$ns" "$DPCTL" up dp0 -c "$dir/dp0.conf" \
	-w 0 -W 2>"$dir/up.log" &
pid=$!
run_test "up -W again, every NIC there" wait_for 20 port_is 1 "p1 up"
run_test "... READY=1 to \$NOTIFY_SOCKET" wait_for 10 grep -qx "READY=1" "$dir/notify.out"
run_test "dpctl down dp0 while up -W runs" on "$DPCTL" down dp0
run_test "... up -W ends" wait_for 5 eval '! kill -0 '"$pid"' 2>/dev/null'
wait "$pid"
check_eq "$?" 0 "... with exit status 0 (device deleted)"
run_test "... saying why" watcher_says 'up dp0: device deleted'

# --- no NIC at all: made with none (without -W: up returns) ---------------------
ip -n "$ns" link del p0
ip -n "$ns" link del p1
run_test "dpctl up -w 0 with no NIC at all: dp0 made" \
	sh -c "ip netns exec $ns '$DPCTL' up dp0 -c '$dir/dp0.conf' -w 0 2>'$dir/up.log'"
check_eq "$(port 0)/$(port 1)" "- absent/- absent" "... both ports absent"
check_eq "$(grep -c 'does not exist (waited 0 s): absent$' "$dir/up.log")" 2 \
	"... each named in a warning"
run_test "... and dpctl down removes it" on "$DPCTL" down dp0

run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
