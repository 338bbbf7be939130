#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documents build as the kernel's documentation builds them: Sphinx,
# every warning an error, nitpicky (a :ref: to a label that does not
# exist fails).  Documentation/networking/*.rst are built with a
# scratch conf.py and a toctree of their own, the dummy builder (it
# parses and resolves every reference, writes nothing), in a scratch
# directory.  Also refused: a link to another document by file name and
# anchor (`Text <dpillar.rst#section>`__), which works on a forge's
# file view and nowhere in the kernel's HTML: between documents, a
# label (.. _dpillar-section:) and :ref:`Text <dpillar-section>`.
#
# Usage: scripts/docs-check.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
docs=$repo/Documentation/networking
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad=$(grep -n -E '<[A-Za-z0-9_.-]+\.rst(#[^>]*)?>`__?' "$docs"/*.rst || true)
if [ -n "$bad" ]; then
	echo "docs-check: links by file name (use a label and :ref:):"
	printf '%s\n' "$bad" | sed "s|^$repo/||"
	exit 1
fi

mkdir -p "$tmp/src"
cp -r "$docs" "$tmp/src/networking"
echo "project = 'dpillar'" > "$tmp/src/conf.py"
{
	printf 'dpillar\n=======\n\n.. toctree::\n\n'
	for f in "$docs"/*.rst; do
		f=${f##*/}
		printf '   networking/%s\n' "${f%.rst}"
	done
} > "$tmp/src/index.rst"
sphinx-build -q -n -W --keep-going -b dummy "$tmp/src" "$tmp/out"
echo "docs-check: $(ls "$docs"/*.rst | wc -l) documents, no warning"
