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
)

passed=0 failed=0 failures=()
t0=$(date +%s)

# step NAME CMD...: run CMD, show its output, count its cases.
step() {
	local name=$1 out rc p f line
	shift
	echo "=== $name"
	out=$("$@" 2>&1)
	rc=$?
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
		echo "=== $name: FAILED (rc=$rc)"
	else
		echo "=== $name: ok ($p passed)"
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
	for t in "${GUEST_TESTS[@]}"; do
		step "guest $abi: $t" env DPILLAR_KO="$ko" \
			selftests/vm/run-vm.sh --kernel "$abi" --timeout 600 -- "$t"
	done
done

echo
echo "make check took $(( $(date +%s) - t0 )) s"
for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failures[@]} -eq 0 ]
