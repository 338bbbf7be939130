#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side self-test of splat-scan.sh: every pattern in splat-patterns.txt
# must fire on a sample kernel line, and nothing may fire on a clean boot
# log or on test output that merely mentions the words.  Exit 0/1 (KTAP).
set -u
here=$(cd "$(dirname "$0")" && pwd)
scan=$here/splat-scan.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One realistic line per pattern (same order as splat-patterns.txt).
samples=(
"[   12.345678] WARNING: CPU: 0 PID: 1 at net/dpillar/core.c:42 dp_rx+0x1/0x2 [dpillar]"
"[   12.345678] BUG: kernel NULL pointer dereference, address: 0000000000000008"
"[   12.345678] Oops: 0002 [#1] PREEMPT SMP NOPTI"
"[   12.345678] kernel BUG at net/core/skbuff.c:123!"
"[   12.345678] Kernel panic - not syncing: Fatal exception"
"[   12.345678] BUG: KASAN: slab-use-after-free in dp_rx+0x1/0x2"
"[   12.345678] UBSAN: shift-out-of-bounds in net/dpillar/route.c:7:3"
"[   12.345678] BUG: KCSAN: data-race in dp_tx / dp_rx"
"[   12.345678] BUG: KMSAN: uninit-value in dp_rx"
"[   12.345678] BUG: KFENCE: out-of-bounds read in dp_rx"
"[   12.345678] WARNING: possible recursive locking detected"
"[   12.345678] WARNING: inconsistent lock state"
"[   12.345678] WARNING: possible circular locking dependency detected"
"[   12.345678] DEBUG_LOCKS_WARN_ON(1)"
"[   12.345678] INFO: trying to register non-static key."
"[   12.345678] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
"[   12.345678] RCU stall warning"
"[   12.345678] rcu: 	1-....: (20999 ticks this GP) self-detected stall on CPU"
"[   12.345678] rcu: detected stalls on CPUs/tasks"
"[   12.345678] WARNING: suspicious RCU usage"
"[   12.345678] BUG: sleeping function called from invalid context at mm/slab.h:1"
"[   12.345678] refcount_t: underflow; use-after-free."
"[   12.345678] INFO: hung_task: blocked tasks"
"[   12.345678] INFO: task ip:123 blocked for more than 120 seconds."
"[   12.345678] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1]"
"[   12.345678] BUG: unable to handle page fault for address: ffffffffc0000000"
"[   12.345678] list_add corruption. next->prev should be prev"
"[   12.345678] kmemleak: unreferenced object 0xffff888003c1e000 (size 64):"
"[   12.345678] Call Trace:"
"[   12.345678] ------------[ cut here ]------------"
"[   12.345678] watchdog: Watchdog detected hard LOCKUP on cpu 1"
)

n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $*"; }
echo "TAP version 13"

npat=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$here/splat-patterns.txt")
if [ "$npat" -eq "${#samples[@]}" ]; then
	ok "one sample per pattern ($npat)"
else
	nok "one sample per pattern: $npat patterns, ${#samples[@]} samples"
fi

# Each pattern alone must match its sample: proves every pattern is live.
i=0
while IFS= read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	s=${samples[i]:-}
	i=$((i + 1))
	printf '%s\n' "$p" > "$tmp/one"
	printf 'boot noise\n%s\nmore noise\n' "$s" > "$tmp/log"
	if out=$("$scan" -p "$tmp/one" "$tmp/log") ||
	   [ "$out" != "$s" ]; then
		nok "pattern '$p' does not fire on: $s"
	else
		ok "pattern '$p' fires"
	fi
done < "$here/splat-patterns.txt"

# All patterns together, CRLF console lines, splat interleaved mid-line.
printf 'ok 3 - foo[   1.000000] WARNING: CPU: 1 PID: 9 at x\r\n' > "$tmp/log"
if "$scan" "$tmp/log" >/dev/null; then
	nok "interleaved CRLF splat missed"
else
	ok "interleaved CRLF splat detected"
fi

# A clean boot log and test output mentioning the words must not fire.
cat > "$tmp/clean" <<'EOC'
[    0.000000] Linux version 6.12.117+deb12-amd64 (debian-kernel@lists.debian.org)
[    0.000000] Command line: console=ttyS0 loglevel=5 printk.time=1
[    0.000000] BIOS-provided physical RAM map:
[    1.387870] mtrr: your CPUs had inconsistent fixed MTRR settings
[    1.784903] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended configuration space under this bridge
[    3.172396] amd_pstate: the _CPC object is not present in SBIOS or ACPI disabled
[    3.500000] rcu: Hierarchical RCU implementation.
[    3.600000] Spectre V2 : Mitigation: Retpolines
DPILLAR-VM-START uptime=3.36 kernel=6.12.117+deb12-amd64 root=overlay
TAP version 13
ok 1 - WARNING: is only a word here
# BUG: test output mentioning Oops and Call Trace: is not a splat
DPILLAR-VM-EXIT: 0
[    4.280640] reboot: Power down
EOC
if out=$("$scan" "$tmp/clean"); then
	ok "clean log: no false positive"
else
	nok "clean log: false positive:"
	printf '%s\n' "$out" | sed 's/^/# /'
fi

echo "1..$n"
echo "# Totals: pass:$((n - fail)) fail:$fail skip:0"
[ $fail -eq 0 ]
