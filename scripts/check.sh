#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test of the project, on a fresh machine too.
#
#  1. Debian packages (scripts/deps.sh, a no-op when all are there)
#  2. host: userspace build, dpsim/core tests, splat-detector self-test,
#     checkpatch --strict
#  3. the module, W=1 + sparse, against each Debian kernel
#  4. the debug kernel (scripts/debug-kernel.sh: KUnit, KASAN, UBSAN,
#     lockdep, kmemleak ..., built once and cached) and the module built
#     against it (W=1 + sparse); its guest starts in the background
#     (DPILLAR_CHECK_JOBS=1: at the end, in the foreground) and runs the
#     KUnit suites and GUEST_TESTS
#  5. the guest rig self-test, then one guest per Debian kernel that runs
#     GUEST_TESTS
#
# Every guest runs its tests with selftests/debug_checks.sh: each test
# under its own time limit, a splat attributed to the test it happened
# in, then checks of the kernel (taint, module reload; lockdep and
# kmemleak where the kernel has them).  Each test is reported as a step.
#
# A test is added to every kernel by adding it to GUEST_TESTS.  The
# fabric suites take their size from DPILLAR_FABRIC: the newest Debian
# kernel runs the (4,3) fabric (24 servers), the others (4,2) (8 servers;
# the debug kernel is ~4x slower under TCG).
#
# Ends with "N passed, N failed" (N counts individual test cases where a
# suite reports them) and exits non-zero on any failure.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export DPILLAR_CACHE=${DPILLAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpillar}

GUEST_TESTS=(
	selftests/vm_smoke.sh
	selftests/topo_test.sh
	selftests/dpillar_link.sh
	selftests/dpillar_data.sh
	selftests/dpillar_ft.sh
	selftests/dpillar_genl.sh
)
# The smaller fabric and topologies of the older and the debug kernel.
SMALL=(--env "DPILLAR_FABRIC=4 2" --env "DPILLAR_TOPO_SIZES=4:2 4:3")
# The debug kernel builds a (4,3) topology in ~2 min: (4,2) only there
# (KUnit runs the routing core on every size).
DEBUG_SMALL=(--env "DPILLAR_FABRIC=4 2" --env "DPILLAR_TOPO_SIZES=4:2")

passed=0 failed=0 failures=()
t0=$(date +%s)

# step NAME CMD...: run CMD, show its output, count its cases.
step() {
	local name=$1 out rc p f line t
	shift
	echo "=== $name"
	t=$(date +%s)
	out=$("$@" 2>&1)
	rc=$?
	t=$(( $(date +%s) - t ))
	echo "$out"
	# Suites that report their own cases: KTAP totals or "N passed, N failed".
	p=0 f=0
	line=$(echo "$out" | grep -E '^# Totals: pass:[0-9]+ fail:[0-9]+' | tail -n 1)
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/.*pass:([0-9]+).*/\1/')
		f=$(echo "$line" | sed -E 's/.*fail:([0-9]+).*/\1/')
	else
		line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
		if [ -n "$line" ]; then
			p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
			f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
		fi
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		[ $rc -eq 0 ] || [ $rc -eq 4 ] && p=1 || f=1
	elif [ $rc -ne 0 ] && [ $rc -ne 4 ] && [ "$f" -eq 0 ]; then
		f=1	# the suite passed its cases but failed as a whole (splat...)
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
		failures+=("$name")
		echo "=== $name: FAILED (rc=$rc, ${t} s)"
	else
		echo "=== $name: ok ($p passed, ${t} s)"
	fi
}

step "deps" sh scripts/deps.sh
read -r -a ABIS <<<"$(sh scripts/deps.sh --print-abis)"

step "build tools" make -s tools
step "dpsim and routing core tests" make -s -C tools/dpsim check
step "splat detector self-test" bash selftests/vm/test-splat-detector.sh
step "dpctl offline tests (plan, addr, usage; genl replies from a fake family)" \
	make -s -C tools/dpctl check
step "checkpatch --strict" bash scripts/checkpatch.sh
step "netlink spec and UAPI header agree (kernel's ynl-gen-c)" \
	bash scripts/spec-check.sh
step "module build, W=1 + sparse (${ABIS[*]})" bash scripts/build-modules.sh "${ABIS[@]}"

# ---- guests ----------------------------------------------------------------
# guest NAME KO RUN-VM-ARGS... -- TEST...: boot one guest that runs
# debug_checks.sh TEST..., its files in $DPILLAR_CACHE/guest-NAME (kept:
# console.log, run-vm.out, test-N.{out,rc,time}).
guest() {
	local name=$1 ko=$2 d=$DPILLAR_CACHE/guest-$1 args=()
	shift 2
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	rm -rf "$d"
	mkdir -p "$d"
	printf '%s\n' "$@" > "$d/tests"
	env DPILLAR_KO="$ko" selftests/vm/run-vm.sh "${args[@]}" --out "$d" \
		--log "$d/console.log" -- selftests/debug_checks.sh "$@" \
		> "$d/run-vm.out" 2>&1
	local rc=$?
	grep -E '^(# debug-checks|run-vm)' "$d/run-vm.out"
	return $rc
}

# guest_results NAME [FIRST]: a step per test of guest NAME (from its
# FIRST-th, default 1).
guest_results() {
	local name=$1 i=0 t
	while read -r t; do
		i=$((i + 1))
		[ $i -ge "${2:-1}" ] || continue
		step "guest $name: $t" test_result "$name" $i "$t"
	done < "$DPILLAR_CACHE/guest-$name/tests"
}

