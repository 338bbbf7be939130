# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The case counting of the host check scripts (install-check.sh,
# dkms-check.sh, deb-check.sh), sourced: ok and ko count and print a case,
# finish prints the closing line check.sh reads, "N passed, N failed",
# and exits 1 if anything failed.
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
}
# scratch: $tmp, a directory removed on exit
scratch() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}
