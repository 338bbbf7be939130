#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: install what is missing, build, boot a guest on Debian's 6.12
# kernel and build a DPillar fabric in it (selftests/demo.sh).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
sh scripts/deps.sh
read -r abi61 abi612 <<<"$(sh scripts/deps.sh --print-abis)"
abi=${DEMO_KERNEL:-$abi612}
make -s tools
bash scripts/build-modules.sh "$abi" >/dev/null
exec env DPILLAR_KO="$repo/build/$abi/net/dpillar/dpillar.ko" \
	selftests/vm/run-vm.sh --kernel "$abi" --timeout 600 -- selftests/demo.sh
