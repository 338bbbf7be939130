#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's YNL tools (tools/net/ynl) and netlink spec schemas, from
# Debian's linux-source-6.12 tarball, unpacked once into the cache.
#
#   scripts/ynl.sh --dir          print the unpacked tree
#   scripts/ynl.sh cli ARGS...    ynl CLI on our spec: --dump dev-get ...
#   scripts/ynl.sh gen ARGS...    ynl-gen-c.py on our spec: --mode uapi ...
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${DPILLAR_CACHE:-$HOME/.cache/dpillar}
# DPILLAR_YNL_SPEC: another copy of it (spec-check.sh's, for the generator)
spec=${DPILLAR_YNL_SPEC:-$repo/Documentation/netlink/specs/dpillar.yaml}
# Debian's interpreter: its python3-yaml and python3-jsonschema (make deps).
py=/usr/bin/python3

tarball=/usr/src/linux-source-6.12.tar.xz
if [ -f "$tarball" ]; then
	dir=$cache/ynl-$(stat -c %Y "$tarball")
else	# in the guest the cache may be all there is
	dir=$(ls -d "$cache"/ynl-* 2>/dev/null | tail -n 1)
fi
if [ -z "$dir" ] || [ ! -f "$dir/.done" ]; then
	[ -f "$tarball" ] || { echo "ynl: linux-source-6.12 missing (make deps)" >&2; exit 1; }
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 \
		--wildcards '*/tools/net/ynl/*' '*/Documentation/netlink/*.yaml'
	touch "$dir/.done"
fi

case "${1:-}" in
--dir)
	echo "$dir" ;;
cli)
	shift
	exec "$py" "$dir/tools/net/ynl/cli.py" --spec "$spec" \
		--schema "$dir/Documentation/netlink/genetlink.yaml" "$@" ;;
gen)
	# ynl-gen-c.py wants the spec inside a kernel tree (it looks for
	# MAINTAINERS above it) with the schema beside the specs directory.
	shift
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/Documentation/netlink/specs"
	touch "$tmp/MAINTAINERS"
	cp "$dir/Documentation/netlink/genetlink.yaml" "$tmp/Documentation/netlink/"
	cp "$spec" "$tmp/Documentation/netlink/specs/dpillar.yaml"
	"$py" "$dir/tools/net/ynl/ynl-gen-c.py" \
		--spec "$tmp/Documentation/netlink/specs/dpillar.yaml" "$@" ;;
*)
	echo "usage: scripts/ynl.sh --dir | cli ARGS... | gen ARGS..." >&2
	exit 2 ;;
esac
