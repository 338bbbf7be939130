#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz-frames: the in-guest frame fuzzing of selftests/dpillar_data.sh
# for long, on the debug kernel (KASAN, UBSAN, lockdep, kmemleak): a
# neighbour's raw sockets send random and mutated frames of our ethertype
# into every port of a live (4,2) fabric with traffic running
# (selftests/dp_framefuzz.py), then no splat, no leak, every pair still
# delivers, every drop counted.  make check runs the same for 60 s with a
# fixed seed.  Then as long into an S2 plan-mode fabric (s2_test.sh,
# 8:4:2:7:plan:2), where the frames also reach the coordinates blocks,
# shortcut discovery and the Hello's coordinate TLVs.  Builds what is missing (the debug kernel once: 14-25 min),
# boots one guest (one vCPU), keeps its files in build/fuzz-frames/
# (console.log, test-1.out, framefuzz.progress).  Environment:
#   FUZZ_FRAMES_TIME   seconds of fuzzing (default 600)
#   FUZZ_FRAMES_SEED   the seed (default: a new one, printed); a failure
#                      is replayed with the same seed
#   FUZZ_FRAMES_RATE   frames a second at most (default 400)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
secs=${FUZZ_FRAMES_TIME:-600}
seed=${FUZZ_FRAMES_SEED:-$((RANDOM << 15 | RANDOM))}
rate=${FUZZ_FRAMES_RATE:-400}
sh scripts/deps.sh
bash scripts/debug-kernel.sh
dk=$(bash scripts/debug-kernel.sh --print)
bzimage=$(echo "$dk" | sed -n 's/^DEBUG_BZIMAGE=//p')
kdir=$(echo "$dk" | sed -n 's/^DEBUG_KDIR=//p')
make -s tools
bash scripts/build-modules.sh "debug=$kdir" >/dev/null
out=$repo/build/fuzz-frames
rm -rf "$out"
mkdir -p "$out"
echo "fuzz-frames: $secs s, seed $seed, at most $rate frames/s; files in $out"
rc=0
env DPILLAR_KO="$repo/build/debug/net/dpillar/dpillar.ko" \
	selftests/vm/run-vm.sh --kernel "$bzimage" --mem 2048 --smp 1 \
	--timeout $((2 * secs + 3000)) --out "$out" --log "$out/console.log" \
	--env DPILLAR_DEAD_MS=1500 --env "DPILLAR_FABRIC=4 2" \
	--env DPILLAR_TEST_TIMEOUT=$((secs + 1500)) \
	--env DPILLAR_FRAME_FUZZ_SECS="$secs" \
	--env DPILLAR_S2_FRAME_FUZZ_SECS="$secs" \
	--env "DPILLAR_S2_SIZES=8:4:2:7:plan:2" \
	--env DPILLAR_FRAME_FUZZ_SEED="$seed" \
	--env DPILLAR_FRAME_FUZZ_RATE="$rate" \
	-- selftests/debug_checks.sh selftests/dpillar_data.sh \
	selftests/s2_test.sh || rc=$?
cat "$out/test-1.out" "$out/test-2.out" 2>/dev/null |
	grep -E '^(ok|not ok) .*frame fuzzing|^# (kind [a-z_]+ |expect|sent|counters|seed|pings)' || true
if [ $rc -ne 0 ]; then
	echo "fuzz-frames: FAILED (seed $seed): FUZZ_FRAMES_SEED=$seed sends the same frames again"
	[ -s "$out/framefuzz.progress" ] &&
		echo "  the last 64 sent: dp_framefuzz.py $(cat "$out/framefuzz.progress") (--log FILE prints them)"
else
	echo "fuzz-frames: ok (seed $seed, $secs s)"
fi
exit $rc