# test_result NAME N TEST: output and exit status of test N of guest NAME.
test_result() {
	local f=$DPILLAR_CACHE/guest-$1/test-$2
	if [ ! -f "$f.rc" ]; then
		echo "$3 did not finish: see $DPILLAR_CACHE/guest-$1/console.log"
		return 1
	fi
	cat "$f.out"
	echo "# $(cat "$f.time") s in the $1 guest"
	return "$(cat "$f.rc")"
}

# The debug guest is the longest: with DPILLAR_CHECK_JOBS=2 (the default)
# it runs in the background while the rig self-test and the Debian guests
# run, two TCG guests at a time (each ~1 host core).  DPILLAR_CHECK_JOBS=1:
# one after the other.
JOBS=${DPILLAR_CHECK_JOBS:-2}
bg_pid=

# guest_bg NAME ARGS...: "guest NAME ARGS..." in the background; its output
# and status are collected by guest_wait NAME.
guest_bg() {
	local f=$DPILLAR_CACHE/guest-$1
	rm -f "$f.step" "$f.rc"
	( guest "$@" > "$f.step" 2>&1; echo $? > "$f.rc" ) &
	bg_pid=$!
}

guest_wait() {
	local f=$DPILLAR_CACHE/guest-$1
	while [ ! -s "$f.rc" ]; do
		sleep 2
	done
	cat "$f.step"
	return "$(cat "$f.rc")"
}

# A make check that is interrupted takes its background guest with it.
killtree() {
	local c
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		killtree "$c"
	done
	kill "$1" 2>/dev/null
}
trap '[ -n "$bg_pid" ] && killtree "$bg_pid"' EXIT

# ---- debug kernel --------------------------------------------------------
# One guest runs the KUnit suites and GUEST_TESTS, then the checks of
# selftests/debug_checks.sh (lockdep, taint, kmemleak, reload); the steps
# below report its parts.  Slower Hello timers: Hellos late by scheduling
# alone must not look like failures.
# dpillar_genl.sh compares every 4th pair's route with dpsim there.
DEBUG_VM=(--mem 2048 --timeout 5400 --env DPILLAR_DEAD_MS=1500
	--env DPILLAR_GENL_STRIDE=4
	--env DPILLAR_TEST_TIMEOUT=1800 "${DEBUG_SMALL[@]}")
dout=$DPILLAR_CACHE/guest-debug

# kunit_result: the KTAP of the KUnit suites, parsed by the kernel's
# kunit.py, and a "# Totals" line for step().
kunit_result() {
	local in=$dout/kunit.ktap summary p f c e s prc
	# No KTAP file: the guest died; kunit.sh streamed it to the console.
	[ -s "$in" ] || in=$dout/console.log
	python3 "$DEBUG_KDIR/tools/testing/kunit/kunit.py" parse "$in" \
		> "$dout/kunit.parse" 2>&1
	prc=$?
	cat "$dout/kunit.parse"
	summary=$(grep -o 'Testing complete\. .*' "$dout/kunit.parse" | tail -n 1)
	p=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	f=$(echo "$summary" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	c=$(echo "$summary" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
	e=$(echo "$summary" | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
	s=$(echo "$summary" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
	echo "# Totals: pass:${p:-0} fail:$(( ${f:-0} + ${c:-0} + ${e:-0} )) skip:${s:-0}"
	[ $prc -eq 0 ] && [ "$(cat "$dout/test-1.rc" 2>/dev/null)" = 0 ]
}

step "debug kernel (built once, cached)" bash scripts/debug-kernel.sh
dk=$(bash scripts/debug-kernel.sh --print 2>/dev/null)
DEBUG_BZIMAGE=$(echo "$dk" | sed -n 's/^DEBUG_BZIMAGE=//p')
DEBUG_KDIR=$(echo "$dk" | sed -n 's/^DEBUG_KDIR=//p')
DEBUG_GUEST=(debug "$repo/build/debug/net/dpillar/dpillar.ko"
	--kernel "$DEBUG_BZIMAGE" "${DEBUG_VM[@]}" --
	selftests/kunit.sh "${GUEST_TESTS[@]}")
DEBUG_STEP="guest debug: KUnit, tests, then lockdep/taint/kmemleak/reload checks"
if [ -n "$DEBUG_BZIMAGE" ]; then
	step "module build against the debug kernel, W=1 + sparse" \
		bash scripts/build-modules.sh "debug=$DEBUG_KDIR"
	[ "$JOBS" -gt 1 ] && guest_bg "${DEBUG_GUEST[@]}"
fi

# The rig must be able to fail: exit codes, timeouts, splats, crashes.
step "guest rig self-test" bash selftests/vm/test-run-vm.sh

for abi in "${ABIS[@]}"; do
	opts=()
	[ "$abi" = "${ABIS[-1]}" ] || opts=("${SMALL[@]}")	# older kernels
	step "guest $abi: tests, then taint/reload checks" \
		guest "$abi" "$repo/build/$abi/net/dpillar/dpillar.ko" \
		--kernel "$abi" --timeout 3600 "${opts[@]}" -- "${GUEST_TESTS[@]}"
	guest_results "$abi"
done

if [ -n "$DEBUG_BZIMAGE" ]; then
	if [ "$JOBS" -gt 1 ]; then
		step "$DEBUG_STEP" guest_wait debug
		bg_pid=
	else
		step "$DEBUG_STEP" guest "${DEBUG_GUEST[@]}"
	fi
	step "KUnit (debug kernel)" kunit_result
	guest_results debug 2
fi

echo
echo "make check took $(( $(date +%s) - t0 )) s"
for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failures[@]} -eq 0 ]
