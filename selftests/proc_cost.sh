#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a process costs in the guest: N calls of each command the suites
# start in loops, in ms of guest time a call (on icount, as make check's
# Debian guests run, that is instructions: shift 3 is 8 ns each).  Not a
# test (no KTAP); run it when a suite is slow, e.g.
#   selftests/vm/run-vm.sh --kernel 6.12.117+deb12 --smp 1 --icount 3 \
#       --icount-sleep on -- selftests/proc_cost.sh
# It chose the suites' jq (selftests/lib.sh: gojq, where installed).
N=${PROC_COST_N:-20}
cost() { # cost NAME COMMAND: COMMAND run N times, ms a call
	local s e i
	s=${EPOCHREALTIME//[.,]/}
	for ((i = 0; i < N; i++)); do
		eval "$2" >/dev/null 2>&1
	done
	e=${EPOCHREALTIME//[.,]/}
	printf '%-28s %8.1f ms\n' "$1" "$(( (e - s) / N ))e-3"
}
echo "$N calls each, ms of guest time a call"
cost "/bin/true" /bin/true
cost '$(echo) (a subshell)' 'x=$(echo a)'
cost "ip link show lo" "ip link show lo"
cost "ip -batch (one line)" "echo 'link show lo' | ip -batch -"
command -v jq >/dev/null && cost "jq (Debian)" "echo '{\"a\":1}' | command jq .a"
command -v gojq >/dev/null && cost "gojq" "echo '{\"a\":1}' | gojq .a"
cost "python3 -c pass" "python3 -c pass"
cost "ping -c 1 127.0.0.1" "ping -c 1 -W 1 127.0.0.1"
