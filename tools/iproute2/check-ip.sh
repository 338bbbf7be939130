#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-ip.sh IP PLUGIN: does the iproute2 "ip" IP match what PLUGIN was
# written against (iproute2.h)?  Its version ("ip -V") must be
# IP_VERSION, and every symbol PLUGIN takes from ip (the undefined symbols
# without a library version: libc's and libmnl's carry one) must be one
# that IP exports.  Says what differs and fails, loudly: a plugin loaded
# into another ip would read struct link_util wrongly, silently.
set -eu

ip=$1
so=$2
here=$(dirname "$0")
fail=0

want=$(sed -n 's/^#define IP_VERSION[[:space:]]*"\(.*\)"$/\1/p' "$here/iproute2.h")
[ -n "$want" ] || { echo "check-ip: no IP_VERSION in iproute2.h" >&2; exit 1; }
path=$(command -v "$ip") || { echo "check-ip: no $ip" >&2; exit 1; }
have=$("$path" -V | sed -n 's/.*iproute2-\([0-9][0-9.]*\).*/\1/p')
if [ "$have" != "$want" ]; then
	echo "check-ip: $path is iproute2 ${have:-(unknown: $("$path" -V))}," \
	     "but $so was written for iproute2 $want (tools/iproute2/iproute2.h):" \
	     "check struct link_util and the helpers against that version's" \
	     "sources, then update IP_VERSION" >&2
	fail=1
fi

# Real names even through a symbolic link; nm -D of both.
exports=$(nm -D --defined-only "$(readlink -f "$path")" | awk '{ print $3 }')
# The toolchain's weak hooks (_ITM_*, __gmon_start__) are not ip's.
imports=$(nm -D --undefined-only "$so" | awk '$1 == "U" && $2 !~ /@/ { print $2 }')
[ -n "$imports" ] || { echo "check-ip: $so imports nothing from ip?" >&2; exit 1; }
for sym in $imports; do
	if ! printf '%s\n' "$exports" | grep -qx "$sym"; then
		echo "check-ip: $path does not export $sym, which $so uses" >&2
		fail=1
	fi
done
[ $fail -eq 0 ] || exit 1
echo "check-ip: $path (iproute2 $have) exports the $(echo $imports | wc -w) symbols $so takes from it"
