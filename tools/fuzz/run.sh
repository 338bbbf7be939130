#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh TARGET SECONDS WORKDIR: run one libFuzzer target for a
# fixed time from its seeds (corpus/TARGET, read only) and what earlier
# runs found (WORKDIR/TARGET), and print one summary line:
#   fuzz: TARGET: N runs in S s, cov C ft F, corpus K: ok
# Exit 1 on a crash, leak, timeout or sanitizer report (the input is kept
# in WORKDIR as crash-*/leak-*/timeout-*).
set -u
t=$1 secs=$2 work=$3
cd "$(dirname "$0")" || exit 1
mkdir -p "$work/$t"
log=$work/$t.log
# -timeout: an input that takes a second is an endless loop here.
# -rss_limit_mb: the routing core allocates nothing.
./"$t" -max_total_time="$secs" -timeout=5 -rss_limit_mb=1024 \
	-print_final_stats=1 -artifact_prefix="$work/" \
	"$work/$t" "corpus/$t" > "$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
if [ $rc -eq 0 ]; then
	echo "fuzz: $t: ${runs:-?} runs in $secs s, cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?}: ok"
else
	echo "fuzz: $t: FAILED (exit $rc), log $log:"
	grep -E 'ERROR|check failed|SUMMARY|runtime error|Test unit written' "$log" | head -n 20
fi
exit $rc
