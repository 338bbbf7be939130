#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dpsim test suite: the core tests (tests/test_core) and CLI checks.
# Run from tools/dpsim (make check).  Last line: "N passed, N failed".
set -u

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# check DESC EXPECTED_RC COMMAND... ; output in $out
check() {
	desc=$1 want=$2
	shift 2
	out=$("$@" 2>/tmp/dpsim-test-err.$$)
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$desc (exit $rc)"; else
		ko "$desc: exit $rc, expected $want"; cat /tmp/dpsim-test-err.$$; fi
}

# has DESC PATTERN: $out contains the fixed string
has() {
	case $out in
	*"$2"*) ok "$1" ;;
	*) ko "$1: output lacks '$2'"; echo "$out" | head -5 ;;
	esac
}

# suite BIN OUT: run a C test program (tests/BIN) into OUT, show what did
# not pass (indented lines are figures), count its "N passed, N failed"
# line (a crash counts a failure).
suite() {
	"./tests/$1" > "$2"
	src=$?
	grep -v '^PASS' "$2" | grep -v ' passed, ' | grep -v '^  ' || true
	line=$(tail -n 1 "$2")
	cp=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	cf=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$cp" ]; then cp=0; cf=1; fi
	pass=$((pass + cp))
	fail=$((fail + cf))
	[ "$src" -eq 0 ] || [ "$cf" -gt 0 ] || fail=$((fail + 1))
}

suite test_core /tmp/dpsim-core.$$
grep -E 'SRoute all|FTRoute every|FTRoute [0-9]+ random' /tmp/dpsim-core.$$ |
	sed 's/^PASS: /  core: /'

# DCell: references of BuildDCells, DCellRouting, BFS; DFR under failures.
suite test_dcell /tmp/dpsim-dcell.$$
grep -E 'DFR|equals the recursion' /tmp/dpsim-dcell.$$ | sed 's/^PASS: /  dcell: /'
rm -f /tmp/dpsim-dcell.$$

# XDCent and BCube: the definitions, Algorithm 1's recursion, BFS, parallel
# paths, single and random failures, hostile state.
suite test_xdcent /tmp/dpsim-xdcent.$$
grep -E 'the recursion|single failed|random failed' /tmp/dpsim-xdcent.$$ | sed 's/^PASS: /  xdcent: /'
rm -f /tmp/dpsim-xdcent.$$


D=./dpsim
check "--help" 0 $D --help
has "--help shows usage" "usage: dpsim"
check "no command" 2 $D
check "unknown command" 2 $D frobnicate
check "paths without -n" 2 $D paths -k 3
check "paths odd n" 2 $D paths -n 7 -k 3
check "paths bad option" 2 $D paths -n 8 -k 3 --bogus
check "ft without --failed" 2 $D ft -n 8 -k 3
check "route bad address" 2 $D route -n 8 -k 3 --from 0:0.0 --to 1:0.0.0
check "route failed source" 1 $D route -n 8 -k 3 --from 0:0.0.0 --to 1:0.0.1 --fail 0:0.0.0

# One parser for every number: range, trailing garbage, overflow, sign,
# for every topology (S2's were strtoul/atof: "16x" was 16, "x" 0), each
# a usage error naming the option (and its argument).
# badnum DESC OPTION COMMAND...: exit 2, stderr "bad OPTION 'ARG'"
badnum() {
	desc=$1 opt=$2
	shift 2
	check "$desc" 2 "$@"
	if grep -q -- "bad $opt '" /tmp/dpsim-test-err.$$; then
		ok "$desc: names $opt"
	else
		ko "$desc: stderr does not name $opt: $(head -n 1 /tmp/dpsim-test-err.$$)"
	fi
}
S2G="--topo s2 --switches 16 --ports 6 --servers 0 --spaces 2"
badnum "-n trailing garbage" -n $D paths -n 8x -k 3
badnum "-n leading blank" -n $D paths -n ' 8' -k 3
badnum "-k negative" -k $D paths -n 8 -k -3
badnum "-n over 32 bits" -n $D paths -n 4294967296 -k 3
badnum "--seed overflow" --seed $D paths -n 8 -k 3 --seed 18446744073709551616
badnum "--pairs empty" --pairs $D paths -n 8 -k 3 --pairs ''
badnum "--populate 0 (1..100)" --populate $D ft -n 12 -k 4 --populate 0
badnum "--populate 101" --populate $D ft -n 12 -k 4 --populate 101
badnum "--fail-links garbage" --fail-links $D ft -n 12 -k 4 --failed 0 --fail-links 3y
badnum "s2 --switches trailing garbage" --switches $D paths --topo s2 --switches 16x --ports 6 --servers 0 --spaces 2
badnum "s2 --ports not a number" --ports $D paths --topo s2 --switches 16 --ports six --servers 0 --spaces 2
badnum "s2 -n negative" -n $D paths --topo s2 --nodes 16 -n -6 --spaces 2
badnum "s2 --spaces overflow" --spaces $D paths $S2G --spaces 99999999999999999999
badnum "s2 --seed over 32 bits" --seed $D paths $S2G --seed 4294967296
badnum "s2 --fail-frac above 1" --fail-frac $D ft $S2G --fail-frac 2
badnum "s2 --fail-frac garbage" --fail-frac $D ft $S2G --fail-frac 0.1x
badnum "s2 --fail-links a fraction (a count)" --fail-links $D ft $S2G --fail-links 0.1
badnum "--fail-frac above 1" --fail-frac $D ft -n 12 -k 4 --failed 0 --fail-frac 1.5
badnum "s2 --from not a number" --from $D route $S2G --from x --to 3
badnum "s2 --to trailing garbage" --to $D route $S2G --from 0 --to 3z
badnum "s2 --keys negative" --keys $D keys $S2G --keys -5
badnum "s2 --grow garbage" --grow $D plan --topo s2 --fabric plan --nodes 20 --ports 6 --spaces 2 --grow 2x
badnum "s2 --hash garbage" --hash $D route $S2G --from 0 --to 3 --hash 1q
check "s2: 0x hex numbers still read" 0 $D paths --topo s2 --switches 0x10 --ports 6 --servers 0 --spaces 2
# One table: an option a topology lacks says which has it.
# errhas DESC TEXT: stderr of the last check has TEXT
errhas() {
	grep -q -- "$2" /tmp/dpsim-test-err.$$ && ok "$1" ||
		ko "$1: $(head -n 1 /tmp/dpsim-test-err.$$)"
}
check "an S2 option without --topo s2" 2 $D paths -n 8 -k 3 --switches 16
errhas "--switches: only S2 has it" "--switches: only S2 has it (--topo s2)"
check "a core option with --topo s2" 2 $D paths $S2G --pairs 5
errhas "--pairs: S2 has no such option" "--pairs: S2 (--topo s2) has no such option"
# ... whatever the command (bench --topo s2 runs on the core: it was
# "an option of --topo s2 only" with --topo s2 given)
check "bench --topo s2 --fabric: an S2 option" 0 $D bench --topo s2 -n 6 --nodes 40 --spaces 3 --decisions 10 --fabric derived
check "bench --topo s2 --fabric plan: derived only" 2 $D bench --topo s2 -n 6 --nodes 40 --spaces 3 --decisions 10 --fabric plan
errhas "bench --topo s2 --fabric plan: says so" "bench --topo s2: the kernel's derived fabric only"
check "bench --topo s2 -k: S2 has none" 2 $D bench --topo s2 -n 6 --nodes 40 --spaces 3 --decisions 10 -k 3
errhas "bench --topo s2 -k: S2 has no -k" "-k: S2 (--topo s2) has no such option"
check "keys without --topo s2" 2 $D keys -n 8 -k 3
errhas "keys: only S2 has it" "keys: only S2 has it (--topo s2)"

