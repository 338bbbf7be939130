#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink spec and the UAPI header must agree: the kernel's generator
# renders the spec (validated against the kernel's genetlink schema on the
# way) and scripts/spec-check.py compares every constant.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$repo/scripts/ynl.sh" gen --mode uapi --header -o "$tmp/dpillar.h"
# The rendering must itself be a valid header.
echo '#include "dpillar.h"' | gcc -x c -fsyntax-only -I"$tmp" -
"$repo/scripts/spec-check.py" "$tmp/dpillar.h" "$repo/include/uapi/linux/dpillar.h"
