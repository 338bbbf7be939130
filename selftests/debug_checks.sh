#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the guest tests one after the other in ONE guest (any kernel: make
# check boots each kernel once), then look for kernel bugs that leave no
# line on the console (run-vm.sh scans that for splats):
#
#   selftests/vm/run-vm.sh --kernel BZIMAGE --out DIR -- \
#       selftests/debug_checks.sh selftests/kunit.sh selftests/vm_smoke.sh ...
#
#  1. before the tests: a kmemleak scan, then "clear", so that only what
#     leaks from here on is reported (the boot's own suspects are not
#     ours); no automatic scans from then on (6. scans)
#  2. each TEST ("script [args]", split on blanks) as bash script args,
#     one after the other, each under its own time limit
#     (DPILLAR_TEST_TIMEOUT seconds, default 1200: a hung test fails alone
#     and the next one runs); output shown and kept in
#     $DPILLAR_OUT/test-N.out, exit status in test-N.rc, seconds in
#     test-N.time (N from 1).  A kernel splat logged while a test ran (the
#     patterns of vm/splat-patterns.txt, in dmesg since a mark written
#     before it, kept in test-N.dmesg) fails that test (status 1) and is
#     appended to its output,
#     so each splat is attributed to its test.  A test that leaves the
#     dpillar module loaded gets it unloaded (reported)
#  3. the module loaded again ($DPILLAR_KO) and unloaded again: init and
#     exit still work and nothing holds the module
#  4. lockdep still on: debug_locks is 1 (lockdep switches itself off
#     after its first report)
#  5. the taint mask free of W (warning), D (oops), B (bad page) and L
#     (soft lockup)
#  6. kmemleak: two scans, then nothing reported (the report is kept in
#     $DPILLAR_OUT/kmemleak)
#
# Exit status: 1 when a test failed (status other than 0 and 4) or a check
# failed, else 0 (4 when every test skipped).  A kernel without kmemleak or
# lockdep (Debian's) skips those checks, and says so.
set -u

here=$(cd "$(dirname "$0")" && pwd)
kml=/sys/kernel/debug/kmemleak
out=${DPILLAR_OUT:-/tmp}
failed=0 dl='' kml_checked=''

say() { echo "# debug-checks: $*"; }
bad() { say "FAIL: $*"; failed=1; }
loaded() { grep -q "^$1 " /proc/modules; }

if [ "${DPILLAR_IN_VM:-0}" != 1 ]; then
	echo "1..0 # SKIP run under selftests/vm/run-vm.sh"
	exit 4
fi

# Receive timestamps stay on for the whole run: a socket asking for them
# is held open.  Every ping turns them on and, at exit, off (the
# netstamp_needed_key static key), and each change patches the start of
# __netif_receive_skb_core() with an int3 (text_poke_bp()).  Under TCG
# that patching raced a receive once (2026-11-27, 6.12, dpillar not
# loaded: "Oops: int3" at the key's jump, the guest's remaining suites
# lost); with the key held on, pings no longer patch the receive path.
python3 -S -E -c 'import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_TIMESTAMP, 1)
time.sleep(1e9)' </dev/null >/dev/null 2>&1 &
tstamp_pid=$!
trap 'kill $tstamp_pid 2>/dev/null' EXIT

t0=$(date +%s)
if [ -w $kml ]; then
	echo scan > $kml && echo clear > $kml
	say "kmemleak baseline in $(( $(date +%s) - t0 )) s"
	# No automatic scans (the kmemleak thread's, every 10 minutes): each
	# is a scan of all memory on the one vCPU the tests run on, and only
	# the two scans of 6. below are read.
	echo scan=off > $kml
else
	say "no $kml: kmemleak not checked"
fi

# 2. the tests
# forks: processes started since boot (/proc/stat): what a suite spends
# most of a TCG guest's time on (an exec of /bin/true took 0.5 s on the
# debug kernel, 2026-11-29), printed after each test.
forks() {
	local k v
	while read -r k v; do
		[ "$k" = processes ] && { echo "$v"; return; }
	done </proc/stat
	echo 0
}

# What a suite costs make check, whatever the guest's clock says (on
# icount, guest time also jumps while the guest waits for the host's
# 9p): QEMU's host CPU time (qemuproc.sh), mounted here for the whole
# run, where the suites find it.
. "$here/qemuproc.sh"
qemuproc_mount
host_cs() {
	qemu_cpu_cs
	echo "${QEMU_CS:-0}"
}