# One meaning for every option, whatever the topology: --fail-links a
# count, --fail-frac a fraction; --mode the routing mode (S2's rules:
# 2hop 1hop 2hop-sim; a kernel plan is --fabric plan); --from/--to the
# topology's addresses (S2's: the node id, decimal or #id as any
# topology's); --no-discover the papers' routing.
check "s2 graph ft --fail-links 5: a count" 0 $D ft $S2G --fail-links 5 --json
has "s2 graph ft --fail-links 5: 5 cables of 46" '"fail_frac":0.109,"failed_links":5,'
check "s2 graph ft --fail-frac 0.1" 0 $D ft $S2G --fail-frac 0.1 --json
has "s2 graph ft --fail-frac 0.1: 5 cables of 46" '"fail_frac":0.100,"failed_links":5,'
check "s2 graph ft --fail-links past its 46 cables" 0 $D ft $S2G --fail-links 1000 --json
has "s2 graph ft: every cable failed, no pair connected, no NaN" '"failed_links":46,"pairs":240,"connected":0,"success":0.0000,"success_connected":0.0000,'
check "s2 --fail-links with --fail-frac" 2 $D ft $S2G --fail-links 5 --fail-frac 0.1
check "s2 derived ft --fail-links 6: the core's count" 0 $D ft --topo s2 --nodes 40 -n 8 --spaces 3 --fail-links 6 --json
has "s2 derived ft --fail-links 6" '"failed_links":6,'
check "s2 derived ft --fail-frac 0.05 of its cables" 0 $D ft --topo s2 --nodes 40 -n 8 --spaces 3 --fail-frac 0.05 --json
has "s2 derived ft --fail-frac 0.05: 7 links" '"failed_links":7,'
check "dpillar ft --fail-frac 0.1 of 384 links" 0 $D ft -n 8 -k 3 --failed 0 --fail-frac 0.1 --pairs 1000 --json
has "dpillar ft --fail-frac 0.1: 38 links (192 servers, 2 ports)" '"failed_links":38,'
check "s2 --mode 1hop: the graph's rule" 0 $D pairs $S2G --mode 1hop
check "s2 --mode plan: now --fabric plan" 2 $D plan --topo s2 --mode plan --nodes 20 --ports 6 --spaces 2
errhas "s2 --mode plan: says --fabric plan" "a kernel plan: --fabric plan"
check "s2 --mode shortest: not S2's" 2 $D paths $S2G --mode shortest
check "s2 --fabric plan" 0 $D plan --topo s2 --fabric plan --nodes 20 --ports 6 --spaces 2 --seed 1
check "s2 bad --fabric" 2 $D plan --topo s2 --fabric torus --nodes 20
check "s2 route --from #0 --to #9 (any topology's #id)" 0 $D route $S2G --from '#0' --to '#9'
s2a=$out
check "s2 route --from 0 --to 9" 0 $D route $S2G --from 0 --to 9
[ "$out" = "$s2a" ] && ok "s2 route: #id is the node id" || ko "s2 route: #0 -> #9 differs from 0 -> 9"
check "s2 pairs --fail 14" 0 $D pairs $S2G --fail 14
s2a=$out
check "s2 pairs --fail #14 (any topology's #id)" 0 $D pairs $S2G --fail '#14'
[ "$out" = "$s2a" ] && ok "s2 --fail #14 is node 14" || ko "s2 --fail #14 differs from 14"
check "s2 pairs --fail 0/0 (ADDR/PORT, as every topology's)" 0 $D pairs $S2G --fail 0/0
s2a=$out
check "s2 pairs, no failure" 0 $D pairs $S2G
[ "$out" != "$s2a" ] && ok "s2 --fail 0/0 fails a link" || ko "s2 --fail 0/0 changed nothing"
check "s2 --fail 0/77: no such port" 2 $D pairs $S2G --fail 0/77
check "s2 graph ft --no-discover" 0 $D ft $S2G --fail-frac 0.1 --no-discover --json
case $out in *shortcut*) ko "s2 graph ft --no-discover: shortcut figures" ;;
*) ok "s2 graph ft --no-discover: the paper's routing alone" ;; esac
check "s2 derived ft --no-discover" 0 $D ft --topo s2 --nodes 40 -n 8 --spaces 3 --fail-frac 0.2 --no-discover --json
case $out in *'"discover"'*) ko "s2 derived ft --no-discover: a discovery object" ;;
*) ok "s2 derived ft --no-discover: no fallback" ;; esac
check "s2 derived ft: the fallback by default" 0 $D ft --topo s2 --nodes 40 -n 8 --spaces 3 --fail-frac 0.2 --json
has "s2 derived ft: the fallback by default" '"discover"'

check "s2: a stray word" 2 $D paths $S2G stray
# the topology as getopt reads it (abbreviated, --topo=s2) picks the
# options it has: one parse, not a scan of argv beside it
check "--top s2 (abbreviated): S2's options" 0 $D paths --top s2 --switches 16 --ports 6 --servers 0 --spaces 2
check "--topo=s2: S2's options" 0 $D paths --topo=s2 --nodes 16 -n 4 --spaces 2
check "help lists every option of the one table" 0 $D --help
has "help: --switches" "--switches N"
has "help: --no-discover" "--no-discover"
has "help: -k" "-k K"

check "paths (8,3) all pairs json" 0 $D paths -n 8 -k 3 --json
has "paths json fields" '"n":8,"k":3,"servers":192,"switches":48,"pairs":36672'
has "paths json bound" '"max_hops":3,"bound":4'
check "paths (8,3) paper direction" 0 $D paths -n 8 -k 3 --dir cw --json
has "paths D=+1 reaches the bound" '"max_hops":4,"bound":4'
check "paths (48,5) sampled + shortest" 0 $D paths -n 48 -k 5 --pairs 20000 --shortest --sources 1 --json
has "paths (48,5) servers" '"servers":39813120'
has "paths (48,5) shortest" '"shortest_avg"'
check "paths --sources above the servers: each server once" 0 $D paths -n 4 -k 3 --shortest --sources 100 --json
has "paths --sources 100 of 24 servers: 24 sources" '"shortest_sources":24'

check "ft (12,4) 300 failed json" 0 $D ft -n 12 -k 4 --failed 300 --pairs 20000 --json
has "ft json fields" '"looped":0,"bad_hops":0'
# the TTL covers both modes: shortest (2B+1)D+B = 31*4+15 for (12,4)
has "ft json ttl from the topology" '"ttl":139,'
has "ft json mode shortest by default" '"mode":"shortest"'
has "ft json connected pairs by BFS" '"delivered_connected_pct":'
has "ft json detour hops" '"tunnel_hops":'
for f in delivered dropped avg_stretch avg_hops max_hops bound; do
	has "ft json has $f" "\"$f\":"
done
# 20 sources (1,000 pairs each): ft runs one BFS of the 1.3M servers per
# source for its connected pairs, 84 s of make check at the default 1,000
# sources; the loop check is per pair, and 20,000 pairs it keeps.
check "ft (48,4) with failed links" 0 $D ft -n 48 -k 4 --failed 2000 --fail-links 2000 --pairs 20000 --sources 20 --json
has "ft (48,4) no loop" '"looped":0,"bad_hops":0'
# With a TTL far above t->max_hops, no path may be longer than the bound.
check "ft (8,3) paths within max_hops" 0 $D ft -n 8 -k 3 --failed 40 --fail-links 20 --pairs 20000 --ttl 1000 --json
has "ft (8,3) none over the bound" '"looped":0,"bad_hops":0'

