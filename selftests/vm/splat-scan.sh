#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# splat-scan.sh [-p PATTERNS] LOG...
# Print the kernel log lines of LOG... that match a splat pattern
# (splat-patterns.txt next to this script).  Exit 1 if any matched,
# 0 if none, 2 on usage error.  Only lines carrying a printk timestamp
# "[ 1.234567]" before the match are considered kernel lines.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pat=$here/splat-patterns.txt
if [ "${1:-}" = "-p" ]; then pat=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-p PATTERNS] LOG..." >&2; exit 2; }
[ -r "$pat" ] || { echo "splat-scan: cannot read $pat" >&2; exit 2; }

# One alternation of all patterns, each required after a printk timestamp.
alt=$(grep -v -e '^#' -e '^[[:space:]]*$' "$pat" | paste -sd'|')
[ -n "$alt" ] || { echo "splat-scan: no patterns in $pat" >&2; exit 2; }
re="\\[ *[0-9]+\\.[0-9]+\\].*($alt)"

hits=$(cat -- "$@" | tr -d '\r' | grep -a -E -e "$re")
if [ -n "$hits" ]; then
	printf '%s\n' "$hits"
	exit 1
fi
exit 0
