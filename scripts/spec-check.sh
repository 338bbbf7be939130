#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink spec, the UAPI header and genl.c's policies must agree: the
# kernel's generator renders the spec (validated against the kernel's
# genetlink schema on the way) as a UAPI header, whose constants
# scripts/spec-check.py compares with ours, and as kernel source, whose ops
# table (maxattr per do/dump) and request policies it compares with
# net/dpillar/genl.c entry by entry.  We do not build the generated source:
# its ops are struct genl_split_ops, which 6.1 lacks (ovpn, which uses
# generated code, is 6.16+).  -v lists every policy entry compared.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$repo/scripts/ynl.sh" gen --mode uapi --header -o "$tmp/dpillar.h"
# The rendering must itself be a valid header.
echo '#include "dpillar.h"' | gcc -x c -fsyntax-only -I"$tmp" -
# The generator cannot render a binary length range (min-len and
# max-len): it renders a copy without them, spec-check.py takes them from
# the spec.
"$repo/scripts/spec-check.py" --strip-ranges \
	"$repo/Documentation/netlink/specs/dpillar.yaml" "$tmp/spec.yaml"
DPILLAR_YNL_SPEC=$tmp/spec.yaml \
	"$repo/scripts/ynl.sh" gen --mode kernel --source -o "$tmp/gen.c"
rc=0
"$repo/scripts/spec-check.py" "$tmp/dpillar.h" \
	"$repo/include/uapi/linux/dpillar.h" || rc=1
"$repo/scripts/spec-check.py" --policies "$@" "$tmp/gen.c" \
	"$repo/net/dpillar/genl.c" "$repo/include/uapi/linux/dpillar.h" \
	"$repo/Documentation/netlink/specs/dpillar.yaml" || rc=1
exit $rc
