#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo [TOPO=dpillar|dcell|bcube|xdcent|s2]: install what is missing,
# build, boot a guest on Debian's 6.12 kernel and build a fabric of that
# topology in it (selftests/demo.sh; default DPillar).
#
# Usage: scripts/demo.sh [TOPO]
set -euo pipefail
topo=${1:-${TOPO:-dpillar}}
case $topo in
dpillar|dcell|bcube|xdcent|s2) ;;
*) echo "demo: unknown topology '$topo' (dpillar dcell bcube xdcent s2)" >&2
   exit 2 ;;
esac

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
sh scripts/deps.sh
read -r abi61 abi612 <<<"$(sh scripts/deps.sh --print-abis)"
abi=${DEMO_KERNEL:-$abi612}
make -s tools
bash scripts/build-modules.sh "$abi" >/dev/null
exec env DPILLAR_KO="$repo/build/$abi/net/dpillar/dpillar.ko" \
	selftests/vm/run-vm.sh --kernel "$abi" --timeout 600 \
	--env DEMO_TOPO="$topo" -- selftests/demo.sh
