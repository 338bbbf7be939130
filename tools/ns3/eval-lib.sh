# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# What the ns-3 evaluations (eval-s2.sh, eval-baselines.sh,
# eval-fabric.sh) share; sourced from tools/ns3 after they set RATE.

# run FILE SEED ARGS...: dpns3 ARGS at $RATE with SEED into FILE (JSON with
# every flow's path), niced; nothing under SKIP_RUN=1 (tables from the
# JSON only), and under KEEP=1 only when FILE is missing.  Written through
# FILE.tmp, so an interrupted run leaves no FILE that KEEP would trust.
run() {
	f=$1
	seed=$2
	shift 2
	[ -n "${SKIP_RUN:-}" ] && return 0
	[ -n "${KEEP:-}" ] && [ -s "$f" ] && return 0
	nice -n 10 ./dpns3 "$@" --rate "$RATE" --seed "$seed" --json --flows \
		> "$f.tmp"
	mv "$f.tmp" "$f"
}
