#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dpctl tests that need no kernel: plan against dpsim, addr conversions,
# usage errors, help and exit status.  Run from tools/dpctl (make check).
# Last line: "N passed, N failed"; exit status 1 if anything failed.
set -u

D=./dpctl
S=../dpsim/dpsim
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# rc DESC EXPECTED_RC COMMAND...: output in $tmp/out, errors in $tmp/err
rc() {
	desc=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else
		ko "$desc: exit $got, expected $want"; head -3 "$tmp/err"; fi
}
# has DESC STRING [FILE]: the output (or FILE) contains STRING
has() {
	if grep -qF -- "$2" "${3:-$tmp/out}"; then ok; else
		ko "$1: no '$2' in output"; head -5 "${3:-$tmp/out}"; fi
}

# jarr DESC N: the output is what "ip -j" prints, one JSON array of N
# objects (one per answer), even for one answer
jarr() {
	if python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
sys.exit(not (isinstance(v, list) and len(v) == int(sys.argv[2]) and
	      all(isinstance(o, dict) for o in v)))' "$tmp/out" "$2"; then ok
	else ko "$1: not one JSON array of $2 objects"; head -c 300 "$tmp/out"; fi
}

[ -x $S ] || make -s -C ../dpsim dpsim >/dev/null || ko "building dpsim"

# plan: byte for byte what dpsim prints
for nk in "4 2" "4 3" "6 2" "6 3" "8 3" "4 5" "10 2"; do
	set -- $nk
	$D plan -n $1 -k $2 >"$tmp/a" && $S plan -n $1 -k $2 >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan ($1,$2) != dpsim"
	$D plan n $1 k $2 csv >"$tmp/a" && $S plan -n $1 -k $2 --csv >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan --csv ($1,$2) != dpsim"
	$D -j plan -n $1 -k $2 >"$tmp/a" && $S plan -n $1 -k $2 --json >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan -j ($1,$2) != dpsim"
done
if command -v python3 >/dev/null; then
	$D -j -p plan -n 6 -k 3 >"$tmp/a"
	$S plan -n 6 -k 3 --json >"$tmp/b"
	python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
		"$tmp/a" "$tmp/b" && ok || ko "plan -j -p is not dpsim's JSON"
fi
# -j plan: one object, the fabric (dpsim plan --json's), the one
# exception to "an array of answers" (dpctl(8), JSON; the guests'
# plan_fabric.sh and dp_fabric.py read it so)
if command -v python3 >/dev/null; then
	$D -j plan -n 4 -k 2 >"$tmp/a"
	$D -j plan topo s2 -n 4 nodes 8 spaces 2 seed 1 mode plan >"$tmp/b"
	python3 -c 'import json, sys
sys.exit(not all(isinstance(json.load(open(f)), dict) for f in sys.argv[1:]))' \
		"$tmp/a" "$tmp/b" && ok || ko "-j plan is not one object"
fi
$D plan topo dpillar -n 4 -k 3 >"$tmp/a" && $S plan --topo dpillar -n 4 -k 3 >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan topo dpillar != dpsim --topo dpillar"
# DCell: switches and cables, the same bytes as dpsim in every format
for nk in "4 1" "2 2"; do
	set -- $nk
	$D plan topo dcell -n $1 -k $2 >"$tmp/a" &&
		$S plan --topo dcell -n $1 -k $2 >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan dcell ($1,$2) != dpsim"
	$D plan topo dcell -n $1 -k $2 --csv >"$tmp/a" &&
		$S plan --topo dcell -n $1 -k $2 --csv >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan dcell --csv ($1,$2) != dpsim"
	$D -j plan topo dcell -n $1 -k $2 >"$tmp/a" &&
		$S plan --topo dcell -n $1 -k $2 --json >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan dcell -j ($1,$2) != dpsim"
done
rc "plan dcell (2,2)" 0 $D plan topo dcell -n 2 -k 2
has "plan dcell: the level-2 cable of the paper's example" "cable 0.0.0/2 <-> 1.0.0/2"
has "plan dcell: a mini-switch" "switch 0/20: 6.2.0/0 6.2.1/0"
rc "addr dcell" 0 $D addr 0.2.1 topo dcell -n 2 -k 2
has "addr dcell" "addr 0.2.1 id 5 inet 10.0.0.5"
rc "addr dcell out of range" 2 $D addr 7.0.0 topo dcell -n 2 -k 2
# XDCent and BCube: the same bytes as dpsim in every format
for f in "xdcent 3 2 2" "xdcent 2 2 3" "bcube 3 1 -" "bcube 4 2 -"; do
	set -- $f
	lv=''
	[ "$4" = - ] || lv="-i $4"
	$D plan topo $1 -n $2 -k $3 $lv >"$tmp/a" &&
		$S plan --topo $1 -n $2 -k $3 $lv >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan $f != dpsim"
	$D plan topo $1 -n $2 -k $3 $lv --csv >"$tmp/a" &&
		$S plan --topo $1 -n $2 -k $3 $lv --csv >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan --csv $f != dpsim"
	$D -j plan topo $1 -n $2 -k $3 $lv >"$tmp/a" &&
		$S plan --topo $1 -n $2 -k $3 $lv --json >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan -j $f != dpsim"
done
rc "plan xdcent without level" 2 $D plan topo xdcent -n 3 -k 2
has "plan xdcent without level" "Missing level" "$tmp/err"
rc "addr xdcent" 0 $D addr 2.1.0 topo xdcent -n 3 -k 2 -i 2
has "addr xdcent" "addr 2.1.0 id 21 inet 10.0.0.21"
rc "addr bcube out of range" 2 $D addr 3.0 topo bcube -n 3 -k 1
# key locate (S2, derived coordinates): the home per space equals dpsim's
# scan of every node's coordinate in a generated network
for nl in "20 3 4" "37 4 9" "250 4 1" "1000 5 77"; do
	set -- $nl
	for key in foo bar k1 "a key" x/y/z 12345; do
		$D key locate "$key" spaces $2 nodes $1 seed $3 |
			sed -n 's/^  space \([0-9]*\) coord [0-9.]* (\([0-9]*\)) home #\([0-9]*\)$/space \1 coord \2 home \3/p' \
			>"$tmp/a" &&
		$S locate --topo s2 --switches $1 --ports $((2 * $2 + 2)) \
			--servers 2 --spaces $2 --coords derived --seed $3 \
			--key "$key" >"$tmp/b" && [ -s "$tmp/a" ] &&
		cmp -s "$tmp/a" "$tmp/b" && ok ||
		ko "key locate '$key' ($1 nodes, $2 spaces) != dpsim"
	done
done
# key locate from every node (the module's dp_s2_route() on a key frame)
# ends where dpsim's own greedy walk to the key's point ends, on the same
# path, under each rule, for the kernel's derived fabric (--fabric derived)
for nl in "16 2 4 7" "30 2 6 1" "25 3 7 3" "64 4 8 5"; do
	set -- $nl
	for mode in 2hop 1hop 2hop-sim; do
		for key in foo bar k1 "a key"; do
			for u in $(seq 0 $(($1 - 1))); do
				$D key locate "$key" spaces $2 nodes $1 seed $4 \
					ports $3 from $u mode $mode |
					sed -n 's/^  from #\([0-9]*\): home #\([0-9]*\), \([0-9]*\) hops:\(.*\)$/from \1 home \2 hops \3 path\4/p' |
					tr -d '#'
			done >"$tmp/a"
			$S locate --topo s2 --switches $1 --ports $3 \
				--servers 0 --spaces $2 --fabric derived \
				--seed $4 --mode $mode --key "$key" --from all |
				grep '^from' >"$tmp/b"
			[ "$(wc -l <"$tmp/a")" = "$1" ] &&
			cmp -s "$tmp/a" "$tmp/b" && ok ||
			ko "key locate from '$key' ($nl, $mode) != dpsim"
		done
	done
done
rc "key locate address" 0 $D key locate foo spaces 2 nodes 16 seed 7 \
	key6 fd00:6b65:79::/96
has "key locate address" "key foo id 0xa9f37ed7"
has "key locate address" "address fd00:6b65:79::a9f3:7ed7"
rc "key locate from without ports" 2 $D key locate foo spaces 2 nodes 16 \
	seed 7 from 1
rc "key locate key6 not a /96" 2 $D key locate foo spaces 2 nodes 16 seed 7 \
	key6 fd00::/64
rc "key locate bad mode" 2 $D key locate foo spaces 2 nodes 16 seed 7 \
	ports 4 from 1 mode 3hop
