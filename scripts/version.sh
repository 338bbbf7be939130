#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version of these sources, for MODULE_VERSION, dpctl -V and dpsim -V:
# "git describe" of a tagged checkout (v0.2-3-gabc1234 -> 0.2-3-gabc1234),
# else VERSION plus the commit (0.1-gabc1234), "-dirty" with uncommitted
# changes; without git (a DKMS or tarball tree), VERSION alone.
top=$(cd "$(dirname "$0")/.." && pwd)
base=$(cat "$top/VERSION" 2>/dev/null || echo 0)
# Only the repository these sources are the top of, not one around them.
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
	v=$(git -C "$top" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)
	if [ -n "$v" ]; then
		echo "${v#v}"
		exit 0
	fi
	h=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null)
	if [ -n "$h" ]; then
		git -C "$top" update-index -q --refresh >/dev/null 2>&1
		git -C "$top" diff-index --quiet HEAD -- 2>/dev/null || h=$h-dirty
		echo "$base-g$h"
		exit 0
	fi
fi
echo "$base"