n=0 tfail=0 tpass=0
for t in "$@"; do
	n=$((n + 1))
	read -r -a argv <<<"$t"
	say "=== $n: $t"
	s=$(date +%s)
	forks=$(forks) hcs=$(host_cs)
	mark="dpillar-test-$n-mark-$$-$RANDOM"
	echo "<6>$mark" > /dev/kmsg
	timeout -k 10 "${DPILLAR_TEST_TIMEOUT:-1200}" bash "${argv[@]}" 2>&1 |
		tee "$out/test-$n.out"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 124 ] || [ "$rc" = 137 ] &&
		echo "# debug-checks: $t: killed after ${DPILLAR_TEST_TIMEOUT:-1200} s" |
		tee -a "$out/test-$n.out"
	dmesg | sed -n "/$mark/,\$p" | tail -n +2 > "$out/test-$n.dmesg"
	splats=$("$here/vm/splat-scan.sh" "$out/test-$n.dmesg")
	src=$?
	[ $src -gt 1 ] && splats="splat-scan failed (rc=$src)"
	if [ -n "$splats" ]; then
		{
			echo "# debug-checks: kernel splat while $t ran:"
			printf '%s\n' "$splats" | head -n 40 | sed 's/^/#   /'
		} | tee -a "$out/test-$n.out"
		[ "$rc" = 0 ] || [ "$rc" = 4 ] && rc=1
	fi
	echo $(( $(date +%s) - s )) > "$out/test-$n.time"
	echo $rc > "$out/test-$n.rc"
	hcs=$(( $(host_cs) - hcs ))
	say "=== $n: $t: exit $rc in $(cat "$out/test-$n.time") s, $(( $(forks) - forks )) processes${QEMUPROC:+, host CPU $((hcs / 100)).$((hcs % 100 / 10)) s}"
	case $rc in
	0) tpass=$((tpass + 1)) ;;
	4) ;;
	*) tfail=$((tfail + 1)) ;;
	esac
	if loaded dpillar_test; then
		rmmod dpillar_test || bad "$t: rmmod dpillar_test"
	fi
	if loaded dpillar; then
		say "$t left the module loaded: unloading it"
		rmmod dpillar || bad "$t: rmmod dpillar (left loaded)"
	fi
done

t0=$(date +%s)
# 3. module reload
if [ -n "${DPILLAR_KO:-}" ] && [ -f "$DPILLAR_KO" ]; then
	if insmod "$DPILLAR_KO"; then
		rmmod dpillar || bad "rmmod dpillar after reload"
	else
		bad "insmod $DPILLAR_KO after the tests"
	fi
	loaded dpillar && bad "dpillar still loaded"
else
	say "DPILLAR_KO unset: no module reload"
fi

# 4. lockdep
if [ -r /proc/lockdep_stats ]; then
	dl=$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)
	[ "$dl" = 1 ] || bad "lockdep turned itself off (debug_locks=${dl:-?})"
else
	say "no /proc/lockdep_stats: lockdep not checked"
fi

# 5. taint: W=9 D=7 B=5 L=14 (Documentation/admin-guide/tainted-kernels.rst)
taint=$(cat /proc/sys/kernel/tainted)
if [ $(( taint & ((1 << 9) | (1 << 7) | (1 << 5) | (1 << 14)) )) -ne 0 ]; then
	bad "kernel tainted $taint (W=512 D=128 B=32 L=16384)"
fi

# 6. kmemleak: an object is reported once it is older than 5 s and two
# scans found it unreferenced (its checksum must be stable).
if [ -w $kml ]; then
	sleep 5
	echo scan > $kml && echo scan > $kml
	leaks=$(cat $kml)
	kml_checked=1
	if [ -n "$leaks" ]; then
		bad "kmemleak: $(grep -c '^unreferenced object' <<<"$leaks") leak(s)"
		printf '%s\n' "$leaks" | head -n 80 | sed 's/^/#   /'
		printf '%s\n' "$leaks" > "$out/kmemleak"
	fi
fi

[ $failed = 0 ] &&
	say "ok: ${dl:+lockdep on, }taint $taint${kml_checked:+, no kmemleak report}, module reloads ($(( $(date +%s) - t0 )) s)"
say "$n tests: $tpass passed, $tfail failed, $((n - tpass - tfail)) skipped"
[ $tfail = 0 ] && [ $failed = 0 ] || exit 1
[ $n -gt 0 ] && [ $tpass = 0 ] && exit 4
exit 0