rc "key locate json" 0 $D -j key locate foo spaces 2 nodes 10 seed 1
has "key locate json" '[{"key":"foo","id":2851307223,"spaces":[{"space":0,"coord":'
jarr "key locate json" 1
rc "key locate without seed" 2 $D key locate foo spaces 2 nodes 10
rc "key locate too many spaces" 2 $D key locate foo spaces 9 nodes 10 seed 1
rc "key locate no nodes" 2 $D key locate foo spaces 2 nodes 0 seed 1
rc "key locate stray word" 2 $D key locate foo spaces 2 nodes 5 seed 1 frob 2
# S2 derived mode: the core's plan, byte for byte what dpsim prints
# (dpsim plan --fabric derived is the core's plan: text, CSV, JSON)
for pnls in "4 16 2 7" "8 40 3 1" "10 100 4 2"; do
	set -- $pnls
	# dpctl's format option, then dpsim's
	for f in "-n:--servers" "--csv:--csv" "-j:--json"; do
		df=${f%%:*} sf=${f#*:}
		da="" dj=""
		[ "$df" = --csv ] && da=--csv
		[ "$df" = -j ] && dj=-j
		sa=""
		[ "$sf" != --servers ] && sa=$sf
		$D $dj plan topo s2 -n $1 nodes $2 spaces $3 seed $4 $da >"$tmp/a" &&
			$S plan --topo s2 --fabric derived --switches $2 --ports $1 \
				--servers 0 --spaces $3 --seed $4 $sa >"$tmp/b" &&
			[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" && ok ||
			ko "plan s2 ($pnls $df) != dpsim plan --fabric derived"
	done
done
# the same fabric in the same words (issue 55, item 9): dpsim --nodes N -n P
# --spaces L is the kernel's derived fabric, its seed 0 by default
$D plan topo s2 nodes 16 n 4 spaces 2 >"$tmp/a" &&
	$S plan --topo s2 --nodes 16 -n 4 --spaces 2 >"$tmp/b" &&
	[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" && ok ||
	ko "plan topo s2 nodes 16 n 4 spaces 2 != dpsim plan --topo s2 --nodes 16 -n 4 --spaces 2"
# S2 plan mode: the kernel plan, byte for byte what dpsim prints (text,
# CSV, JSON), before and after growth
for pnls in "4 8 2 3 0" "6 20 2 1 0" "8 64 3 7 0" "8 64 3 7 5" "10 100 4 2 20" \
	"16 250 8 9 0"; do
	set -- $pnls
	g=""; [ "$5" -gt 0 ] && g="grow $5"
	sg=""; [ "$5" -gt 0 ] && sg="--grow $5"
	$D plan topo s2 -n $1 nodes $2 spaces $3 seed $4 mode plan $g >"$tmp/a" &&
		$S plan --topo s2 --fabric plan --ports $1 --nodes $2 --spaces $3 \
			--seed $4 $sg >"$tmp/b" && [ -s "$tmp/a" ] &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan s2 mode plan ($pnls) != dpsim"
	$D plan topo s2 -n $1 nodes $2 spaces $3 seed $4 mode plan $g --csv >"$tmp/a" &&
		$S plan --topo s2 --fabric plan --ports $1 --nodes $2 --spaces $3 \
			--seed $4 $sg --csv >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan s2 mode plan --csv ($pnls) != dpsim"
	$D -j plan topo s2 -n $1 nodes $2 spaces $3 seed $4 mode plan $g >"$tmp/a" &&
		$S plan --topo s2 --fabric plan --ports $1 --nodes $2 --spaces $3 \
			--seed $4 $sg --json >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan s2 mode plan -j ($pnls) != dpsim"
	# what the document promises: every cable named the same at both
	# ends, no port used twice, each node cabled to both of its ring
	# neighbours in every space, no two coordinates of a space closer
	# than 1/(3N) (Algorithm 3), and after growth exactly the cables
	# removed and added differ from the plan before it
	$D plan topo s2 -n $1 nodes $2 spaces $3 seed $4 mode plan -j >"$tmp/before"
	if python3 - "$tmp/a" "$tmp/before" "$1" "$(($2 + $5))" "$3" "$5" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
P, N, L, M = (int(x) for x in sys.argv[3:7])
assert (d["ports"], d["nodes"], d["spaces"]) == (P, N, L)
nodes = d["plan"]
assert [n["node"] for n in nodes] == list(range(N))
def cables(doc):
    c = set()
    for n in doc["plan"]:
        assert len(n["ports"]) == doc["ports"] and len(n["coords"]) == doc["spaces"]
        for p in n["ports"]:
            if p["kind"] == "cable":
                q = doc["plan"][p["peer"]]["ports"][p["peer_port"]]
                assert q.get("peer") == n["node"] and q["peer_port"] == p["port"], (n["node"], p)
                a, b = (n["node"], p["port"]), (p["peer"], p["peer_port"])
                c.add((min(a, b), max(a, b)))
    return c
c = cables(d)
linked = {(a[0], b[0]) for a, b in c} | {(b[0], a[0]) for a, b in c}
for s in range(L):
    ring = sorted(range(N), key=lambda v: nodes[v]["coords"][s])
    for i in range(N):
        u, v = ring[i], ring[(i + 1) % N]
        assert (u, v) in linked, ("ring", s, u, v)
        gap = (nodes[v]["coords"][s] - nodes[u]["coords"][s]) % 2**32
        assert gap * 3 * N >= 2**32, ("gap", s, u, v, gap)
if M:
    cb = cables(b)
    cab = lambda x: (tuple(x[0:2]), tuple(x[2:4]))
    rm = {cab((e["a"], e["a_port"], e["b"], e["b_port"])) for e in d["removed"]}
    ad = {cab((e["a"], e["a_port"], e["b"], e["b_port"])) for e in d["added"]}
    assert rm == cb - c and ad == c - cb, "removed/added are not the difference"
    assert d["grown_from"] == N - M
    assert [n["coords"] for n in nodes[:N - M]] == [n["coords"] for n in b["plan"]]
else:
    assert "removed" not in d and "grown_from" not in d
PY
	then ok; else ko "plan s2 mode plan ($pnls): the document breaks a promise"; fi
done
# the grown plan is the plan dpsim routes: it reads the text back
$D plan topo s2 -n 8 nodes 40 spaces 3 seed 5 mode plan grow 4 >"$tmp/a"
rc "dpsim reads dpctl's plan" 0 $S paths --topo s2 --plan "$tmp/a" --json
has "dpsim reads dpctl's plan: 44 nodes" '"switches":44,'
has "dpsim routes dpctl's plan: none stuck" '"2hop_stuck":0,'
rc "plan s2 mode plan" 0 $D plan topo s2 -n 4 nodes 8 spaces 2 seed 3 mode plan grow 1
has "plan s2 mode plan header" "# S2 plan (nodes 9, ports 4, spaces 2, seed 3, grown from 8)"
has "plan s2 mode plan node line" "node 8 coords "
has "plan s2 mode plan changes" "# grown by 1 nodes: "
$D -j -p plan topo s2 -n 6 nodes 12 spaces 2 seed 4 mode plan grow 2 >"$tmp/a"
$S plan --topo s2 --fabric plan --ports 6 --nodes 12 --spaces 2 --seed 4 --grow 2 --json >"$tmp/b"
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
	"$tmp/a" "$tmp/b" && ok || ko "plan s2 mode plan -j -p is not dpsim's JSON"
rc "plan s2 mode plan without seed" 2 $D plan topo s2 -n 4 nodes 8 spaces 2 mode plan
has "plan s2 mode plan without seed" "needs -n PORTS, nodes, spaces and seed" "$tmp/err"
rc "plan s2 mode plan 256 nodes" 2 $D plan topo s2 -n 4 nodes 256 spaces 2 seed 1 mode plan
has "plan s2 mode plan 256 nodes" "3 to 255 nodes" "$tmp/err"
rc "plan s2 mode plan grown past 255" 2 $D plan topo s2 -n 6 nodes 30 spaces 3 seed 4 mode plan grow 250
rc "plan s2 mode plan 2 nodes" 2 $D plan topo s2 -n 4 nodes 2 spaces 2 seed 1 mode plan
rc "plan s2 mode plan 9 spaces" 2 $D plan topo s2 -n 16 nodes 20 spaces 9 seed 1 mode plan
rc "plan s2 mode plan too few ports" 2 $D plan topo s2 -n 5 nodes 20 spaces 3 seed 1 mode plan
has "plan s2 mode plan too few ports" "at least 2 * spaces" "$tmp/err"
rc "plan s2 mode plan 17 ports" 2 $D plan topo s2 -n 17 nodes 20 spaces 3 seed 1 mode plan
rc "plan s2 grow without mode plan" 2 $D plan topo s2 -n 4 nodes 8 spaces 2 seed 3 grow 2
rc "plan mode plan of dpillar" 2 $D plan -n 4 -k 2 mode plan
rc "plan s2 bad mode" 2 $D plan topo s2 -n 4 nodes 8 spaces 2 seed 3 mode wibble
rc "plan s2 mode plan --dot" 2 $D plan topo s2 -n 4 nodes 8 spaces 2 seed 3 mode plan --dot
rc "plan s2 mode plan with k" 2 $D plan topo s2 -n 4 -k 2 nodes 8 spaces 2 seed 3 mode plan
rc "plan s2 mode plan -j --csv" 2 $D -j plan topo s2 -n 4 nodes 8 spaces 2 seed 3 mode plan --csv
rc "addr with mode plan" 2 $D addr 3 topo s2 -n 4 nodes 8 spaces 2 seed 3 mode plan
rc "plan unknown topology" 2 $D plan topo nosuch -n 4 -k 2
has "plan unknown topology" 'unknown topology "nosuch"' "$tmp/err"
# plan takes the fabric's words from the one list (net/dpillar/params.h),
# checked as link add checks them: its range, and another topology's word
# with the kernel's own message
rc "plan s2 nodes 0" 2 $D plan topo s2 -n 4 nodes 0 spaces 2
has "plan s2 nodes 0: the list's range" 'invalid nodes "0"' "$tmp/err"
rc "plan dpillar with spaces" 2 $D plan -n 4 -k 2 spaces 2
has "plan dpillar with spaces: the kernel's message" "Only S2 has spaces" "$tmp/err"
rc "plan dpillar with coords" 2 $D plan topo dpillar -n 4 -k 2 coords 1,2
has "plan dpillar with coords: the kernel's message" "Only S2 has coords" "$tmp/err"
rc "plan level without a value" 2 $D plan topo xdcent -n 3 -k 1 level
rc "plan without n, k" 2 $D plan
rc "plan odd n" 2 $D plan -n 5 -k 2
rc "plan n without k" 2 $D plan -n 4
rc "plan -j --csv" 2 $D -j plan -n 4 -k 2 --csv
rc "plan stray word" 2 $D plan -n 4 -k 2 frob

# addr: every form of one server, (4,3) node 21 = 2 * 2^3 + 0b101 = 2:1.0.1
for a in 2:1.0.1 21 10.0.0.21 fd64:7069:6c6c:6172::15; do
	rc "addr $a" 0 $D addr $a -n 4 -k 3
	has "addr $a" "addr 2:1.0.1 id 21 inet 10.0.0.21 inet6 fd64:7069:6c6c:6172::15"
done
has "addr ports" "port0 switch 2/1"
rc "addr -j" 0 $D -j addr 0:0.0.0 n 4 k 3
has "addr -j" '[{"n":4,"k":3,"addr":"0:0.0.0","node_id":0,"ip4":"10.0.0.0"'
jarr "addr -j" 1
rc "addr last node" 0 $D addr 23 -n 4 -k 3
has "addr last node" "addr 2:1.1.1 id 23"
# every id round-trips through the address and both IPs
for id in 0 1 7 8 15 16 23; do
	$D addr $id -n 4 -k 3 >"$tmp/a" || { ko "addr $id"; continue; }
	set -- $(cat "$tmp/a")
	for x in "$2" "$6" "$8"; do
		$D addr "$x" -n 4 -k 3 | cmp -s - "$tmp/a" && ok ||
			ko "addr $x (id $id) does not round-trip"
	done
done
rc "addr #id" 0 $D addr '#21' -n 4 -k 3
has "addr #id" "addr 2:1.0.1 id 21 inet 10.0.0.21 inet6 fd64:7069:6c6c:6172::15"
rc "addr topo dpillar" 0 $D addr 2:1.0.1 topo dpillar -n 4 -k 3
has "addr topo dpillar" "addr 2:1.0.1 id 21 "
rc "addr unknown topology" 2 $D addr 2:1.0.1 topo nosuch -n 4 -k 3
rc "addr #id out of range" 2 $D addr '#24' -n 4 -k 3
has "addr #id out of range" "no such node id in this fabric" "$tmp/err"
rc "addr #garbage" 2 $D addr '#2x' -n 4 -k 3
rc "addr id out of range" 2 $D addr 24 -n 4 -k 3
rc "addr outside ip4 prefix" 2 $D addr 11.0.0.1 -n 4 -k 3
rc "addr outside ip6 prefix" 2 $D addr fd00::1 -n 4 -k 3
rc "addr wrong k" 2 $D addr 1:0.0 -n 4 -k 3
rc "addr symbol too big" 2 $D addr 1:0.2.0 -n 4 -k 3
rc "addr garbage" 2 $D addr frob -n 4 -k 3
rc "addr missing" 2 $D addr -n 4 -k 3
rc "addr -n without -k" 2 $D addr 3 -n 4
rc "addr -n and dev" 2 $D addr 3 -n 4 -k 3 dev dp0

# usage, help, abbreviations
rc "no arguments" 2 $D
has "no arguments: usage on stderr" "Usage: dpctl" "$tmp/err"
rc "help" 0 $D help
for c in link show neigh shortcut route stats set monitor plan addr; do
	has "help lists $c" "dpctl $c"
done
rc "-h" 0 $D -h
rc "--help" 0 $D --help
for c in link show neigh route stats set monitor plan addr; do
	rc "$c -h" 0 $D $c -h
	has "$c -h" "dpctl $c"
	rc "$c help" 0 $D $c help
	rc "help $c" 0 $D help $c
done
rc "route get help" 0 $D route get help
has "route get help" "dpctl route get DEST"
rc "neighbor alias" 0 $D neighbor -h
rc "abbreviation" 0 $D ro -h
has "abbreviation" "dpctl route get"
rc "ambiguous abbreviation" 2 $D s
has "ambiguous names candidates" "ambiguous" "$tmp/err"
rc "unknown command" 2 $D frobnicate
rc "unknown option" 2 $D --frob show
rc "link unknown command" 2 $D link frob
rc "route unknown command" 2 $D route frob
rc "route get without destination" 2 $D route get
rc "route get bad destination" 2 $D route get frob
rc "route get bad address" 2 $D route get 1:x.0
rc "route get timeout 0" 2 $D route get 1:1.1.1 timeout 0
rc "route get timeout too long" 2 $D route get 1:1.1.1 timeout 5001
rc "set without settings" 2 $D set dp0
rc "set unknown setting" 2 $D set dp0 hullo 1
rc "set bad interval" 2 $D set dp0 hello x
rc "set bad ip4" 2 $D set dp0 ip4 10.0.0.0
rc "set bad ip6 length" 2 $D set dp0 ip6 fd00::/64
rc "neigh bad port" 2 $D neigh dp0 port x
rc "shortcut stray word" 2 $D shortcut dp0 dp1
rc "stats stray word" 2 $D stats dp0 dp1
rc "show stray word" 2 $D show dp0 dp1
rc "monitor stray word" 2 $D monitor dp0 dp1
rc "link add missing fields" 2 $D link add dp0 n 4
rc "link add unknown topology" 2 $D link add dp0 topo nosuch n 4 k 3 addr 0:0.0.0 port0 lo port1 none
has "link add unknown topology" 'unknown topology "nosuch"' "$tmp/err"
rc "link add bad address" 2 $D link add dp0 n 4 k 3 addr 0:0.2.0 port0 lo port1 none
rc "link add bad #id" 2 $D link add dp0 n 4 k 3 addr '#24' port0 lo port1 none
rc "link set unknown setting" 2 $D link set lo hullo 1
# set DEV TOPOLOGY: the words of link add, without ports
rc "set topology without addr" 2 $D set dp0 n 4 k 3
has "set topology without addr" "set: n, k, addr are required" "$tmp/err"
rc "set topology bad address" 2 $D set dp0 n 4 k 3 addr 0:0.2.0
rc "set topology takes no ports" 2 $D set dp0 n 4 k 3 addr 2:1.0.1 port0 lo
has "set topology takes no ports" 'unknown key "port0"' "$tmp/err"
rc "set s2 without spaces" 2 $D set dp0 topo s2 nodes 16 n 4 id 3
rc "link add ports without topology" 2 $D link add dp0 port0 lo
# S2 plan mode's coords: one u32 per space, decimal or 0x hex, S2 only
rc "set s2 coords fewer than spaces" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords 5 id 3
has "coords count message" "coords must give one coordinate per space" "$tmp/err"
rc "set s2 coords more than spaces" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords 1,2,3 id 3
rc "set s2 coords not a number" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords 1,x id 3
has "coords parse message" 'invalid coords "1,x"' "$tmp/err"
rc "set s2 coords empty one" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords 1, id 3
rc "set s2 coords over u32" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords 1,4294967296 id 3
rc "set s2 coords negative" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords -1,2 id 3
rc "set s2 coords bad hex" 2 $D set dp0 topo s2 nodes 16 n 4 spaces 2 coords 0x,2 id 3
rc "set s2 nine coords" 2 $D set dp0 topo s2 nodes 16 n 16 spaces 8 coords 1,2,3,4,5,6,7,8,9 id 3
# The words' ranges are the parameter list's (net/dpillar/params.h),
# checked before the kernel's policy would see them.
rc "set s2 spaces 9: the list's range" 2 $D set dp0 topo s2 nodes 16 n 16 spaces 9 id 3
has "spaces 9 refused by the list" 'invalid spaces "9"' "$tmp/err"
rc "set s2 nodes 0: the list's range" 2 $D set dp0 topo s2 nodes 0 n 4 spaces 2 id 3
has "nodes 0 refused by the list" 'invalid nodes "0"' "$tmp/err"
rc "set dpillar with coords" 2 $D set dp0 n 4 k 3 addr 2:1.0.1 coords 1,2
has "coords are S2's" "set: Only S2 has coords" "$tmp/err"
rc "link add s2 coords count" 2 $D link add dp0 topo s2 nodes 16 n 2 spaces 1 coords 1,2 id 3 port0 lo port1 none

# a device that does not exist is the kernel's (or the system's) answer
rc "neigh no such device" 1 $D neigh nosuchdev0
rc "shortcut no such device" 1 $D shortcut nosuchdev0
rc "set no such device" 1 $D set nosuchdev0 hello 100

# The generic netlink side against a fake family (tests/mock_genl.c).
M=tests/mock_genl.so
if [ -f $M ]; then
	m() { LD_PRELOAD=$PWD/$M "$@"; }
	rc "mock show" 0 m $D show
	has "show ports" "0     eth0  up      0/0     3/3"
	has "show absent port" "1     -     absent  2/0     0/3"
	has "show prefixes" "inet6 fd64:7069:6c6c:6172:: prefix fd64:7069:6c6c:6172::/96"
	rc "mock show -j" 0 m $D -j show
	has "show -j" '"ports":[{"port":0,"ifname":"eth0"'
	jarr "show -j" 1
	rc "mock stats -j" 0 m $D -j stats
	jarr "stats -j" 1
	rc "mock stats" 0 m $D stats
	has "stats non-zero" "route_tunnel_budget: 350"
	grep -q "rx_frames" "$tmp/out" && ko "stats prints zero counters" || ok
	rc "mock stats all" 0 m $D stats all
	has "stats all" "rx_frames: 0"
	# Prometheus' text format, read by Prometheus' own parser (Debian's
	# python3-prometheus-client): every counter (zeros too), the device
	# and its ports, each metric once with its HELP and TYPE.
	rc "mock stats prometheus" 0 m $D stats prometheus
	has "prometheus counter" 'dpillar_route_tunnel_budget_total{ifname="dp0"} 350'
	has "prometheus zero counter" 'dpillar_rx_frames_total{ifname="dp0"} 0'
	has "prometheus type" '# TYPE dpillar_rx_frames_total counter'
	has "prometheus device" 'dpillar_device_info{ifname="dp0",topo="dpillar",addr="0:0.0.0",id="0"} 1'
	has "prometheus absent port" 'dpillar_port_up{ifname="dp0",port="1",nic="",state="absent"} 0'
	has "prometheus reachable" 'dpillar_port_neighbours_reachable{ifname="dp0",port="0"} 3'
	if /usr/bin/python3 -c 'import sys
from prometheus_client.parser import text_string_to_metric_families as f
fams = list(f(open(sys.argv[1]).read()))
names = [x.name for x in fams]
assert len(names) == len(set(names)), "a metric in two groups"
assert len(fams) > 20 and all(x.documentation for x in fams)
c = [x for x in fams if x.type == "counter"]
assert len(c) + 4 == len(fams), "counters and the 4 gauges"
assert all(s.value >= 0 for x in fams for s in x.samples)' "$tmp/out"; then ok
	else ko "stats prometheus: Prometheus' parser refuses it"; fi
	rc "mock stats all prometheus" 0 m $D stats all prometheus
	rc "stats: a word too many" 2 $D stats dp0 prometheus extra
	rc "stats prometheus -j: one format" 0 m $D -j stats prometheus
	has "prometheus -j is the text format" "# TYPE dpillar_rx_frames_total counter"
	rc "mock neigh" 0 m $D neigh lo port 0
	has "neigh table" "reachable    42ms   1"
	has "neigh never heard" "17  -                  unreachable  -      -"
	rc "mock neigh -j" 0 m $D neigh -j
	has "neigh -j" '"node_id":17,"state":"unreachable"}'
	jarr "neigh -j" 3
	rc "mock shortcut" 0 m $D shortcut lo
	has "shortcut learned here" "lo   11    11  2     5     3     yes     1500ms  20ms"
	has "shortcut discovering" "lo   7     7   -     -     0     yes"
	has "shortcut relayed" "lo   12    12  1     4     2     no"
	rc "mock shortcut -j" 0 m $D -j shortcut
	has "shortcut -j" '"dst":"11","dst_id":11,"port":2,"next_id":5,"hops":3,"origin":true,"age_ms":1500,"idle_ms":20}'
	has "shortcut -j discovering" '"dst":"7","dst_id":7,"hops":0,"origin":true'
	jarr "shortcut -j" 3
	rc "mock route get" 0 m $D route get 1:1.1.1
	has "route get mode line" "mode paper hash 0"
	tail -n +4 "$tmp/out" >"$tmp/a"
	$S route -n 4 -k 3 --from 0:0.0.0 --to 1:1.1.1 --mode paper | tail -n +2 >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "route get path != dpsim route"
	rc "mock route get -j" 0 m $D -j route get 10.0.0.15
	has "route get -j" '"path":["0:0.0.0","2:1.0.0","1:1.1.0","1:1.1.1"],"path_ids":[0,20,14,15],"phases":["helix","helix","direct"]'
	jarr "route get -j" 1
	rc "mock route get -j, two destinations" 0 m $D -j route get 10.0.0.15 1:1.1.1
	jarr "route get -j, two destinations" 2
	rc "mock route get not in fabric" 2 m $D route get 24
	rc "mock route get #id" 0 m $D route get '#15'
	rc "mock route get timeout" 0 m $D route get '#15' timeout 2500
	has "route get timeout sent" "timeout-ms 2500" "$tmp/err"
	rc "mock route get, no timeout" 0 m $D route get '#15'
	if grep -q timeout-ms "$tmp/err"; then ko "route get without timeout sent one"; else ok; fi
	tail -n +4 "$tmp/out" >"$tmp/a"
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "route get #15 path != dpsim route"
	rc "mock route get #id not in fabric" 2 m $D route get '#24'
	has "route get #24" "no such node id in this fabric (DPillar (4,3))" "$tmp/err"
	# link add: the address goes as IFLA_DPILLAR_ADDR text, any topology
	MOCK_RTNL=1 rc "mock link add" 0 m $D link add dp0 n 4 k 3 addr 2:1.0.1 port0 lo port1 none
	has "link add sends ADDR" "newlink dp0 topo 1 n 4 k 3 addr 2:1.0.1 ports" "$tmp/err"
	MOCK_RTNL=1 rc "mock link add topo dpillar #id" 0 m $D link add dp0 topo dpillar n 4 k 3 addr '#21' port0 lo port1 none
	has "link add #id" "newlink dp0 topo 1 n 4 k 3 addr #21 ports" "$tmp/err"
	MOCK_UNREACH=1 rc "mock route get unreachable" 1 m $D route get 15
	has "route get extack" "No route: ring_blocked" "$tmp/err"
	MOCK_TWO=1 rc "mock route get two devices" 2 m $D route get 15
	MOCK_NOFAM=1 rc "mock no family" 1 m $D show
	has "no family" "is the dpillar module loaded" "$tmp/err"
	rc "mock set" 0 m $D set lo hello 100 dead 300
	rc "mock set topology" 0 m $D set lo n 4 k 3 addr 2:1.0.1 mode paper
	has "set sends the topology" "devset topo 1 n 4 k 3 addr 2:1.0.1 mode 1" "$tmp/err"
	rc "mock set s2 topology" 0 m $D set lo topo s2 nodes 16 n 4 spaces 2 id '#3'
	has "set sends s2" "devset topo 5 n 4 nodes 16 spaces 2 seed 0 addr #3" "$tmp/err"
	# S2 plan mode: coords go as native u32s, decimal, 0x hex, "010" is 10
	rc "mock set s2 coords" 0 m $D set lo topo s2 nodes 16 n 4 spaces 2 coords 010,0xFFFFFFFF id 3
	has "set sends coords" "devset topo 5 n 4 nodes 16 spaces 2 seed 0 coords 10,4294967295 addr 3" "$tmp/err"
	rc "mock set s2 derived" 0 m $D set lo topo s2 nodes 16 n 4 spaces 2 id 3
	if grep -q coords "$tmp/err"; then ko "set s2 derived sends coords"; else ok; fi
	MOCK_RTNL=1 rc "mock link add s2 coords" 0 m $D link add dp0 topo s2 nodes 16 n 2 spaces 1 seed 9 coords 0x80000000 id 3 port0 lo port1 none
	has "link add sends coords" "newlink dp0 topo 5 n 2 nodes 16 spaces 1 seed 9 coords 2147483648 addr 3 ports" "$tmp/err"
	printf 'topo s2\nnodes 16\nn 4\nspaces 2\ncoords 7 0x10 # a plan line\nid 3\nports lo none none none\n' >"$tmp/s2.conf"
	MOCK_RTNL=1 rc "mock up s2 coords (fails after newlink)" 1 m $D up dpx -c "$tmp/s2.conf"
	has "up: the file's coords reach newlink" "newlink dpx topo 5 n 4 nodes 16 spaces 2 seed 0 coords 7,16 addr 3 ports" "$tmp/err"
	MOCK_S2=plan rc "mock show s2 plan" 0 m $D show
	has "show plan mode" "dp0: s2 n 4 spaces 2 seed 7 coords 268435456,4000000000 (16 servers)"
	MOCK_S2=derived rc "mock show s2 derived" 0 m $D show
	has "show derived mode" "dp0: s2 n 4 spaces 2 seed 7 (16 servers)"
	MOCK_S2=plan rc "mock show -j s2 plan" 0 m $D -j show
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))[0]
sys.exit(d["coords"] != [268435456, 4000000000] or d["coords_mode"] != "plan")' "$tmp/out"
	then ok; else ko "show -j: no coords array"; head -c 400 "$tmp/out"; fi
	MOCK_S2=derived rc "mock show -j s2 derived" 0 m $D -j show
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))[0]
sys.exit("coords" in d or d["coords_mode"] != "derived")' "$tmp/out"
	then ok; else ko "show -j derived: coords, or no coords_mode"; head -c 400 "$tmp/out"; fi
	# key locate dev: the fabric read from the device (S2 node 3 of 16,
	# 4 ports, 2 spaces, seed 7) locates as the same words do.
	MOCK_S2=derived rc "mock key locate dev" 0 m $D key locate foo dev lo
	$D key locate foo spaces 2 nodes 16 seed 7 ports 4 from 3 > "$tmp/kw"
	if cmp -s "$tmp/out" "$tmp/kw"; then ok; else
		ko "key locate dev differs from its words"; head -5 "$tmp/out"; fi
	# The discovery fallback: on|off, a u8 through either family, shown
	# as the words that set it (a boolean in JSON), not at all by a
	# module without it.
	rc "mock set fallback off" 0 m $D set lo fallback off
	has "set sends fallback 0" "devset fallback 0" "$tmp/err"
	rc "mock set fallback on, with mode" 0 m $D set lo mode 1 fallback on
	has "set sends fallback 1" "devset mode 1 fallback 1" "$tmp/err"
	rc "set fallback bad value" 2 $D set lo fallback no
	has "set fallback bad value" 'fallback takes on or off, not "no"' "$tmp/err"
	rc "set fallback 1" 2 $D set lo fallback 1
	MOCK_RTNL=1 rc "mock link add fallback off" 0 m $D link add dp0 n 4 k 3 addr 2:1.0.1 port0 lo port1 none fallback off
	has "link add sends fallback 0" "newlink dp0 topo 1 n 4 k 3 addr 2:1.0.1 ports fallback 0" "$tmp/err"
	MOCK_RTNL=1 rc "mock link set fallback on" 0 m $D link set dp0 fallback on
	has "link set sends fallback 1" "newlink dp0 fallback 1" "$tmp/err"
	MOCK_RTNL=1 rc "link set fallback bad value" 2 m $D link set dp0 fallback maybe
	MOCK_FALLBACK=off rc "mock show fallback off" 0 m $D show
	has "show fallback off" "hello 100ms dead 300ms mode shortest fallback off"
	MOCK_FALLBACK=on rc "mock show fallback on" 0 m $D show
	has "show fallback on" "hello 100ms dead 300ms mode shortest fallback on"
	rc "mock show, no fallback reported" 0 m $D show
	grep -q fallback "$tmp/out" && ko "show prints a fallback it was not given" || ok
	for fb in on off; do
		MOCK_FALLBACK=$fb rc "mock show -j fallback $fb" 0 m $D -j show
		if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))[0]
