#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a guest test on the debug kernel, then look for kernel bugs that
# leave no line on the console (run-vm.sh greps that):
#
#   selftests/vm/run-vm.sh --kernel BZIMAGE -- selftests/debug_checks.sh \
#       selftests/dpillar_link.sh [ARGS...]
#
#  1. before the test: a kmemleak scan, then "clear", so that only what
#     leaks from here on is reported (the boot's own suspects are not ours)
#  2. the test (bash TEST ARGS), its output and exit status passed through
#  3. the dpillar module unloaded if the test left it loaded, loaded again
#     ($DPILLAR_KO) and unloaded again: init and exit still work, and
#     nothing holds the module
#  4. lockdep still on: debug_locks is 1 (lockdep switches itself off
#     after its first report)
#  5. the taint mask free of W (warning), D (oops), B (bad page) and L
#     (soft lockup)
#  6. kmemleak: two scans, then nothing reported
#
# Without a test, only 3-6 run.  Exit status: the test's when it failed,
# else 1 when a check failed, else the test's (0, or 4 for skip).
# A kernel without kmemleak or lockdep skips those checks (reported).
set -u

kml=/sys/kernel/debug/kmemleak
failed=0

say() { echo "# debug-checks: $*"; }
bad() { say "FAIL: $*"; failed=1; }

if [ "${DPILLAR_IN_VM:-0}" != 1 ]; then
	echo "1..0 # SKIP run under selftests/vm/run-vm.sh"
	exit 4
fi

kmemleak_scan() {
	echo scan > $kml
}

t0=$(date +%s)
if [ -w $kml ]; then
	kmemleak_scan && echo clear > $kml
	say "kmemleak baseline in $(( $(date +%s) - t0 )) s"
else
	say "no $kml: kmemleak not checked"
fi

trc=0
if [ $# -gt 0 ]; then
	t=$1
	shift
	bash "$t" "$@"
	trc=$?
fi

t0=$(date +%s)
# 3. module unload and reload.
if grep -q '^dpillar_test ' /proc/modules; then
	rmmod dpillar_test || bad "rmmod dpillar_test"
fi
if grep -q '^dpillar ' /proc/modules; then
	say "module still loaded after the test: unloading it"
	rmmod dpillar || bad "rmmod dpillar (left loaded by the test)"
fi
if [ -n "${DPILLAR_KO:-}" ] && [ -f "$DPILLAR_KO" ]; then
	if insmod "$DPILLAR_KO"; then
		rmmod dpillar || bad "rmmod dpillar after reload"
	else
		bad "insmod $DPILLAR_KO after the test"
	fi
	grep -q '^dpillar ' /proc/modules && bad "dpillar still loaded"
else
	say "DPILLAR_KO unset: no module reload"
fi

# 4. lockdep.
if [ -r /proc/lockdep_stats ]; then
	dl=$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)
	[ "$dl" = 1 ] || bad "lockdep turned itself off (debug_locks=${dl:-?})"
else
	say "no /proc/lockdep_stats: lockdep not checked"
fi

# 5. taint: W=9 D=7 B=5 L=14 (Documentation/admin-guide/tainted-kernels.rst)
taint=$(cat /proc/sys/kernel/tainted)
mask=$(( (1 << 9) | (1 << 7) | (1 << 5) | (1 << 14) ))
if [ $(( taint & mask )) -ne 0 ]; then
	bad "kernel tainted $taint (W=512 D=128 B=32 L=16384)"
fi

# 6. kmemleak: an object is reported once two scans found it unreferenced
# (and it is older than 5 s).
if [ -w $kml ]; then
	sleep 5
	kmemleak_scan && kmemleak_scan
	leaks=$(cat $kml)
	if [ -n "$leaks" ]; then
		bad "kmemleak: $(grep -c '^unreferenced object' <<<"$leaks") leak(s)"
		printf '%s\n' "$leaks" | head -n 60 | sed 's/^/#   /'
		cp $kml "${DPILLAR_OUT:-/tmp}/kmemleak" 2>/dev/null
	fi
fi

if [ $failed = 0 ]; then
	say "ok (lockdep on, taint $taint, no kmemleak report, module reloads; $(( $(date +%s) - t0 )) s)"
fi
if [ $trc -ne 0 ] && [ $trc -ne 4 ]; then
	exit $trc
fi
[ $failed = 0 ] || exit 1
exit $trc