# The paper's example (Sec. IV-B): (0,000) -> (2,001) with (1,001) failed,
# clockwise: tunnel through (1,000) to (2,010).
check "route paper example" 0 $D route -n 8 -k 3 --from 0:0.0.0 --to 2:0.0.1 --fail 1:0.0.1 --dir cw --json
has "route paper example path" '{"delivered":true,"hops":5,"path":["0:0.0.0","1:0.0.0","2:0.1.0","0:0.1.0","1:0.1.1","2:0.0.1"]'
# The issue's example: two failures send the packet round the pillar four
# times (four tunnels); 68 hops fit the derived TTL (8k+9 = 89 for k = 10).
check "route (4,10) two failures" 0 $D route -n 4 -k 10 --from 2:1.0.0.1.0.1.1.0.0.0 --to 2:1.1.0.0.1.1.0.0.0.1 --fail 1:1.1.0.0.1.1.0.0.0.1,1:1.1.0.0.1.1.0.0.1.1 --mode paper
has "route (4,10) delivered in 68 hops" "delivered in 68 hops"
check "route (4,10) two failures json" 0 $D route -n 4 -k 10 --from 2:1.0.0.1.0.1.1.0.0.0 --to 2:1.1.0.0.1.1.0.0.0.1 --fail 1:1.1.0.0.1.1.0.0.0.1,1:1.1.0.0.1.1.0.0.1.1 --json --mode paper
has "route (4,10) json" '{"delivered":true,"hops":68,'
check "route (4,10) shortest mode" 0 $D route -n 4 -k 10 --from 2:1.0.0.1.0.1.1.0.0.0 --to 2:1.1.0.0.1.1.0.0.0.1 --fail 1:1.1.0.0.1.1.0.0.0.1,1:1.1.0.0.1.1.0.0.1.1 --json
has "route (4,10) shortest delivered" '{"delivered":true,'
# Failure-free, the shortest mode is exactly BFS: (12,4) all pairs.
check "paths (12,4) shortest mode = BFS" 0 $D paths -n 12 -k 4 --shortest --sources 5184 --json
has "paths (12,4) shortest average 3.649" '"avg_hops":3.6492'
has "paths (12,4) BFS average 3.649" '"shortest_avg":3.6492'
check "plan --order grow" 0 $D plan -n 4 -k 2 --order grow --csv
has "plan --order grow first" '1,0:0.0'
check "plan --order random refused" 2 $D plan -n 4 -k 2 --order random
check "ft --populate 50 grow" 0 $D ft -n 12 -k 4 --populate 50 --pairs 2000 --json
has "ft --populate kept half" '"failed":2592,'
check "ft --populate 50 random" 0 $D ft -n 12 -k 4 --populate 50 --order random --pairs 2000 --json
check "bad --populate" 2 $D ft -n 12 -k 4 --populate 0
# The discovery fallback model: every connected pair of a half-built
# fabric delivered (the routing alone: about 77%), within the TTL.
check "ft --discover: half-built, random order" 0 $D ft -n 12 -k 4 --populate 50 --order random --pairs 2000 --discover --json
has "ft --discover delivers every connected pair" '"delivered_connected_pct":100.00000,'
has "ft --discover: no miss" '"miss_ttl":0,"miss_unreached":0,'
# the default is the kernel's: the fallback in the default mode, not in
# the papers' modes; --no-discover, the papers' routing alone
check "ft: the fallback by default" 0 $D ft -n 12 -k 4 --populate 50 --order random --pairs 2000 --json
has "ft: the fallback by default delivers every connected pair" '"delivered_connected_pct":100.00000,'
check "ft --no-discover" 0 $D ft -n 12 -k 4 --populate 50 --order random --pairs 2000 --no-discover --json
case $out in *'"discover"'*) ko "ft --no-discover: a discover object" ;;
*) ok "ft --no-discover: no fallback" ;; esac
check "ft --mode paper: no fallback by default" 0 $D ft -n 12 -k 4 --populate 50 --order random --pairs 2000 --mode paper --json
case $out in *'"discover"'*) ko "ft --mode paper: a discover object" ;;
*) ok "ft --mode paper: no fallback (the kernel's is in the default mode only)" ;; esac
# pairs --discover, the kernel's fallback pair by pair (the guests compare
# with it): DCell (3,2) with a port-0 link, a server and a cable down, all
# connected: the dfr rules drop some pairs, the fallback none, each path
# as long as its hop count; the paper's mode is left as it is.
F='#0/0,#5,#17/1'
check "pairs --no-discover DCell (3,2) $F" 0 $D pairs --topo dcell -n 3 -k 2 --fail "$F" --no-discover
own=$out
check "pairs --discover DCell (3,2) $F" 0 $D pairs --topo dcell -n 3 -k 2 --fail "$F" --discover
disc=$out
# the kernel's default is the fallback, and so is dpsim's
check "pairs DCell (3,2) $F: the default" 0 $D pairs --topo dcell -n 3 -k 2 --fail "$F"
if [ "$out" = "$disc" ]; then ok "pairs: the discovery fallback by default, as the kernel"
else ko "pairs: the default is not the kernel's fallback"; fi
check "--discover and --no-discover" 2 $D pairs --topo dcell -n 3 -k 2 --discover --no-discover
out=$disc
if [ "$(echo "$own" | grep -c ' dropped ')" -gt 0 ] &&
   [ "$(echo "$out" | grep -c ' dropped ')" = 0 ] &&
   [ "$(echo "$out" | wc -l)" = "$(echo "$own" | wc -l)" ]; then
	ok "pairs --discover: every pair dfr drops delivered"
else
	ko "pairs --discover: dropped $(echo "$own" | grep -c ' dropped ') -> $(echo "$out" | grep -c ' dropped ')"
fi
if echo "$out" | awk '{ if (split($5, p, ",") != $4 + 1) bad++ } END { exit bad > 0 }'; then
	ok "pairs --discover: every path has its hop count plus one servers"
else
	ko "pairs --discover: a path and its hop count differ"
fi
a1=$($D pairs --topo dcell -n 3 -k 2 --fail "$F" --mode paper)
a2=$($D pairs --topo dcell -n 3 -k 2 --fail "$F" --mode paper --discover)
if [ "$a1" = "$a2" ]; then ok "pairs --discover: the paper's mode unchanged"
else ko "pairs --discover changed the paper's mode"; fi
check "bad --order" 2 $D ft -n 12 -k 4 --populate 50 --order sideways
check "route #id addresses" 0 $D route -n 8 -k 3 --from '#0' --to '#129' --fail '#65' --sel cw --json
has "route #id = paper example" '{"delivered":true,"hops":5,"path":["0:0.0.0","1:0.0.0","2:0.1.0","0:0.1.0","1:0.1.1","2:0.0.1"]'
check "route --topo dpillar" 0 $D route --topo dpillar -n 8 -k 3 --from 0:0.0.0 --to 2:0.0.1 --json
check "unknown topology" 2 $D paths --topo nosuch -n 8 -k 3
check "bad selector" 2 $D paths -n 8 -k 3 --sel sideways
check "route bad #id" 2 $D route -n 8 -k 3 --from '#192' --to '#0'
check "route --ttl below the path" 0 $D route -n 8 -k 3 --from 0:0.0.0 --to 2:0.0.1 --fail 1:0.0.1 --dir cw --ttl 4
has "route TTL expiry reported" "NOT delivered: TTL 4 expired"
check "route to self" 0 $D route -n 8 -k 3 --from 1:2.3.0 --to 1:2.3.0 --json
has "route to self is 0 hops" '{"delivered":true,"hops":0,"path":["1:2.3.0"]'
check "route helix+ring text" 0 $D route -n 12 -k 4 --from 0:0.0.0.0 --to 2:5.5.5.5
has "route text delivered" "delivered in"

check "plan csv" 0 $D plan -n 4 -k 2 --csv
has "plan csv header" "server,port,switch_col,switch_id"
n=$(echo "$out" | wc -l)
[ "$n" -eq 17 ] && ok "plan (4,2) has 16 rows" || ko "plan (4,2) rows: $n"
has "plan row" "1:1.0,1,0,1"
check "plan json" 0 $D plan -n 4 -k 2 --json
has "plan json" '{"server":"0:0.0","id":0,"port":0,"switch_col":0,"switch_id":0}'
check "bench" 0 $D bench -n 8 -k 3 --runs 1 --json
has "bench json" '"mode":"shortest","ns_route_init"'
has "bench json paper" '"mode":"paper"'
# S2's derived mode through the core's bench (bench-callgrind.sh s2)
check "bench s2" 0 $D bench --topo s2 -n 6 --nodes 40 --spaces 3 --decisions 100
has "bench s2 decisions" "100 decisions, mode 2hop"
check "paths --shortest checks the mode from the sources" 0 $D paths -n 6 -k 3 --pairs 0 --shortest --sources 81 --json
has "paths (6,3) mode = BFS from every source" '"mode_not_shortest":0,'

# Pictures (Graphviz DOT): every server, switch and link once; a path in
# red, hop by hop; a failed server grey and its links dashed.
count() { echo "$out" | grep -c -- "$1"; }
check "plan --dot" 0 $D plan -n 4 -k 2 --dot
[ "$(count 'shape=box')" -eq 8 ] && [ "$(count 'shape=ellipse')" -eq 4 ] &&
	[ "$(count ' -- ')" -eq 16 ] && ok "plan (4,2) --dot: 8 servers, 4 switches, 16 links" ||
	ko "plan (4,2) --dot: $(count 'shape=box') servers, $(count 'shape=ellipse') switches, $(count ' -- ') links"
check "plan dcell --dot" 0 $D plan --topo dcell -n 4 -k 1 --dot
[ "$(count 'shape=box')" -eq 20 ] && [ "$(count ' -- ')" -eq 30 ] &&
	ok "plan dcell (4,1) --dot: 20 servers, 20 switch links + 10 cables" ||
	ko "plan dcell (4,1) --dot: $(count 'shape=box') servers, $(count ' -- ') links"
check "route --dot around a failure" 0 $D route -n 4 -k 3 --from 0:0.0.0 --to 2:1.1.1 --fail 1:0.0.1 --dot
# 3 hops over switches: 6 server-switch links in red, numbered 1 to 3
[ "$(count 'penwidth=3')" -eq 6 ] && [ "$(count 'label="3"')" -eq 2 ] &&
	ok "route --dot: the 3 hops of the detour in red" ||
	ko "route --dot: $(count 'penwidth=3') red links"
has "route --dot: the failed server is grey" '"1:0.0.1" [shape=box, style="filled,dashed"'
echo "$out" | grep -- '"1:0.0.1"' | grep -q penwidth &&
	ko "route --dot: the path crosses the failed server" || ok "route --dot: the path avoids the failed server"
