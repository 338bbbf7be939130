#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test of the project, on a fresh machine too.
#
#  1. Debian packages (scripts/deps.sh, a no-op when all are there)
#  2. host: userspace build, dpsim/core tests, splat-detector self-test,
#     checkpatch --strict
#  3. the module, W=1 + sparse, against each Debian kernel
#  4. guest selftests (QEMU TCG) on each Debian kernel
#  5. the debug kernel (scripts/debug-kernel.sh: KUnit, KASAN, UBSAN,
#     lockdep, kmemleak ..., built once and cached): the module built
#     against it (W=1 + sparse), then one guest that runs the KUnit suites
#     and the guest selftests (the fabric suites opt-in), followed by the
#     checks of selftests/debug_checks.sh (lockdep still on, no W/D/B/L
#     taint, kmemleak clean, module reload)
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
)
# The 24-server fabric suites cost ~5 min each on a stock kernel under TCG,
# and over 15 min each on the debug kernel (KASAN, lockdep): within CI's
# time they run on 6.12 and, opt-in (DPILLAR_DEBUG_FULL=1), on the debug
# kernel.  Every kernel runs the link type's tests.
FABRIC_TESTS=" selftests/dpillar_data.sh selftests/dpillar_ft.sh "
guest_tests_for() { # guest_tests_for full|link
	local t
	for t in "${GUEST_TESTS[@]}"; do
		[ "$1" = full ] || [[ "$FABRIC_TESTS" != *" $t "* ]] && echo "$t"
	done
}

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
step "checkpatch --strict" bash scripts/checkpatch.sh
# The rig must be able to fail: exit codes, timeouts, splats, crashes.
step "guest rig self-test" bash selftests/vm/test-run-vm.sh
step "module build, W=1 + sparse (${ABIS[*]})" bash scripts/build-modules.sh "${ABIS[@]}"

for abi in "${ABIS[@]}"; do
	ko=$repo/build/$abi/net/dpillar/dpillar.ko
	scope=link
	[ "$abi" = "${ABIS[-1]}" ] && scope=full	# the newest kernel
	for t in $(guest_tests_for $scope); do
		step "guest $abi: $t" env DPILLAR_KO="$ko" \
			selftests/vm/run-vm.sh --kernel "$abi" --timeout 1200 -- "$t"
	done
done

# ---- debug kernel --------------------------------------------------------
# One guest runs the KUnit suites and the guest selftests (the fabric suites
# only with DPILLAR_DEBUG_FULL=1, see FABRIC_TESTS), then the checks
# of selftests/debug_checks.sh; the steps below report its parts.
DEBUG_VM=(--mem 2048 --timeout 3600 --env DPILLAR_DEAD_MS=1500)
dout=$DPILLAR_CACHE/debug-run

debug_guest() {
	rm -rf "$dout"
	mkdir -p "$dout"
	env DPILLAR_KO="$debug_ko" selftests/vm/run-vm.sh \
		--kernel "$DEBUG_BZIMAGE" "${DEBUG_VM[@]}" --out "$dout" \
		--log "$dout/console.log" -- selftests/debug_checks.sh \
		selftests/kunit.sh "${DEBUG_TESTS[@]}" > "$dout/run-vm.out" 2>&1
	local rc=$?
	grep -E '^(# debug-checks|run-vm)' "$dout/run-vm.out"
	return $rc
}

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

# guest_result N TEST: output and exit status of the guest's test N.
guest_result() {
	local f=$dout/test-$1
	if [ ! -f "$f.rc" ]; then
		echo "$2 did not finish: see $dout/console.log"
		return 1
	fi
	cat "$f.out"
	echo "# $(cat "$f.time") s in the debug guest"
	return "$(cat "$f.rc")"
}

step "debug kernel (built once, cached)" bash scripts/debug-kernel.sh
dk=$(bash scripts/debug-kernel.sh --print 2>/dev/null)
DEBUG_BZIMAGE=$(echo "$dk" | sed -n 's/^DEBUG_BZIMAGE=//p')
DEBUG_KDIR=$(echo "$dk" | sed -n 's/^DEBUG_KDIR=//p')
if [ -n "$DEBUG_BZIMAGE" ]; then
	debug_ko=$repo/build/debug/net/dpillar/dpillar.ko
	read -r -a DEBUG_TESTS <<<"$(guest_tests_for \
		"$([ "${DPILLAR_DEBUG_FULL:-0}" = 1 ] && echo full || echo link)" |
		tr '\n' ' ')"
	step "module build against the debug kernel, W=1 + sparse" \
		bash scripts/build-modules.sh "debug=$DEBUG_KDIR"
	step "debug guest: KUnit, selftests, then lockdep/taint/kmemleak/reload checks" \
		debug_guest
	step "KUnit (debug kernel)" kunit_result
	i=1
	for t in "${DEBUG_TESTS[@]}"; do
		i=$((i + 1))
		step "guest debug: $t" guest_result $i "$t"
	done
fi

echo
echo "make check took $(( $(date +%s) - t0 )) s"
for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failures[@]} -eq 0 ]
