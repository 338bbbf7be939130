#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No stale number: rerun the evaluation's fast tables and compare them
# with what Documentation/networking/dpillar-evaluation.rst prints.
# Usage: tools/dpsim/eval-check.sh [RST]
#
# A checked table is a literal block preceded by an RST comment naming
# the command that prints it, run from the top of the tree:
#
#   .. eval-check: python3 tools/dpsim/eval-s2bw.py cuts --set small
#
#   Some text, the block's paragraph::
#
#       <exactly what the command prints>
#
# The block is the first literal block after the comment (its lines
# dedented; trailing blank lines and trailing blanks ignored).  Every
# command must take seconds (the whole check: under a minute of one
# core); a slow table gets its command beside it in the text instead.
# "python3" in a command is the Python with networkx and scipy.  Ends
# with "N passed, N failed"; exits 1 on any difference.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rst=${1:-$top/Documentation/networking/dpillar-evaluation.rst}
make -s -C "$here" dpsim || exit 1
P=${PYTHON:-python3}
$P -c 'import networkx, scipy' 2>/dev/null || P=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Split the document into $tmp/NNN.arg (the command) and $tmp/NNN.block
# (what it printed).
awk -v marker=eval-check -v dir="$tmp" -f "$top/tools/common/rst-blocks.awk" "$rst"

pass=0 fail=0
for c in "$tmp"/*.arg; do
	[ -e "$c" ] || break
	w=${c%.arg}.block
	cmd=$(cat "$c")
	t0=$(date +%s)
	if [ ! -s "$w" ]; then
		echo "FAIL no literal block after: $cmd"
		fail=$((fail + 1))
		continue
	fi
	(cd "$top" && P=$P sh -c "python3() { \"\$P\" \"\$@\"; }; $cmd") 2>&1 |
		sed 's/[ \t]*$//' > "${c%.arg}.got"
	if diff -u "$w" "${c%.arg}.got" > "${c%.arg}.diff"; then
		echo "ok $(( $(date +%s) - t0 )) s: $cmd"
		pass=$((pass + 1))
	else
		echo "FAIL $(( $(date +%s) - t0 )) s: $cmd (- printed, + now)"
		cat "${c%.arg}.diff"
		fail=$((fail + 1))
	fi
done
[ $((pass + fail)) -gt 0 ] || { echo "no eval-check block in $rst"; fail=1; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
