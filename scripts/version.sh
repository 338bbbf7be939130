#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version of these sources, for MODULE_VERSION, dpctl -V and dpsim -V:
# "git describe" of a tagged checkout (v0.2-3-gabc1234 -> 0.2-3-gabc1234),
# else, as if VERSION were a tag on the first commit, VERSION, the number
# of commits and the commit (0.1-720-g836d50cebdde), "-dirty" with
# uncommitted changes; without git (a DKMS or tarball tree), VERSION alone.
#
# Later commits have higher versions: the count grows with every commit
# (dpkg --compare-versions compares it as a number once scripts/deb.sh has
# made the "-" "+": 0.1+720+g... < 0.1+721+g...), whatever the hashes say
# (scripts/version-check.sh).  A release tag must be newer than VERSION
# (v0.2 while VERSION says 0.1, then VERSION 0.2): "0.1" itself would sort
# below the untagged 0.1-720-g... before it.  A shallow clone counts only
# the commits it has.
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
		n=$(git -C "$top" rev-list --count HEAD 2>/dev/null)
		echo "$base-${n:-0}-g$h"
		exit 0
	fi
fi
echo "$base"