check "s2 plan --dot" 0 $D plan --topo s2 --switches 16 --ports 6 --servers 2 --spaces 2 --dot
[ "$(count 'servers)"')" -eq 16 ] && [ "$(count ' -- ')" -eq 32 ] &&
	ok "s2 plan --dot: 16 switches, 32 cables (4 network ports each)" ||
	ko "s2 plan --dot: $(count 'servers)"') switches, $(count ' -- ') cables"
check "s2 route --dot" 0 $D route --topo s2 --switches 16 --ports 6 --servers 2 --spaces 2 --from 0 --to 9 --dot
[ "$(count 'penwidth=3')" -eq 2 ] && ok "s2 route --dot: its 2 hops in red" ||
	ko "s2 route --dot: $(count 'penwidth=3') red cables, not 2"
check "s2 route around a failed switch" 0 $D route --topo s2 --switches 16 --ports 6 --servers 2 --spaces 2 --from 0 --to 9 --fail 14
has "s2 route --fail 14: 0 -> 8 -> 9, not by 14" "0 8 9"
check "s2 route --dot around a failed switch" 0 $D route --topo s2 --switches 16 --ports 6 --servers 2 --spaces 2 --from 0 --to 9 --fail 14 --dot
has "s2 route --dot: the failed switch is grey" '"14" [label="14 (2 servers)", style="filled,dashed"'
[ "$(count 'style=dashed')" -eq 4 ] && [ "$(count 'penwidth=3')" -eq 2 ] &&
	! echo "$out" | grep -- '"14"' | grep -q penwidth &&
	ok "s2 route --dot: 4 dashed cables of 14, 2 red hops avoiding it" ||
	ko "s2 route --dot: $(count 'style=dashed') dashed, $(count 'penwidth=3') red"
has "s2 route --dot: the title says detour" "a path around the failures"
# route --json on a kernel fabric: the core's JSON, the path of pairs
S2D="--topo s2 --switches 16 --ports 4 --servers 0 --spaces 2 --fabric derived"
s2path=$($D pairs $S2D | awk '$1 == 0 && $2 == 9 { print $5 }')
check "s2 derived route --json" 0 $D route $S2D --from 0 --to 9 --json
has "s2 derived route --json: the header" '"header":{"ttl":'
[ -n "$s2path" ] && [ "$(echo "$out" | jq -r '.path | join(",")')" = "$s2path" ] &&
	ok "s2 derived route --json: the path of pairs ($s2path)" ||
	ko "s2 derived route --json: $(echo "$out" | jq -c .path), pairs '$s2path'"
check "s2 route --json --fail refused" 2 $D route $S2D --from 0 --to 9 --fail 14 --json
# In plan mode the header is as a sender puts it: the coordinates bit
# (0x20) and the destination's coordinates from the plan, which follow the
# header on the wire (make bench crafts its frames from this JSON).
S2P="--topo s2 --fabric plan --nodes 64 --ports 4 --spaces 2 --seed 1"
s2x=$($D plan $S2P | awk '$1 == "node" && $2 == 11 { print $4 }')
check "s2 plan route --json" 0 $D route $S2P --from 1 --to 11 --json
[ -n "$s2x" ] &&
	[ "$(echo "$out" | jq -r '.header | "\(.flags),\(.coords | join(","))"')" = "32,$s2x" ] &&
	ok "s2 plan route --json: flag 0x20 and node 11's coordinates ($s2x)" ||
	ko "s2 plan route --json: header $(echo "$out" | jq -c .header), plan '$s2x'"
# S2 at the paper's scale (issue 34): 2,880 nodes of the kernel's derived
# fabric, whose bound (5,928 hops) is wider than the header's u8 TTL: the
# sender puts TTL 255 and a renewal count of 11 (flag 0x40, the word).
S2B="--topo s2 --switches 2880 --ports 12 --servers 0 --spaces 4 --fabric derived"
check "s2 2880 nodes route --json" 0 $D route $S2B --from 0 --to 1777 --json
has "s2 2880 nodes: delivered" '"delivered":true,"hops":3,"path":["0","2647","366","1777"]'
has "s2 2880 nodes: TTL 255, renewal count 11" '"header":{"ttl":255,"flags":64,"rword":11'
check "s2 2880 nodes route, hashed first hop" 0 $D route $S2B --from 0 --to 1777 --hash 77 --json
has "s2 2880 nodes: the hashed first hop, then greedy" '"delivered":true,"hops":5'
s2bad=$($D pairs $S2B 2>&1 | head -n 3000 | awk '$3 != "delivered" || $4 > 2880' | wc -l)
[ "$s2bad" -eq 0 ] && ok "s2 2880 nodes: 3000 pairs delivered within the bound" ||
	ko "s2 2880 nodes: $s2bad of 3000 pairs not delivered"
check "s2 16385 nodes refused" 2 $D route --topo s2 --switches 16385 --ports 12 --servers 0 --spaces 4 --fabric derived --from 0 --to 1
check "s2 route from a failed switch" 2 $D route --topo s2 --switches 16 --ports 6 --servers 2 --spaces 2 --from 0 --to 9 --fail 0
check "s2 route bad --fail" 2 $D route --topo s2 --switches 16 --ports 6 --servers 2 --spaces 2 --from 0 --to 9 --fail 3-x

# ft on a baseline's graph (tools/ns3/graphs.py's file: the S2 paper's
# Fig. 21 compares SWDC and Jellyfish).  A triangle: lattice 0-1-2, a
# random link 0-2; seed 1 fails one lattice cable, so 1-hop greedy (on
# lattice distance) is stuck for 2 of the 6 pairs and 2-hop greedy
# (SWDC's 2-hop neighbours) delivers all.  ksp on a path 0-1-2 with one
# cable of two failed: the pre-computed paths across it fail, 4 of 6.
g=/tmp/dpsim-test-graph.$$
printf 'name t\nrouting greedy\nnodes 3\nlink 0 1 lattice\nlink 1 2 lattice\nlink 0 2\n' > $g
check "graph: swdc greedy 1hop, one lattice cable failed" 0 $D ft --topo s2 --file $g --fail-frac 0.34 --mode 1hop --seed 1 --json
has "graph: 1-hop greedy stuck on 2 of 6 pairs" '"failed_links":1,"pairs":6,"connected":6,"success":0.6667'
check "graph: swdc greedy 2hop, the same failure" 0 $D ft --topo s2 --file $g --fail-frac 0.34 --mode 2hop --seed 1 --json
has "graph: 2-hop greedy delivers every pair" '"connected":6,"success":1.0000'
check "graph: a baseline's graph is for ft and keys only" 2 $D paths --topo s2 --file $g
grep -q 'ft and keys only' /tmp/dpsim-test-err.$$ && ok "graph: paths refused, says why" ||
	ko "graph: paths: $(cat /tmp/dpsim-test-err.$$)"
printf 'name p\nrouting ksp\nnodes 3\nlink 0 1\nlink 1 2\n' > $g
check "graph: ksp, intact" 0 $D ft --topo s2 --file $g --fail-frac 0 --json
has "graph: ksp intact, BFS paths" '"success":1.0000,"success_connected":1.0000,"avg_hops":1.3333'
# the S2 paper's Fig. 18 percentiles (nearest rank): hops 1,1,1,1,2,2
has "graph: ksp intact, 10th and 90th percentiles of the hops" '"avg_hops":1.3333,"hops_p10":1,"hops_p90":2'
check "graph: keys on a ksp graph refused" 2 $D keys --topo s2 --file $g --keys 10
check "graph: ksp, one of two cables failed" 0 $D ft --topo s2 --file $g --fail-frac 0.5 --json
has "graph: ksp, the paths across it lost" '"connected":2,"success":0.3333'
# keys on SWDC (Figs. 19/20): a lattice ring of 6; a key's home r is
# node floor(H_r * 6).  One home: from a random switch the greedy store
# walks the ring distance, 1.5 on average ((0+1+1+2+2+3)/6); the
# retrieve goes to the nearest of 3 homes, fewer hops, and both end on a
# home (not_home 0, exit 0).
printf 'name r\nrouting greedy\nnodes 6\n' > $g
for i in 0 1 2 3 4 5; do echo "link $i $(( (i + 1) % 6 )) lattice"; done >> $g
check "graph: swdc keys, 3 replicas" 0 $D keys --topo s2 --file $g --keys 3000 --d 3 --mode 1hop --json
has "graph: swdc keys, store 1.49, retrieve to the nearest of 3 homes 0.69" '"store_avg_hops":1.4881,"retrieve_avg_hops":0.6947,"not_home":0,"load_mean":500.00'
[ "$(echo "$out" | jq '.retrieve_avg_hops < .store_avg_hops and .store_avg_hops > 1.4 and .store_avg_hops < 1.6')" = true ] &&
	ok "graph: swdc keys: store about the ring's mean distance, retrieve shorter" ||
	ko "graph: swdc keys: $out"
check "graph: swdc keys, 1 replica" 0 $D keys --topo s2 --file $g --keys 3000 --d 1 --mode 1hop --json
has "graph: swdc keys, 1 replica: retrieve as long as store, load per replica the 1-space load" '"store_avg_hops":1.5303,"retrieve_avg_hops":1.4907,"not_home":0,"load_mean":500.00,"load_max_1space":546,"load_max_dspaces_per_replica":546.00'
printf 'name x\nrouting ospf\nnodes 2\nlink 0 1\n' > $g
check "graph: unknown routing" 1 $D ft --topo s2 --file $g --fail-frac 0
rm -f $g

# S2's sizes (issue 55, item 9): --servers' default (2) yields to the
# spaces; when the ports are too few, the message says what they must hold
check "s2 plan: 4 ports, 2 spaces, no --servers" 0 $D plan --topo s2 --switches 16 --ports 4 --spaces 2
has "s2 plan 16/4/2: the graph" "N 16"
check "s2 too few ports for the spaces" 2 $D paths --topo s2 --switches 16 --ports 4 --servers 1 --spaces 2
grep -q '2 spaces need 4 cable ports; ports 4 less servers 1 leave 3' /tmp/dpsim-test-err.$$ &&
	ok "s2 too few ports: says why" || ko "s2 too few ports: $(cat /tmp/dpsim-test-err.$$)"
# the kernel's derived fabric in its own words (dpctl plan topo s2 nodes N
# n P spaces L): --nodes, -n, the kernel's seed 0, every port a cable
check "s2 --nodes -n: the kernel's derived fabric" 0 $D plan --topo s2 --nodes 8 -n 4 --spaces 2
s2k=$out
has "s2 --nodes: dpctl plan's header, seed 0" "# S2 (nodes 8, ports 4, spaces 2, seed 0): 8 servers, 0 switches"
check "s2 the same with the three flags" 0 $D plan --topo s2 --switches 8 --ports 4 --servers 0 --spaces 2 --seed 0 --fabric derived
[ "$s2k" = "$out" ] && ok "s2 --nodes = --fabric derived --servers 0 --seed 0" ||
	ko "s2 --nodes differs from --fabric derived --servers 0 --seed 0"
check "s2 --nodes --seed 3 route" 0 $D route --topo s2 --nodes 16 -n 4 --spaces 2 --seed 3 --from 0 --to 9 -j
has "s2 --nodes: -j is --json" '"delivered":true'
check "s2 --fabric derived: no server ports by default" 0 $D plan --topo s2 --switches 8 --ports 4 --spaces 2 --fabric derived
has "s2 --fabric derived: 4 cable ports" "# S2 (nodes 8, ports 4, spaces 2, seed 1)"
# text output as the other topologies': what ran on what, then the figures
check "s2 paths: text" 0 $D paths --topo s2 --switches 16 --ports 6 --servers 0 --spaces 2
has "s2 paths: the title" "S2 graph (switches 16, ports 6, servers 0, spaces 2, seed 1, coords balanced): 46 cables"
has "s2 paths: figures indented, in words" "  bfs avg                      1.6750"
check "s2 ft: text" 0 $D ft --topo s2 --switches 16 --ports 6 --servers 0 --spaces 2 --fail-frac 0.1
has "s2 ft: the title" "failed cables 10.0%"
check "s2 keys: text" 0 $D keys --topo s2 --switches 16 --ports 6 --servers 0 --spaces 2 --keys 100
has "s2 keys: the title" "100 keys stored and retrieved"
check "s2 paths --json unchanged" 0 $D paths --topo s2 --switches 16 --ports 6 --servers 0 --spaces 2 --json
has "s2 paths --json: the keys" '{"switches":16,"spaces":2,"d":2,"links":46,"pairs":240,"bfs_avg":1.6750,'

# ft's progress (issue 55, item 9): on stderr, when it is a terminal or
# with --progress; the last line says every source was done
check "ft --progress" 0 $D ft -n 8 -k 2 --failed 2 --pairs 100 --sources 10 --progress
grep -q 'dpsim: ft: 10 of 10 sources' /tmp/dpsim-test-err.$$ &&
	ok "ft --progress: the last line" || ko "ft --progress: $(cat /tmp/dpsim-test-err.$$)"
check "ft: no progress when stderr is not a terminal" 0 $D ft -n 8 -k 2 --failed 2 --pairs 100 --sources 10
[ ! -s /tmp/dpsim-test-err.$$ ] && ok "ft: nothing on stderr" || ko "ft: $(cat /tmp/dpsim-test-err.$$)"
check "dcell route --dot around a failure" 0 $D route --topo dcell -n 4 -k 1 --from 0.0 --to 3.3 --fail 3.0 --dot
has "dcell route --dot: the failed server's cable is dashed" '"0.2" -- "3.0" [taillabel="1", headlabel="1", style=dashed'
[ "$(count 'penwidth=3')" -eq 6 ] && ok "dcell route --dot: 4 hops, 6 red links (1 cable, 2 switches)" ||
	ko "dcell route --dot: $(count 'penwidth=3') red links, not 6"
check "plan --dot --json" 2 $D plan -n 4 -k 2 --dot --json
check "plan --dot too large" 1 $D plan -n 16 -k 3 --dot
if command -v dot >/dev/null; then
	$D route -n 4 -k 3 --from 0:0.0.0 --to 2:1.1.1 --fail 1:0.0.1 --dot |
		dot -Tsvg >/dev/null 2>/tmp/dpsim-test-err.$$ &&
		ok "Graphviz draws route --dot" || { ko "dot -Tsvg"; cat /tmp/dpsim-test-err.$$; }
else
	ko "no Graphviz dot (scripts/deps.sh installs graphviz)"
fi

# XDCent and BCube from the command line.
check "plan xdcent (3,2,2)" 0 $D plan --topo xdcent -n 3 -k 2 -i 2
has "plan xdcent header" "XDCent (3,2,2): 27 servers, 24 switches"
check "plan bcube (4,1)" 0 $D plan --topo bcube -n 4 -k 1 --json
check "xdcent without level" 2 $D paths --topo xdcent -n 3 -k 2
check "xdcent level below k-1" 2 $D paths --topo xdcent -n 3 -k 3 -i 1
check "route xdcent near" 0 $D route --topo xdcent -n 4 -k 2 -i 3 --from 0.0.0.0 --to 3.2.1.0 --mode near --json
has "route xdcent delivered" '{"delivered":true'
# Space Shuffle: the core checks, then the authors' network reproduced.
suite test_s2 /tmp/dpsim-s2.$$
rm -f /tmp/dpsim-s2.$$
S2TOPO=${S2TOPO:-../../../shared/data/s2/780.245.14.0.MSG1.Topo}
if [ -r "$S2TOPO" ]; then
	check "s2 paths on 780.245.14.0" 0 $D paths --topo s2 --file "$S2TOPO" --json
	has "s2 780: BFS, 1-hop, 2-hop, 2-hop-sim (authors' figures)" \
		'"bfs_avg":2.5703,"1hop_avg":3.2619,"1hop_max":10,"1hop_stuck":0,"2hop-sim_avg":2.8026,"2hop-sim_max":9,"2hop-sim_stuck":0,"2hop_avg":2.6481'
	check "s2 route 0 -> 100 on 780" 0 $D route --topo s2 --file "$S2TOPO" --from 0 --to 100
	has "s2 route: path and hops" "delivered in 3 hops"
	check "s2 route with a flow hash" 0 $D route --topo s2 --file "$S2TOPO" --from 0 --to 100 --hash 4
	has "s2 route: another first hop, Algorithm 2" "0 187 "
else
	echo "SKIP: s2 780.245.14.0 ($S2TOPO not readable)"
fi
check "s2 route to a node that does not exist" 2 $D route --topo s2 --switches 10 --ports 6 --from 0 --to 10
check "s2 unknown coords" 2 $D paths --topo s2 --switches 20 --ports 6 --coords bogus
check "s2 too many spaces" 2 $D paths --topo s2 --switches 20 --ports 6 --spaces 4
check "s2 derived 40 switches" 0 $D paths --topo s2 --switches 40 --ports 8 --coords derived --json
m=$(echo "$out" | sed -n 's/.*"min_cd_times_n": *\([0-9.]*\).*/\1/p')
awk -v m="${m:-0}" 'BEGIN { exit !(m >= 1 / 3) }' &&
	ok "s2 derived: no two coordinates closer than 1/(3N) ($m / N)" ||
	ko "s2 derived: closest coordinates $m / N, below 1/(3N)"
check "s2 ft 20% with shortcuts reaches every connected pair" 0 \
	$D ft --topo s2 --switches 60 --ports 8 --fail-frac 0.2 --json
has "s2 ft: no loop" '"looped":0}'
# ft and plan of a fabric the kernel builds are the core's (s2fabric.c):
# dp_walk() with the failure set of topo_walk.c, as every topology
check "s2 ft derived: the core's ft" 0 \
	$D ft --topo s2 --switches 40 --ports 8 --servers 0 --spaces 3 --fabric derived --fail-frac 0.2 --json
has "s2 ft derived: the core's fields" '"failed_links":30,'
has "s2 ft derived: 2hop, no loop" '"mode":"2hop","ttl":79,'
has "s2 ft derived: discovery delivers every connected pair" '"delivered_connected_pct":100.00000,'
check "s2 ft plan mode grown: the core's ft, 1hop" 0 \
	$D ft --topo s2 --fabric plan --nodes 64 --ports 8 --spaces 3 --seed 2 --grow 16 --fail-frac 0.2 --mode 1hop --json
has "s2 ft plan mode: 80 nodes, 1hop" '"servers":80,'
has "s2 ft plan mode: no loop, no bad hop" '"looped":0,"bad_hops":0,'
has "s2 ft plan mode: discovery delivers every connected pair" '"delivered_connected_pct":100.00000,'
check "s2 ft derived: --d below the spaces refused" 2 \
	$D ft --topo s2 --switches 40 --ports 8 --fabric derived --d 2
check "s2 plan derived: --grow refused" 2 \
	$D plan --topo s2 --switches 20 --ports 8 --fabric derived --grow 2
check "s2 plan mode --dot: the core's drawing" 0 \
	$D plan --topo s2 --fabric plan --nodes 20 --ports 6 --spaces 2 --dot
has "s2 plan mode --dot: the plan's fabric" 'graph "S2 plan (nodes 20, ports 6, spaces 2)" {'
check "s2 keys: every lookup ends at a home" 0 $D keys --topo s2 --switches 60 --ports 8 --keys 2000 --json
has "s2 keys" '"not_home":0'
$D plan --topo s2 --switches 30 --ports 8 --grow 6 > /tmp/dpsim-s2plan.$$ 2>/dev/null
check "s2 plan --grow: the grown network routes every pair" 0 \
	$D paths --topo s2 --file /tmp/dpsim-s2plan.$$ --json
has "s2 grown network has 36 switches" '"switches":36,'
rm -f /tmp/dpsim-s2plan.$$

# S2 plan mode: the kernel's routing core (dp_walk on the plan's table:
# coordinates and peers from the view, dst's coordinates in the frame)
# takes the path s2sim's own greedy takes, pair by pair, every rule
P="--topo s2 --fabric plan --ports 8 --spaces 3 --seed 2"
check "s2 plan: core = s2sim, 64 nodes, all pairs, 3 rules" 0 $D compare $P --nodes 64 --json
has "s2 plan 64: no pair differs" '"1hop_differ":0,'
has "s2 plan 64: 2hop-sim too" '"2hop-sim_differ":0,'
has "s2 plan 64: 2hop too, all delivered" '"2hop_differ":0,"2hop_core_delivered":4032,"2hop_sim_delivered":4032,'
has "s2 plan 64: hashed first hops (Algorithm 2) too" '"multipath_pairs":12096,"multipath_differ":0,'
check "s2 plan: core = s2sim with 10% of the cables failed" 0 $D compare $P --nodes 64 --fail-frac 0.1 --json
has "s2 plan 64, failed cables: no pair differs" '"failed_links":26,"1hop_pairs":4032,"1hop_differ":0,'
has "s2 plan 64, failed cables: 2hop" '"2hop_differ":0,'
has "s2 plan 64, failed cables: multipath" '"multipath_differ":0,'
check "s2 plan: core = s2sim after --grow 16" 0 $D compare $P --nodes 64 --grow 16 --json
has "s2 plan grown to 80: no pair differs" '"nodes":80,'
has "s2 plan grown to 80: every ring cabled" '"ring_missing":0}'
has "s2 plan grown: 2hop, all delivered" '"2hop_differ":0,"2hop_core_delivered":6320,'
check "s2 plan: core = s2sim, grown, 20% failed" 0 $D compare $P --nodes 64 --grow 16 --fail-frac 0.2 --json
has "s2 plan grown, failed: 2hop-sim" '"2hop-sim_differ":0,'
has "s2 plan grown, failed: 2hop" '"2hop_differ":0,'
check "s2 plan: core = s2sim, 250 nodes, 4 spaces" 0 $D compare --topo s2 --fabric plan --ports 8 --spaces 4 --seed 5 --nodes 250 --json
has "s2 plan 250: no pair differs" '"1hop_differ":0,'
has "s2 plan 250: 2hop" '"2hop_differ":0,"2hop_core_delivered":62250,'
# the document read back routes the same; grown after reading, it is the
# plan grown when generated, byte for byte
$D plan $P --nodes 40 > /tmp/dpsim-s2plan.$$
check "s2 plan --plan FILE: core = s2sim" 0 $D compare --topo s2 --plan /tmp/dpsim-s2plan.$$ --fail-frac 0.05 --json
has "s2 plan --plan FILE: 40 nodes, no pair differs" '"nodes":40,"ports":8,"spaces":3,"failed_links":8,"1hop_pairs":1560,"1hop_differ":0,'
$D plan --topo s2 --plan /tmp/dpsim-s2plan.$$ --grow 5 > /tmp/dpsim-s2plan-a.$$
$D plan $P --nodes 40 --grow 5 > /tmp/dpsim-s2plan-b.$$
cmp -s /tmp/dpsim-s2plan-a.$$ /tmp/dpsim-s2plan-b.$$ &&
	ok "s2 plan --plan FILE --grow 5 = plan --grow 5" || ko "s2 plan: growing a read plan differs"
check "s2 plan: a torn document" 1 sh -c "head -n 20 /tmp/dpsim-s2plan.$$ > /tmp/dpsim-s2plan-a.$$; $D compare --topo s2 --plan /tmp/dpsim-s2plan-a.$$"
check "s2 plan: a cable named differently at its ends" 1 sh -c "sed '2s|ports [0-9]*/|ports 39/|' /tmp/dpsim-s2plan.$$ > /tmp/dpsim-s2plan-a.$$; $D compare --topo s2 --plan /tmp/dpsim-s2plan-a.$$"
check "s2 compare without a plan" 2 $D compare --topo s2 --switches 20 --ports 8
check "s2 plan mode: 256 nodes refused" 2 $D plan $P --nodes 256
check "s2 bad --mode" 2 $D plan --topo s2 --mode derived --nodes 20
errhas "s2 bad --mode: S2's modes" "S2's modes are 2hop, 1hop, 2hop-sim"
rm -f /tmp/dpsim-s2plan.$$ /tmp/dpsim-s2plan-a.$$ /tmp/dpsim-s2plan-b.$$

# a routing mode is named for every topology, and only the modes an
# instance has are accepted (XDCent k = 1 has 2 parallel paths: p0, p1)
check "dcell paths" 0 $D paths --topo dcell -n 3 -k 1
has "dcell paths names its mode" "routing (mode dfr)"
check "xdcent k=1 --mode p1" 0 $D paths --topo xdcent -n 3 -k 1 --level 2 --mode p1
check "xdcent k=1 --mode p2 refused" 2 $D paths --topo xdcent -n 3 -k 1 --level 2 --mode p2
# XDCent's k+1 parallel paths (path selection's candidates) internally
# disjoint for every pair with k+1 cabled ports; the earlier set (rot)
# for none of (3,2,2), and server-disjoint for 53.8% of its pairs
check "xdcent paths --disjoint" 0 $D paths --topo xdcent -n 3 -k 2 -i 2 --disjoint
has "xdcent --disjoint: every pair with k+1 ports" "every port cabled 306, of them disjoint in servers and switches 306 (100.0%)"
check "xdcent paths --disjoint --mode rot" 0 $D paths --topo xdcent -n 3 -k 2 -i 2 --disjoint --mode rot
has "xdcent --disjoint --mode rot: the earlier set" "in servers 378 (53.8%); pairs whose ends have every port cabled 306, of them disjoint in servers and switches 0 (0.0%)"
# above k with an end cell that has no level-L gate, L-k >= k: the
# two-strand fans (issue 56; before them 4,614 and 35,622); (3,1,3): with
# k = 1 every pair, xdc_dj_k1() for those left (5,742 before it);
# (3,2,4): at k, a third copy for dst's twin (54,090 before it, 54,234
# before the third copy from a side step, xdc_dj_cthird(), 54,378 before
# the strands at L = k + 1, xdc_dj_top1()): every pair
check "xdcent (3,1,3) paths --disjoint" 0 $D paths --topo xdcent -n 3 -k 1 -i 3 --disjoint
has "xdcent (3,1,3) --disjoint: every pair with k+1" "every port cabled 6006, of them disjoint in servers and switches 6006 (100.0%)"
check "xdcent (3,2,4) paths --disjoint" 0 $D paths --topo xdcent -n 3 -k 2 -i 4 --disjoint
has "xdcent (3,2,4) --disjoint: every pair with k+1" "every port cabled 54522, of them disjoint in servers and switches 54522 (100.0%)"
# n = 2: fewer pairs than those with k+1 cabled ports have k+1 paths;
# (2,2,4) every one of the 364 that max-flow gives k+1 (eval-xdcent-paths.py
# --table 2 2 4; 128 before xdc_dj_n2_up() and xdc_dj_n2_e4()), (2,2,5)
# every one of its 1,740 (256 before them, 728 before xdc_dj_n2_up() at
# k + 2, 1,628 before xdc_dj_n2_e5(), 1,684 before xdc_dj_n2_lo5())
# (3,2,5), 20,000 random pairs: an end cell with no level-5 gate whose
# digit 1 is n-1 takes xdc_fan1()'s three strands (16,958 before it; all
# pairs: 450,486 -> 515,304 of 517,680); an end that is the I* of its
# sub-cell of digits 2..0 (spare level 5), xdc_dj_i5() (19,391 before
# it): every pair (517,680)
check "xdcent (3,2,5) paths --disjoint, a sample" 0 $D paths --topo xdcent -n 3 -k 2 -i 5 --disjoint --pairs 20000 --seed 1
has "xdcent (3,2,5) --disjoint: the sample's 19,499" "every port cabled 19499, of them disjoint in servers and switches 19499 (100.0%)"
check "xdcent (2,2,4) paths --disjoint" 0 $D paths --topo xdcent -n 2 -k 2 -i 4 --disjoint
has "xdcent (2,2,4) --disjoint: the 364 with k+1" "every port cabled 756, of them disjoint in servers and switches 364 (48.1%)"
check "xdcent (2,2,5) paths --disjoint" 0 $D paths --topo xdcent -n 2 -k 2 -i 5 --disjoint
has "xdcent (2,2,5) --disjoint: the 1,740 with k+1" "every port cabled 3540, of them disjoint in servers and switches 1740 (49.2%)"
# n = 2, k = 3: at k and k + 1, xdc_dj_n2k3() (120 before it, 264 before
# k + 1; eval-xdcent-paths.py --table 2 3 4: k+1 for all 552 pairs with
# both spare ports cabled): every pair
check "xdcent (2,3,4) paths --disjoint" 0 $D paths --topo xdcent -n 2 -k 3 -i 4 --disjoint
has "xdcent (2,3,4) --disjoint: 552 of 552" "every port cabled 552, of them disjoint in servers and switches 552 (100.0%)"
# and at k + 2 and with an end ending in 011 (spare level 5) in (2,3,5),
# xdc_dj_n2k3_5() (1,200 before it; --table 2 3 5: k+1 for all 3,080)
check "xdcent (2,3,5) paths --disjoint" 0 $D paths --topo xdcent -n 2 -k 3 -i 5 --disjoint
has "xdcent (2,3,5) --disjoint: 3,080 of 3,080" "every port cabled 3080, of them disjoint in servers and switches 3080 (100.0%)"
# k = 2 at i = 6 (F = 95): S = 0, W = 1, explicit paths usable (24 of
# the sample before, with S = W = 0; about a second)
check "xdcent (3,2,6) paths --disjoint, a sample" 0 $D paths --topo xdcent -n 3 -k 2 -i 6 --disjoint --pairs 2000 --seed 1
has "xdcent (3,2,6) --disjoint: 1,881 of the sample's 1,977" "every port cabled 1977, of them disjoint in servers and switches 1881 (95.1%)"
check "bcube paths --disjoint --json" 0 $D paths --topo bcube -n 4 -k 2 --disjoint --json
has "bcube --disjoint: every pair" '"pairs":4032,"valid":4032,"node_disjoint":4032'
# DCell's k+1 parallel paths (issue 56; none before: "the mode has no
# candidate paths"): every pair of (3,2), a cable hop counted as no
# switch, the mean and longest hops of each candidate (0: DCellRouting)
check "dcell paths --disjoint --json" 0 $D paths --topo dcell -n 3 -k 2 --disjoint --json
has "dcell --disjoint: every pair" '"pairs":24180,"valid":24180,"node_disjoint":24180'
has "dcell --disjoint: hops per candidate" '"candidate_avg_hops":[4.6387,8.1710,6.9050],"candidate_max_hops":[7,11,11]'
check "dcell k=1 --mode p1" 0 $D paths --topo dcell -n 3 -k 1 --mode p1
check "dcell k=1 --mode p2 refused" 2 $D paths --topo dcell -n 3 -k 1 --mode p2
# one flow hash per pair: with every server a BFS source, the mode's
# walks from the sources are the all-pairs walks (one mean, not two)
check "xdcent paths --mode hash --shortest" 0 $D paths --topo xdcent -n 4 -k 1 --level 2 --mode hash --shortest --sources 64 --json
a=$(echo "$out" | sed -n 's/.*"avg_hops":\([0-9.]*\).*/\1/p')
b=$(echo "$out" | sed -n 's/.*"mode_from_sources_avg":\([0-9.]*\).*/\1/p')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "paths: the sources' mean is the all-pairs mean ($a)" ||
	ko "paths: all pairs avg $a, from every source $b"

# eval-s2bw.py (the graph-level capacity of eval-throughput.sh) on cases
# with known answers: fat tree k=4, a ring, two switches, dpsim's S2 and
# DPillar (about 3 s).  python3-networkx and python3-scipy come from
# scripts/deps.sh, for Debian's python3 (used when the first python3 in
# PATH lacks them).
py=python3
$py -c 'import networkx, scipy' 2>/dev/null || py=/usr/bin/python3
check "eval-s2bw.py selftest" 0 $py ./eval-s2bw.py selftest
has "eval-s2bw.py: fat tree k=4 bisection 8" "ok fattree(4) bisection: 8"
case $out in *FAIL*) ko "eval-s2bw.py selftest: $(echo "$out" | grep FAIL)" ;; esac
# XDCent's parallel paths end to end against max-flow: every pair of
# (2,2,4) whose node connectivity is k+1 has k+1 disjoint paths (about
# 2 s; --sample P for sizes too big for every pair)
check "eval-xdcent-paths.py --expect-full (2,2,4)" 0 $py ./eval-xdcent-paths.py --expect-full 2 2 4
has "eval-xdcent-paths.py: (2,2,4) 364 of 364" "node-disjoint where k+1 exist: 364 of 364 (100.0%)"
# and of (2,3,4), n = 2 with k = 3 (xdc_dj_n2k3(); 120 of 552 before it)
check "eval-xdcent-paths.py --expect-full (2,3,4)" 0 $py ./eval-xdcent-paths.py --expect-full 2 3 4
has "eval-xdcent-paths.py: (2,3,4) 552 of 552" "node-disjoint where k+1 exist: 552 of 552 (100.0%)"