sys.exit(d["fallback"] is not (sys.argv[2] == "on"))' "$tmp/out" $fb
		then ok; else ko "show -j: fallback not $fb"; head -c 400 "$tmp/out"; fi
	done
	rc "mock show -j, no fallback reported" 0 m $D -j show
	grep -q fallback "$tmp/out" && ko "show -j has a fallback it was not given" || ok
	# NIC offloads on qualified ports: on|off, a u8 through either
	# family, as the fallback's words.
	rc "mock set nic_offload on" 0 m $D set lo nic_offload on
	has "set sends nic_offload 1" "devset nic_offload 1" "$tmp/err"
	rc "set nic_offload bad value" 2 $D set lo nic_offload 1
	has "set nic_offload bad value" 'nic_offload takes on or off, not "1"' "$tmp/err"
	MOCK_RTNL=1 rc "mock link add nic_offload on" 0 m $D link add dp0 n 4 k 3 addr 2:1.0.1 port0 lo port1 none nic_offload on
	has "link add sends nic_offload 1" "newlink dp0 topo 1 n 4 k 3 addr 2:1.0.1 ports nic_offload 1" "$tmp/err"
	MOCK_RTNL=1 rc "mock link set nic_offload off" 0 m $D link set dp0 nic_offload off
	has "link set sends nic_offload 0" "newlink dp0 nic_offload 0" "$tmp/err"
	printf 'n 4\nk 2\naddr 0:0.0\nports lo none\nfallback off\n' >"$tmp/fb.conf"
	MOCK_RTNL=1 rc "mock up fallback off (fails after newlink)" 1 m $D up dpx -c "$tmp/fb.conf"
	has "up: the file's fallback reaches newlink" "newlink dpx topo 1 n 4 k 2 addr 0:0.0 ports fallback 0" "$tmp/err"
	MOCK_RTNL=1 rc "mock link add, port1 none (absent)" 0 m $D link add dp0 n 4 k 3 addr 2:1.0.1 port0 lo port1 none
	has "link add: port1 none" "newlink dp0 topo 1 n 4 k 3 addr 2:1.0.1 ports" "$tmp/err"
	MOCK_RTNL=1 rc "mock link set port1 lo (attach)" 0 m $D link set dp0 port1 lo
	has "link set sends the port list" "newlink dp0 ports" "$tmp/err"
	MOCK_RTNL=1 rc "link set port1 of no device" 1 m $D link set dp0 port1 dpctl-nosuch0
	has "link set: the missing NIC named" 'port1: device "dpctl-nosuch0" does not exist' "$tmp/err"
	MOCK_RTNL=1 rc "link set port99" 2 m $D link set dp0 port99 lo
	MOCK_RTNL=1 rc "mock link add unconfigured" 0 m $D link add dp0 hello 200
	has "link add without topology" "newlink dp0 attr9" "$tmp/err"
	# Without the module: rtnetlink's "Unknown device type", and what to do
	MOCK_RTNL=1 MOCK_NOKIND=1 rc "mock link add without the module" 1 m $D link add dp0 n 4 k 3 addr 2:1.0.1 port0 lo port1 none
	has "link add: the kernel's words" "dpctl: link add: Operation not supported: Unknown device type" "$tmp/err"
	has "link add: the hint" "dpctl: the dpillar module is not loaded and could not be loaded (modprobe dpillar):" "$tmp/err"
	printf 'n 4\nk 2\naddr 0:0.0\nports lo none\n' >"$tmp/nokind.conf"
	MOCK_RTNL=1 MOCK_NOKIND=1 rc "mock up without the module" 1 m $D up dpx -c "$tmp/nokind.conf" -w 0
	has "up: the hint" "the dpillar module is not loaded and could not be loaded" "$tmp/err"
	MOCK_EPERM=1 rc "mock set refused" 1 m $D set lo dead 50
	has "set extack" "Dead interval must exceed" "$tmp/err"
	rc "mock addr from the device" 0 m $D addr 10.0.0.15
	has "addr from the device" "addr 1:1.1.1 id 15"
	rc "mock monitor" 0 m $D monitor
	has "monitor neigh up" "neigh up lo port 0 1:0.0.1 (id 9) mac 52:54:00:12:34:09"
	has "monitor neigh down" "neigh down lo port 0 1:0.0.1 (id 9)"
	has "monitor port" "port dp0 port 1 eth1 down"
	rc "mock monitor -j" 0 m $D -j monitor
	[ "$(wc -l <"$tmp/out")" -eq 3 ] && ok || ko "monitor -j: not one line an event"
	has "monitor -j" '{"event":"port","dev":"dp0"'
	ts='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}'
	rc "mock monitor -t" 0 m $D -t monitor
	[ "$(grep -cE "^\[$ts\] (neigh|port) " "$tmp/out")" -eq 3 ] && ok ||
		ko "monitor -t: not every event line starts with its time"
	rc "mock monitor -t -j" 0 m $D -timestamp -j monitor
	[ "$(grep -cE "^\{\"event\":\"(neigh|port)\",\"time\":\"$ts\"," "$tmp/out")" -eq 3 ] && ok ||
		ko "monitor -t -j: no \"time\" after \"event\""
	# fabric: every server's table (ROUTE_NEIGHS) against the plan, in
	# each topology: a fabric cabled as "dpctl plan" says but for two
	# port ends swapped (tests/fabric_wire.py) names exactly the ports
	# whose cable differs: the two swapped ends on a switch, and on a
	# cable (or a two-server switch) their two far ends too.
	# fab ENV DESC SWAP_A SWAP_B "PORT..." PLAN-ARGS...
	fab() {
		fenv=$1 fdesc=$2 fa=$3 fb=$4 fwant=$5
		shift 5
		python3 tests/fabric_wire.py $D "$fa" "$fb" "$@" \
			>"$tmp/fabric" 2>"$tmp/nodes" || { ko "$fdesc: wiring"; return; }
		rc "mock fabric $fdesc" 1 env $fenv MOCK_FABRIC="$tmp/fabric" \
			LD_PRELOAD=$PWD/$M $D fabric pace 0
		got=$(sed -n 's/^    cable \([^ ]*\) port\([0-9]*\): miswired: .*/\1:\2/p' \
		      "$tmp/out" | tr '\n' ' ')
		[ "$got" = "$fwant " ] && ok ||
			ko "fabric $fdesc: cables '$got', expected '$fwant'"
		has "fabric $fdesc: all answered" \
			"$(cat "$tmp/nodes") of $(cat "$tmp/nodes") servers answered"
	}
	fab "MOCK_TOPO=1_4_2_0" "DPillar (4,2)" 1:0 6:1 "0:0.1:0 1:1.0:1" -n 4 -k 2
	fab "MOCK_TOPO=2_3_1_0" "DCell (3,1)" 1:1 5:1 \
		"0.1:1 1.2:1 2.0:1 3.1:1" topo dcell -n 3 -k 1
	fab "MOCK_TOPO=3_3_1_0" "BCube (3,1)" 1:0 4:1 "0.1:0 1.1:1" \
		topo bcube -n 3 -k 1
	fab "MOCK_TOPO=4_3_1_1" "XDCent (3,1,1)" 1:0 4:1 "0.1:0 1.1:1" \
		topo xdcent -n 3 -k 1 i 1
	fab "MOCK_S2=derived MOCK_NPORTS=4" "S2 (16 nodes)" 0:0 5:2 \
		"0:0 5:2 9:1 13:3" topo s2 -n 4 nodes 16 spaces 2 seed 7
	# The same fabric as planned: nothing differs, exit 0
	python3 tests/fabric_wire.py $D - - topo dcell -n 3 -k 1 \
		>"$tmp/fabric" 2>/dev/null
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" rc "mock fabric as planned" 0 \
		m $D fabric pace 0
	has "fabric as planned" "12 of 12 servers answered; 0 cables differ from the plan"
	has "fabric: this server's own table" "server 0.0 id 0: this server, ports up 0,1 of 2, neighbours 3, miswired 0"
	# A server that does not answer: its line, exit 1
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" MOCK_SILENT=4 \
		rc "mock fabric one silent" 1 m $D fabric pace 0
	has "fabric: the silent server" "server 1.1 id 4: no answer (timeout)"
	has "fabric: the others answered" "11 of 12 servers answered; 0 cables differ"
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" MOCK_OLD=5 \
		rc "mock fabric one old module" 1 m $D fabric pace 0
	has "fabric: an old module's server" "server 1.2 id 5: no table (reached; its module has no ROUTE_NEIGHS)"
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" MOCK_SILENT=4 \
		rc "mock fabric -j" 1 m $D -j fabric pace 0
	jarr "fabric -j" 12
	if python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
sys.exit(v[4]["answered"] or v[4]["status"] != "timeout" or
	 v[0]["status"] != "self" or v[1]["ports_up"] != [0, 1] or
	 len(v[1]["neighbours"]) != 3 or v[1]["differ"] != [])' "$tmp/out"
	then ok; else ko "fabric -j: fields"; head -c 400 "$tmp/out"; fi
	python3 tests/fabric_wire.py $D 1:1 5:1 topo dcell -n 3 -k 1 \
		>"$tmp/fabric" 2>/dev/null
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" \
		rc "mock fabric -j swapped" 1 m $D -j fabric pace 0
	if python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
d = v[1]["differ"]
sys.exit(d != [{"port": 1, "problem": "miswired", "plan": "2.0 port 1",
		"heard": {"addr": "3.1", "node_id": 10, "port": 1}}])' "$tmp/out"
	then ok; else ko "fabric -j: differ"; head -c 600 "$tmp/out"; fi
	# A truncated table: its last port (port 1 here) is not compared.
	# 0.1's port 0 and 1.2's port 1 swapped: three ports differ (a
	# switch end, both ends of a cable), one before a table's last port.
	python3 tests/fabric_wire.py $D 1:0 5:1 topo dcell -n 3 -k 1 \
		>"$tmp/fabric" 2>/dev/null
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" \
		rc "mock fabric switch end and cable" 1 m $D fabric pace 0
	has "fabric: a switch end and a cable" "3 cables differ"
	MOCK_TOPO="2 3 1 0" MOCK_FABRIC="$tmp/fabric" MOCK_TRUNC=1 \
		rc "mock fabric truncated" 1 m $D fabric pace 0
	has "fabric truncated: port 0 compared" "cable 0.1 port0: miswired"
	grep -q "port1: miswired" "$tmp/out" && ko "fabric truncated: port 1 compared" || ok
	has "fabric truncated: said" "(table truncated)"
	rc "fabric bad pace" 2 m $D fabric pace x
	rc "fabric bad timeout" 2 m $D fabric timeout 0
else
	ko "$M not built (make check builds it)"
fi

# plan --dot: the same picture as dpsim's; dpsim's spelling of plan works
for a in "-n 4 -k 2" "--topo dcell -n 4 -k 1" "--topo xdcent -n 2 -k 2 --level 2"; do
	$D plan $a --dot >"$tmp/a" && $S plan $a --dot >"$tmp/b" &&
		cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan $a --dot != dpsim"
done
$D plan -n 4 -k 3 --order grow >"$tmp/a" && $S plan -n 4 -k 3 --order grow >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan --order grow != dpsim"
# the growth order as JSON goes through the one writer: -p indents it
$D -j plan -n 4 -k 2 order | jq -e 'length == 8 and .[0].rank == 1' >/dev/null &&
	ok || ko "plan order -j: not 8 ranks"
$D -j -p plan -n 4 -k 2 order | sed -n 2p | grep -q '^    {$' && ok ||
	ko "plan order -j -p: not indented"
rc "plan --dot and --csv" 2 $D plan -n 4 -k 2 --dot --csv
$D plan -n 4 -k 2 -j >"$tmp/a" && $S plan -n 4 -k 2 -j >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "plan -j != dpsim plan -j"

# global options: -V, -batch, -n
rc "-V" 0 $D -V
has "-V is the sources' version" "dpctl (dpillar) $(sh ../../scripts/version.sh)"
printf 'addr 1:0.1 -n 4 -k 2\n# a comment\n\naddr "#6" -n 4 -k 2 -j\n' >"$tmp/batch"
rc "-batch FILE" 0 $D -batch "$tmp/batch"
has "-batch: first line" "addr 1:0.1 id 5"
has "-batch: a line's own -j, a quoted word" '"node_id":6'
printf 'addr 1:0.1 -n 4 -k 2\nplan -n 4 -k 2 wibble\naddr "#6" -n 4 -k 2\n' >"$tmp/batch"
rc "-batch stops at a failure" 2 $D -b - <"$tmp/batch"
has "-batch names the line" "-:2: command failed" "$tmp/err"
grep -q "id 6" "$tmp/out" && ko "-batch ran past the failure" || ok
rc "-force -batch goes on, exits with the failure" 2 $D -force -b - <"$tmp/batch"
has "-force -batch ran the line after the failure" "id 6"
printf -- '-n dpctl-no-such-netns addr 1:0.1 -n 4 -k 2\naddr "#6" -n 4 -k 2\n' >"$tmp/batch"
rc "-batch: a line's -n of no namespace fails that line" 1 $D -force -b "$tmp/batch"
has "-batch: a line's -n says which" 'netns "dpctl-no-such-netns"' "$tmp/err"
has "-batch: the line after a line's -n runs" "id 6"
printf -- '-n\n' >"$tmp/batch"
rc "-batch: a line's -n without a value" 2 $D -b "$tmp/batch"
printf 'addr "1:0.1 -n 4\n' >"$tmp/batch"
rc "-batch: an open quote" 2 $D -batch "$tmp/batch"
rc "-batch and a command" 2 $D -batch "$tmp/batch" show
rc "-n of no namespace" 1 $D -n dpctl-no-such-netns show
has "-n says which" 'netns "dpctl-no-such-netns"' "$tmp/err"
rc "-n without a value" 2 $D -n
rc "up without a device" 2 $D up
rc "up of a missing file" 2 $D up dpx -c "$tmp/none.conf"
has "up names the file" "$tmp/none.conf" "$tmp/err"
printf 'n 4\nk 2\naddr 0:0.0\nports lo\nbogus\n' >"$tmp/x.conf"
rc "up: a key without a value" 2 $D up dpx -c "$tmp/x.conf"
has "up names file and line" "x.conf:5" "$tmp/err"
# conf_err DESC WHERE MESSAGE CONTENT [RC]: "dpctl up" of a file holding
# CONTENT (printf format) fails (exit RC, default 2: before the kernel is
# asked), saying "dpctl: FILE:LINE: MESSAGE" (WHERE ":LINE"), or "dpctl:
# FILE: MESSAGE" (WHERE "") for what no one line is wrong about.
conf_err() {
	printf "$4" >"$tmp/x.conf"
	rc "up: $1" "${5:-2}" $D up dpx -c "$tmp/x.conf" -w 0
	has "up: $1: file:line" "dpctl: $tmp/x.conf$2: $3" "$tmp/err"
}
G='n 4\nk 2\naddr 0:0.0\nports lo none\n'	# a good file, 4 lines
conf_err "a key without a value" :5 '"bogus" needs a value' "${G}bogus\n"
conf_err "an unknown key" :5 'up: unknown key "wibble"' "${G}wibble 3\n"
conf_err "an unknown key after a comment" :6 'up: unknown key "x"' "# c\n${G}x 1 # y\n"
conf_err "two values" :2 '"k" takes one value' 'n 4\nk 2 3\n'
conf_err "a line too long" :2 'line too long' "n 4\n# $(printf '%0600d' 0)\n"
conf_err "too many ports" :4 'more than 16 ports' \
	"n 4\nk 2\naddr 0:0.0\nports $(printf 'lo %.0s' $(seq 17))\n"
conf_err "a repeated key" :3 '"n" repeated (first on line 1)' 'n 48\nk 4\nn 50\naddr 0:0.0\nports lo none\n'
conf_err "a repeated ports line" :5 '"ports" repeated (first on line 4)' "${G}ports lo none\n"
conf_err "ports and a portN" :5 '"port1" repeated (first on line 4)' "${G}port1 lo\n"
conf_err "addr and id" :5 '"id" repeated (first on line 3)' "${G}id 0:0.1\n"
conf_err "level and i" :6 '"i" repeated (first on line 5)' "${G}level 1\ni 1\n"
conf_err "invalid n" :1 'invalid n "four"' 'n four\nk 2\naddr 0:0.0\nports lo none\n'
conf_err "invalid level" :5 'invalid level "-1"' "${G}level -1\n"
conf_err "invalid nodes" :2 'invalid nodes "0"' 'topo s2\nnodes 0\n'
conf_err "invalid coords" :5 'invalid coords "1,x"' "${G}coords 1 x\n"
conf_err "an unknown topology" :1 'unknown topology "torus"' "topo torus\n${G}"
conf_err "a port number out of range" :5 'invalid port "port99"' "${G}port99 lo\n"
conf_err "an invalid hello" :5 'invalid hello interval "1s"' "${G}hello 1s\n"
conf_err "an invalid ip4" :6 'ip4 wants PREFIX/LEN, not "10.0.0.0"' "${G}dead 900\nip4 10.0.0.0\n"
conf_err "an invalid ip6" :5 'the IPv6 prefix is a /96, not "fd00::/64"' "${G}ip6 fd00::/64\n"
conf_err "a mode of another topology" :1 'unknown routing mode "paper" for topology s2' \
	'mode paper\ntopo s2\nnodes 16\nn 2\nspaces 2\nid 3\nports lo none\n'
conf_err "a bad fallback" :5 'fallback takes on or off, not "yes"' "${G}fallback yes\n"
conf_err "the address, against the file's topology" '' 'invalid address "0:9.0"' \
	'n 4\nk 2\naddr 0:9.0\nports lo none\n'
conf_err "a missing key" '' 'up: n, k, addr are required' 'n 4\naddr 0:0.0\nports lo none\n'
conf_err "no ports" '' 'up: no ports' 'n 4\nk 2\naddr 0:0.0\n'
conf_err "a gap in the ports" '' 'up: port0 missing' 'n 4\nk 2\naddr 0:0.0\nport1 lo\n'
# The kernel's rules (net/dpillar/rtnl.c, settings.c), with its extack
# words, before anything is created: "up" exits 2 and "check" says the
# same.
conf_err "n odd" '' 'up: n must be even' 'n 47\nk 4\naddr 0:0.0\nports lo none\n'
conf_err "three ports for DPillar" '' 'up: Too many ports for this topology (3, dpillar has 2)' \
	'n 4\nk 2\naddr 0:0.0\nports lo none lo\n'
# One NIC, one port (rtnl.c's newlink and changelink): by name in a
# file, so that it holds before the NICs exist; "none" may repeat.
conf_err "one NIC on two ports" '' \
	'up: port0 and port2 are both "lo": Ports must be distinct devices' \
	'topo s2\nnodes 16\nn 4\nspaces 2\nid 3\nports lo none lo none\n'
conf_err "a NIC not here on two ports" '' \
	'up: port0 and port1 are both "dpctl-nosuch0": Ports must be distinct devices' \
	'n 4\nk 2\naddr 0:0.0\nports dpctl-nosuch0 dpctl-nosuch0\n'
printf 'n 4\nk 2\naddr 0:0.0\nports none none\n' >"$tmp/absent.conf"
rc "check -c: every port absent is allowed" 0 $D check -c "$tmp/absent.conf"
conf_err "dead shorter than hello" '' \
	'up: Dead interval must be longer than the Hello interval (hello 300 ms, dead 100 ms)' \
	"${G}dead 100\nhello 300\n"
conf_err "hello alone, longer than the default dead" '' \
	'up: Dead interval must be longer than the Hello interval (hello 300 ms, dead 300 ms)' \
	"${G}hello 300\n"
conf_err "hello out of range" '' 'up: hello 5 out of range (10 to 10000 ms)' "${G}hello 5\n"
conf_err "dead out of range" '' 'up: dead 40000 out of range (11 to 30000 ms)' "${G}dead 40000\n"
conf_err "a mode number the topology lacks" '' 'up: No such routing mode in this topology (dpillar)' \
	"${G}mode 9\n"
conf_err "a mode without a topology" '' 'up: No such routing mode in this topology (none' \
	'mode paper\n'
conf_err "ip4 host bits" '' 'up: IPv4 prefix has host bits set' "${G}ip4 10.1.0.0/8\n"
conf_err "ip6 low bits" '' 'up: IPv6 prefix is a /96: its low 32 bits must be zero' \
	"${G}ip6 fd00::1\n"
conf_err "key6 on DPillar" '' 'up: This topology has no key-based routing' "${G}key6 fd01::\n"
conf_err "key6 = ip6" '' 'up: Key prefix must differ from the node prefix' \
	'topo s2\nnodes 16\nn 2\nspaces 1\nid 3\nports lo none\nkey6 fd64:7069:6c6c:6172::\n'
# ... each message the kernel's own (rtnl.c, settings.c, or the routing
# core's, which dpctl runs), and the defaults dpctl assumes the kernel's.
for w in "Dead interval must be longer than the Hello interval" \
	"No such routing mode in this topology" "IPv4 prefix has host bits set" \
	"IPv6 prefix is a /96: its low 32 bits must be zero" \
	"This topology has no key-based routing" \
	"Key prefix is a /96: its low 32 bits must be zero" \
	"Key prefix must differ from the node prefix" \
	"Too many ports for this topology" "Too few ports for this topology"; do
	cat ../../net/dpillar/rtnl.c ../../net/dpillar/settings.c |
		grep -qF "\"$w\"" && ok ||
		ko "rtnl.c, settings.c no longer say \"$w\": tools/common/dp_linkargs.c does"
done
grep -q '^#define DP_HELLO_MS_DEFAULT[[:space:]]*100$' ../../net/dpillar/dpillar_types.h &&
grep -q '^#define DP_DEAD_MS_DEFAULT[[:space:]]*300[[:space:]]' ../../net/dpillar/dpillar_types.h &&
grep -q 'LINK_HELLO_MS_DEFAULT[[:space:]]*100$' ../common/dp_linkargs.c &&
grep -q 'LINK_DEAD_MS_DEFAULT[[:space:]]*300$' ../common/dp_linkargs.c && ok ||
	ko "the kernel's hello/dead defaults differ from dp_linkargs.c's"
# check and up -t: a good file is printed as the link add it stands for
printf "${G}hello 200\nmode paper\n" >"$tmp/x.conf"
rc "check -c a good file" 0 $D check -c "$tmp/x.conf"
has "check prints the link add" "dpctl link add dp0 n 4 k 2 addr 0:0.0 port0 lo port1 none hello 200 mode paper"
rc "check DEV -c a good file" 0 $D check dpy -c "$tmp/x.conf"
has "check DEV: the device's name" "dpctl link add dpy n 4"
rc "up -t a good file: nothing created" 0 $D up dpx -c "$tmp/x.conf" -t
has "up -t prints the link add" "dpctl link add dpx n 4 k 2 addr 0:0.0"
rc "up --dry-run (as -t): nothing created" 0 $D up dpx -c "$tmp/x.conf" --dry-run
has "up --dry-run prints the link add" "dpctl link add dpx n 4 k 2 addr 0:0.0"
rc "up dry-run (the word)" 0 $D up dpx dry-run -c "$tmp/x.conf"
has "up dry-run prints the link add" "dpctl link add dpx n 4 k 2 addr 0:0.0"
printf 'n 47\nk 4\naddr 0:0.0\nports lo none\n' >"$tmp/x.conf"
rc "check a bad file" 2 $D check dpx -c "$tmp/x.conf"
has "check says why" "up: n must be even" "$tmp/err"
printf "${G}" | sed 's/lo none/lo dpctl-nosuch0/' >"$tmp/x.conf"
rc "check: a port that does not exist is a note" 0 $D check dpx -c "$tmp/x.conf"
has "check: the missing port" 'note: port1 "dpctl-nosuch0" does not exist here (yet)' "$tmp/err"
rc "check without a file or device" 2 $D check
# link add refuses the same before asking the kernel
rc "link add n 47" 2 $D link add dpx n 47 k 4 addr 0:0.0 port0 lo port1 none
has "link add n 47" "link add: n must be even" "$tmp/err"
rc "link add dead < hello" 2 $D link add dpx hello 300 dead 100
has "link add dead < hello" "Dead interval must be longer than the Hello interval" "$tmp/err"
rc "link add: one NIC on two ports" 2 $D link add dpx n 4 k 2 addr 0:0.0 port0 lo port1 lo
has "link add: the kernel's words" "link add: port0 and port1 are one device: Ports must be distinct devices" "$tmp/err"
# ip link add ... type dpillar (tools/iproute2) parses and checks as
# dpctl link add does: the same words, the same refusals, before any
# request (these never reach the kernel).
if command -v ip >/dev/null && [ -f ../iproute2/link_dpillar.so ]; then
	for args in "hello 200 mode paper" "n 4 k 2 addr 0:0.0 port0 lo port1 none mode wibble" \
		"n 47 k 4 addr 0:0.0 port0 lo port1 none" "hello 300 dead 100" \
		"n 4 k 2 addr 0:0.0 port0 lo port1 none port2 lo" \
		"n 4 k 2 addr 0:0.0 port0 lo port1 lo"; do
		# shellcheck disable=SC2086
		$D link add dpx $args 2>"$tmp/a" >/dev/null
		# shellcheck disable=SC2086
		IP_LIB_DIR=../iproute2 ip link add dpx type dpillar $args 2>"$tmp/b" >/dev/null
		a=$(sed -n 's/^dpctl: //p' "$tmp/a" | head -n 1)
		b=$(sed -n 's/^dpillar: //p' "$tmp/b" | head -n 1)
		[ -n "$a" ] && [ "$a" = "$b" ] && ok ||
			ko "ip link add type dpillar $args: '$b', dpctl link add: '$a'"
	done
fi
# The same from the real kernel, in a network namespace of our own, only
# where no dpillar module exists for this kernel (so that the kernel's
# own modprobe can load nothing) and we may unshare.
if ! modinfo dpillar >/dev/null 2>&1 && unshare -n true 2>/dev/null; then
	rc "link add on a kernel without the module" 1 unshare -n $D link add dpx
	has "link add without the module: the hint" \
		"dpctl: the dpillar module is not loaded and could not be loaded (modprobe dpillar):" "$tmp/err"
fi
printf "${G}" | sed 's/lo none/lo dpctl-nosuch0/' >"$tmp/x.conf"
# ... created without it (absent): the kernel refuses lo here, or has no
# module, either way exit 1 after the warning.
rc "up: a port that never appears" 1 $D up dpx -c "$tmp/x.conf" -w 0
has "up: ... is named" 'up dpx: warning: port1 "dpctl-nosuch0" does not exist (waited 0 s): absent' "$tmp/err"
rc "up: -W is taken" 1 $D up dpx -c "$tmp/x.conf" -w 0 -W
has "up -W: ... attached when it appears" 'absent, attached when it appears' "$tmp/err"
rc "up: -w needs seconds" 2 $D up dpx -w soon


# The example configurations dpillar-tools ships (issue 55, item 10;
# debian/dpillar-tools.examples): each is what "check" takes, and the S2
# plan-mode one holds node 3's coordinates of the plan it names.
ex=../../Documentation/examples
for f in dp0.conf s2-derived.conf s2-plan.conf; do
	rc "example $f: check" 0 $D check -c "$ex/$f"
	has "example $f: the link add" "dpctl link add dp0 " "$tmp/out"
done
rc "example dp0.conf: dpctl check" 0 $D check -c "$ex/dp0.conf"
has "example dp0.conf: DPillar (48,4), 1:3.17.0.22" "n 48 k 4 addr 1:3.17.0.22" "$tmp/out"
rc "example s2-plan.conf: dpctl check" 0 $D check -c "$ex/s2-plan.conf"
x=$($D plan topo s2 -n 4 nodes 64 spaces 2 seed 7 mode plan |
	awk '$1 == "node" && $2 == 3 { print $4 }')
has "example s2-plan.conf: node 3's coordinates of plan seed 7 ($x)" \
	"coords $x " "$tmp/out"
# and dpctl.8's examples are those files, line for line
for f in dp0.conf s2-plan.conf; do
	grep -v '^$' "$ex/$f" | while IFS= read -r l; do
		grep -qxF -- "$l" ../../Documentation/dpctl.8 ||
			grep -qxF -- "$(printf '%s' "$l" | sed 's/-/\\-/g')" \
				../../Documentation/dpctl.8 || echo "$l"
	done >"$tmp/a"
	[ ! -s "$tmp/a" ] && ok || ko "dpctl.8 lacks the lines of $f: $(head -n 2 "$tmp/a")"
done

# Each topology's own checks: tests/topo_<file>.sh, where the topology
# has one, for each file of the list (net/dpillar/topologies.h, read
# through topologies.mk), so that they come and go with it.
for t in $(printf 'include ../../net/dpillar/topologies.mk\nall:\n\t@echo $(DP_TOPOLOGIES)\n' |
	   MAKEFLAGS= make -s --no-print-directory -f -); do
	# shellcheck disable=SC1090
	[ ! -f "tests/topo_$t.sh" ] || . "./tests/topo_$t.sh"
done
# README's offline commands, as printed there (doc_cmd: the line is in
# README.md verbatim, then it runs), and the numbers it quotes from them.
R=../../README.md
doc_cmd() {
	if grep -qF -- "$1" "$R"; then ok; else ko "README no longer has: $1"; fi
}
doc_cmd "dpsim plan -n 48 -k 4 --csv | grep '^1:3.17.0.22,'"
rc "README: dpsim plan | grep" 0 sh -c "$S plan -n 48 -k 4 --csv | grep '^1:3.17.0.22,'"
doc_cmd "printf '%s\n' 'n 48' 'k 4' 'addr 1:3.17.0.22' 'ports enp1s0 enp2s0' \\"
printf '%s\n' 'n 48' 'k 4' 'addr 1:3.17.0.22' 'ports enp1s0 enp2s0' >"$tmp/readme.conf"
doc_cmd "dpctl check -c /etc/dpillar/dp0.conf"
rc "README: dpctl check -c" 0 $D check -c "$tmp/readme.conf"
has "README: check prints the link add" "dpctl link add dp0 n 48 k 4 addr 1:3.17.0.22 port0 enp1s0 port1 enp2s0" "$tmp/out"
doc_cmd "dpctl link add dp0 n 48 k 4 addr 1:3.17.0.22 port0 enp1s0 port1 enp2s0"
doc_cmd "ip addr add 10.5.216.86/32 dev dp0     # node id 383062 in 10.0.0.0/8"
rc "README: the address's id and IPv4" 0 $D addr -n 48 -k 4 1:3.17.0.22
has "README: id 383062, 10.5.216.86" "addr 1:3.17.0.22 id 383062 inet 10.5.216.86 " "$tmp/out"
doc_cmd "dpctl set dp0 n 48 k 4 addr 1:3.17.0.22"

# The documents' command blocks that need no module, run as printed
# there (issue 55, item 8): the administrator's guide's, the reference's
# and the design's.  A block is marked by an RST comment before it,
# indented as the paragraph it precedes: "offline-test: sh",
# "offline-test: file PATH", "offline-test: append PATH" or
# "offline-test: optional WITHOUT | WITH" after the comment's two dots
# (each document's opening comment explains its marks): "sh" runs the
# first literal block after the comment with sh -e, dpctl and dpsim being
# these; "file" writes it to PATH, "append" appends it, and a PATH ending
# in .conf must then pass "dpctl check -c"; "optional" runs a command
# with optional words ("[...]") twice, without them (its output must
# have WITHOUT) and with them, the brackets dropped (WITH).  The blocks
# run in each document's order, in one scratch root ($tmp/root: /etc/ in
# a block is its etc/).
DOCS="dpillar-admin-guide dpillar dpillar-design"
root=$tmp/root
mkdir -p "$root/bin"
ln -s "$(pwd)/dpctl" "$root/bin/dpctl"
ln -s "$(cd ../dpsim && pwd)/dpsim" "$root/bin/dpsim"
# run_block DESC FILE: FILE with sh -e in the scratch root, its output in
# $tmp/out.
run_block() {
	sed "s#/etc/#$root/etc/#g" "$2" >"$tmp/block.sh"
	rc "$1" 0 sh -c 'cd "$1" && PATH="$1/bin:$PATH" sh -e "$2"' \
		sh "$root" "$tmp/block.sh"
}
nblocks=0
for doc in $DOCS; do
	A=../../Documentation/networking/$doc.rst
	rm -rf "$tmp/blocks"
	mkdir -p "$tmp/blocks"
	awk -v marker=offline-test -v dir="$tmp/blocks" -f ../common/rst-blocks.awk "$A"
	for k in "$tmp"/blocks/*.arg; do
		[ -e "$k" ] || break
		b=${k%.arg}.block
		set -- $(cat "$k")
		what="$doc block $(basename "${k%.arg}") ($*)"
		if [ ! -s "$b" ]; then
			ko "$what: no literal block after the comment"
			continue
		fi
		nblocks=$((nblocks + 1))
		case $1 in
		sh)
			run_block "$what: $(head -n 1 "$b")" "$b"
			;;
		optional)
			without=$(sed 's/^optional //; s/ | .*//' "$k")
			with=$(sed 's/^optional //; s/.* | //' "$k")
			sed -E ':a; s/ ?\[[^][]*\]//; ta' "$b" >"$tmp/without.sh"
			sed -E ':a; s/\[([^][]*)\]/\1/; ta' "$b" >"$tmp/with.sh"
			run_block "$what: without its optional words" "$tmp/without.sh"
			has "$what: without its optional words" "$without"
			run_block "$what: with its optional words" "$tmp/with.sh"
			has "$what: with its optional words" "$with"
			;;
		file|append)
			case ${2:-} in
			/*) ;;
			*) ko "$what: no absolute PATH"; continue ;;
			esac
			p=$root$2
			mkdir -p "$(dirname "$p")"
			if [ "$1" = file ]; then cat "$b" >"$p"
			else cat "$b" >>"$p"; fi
			ok
			case $p in
			*.conf) rc "$what: dpctl check -c $2" 0 $D check -c "$p" ;;
			esac
			;;
		*)
			ko "$what: unknown kind (sh, file PATH, append PATH, optional WITHOUT | WITH)"
			;;
		esac
	done
done
[ "$nblocks" -gt 0 ] && ok || ko "no offline-test block in $DOCS"
# Every literal block of each document is run by a test or says why not:
# the offline ones above, the guest's (guest-test: selftests/
# dpillar_probe.sh, guide_blocks), and those no test runs (not-run:
# REASON, a block that is not a command among them), listed here.
for doc in $DOCS; do
	A=../../Documentation/networking/$doc.rst
	awk -v markers="offline-test guest-test not-run" \
		-f ../common/rst-marks.awk "$A" > "$tmp/marks"
	nlit=$(wc -l < "$tmp/marks")
	while read -r line kind why; do
		case $kind in
		-) ko "$doc.rst line $line: a literal block no test runs (mark it offline-test, guest-test or not-run: see the comment at the document's top)" ;;
		not-run) echo "$doc.rst line $line: not run: $why" ;;
		esac
	done < "$tmp/marks"
	echo "$doc.rst: $nlit literal blocks: $(grep -c ' offline-test ' "$tmp/marks") offline (above), $(grep -c ' guest-test ' "$tmp/marks") in the guest (dpillar_probe.sh), $(grep -c ' not-run ' "$tmp/marks") not run"
	[ "$nlit" -gt 0 ] && ! grep -q ' - - *$' "$tmp/marks" && ok
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
