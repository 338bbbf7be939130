#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A copy of these sources as git sees them (tracked and new files, no
# build output and no .git: what a release tarball holds) in DIR, which
# must exist.  Outside git, the tree less build/ and .git.
#
# Usage: scripts/tree-copy.sh DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dst=$1
cd "$repo"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		cpio -0 -pdm --quiet "$dst"
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$dst"
fi
