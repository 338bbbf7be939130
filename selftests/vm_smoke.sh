#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the test guest itself: the rig boots, the host tree is
# visible, the per-run share is writable, modules autoload, and netns +
# veth + bridge work.  Run it with:
#   selftests/vm/run-vm.sh -- selftests/vm_smoke.sh
. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd ip bridge ping

ktap_plan 9
mark=$(dmesg_mark)

check_eq "$(cat /proc/sys/kernel/hostname)" dpillar-vm "guest hostname"

run_test "repo visible at $DPILLAR_REPO" test -f "$DPILLAR_REPO/selftests/lib.sh"

t() { echo ok > "$DPILLAR_OUT/smoke" && [ "$(cat "$DPILLAR_OUT/smoke")" = ok ]; }
run_test "per-run share writable" t

t() { touch /etc/.dpillar-smoke && rm /etc/.dpillar-smoke && touch /run/netns/.x; }
run_test "root and /run writable" t

t() {
	[ -d "/lib/modules/$(uname -r)" ] || { echo "no /lib/modules/$(uname -r)"; return 4; }
	ip link add dpsmk0 type veth peer name dpsmk1 || return 1
	track_link dpsmk0
	lsmod | grep -q '^veth '
}
run_test "module autoload (veth)" t

ns_create smk-a smk-b smk-br

t() {
	ip -n smk-a link add v0 type veth peer name v1 netns smk-b &&
	ip -n smk-a addr add 10.99.0.1/24 dev v0 &&
	ip -n smk-b addr add 10.99.0.2/24 dev v1 &&
	ip -n smk-a link set v0 up && ip -n smk-b link set v1 up &&
	ns_exec smk-a ping -c 1 -W 2 10.99.0.2
}
run_test "netns + veth ping" t

# Three hosts on one bridge (in its own netns), IPv6 link-local multicast
# reaches both other hosts (no snooping, no STP delay).
t() {
	local i
	ip -n smk-br link add br0 type bridge stp_state 0 forward_delay 0 \
		mcast_snooping 0 || return 1
	ip -n smk-br link set br0 up
	for i in a b; do
		ip -n smk-br link add "br-$i" master br0 up type veth \
			peer name e0 netns "smk-$i" || return 1
		ns_exec "smk-$i" sysctl -qw net.ipv6.conf.e0.accept_dad=0
		ip -n "smk-$i" link set e0 up || return 1
	done
	ip -n smk-a addr add 10.98.0.1/24 dev e0
	ip -n smk-b addr add 10.98.0.2/24 dev e0
	ns_exec smk-a ping -c 1 -W 3 10.98.0.2
}
run_test "bridge between namespaces" t

t() {
	local out
	sleep 0.5
	out=$(ns_exec smk-a ping -6 -c 2 -W 3 -I e0 ff02::1 2>&1)
	echo "$out"
	echo "$out" | grep -q 'DUP!\|bytes from fe80'
}
run_test "IPv6 link-local multicast over the bridge" t

run_test "no kernel splat since start" dmesg_check "$mark"

ktap_finish