# flows: the max-min fair aggregate of a random permutation (dpns3's
# draw and flow hash).  BCube (2,1), servers 0.0 0.1 1.0 1.1 (ids 0-3),
# two hosts each (endpoint e on server e/2); every link capacity 1.
# Seed 4 draws e0>e2 e1>e0 e2>e7 e3>e6 e4>e1 e5>e4 e6>e5 e7>e3: the
# flows e2>e7 and e3>e6 (0.1 -> 1.1, one hop by level-1 switch 1) share
# 0.1's port to it and 1.1's from it: 1/2 each, the other six 1 (e1>e0
# and e5>e4 by their server alone): 7/8 = 87.50%; hops 6/6 = 1.
check "flows: BCube (2,1) hosts 2, seed 4" 0 $D flows --topo bcube -n 2 -k 1 --hosts 2 --seed 4
has "flows: seed 4 by hand, 87.50%" "seed 4: 8 flows, delivered 8; max-min 87.50%, hops 1.000"
# Seed 1: e0>e2 e1>e0 e2>e7 e3>e5 e4>e1 e5>e6 e6>e4 e7>e3; e3>e5 (0.1 ->
# 1.0) takes 0.1 -> 1.1 -> 1.0 under its hash (dpsim route --hash
# 4196987814), sharing 0.1 -> switch 1/1 -> 1.1 with e2>e7 and 1.1 ->
# switch 0/1 -> 1.0 with e6>e4: those three at 1/2, 6.5/8 = 81.25%.
check "flows: seed 1" 0 $D flows --topo bcube -n 2 -k 1 --hosts 2 --seed 1
has "flows: seed 1 by hand, 81.25%" "max-min 81.25%, hops 1.143"
# Five seeds: 81.25 87.5 75 87.5 75, mean 81.25, sample sd 6.25, t(4)
# 2.7764: half width 2.7764 x 6.25 / sqrt(5) = 7.76.
check "flows: --seeds 5" 0 $D flows --topo bcube -n 2 -k 1 --hosts 2 --seeds 5
has "flows: mean and 95% CI by hand" "max-min 81.25% +-7.76 (95% CI, t 2.776, 5 seeds)"
check "flows --seeds 0" 2 $D flows --topo bcube -n 2 -k 1 --seeds 0
check "flows --paths 0" 2 $D flows -n 8 -k 3 --paths 0
check "flows --paths 9 (8 at most)" 2 $D flows -n 8 -k 3 --paths 9
check "flows --hosts 0" 2 $D flows -n 8 -k 3 --hosts 0
check "flows --json: text only" 2 $D flows -n 8 -k 3 --json
check "flows --failed all but one" 2 $D flows -n 4 -k 2 --failed 7
check "flows --fail-switches: not S2's" 2 $D flows --topo s2 --nodes 40 -n 8 --spaces 3 --fail-switches 1
check "flows --populate: not S2's" 2 $D flows --topo s2 --nodes 40 -n 8 --spaces 3 --populate 50
# XDCent's path set: the second subflow on another candidate path.
check "flows --paths 2: XDCent (4,2,1)" 0 $D flows --topo xdcent -n 4 -k 2 -i 1 --paths 2
has "flows --paths 2: two subflows a flow" "16 flows, delivered 16, subflows 32 of 32;"
# DCell's: the second subflow on parallel path 1 (3.333 hops a subflow;
# mode paper, no path set: both on the flow's one path, 2.250)
check "flows --paths 2: DCell (3,1)" 0 $D flows --topo dcell -n 3 -k 1 --paths 2
has "flows --paths 2: DCell's second path" "12 flows, delivered 12, subflows 24 of 24; max-min 54.17%, hops 3.333"
check "flows under failures" 0 $D flows -n 8 -k 3 --failed 10 --fail-links 20 --fail-switches 3 --seeds 2
has "flows: the failed servers' endpoints left out" "(10 endpoints down)"
check "flows --populate 50" 0 $D flows -n 8 -k 3 --populate 50
has "flows --populate 50: half the servers" "seed 1: 96 flows, delivered 96 (96 endpoints down)"
check "flows: S2's derived fabric, hosts" 0 $D flows --topo s2 --nodes 40 -n 8 --spaces 3 --hosts 2 --seeds 2
has "flows: S2 fabric seed and permutation seed" "fabric seed 1, seed 2: 80 flows"
# tools/ns3/evallib.py's waterfill (ns-3's max-min over its paths): a
# flow crossing link a twice (a detour) and one crossing it once: a's 3
# crossings share it, 1/3 each, the first frozen once: 2/3 (1 when the
# first was frozen twice).
check "evallib.waterfill: a flow twice on its link" 0 $py -c "import sys; sys.path.insert(0, '../ns3'); from evallib import waterfill; print('%.4f' % waterfill([['a', 'a'], ['a']]))"
has "evallib.waterfill: frozen once, 2/3" "0.6667"
# flows --fct: completion, max-min rates recomputed as flows finish.
# Seed 4 above: e2>e7 and e3>e6 at 1/2, six at 1: six done at 1, two at
# 2: mean 10/8, p50 (rank 4 of 8) 1, p99 (rank 8) 2, all-flow 2.
check "flows --fct: seed 4" 0 $D flows --topo bcube -n 2 -k 1 --hosts 2 --seed 4 --fct
has "flows --fct: seed 4 by hand" "completed 8, mean 1.250, p50 1.000, p99 2.000, all-flow 2.000"
# --sizes 1,2: flow i of size 1 or 2 (e0>e2 1, e1>e0 2, e2>e7 1, e3>e6
# 2, ...).  e2>e7 ends at 2 (1/2); e3>e6, half done, then has the link
# alone: 1 more at rate 1, done at 3 (4 if its rate were not
# recomputed); the others at their size: 1 1 1 2 2 2 2 3, mean 14/8.
check "flows --fct --sizes 1,2" 0 $D flows --topo bcube -n 2 -k 1 --hosts 2 --seed 4 --fct --sizes 1,2
has "flows --fct --sizes: the rate recomputed when a flow ends" "completed 8, mean 1.750, p50 2.000, p99 3.000, all-flow 3.000"
# Seeds 1-5: means 1.375 1.25 1.5 1.25 1.5 (three flows at 1/2, two,
# four, two, four), sample sd 0.125, t(4) 2.7764: +-0.155.
check "flows --fct --seeds 5" 0 $D flows --topo bcube -n 2 -k 1 --hosts 2 --seeds 5 --fct
has "flows --fct: the intervals by hand" "completion (size / link rate): mean 1.375 +-0.155, p50 1.000 +-0.000, p99 2.000 +-0.000, all-flow 2.000 +-0.000 (95% CI, t 2.776, 5 seeds); completed 40 of 40 flows"
check "flows --sizes without --fct" 2 $D flows -n 8 -k 3 --sizes 1,2
check "flows --fct --sizes 1,0" 2 $D flows -n 8 -k 3 --fct --sizes 1,0
check "flows --fct --sizes 1," 2 $D flows -n 8 -k 3 --fct --sizes 1,
# A TCP connection needs its ACKs' path too (the reversed five-tuple's
# hash): eval-s2.sh's Fig. 22-24 network with 19 failed cable ends,
# where ns-3 delivered 232 of 256 flows (tools/ns3/eval-out/s2/
# summary.txt); 10 of them have a data path but no path back.
check "flows: ACK paths, S2 with 19 failed ends" 0 $D flows --topo s2 --nodes 128 -n 6 --spaces 3 --hosts 2 --fail-links 19 --no-discover --fct
has "flows: ns-3's 232 of 256 delivered" "256 flows, delivered 232, 10 without an ACK path;"
has "flows --fct: undelivered flows never complete" "completed 232,"

