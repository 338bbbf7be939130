#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make hostile: the figures of issue 53's bounds, printed, in one 6.12
# guest of one vCPU (a benchmark of the fabric's behaviour under a
# misbehaving server and under failures, not part of make check, whose
# budget they do not fit: each builds five fabrics):
#  - selftests/amplify_test.sh: what one server's forged shortcut probes
#    make the rest of the fabric send, on all five topologies;
#  - selftests/failover_test.sh, where present: the loss window of a
#    1 kHz stream through a relay while a cable is pulled or a server
#    dies, default and fast Hellos.
# Files in build/hostile/ (console.log, test-N.out).  HOSTILE_TESTS: the
# suites (default both).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
sh scripts/deps.sh
make -s tools
abi=$(sh scripts/deps.sh --print-abis | awk '{ print $NF }')
ko=$(bash scripts/build-modules.sh "$abi" | sed -n 's/^build: .*: ok (\(.*\))$/\1/p')
[ -n "$ko" ] || ko=$repo/build/$abi/net/dpillar/dpillar.ko
tests=()
for t in ${HOSTILE_TESTS:-amplify failover}; do
	[ -f "selftests/${t}_test.sh" ] && tests+=("selftests/${t}_test.sh")
done
out=$repo/build/hostile
rm -rf "$out"
mkdir -p "$out"
rc=0
env DPILLAR_KO="$ko" selftests/vm/run-vm.sh --kernel "$abi" --smp 1 \
	--timeout 3600 --out "$out" --log "$out/console.log" \
	--env DPILLAR_TEST_TIMEOUT=1800 \
	-- selftests/debug_checks.sh "${tests[@]}" || rc=$?
cat "$out"/test-*.out 2>/dev/null | grep -E '^(ok|not ok|# )' || true
exit $rc
