#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side self-test of run-vm.sh: exit-status mapping, --timeout and
# --cpu-timeout, splat
# detection, crash detection and env passthrough, each in its own guest
# (~10 s per boot under TCG; 8 boots).  Usage: test-run-vm.sh [--kernel ABI]
set -u
here=$(cd "$(dirname "$0")" && pwd)
kopt=()
[ "${1:-}" = --kernel ] && kopt=(--kernel "$2")
# Fixtures live in the host's /tmp: the guest sees it (overlay root).
tmp=$(mktemp -d /tmp/dpillar-rigtest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

n=0 fail=0
echo "TAP version 13"
# expect DESC WANT_RC GREP_IN_OUTPUT [run-vm args...] -- SCRIPT_BODY
expect() {
	local desc=$1 want=$2 pat=$3 out rc
	shift 3
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	n=$((n + 1))
	printf '%s\n' "$1" > "$tmp/t$n.sh"
	out=$("$here/run-vm.sh" "${kopt[@]}" "${args[@]}" -- "$tmp/t$n.sh" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && grep -q -e "$pat" <<< "$out"; then
		echo "ok $n - $desc"
	else
		fail=$((fail + 1))
		echo "not ok $n - $desc (rc=$rc, want $want, pattern '$pat')"
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/# /'
	fi
	grep '^run-vm: [A-Z]' <<< "$out" | sed 's/^/# /'
}

expect "exit 1 -> 1" 1 'script exited 1' -- 'exit 1'
expect "exit 4 -> 4 (skip)" 4 'run-vm: SKIP' -- 'exit 4'
expect "exit 2 -> 1" 1 'script exited 2' -- 'exit 2'
expect "hung script killed by --timeout" 1 'timeout: guest killed after 15s' \
	--timeout 15 -- 'sleep 1000'
# A boot takes some 8 s of host CPU; the loop the rest, whatever the
# host's load (the wall-clock limit is far above it).
expect "busy script killed by --cpu-timeout" 1 'of host CPU (--cpu-timeout 14)' \
	--timeout 600 --cpu-timeout 14 -- 'while :; do :; done'
expect "WARNING injected into the kernel log -> 1" 1 'kernel splat' -- \
	'echo "WARNING: CPU: 0 PID: 1 at fake/injected.c:1 rig_selftest" > /dev/kmsg; exit 0'
expect "kernel crash (sysrq c) -> 1" 1 'no exit sentinel' -- \
	'echo c > /proc/sysrq-trigger; sleep 5'
# exit 0 -> 0, and the environment the guest gets (one boot for both)
export DPILLAR_KO="/x y/dp.ko"
expect "exit 0 -> 0, env passthrough" 0 'run-vm: PASS' \
	--env "FOO=a b 'c' \$d" -- \
	'[ "$FOO" = "a b '"'"'c'"'"' \$d" ] && [ "$DPILLAR_KO" = "/x y/dp.ko" ] && [ "$DPILLAR_IN_VM" = 1 ] && [ -w "$DPILLAR_OUT" ] && [ "$(pwd)" = "$DPILLAR_REPO" ] || { env; exit 1; }'
echo "1..$n"
echo "# Totals: pass:$((n - fail)) fail:$fail skip:0"
[ $fail -eq 0 ]