# diameter (few BFS, eccentricity bounds) against a BFS from every
# server (paths --shortest --sources 100000), on small fabrics of every
# server-centric topology; 256, 1 and 5 BFS a batch (small batches use
# the bounds: 256 BFS cover a small fabric at once), two seeds.
for c in "dcell 2 1" "dcell 3 1" "dcell 2 2" "dcell 3 2" "dcell 4 2" \
	 "dpillar 4 2" "dpillar 4 3" "dpillar 6 3" "bcube 3 2" \
	 "xdcent 3 2 -i 2" "xdcent 2 2 -i 3"; do
	# shellcheck disable=SC2086
	set -- $c
	tp=$1 tn=$2 tk=$3
	shift 3
	want=$($D paths --topo "$tp" -n "$tn" -k "$tk" "$@" --pairs 0 --shortest \
	       --sources 100000 --json | sed -n 's/.*"shortest_max":\([0-9]*\).*/\1/p')
	for b in "256 1" "1 1" "1 7" "5 1" "5 7"; do
		bs=${b% *} seed=${b#* }
		got=$($D diameter --topo "$tp" -n "$tn" -k "$tk" "$@" --sources "$bs" \
		      --seed "$seed" 2>/dev/null | sed -n 's/.*, diameter \([0-9]*\) .*/\1/p')
		if [ -n "$want" ] && [ "$got" = "$want" ]; then
			ok "diameter $c, --sources $bs --seed $seed: $got, as BFS from every server"
		else
			ko "diameter $c, --sources $bs --seed $seed: '$got', BFS from every server '$want'"
		fi
	done
done

# Every word of the fabric's parameter list (net/dpillar/params.h) is an
# option of dpsim: a row of its own (-n, --level, --seed...) or, for any
# other word, the generated --WORD of "the fabric's other parameters".
check "dpsim --help" 0 $D --help
for w in $(sed -n 's/^[[:space:]]*[UC](\([a-z0-9_]*\),.*/\1/p' ../../net/dpillar/params.h); do
	case $w in ?) has "the parameter $w is an option" "  -$w " ;;
	*) has "the parameter $w is an option" "--$w " ;; esac
done

# Each topology's own CLI checks: tests/topo_<file>.sh, where the
# topology has one, for each file of the list (net/dpillar/topologies.h,
# read through topologies.mk), so that they come and go with it.
for t in $(printf 'include ../../net/dpillar/topologies.mk\nall:\n\t@echo $(DP_TOPOLOGIES)\n' |
	   MAKEFLAGS= make -s --no-print-directory -f -); do
	# shellcheck disable=SC1090
	[ ! -f "tests/topo_$t.sh" ] || . "./tests/topo_$t.sh"
done

rm -f /tmp/dpsim-test-err.$$ /tmp/dpsim-core.$$
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
