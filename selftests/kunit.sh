#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the KUnit suites of dpillar_test.ko in the test guest (a kernel with
# CONFIG_KUNIT, e.g. the debug kernel of scripts/debug-kernel.sh):
#
#   selftests/vm/run-vm.sh --kernel BZIMAGE --out DIR -- selftests/kunit.sh
#
# Loads dpillar.ko ($DPILLAR_KO) and dpillar_test.ko (next to it, or
# $DPILLAR_TEST_KO); KUnit runs the suites while the module loads.  Their
# results are read back from debugfs (complete even when the kernel log
# overflows), joined into one KTAP document, saved as
# $DPILLAR_OUT/kunit.ktap for "kunit.py parse" on the host, and shown.
# The kernel log of the run is saved as $DPILLAR_OUT/kunit.dmesg, and
# streamed to the console as it comes.
# Exit 0 all passed, 1 any failure, 4 no KUnit here.
. "$(dirname "$0")/lib.sh"

require_vm
require_root
require_cmd insmod rmmod dmesg

[ -n "${DPILLAR_KO:-}" ] || ktap_skip_all "DPILLAR_KO unset"
test_ko=${DPILLAR_TEST_KO:-$(dirname "$DPILLAR_KO")/dpillar_test.ko}
[ -f "$test_ko" ] || ktap_skip_all "no $test_ko (kernel without KUnit?)"
kunit=/sys/kernel/debug/kunit
[ -d $kunit ] || ktap_skip_all "no $kunit (CONFIG_KUNIT_DEBUGFS)"

out=${DPILLAR_OUT:-/tmp}
rc=0
load_module || exit 1
mark=$(dmesg_mark)
start=$(date +%s)
# Stream the KTAP (KERN_INFO) to the console while the suites run, so that
# a run the kernel does not survive still leaves its results on the host.
read -r loglevel _ < /proc/sys/kernel/printk
echo 7 > /proc/sys/kernel/printk
# DPILLAR_KUNIT_STRIDE=N: the single-failure cases fail every Nth server
# (dpillar_test's fail_stride; make check's debug column: 4).
# DPILLAR_KUNIT_GLOB=SUITE[.CASE]: only the suites (cases) it matches
# (KUnit's filter_glob, e.g. "dpillar_gso" or "dpillar_coords.dpc_*").
# DPILLAR_KUNIT_SEED=N: dpt_rmemo_exact's random changes from seed N, the
# one a run printed (dpillar_test's rmemo_seed; default: a random seed).
if [ -n "${DPILLAR_KUNIT_GLOB:-}" ]; then
	printf %s "$DPILLAR_KUNIT_GLOB" > /sys/module/kunit/parameters/filter_glob ||
		{ echo "# kunit: cannot set filter_glob"; exit 1; }
fi
if ! insmod "$test_ko" fail_stride="${DPILLAR_KUNIT_STRIDE:-1}" \
	rmemo_seed="${DPILLAR_KUNIT_SEED:-0}"; then
	echo "# kunit: insmod $test_ko failed"
	rc=1
fi
echo "$loglevel" > /proc/sys/kernel/printk
secs=$(( $(date +%s) - start ))
dmesg_since "$mark" > "$out/kunit.dmesg"

# One KTAP document: each results file is "KTAP version 1", "1..1", the
# suite, "ok 1 <suite>"; renumber the suites.
suites=()
for s in "$kunit"/dpillar_*; do
	[ -d "$s" ] && suites+=("${s##*/}")
done
{
	echo "KTAP version 1"
	echo "1..${#suites[@]}"
	i=0
	for s in "${suites[@]}"; do
		i=$((i + 1))
		sed -e '1,2d' -e "\$s/^\(not ok\|ok\) 1 /\1 $i /" \
			"$kunit/$s/results"
	done
} > "$out/kunit.ktap"
cat "$out/kunit.ktap"
echo "# kunit: ${#suites[@]} suites ran in $secs s"

[ ${#suites[@]} -gt 0 ] || { echo "# kunit: no dpillar suite ran"; rc=1; }
for s in "${suites[@]}"; do
	if ! tail -n 1 "$kunit/$s/results" | grep -q "^ok 1 $s\$"; then
		echo "# kunit: $s: $(tail -n 1 "$kunit/$s/results")"
		rc=1
	fi
done
rmmod dpillar_test || { echo "# kunit: rmmod dpillar_test failed"; rc=1; }
exit $rc
