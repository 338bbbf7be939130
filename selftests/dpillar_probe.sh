#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Path probes against fan-in and a hostile neighbour (dpillar.rst, "Path
# probes"; dpillar-design.rst, "Path selection"), on a BCube(5,1) of 25
# servers built by plan_fabric.sh (path selection's candidates are BCube's
# and XDCent's parallel paths; DPILLAR_PROBE_BCUBE below):
#  - fan-in: 16 servers send to one (pings, so path selection follows
#    it and probes both its parallel paths every dead interval) while a
#    neighbour of that server floods it with probes of user ids at its
#    full rate, under one source.  Those spend that sender's share
#    (DP_PROBE_SENDER_BURST) of the budget that answers route trace and
#    route probe (DP_PROBE_REPLY_BURST); path selection's probes are
#    answered from a budget of their own (DP_PROBE_PSEL_BURST), so no
#    source may find a healthy path failed.  Before the two budgets,
#    every source avoided paths within a round;
#  - a forged stamp: with a server that hears nothing (its switches
#    forward it no unicast: its neighbours keep it alive, its probes are
#    lost), a neighbour of a source sends the source replies "reached"
#    from that server for every (id, sequence number) a fresh device's
#    ROUTE_PROBE uses, with a random stamp; route probe must find no
#    path alive, the replies counted probe_reply_bad.  Before the stamp,
#    the forged answer was taken.
# Then the fabric view on a DPillar (fabric_view, below), the
# administrator's guide's command blocks that need the module
# (guide_blocks), the fabric view while a neighbour floods one server
# with table requests (fabric_flood: each sender's share), and no splat
# (debug_checks.sh adds kmemleak's scan where the kernel
# has it).
#
# The fabric runs path selection's interval at the dead interval of the
# other guest suites (1 s: under TCG 25 servers' Hellos can starve for
# 300 ms), so 16 sources x 2 paths ask 32 replies a second of the server,
# not the 214 of 16 x 4 at 300 ms that the budget is sized for (nor more
# than the 200 of the budget it had before): the flood is what fills the
# shared budget here (KUnit's dpillar_probe checks the sizes
# themselves: 256 path selection probes in a second).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"

require_vm
require_root
require_cmd ip bridge python3 jq ethtool ping
require_tools
FORGE=$DP_SELFTESTS/dp_probeforge.py
# Twice DP_PROBE_REPLY_BURST: a destination that takes in frames this
# fast (all kinds: the flood is most of them) spends that budget.
FLOOD_MIN=${DPILLAR_PROBE_FLOOD_MIN:-400}
HELLO=${DPILLAR_HELLO_MS:-100} DEAD=${DPILLAR_DEAD_MS:-1000}
# DPILLAR_PROBE_BCUBE="N K": the fabric (default 5 1, 25 servers: 16
# sources; make check's 6.1 3 1, 9 servers: 6 sources; its debug kernel
# 2 1, 4 servers: one source, the frames and counters under KASAN and
# lockdep).
read -r BN BK <<<"${DPILLAR_PROBE_BCUBE:-5 1}"
WORDS=(topo bcube n "$BN" k "$BK")
NSRV=$((BN ** (BK + 1)))
DST=$((NSRV - 1))	# the fan-in's destination
DOWN=$((NSRV - 2))	# the server that hears nothing, for the forgery
FORGED=$((NSRV - 3))	# the forgery's victim (a fresh device: no probe yet)
SRCS=$((NSRV - 3 < 16 ? NSRV - 3 : 16))	# servers 0.. send to DST
PF_PREFIX=pp- PF_NPORTS=$((BK + 1))
mark=$(dmesg_mark)
load_module || ktap_skip_all "no module"
defer pf_destroy

# probe_words S D: "path:alive:avoided" per parallel path of S -> D, from
# one route probe (avoided "-" when path selection does not follow D).
probe_words() {
	pf_on "$1" "$DPCTL" -j route probe "#$2" timeout "${3:-500}" |
		jq -r '[.[0].paths[] | "\(.path):\(.alive):\(if has("avoided")
			then .avoided else "-" end)"] | join(" ")'
}

# neighbour ID: the switch end of server ID's port 0, as dp_probeforge.py
# takes it.
neighbour() { echo "v$1p0@$PF_SW=$PF_PREFIX$1:p0:$1"; }

# build (run_test's subshell: PF_PREFIX and PF_NPORTS are set again
# below).
build() {
	pf_build "$PF_PREFIX" "${WORDS[@]}" &&
		pf_dp0 hello "$HELLO" dead "$DEAD" &&
		[ ${#PF_IDS[@]} = "$NSRV" ] && [ "$PF_NPORTS" = $((BK + 1)) ] ||
		return 1
	# Every source reaches the destination, both families.
	wait_for 20 pf_on 0 ping -q -c 1 -W 1 "$(pf_ip4 $DST)" >/dev/null
}

fanin() {
	local s i w pids=() bad=0 starved=0 n=0 out rate rc=0 t0 rx0 lim0 rx lim
	for ((s = 0; s < SRCS; s++)); do
		pf_on $s ping -q -i 0.2 -w 60 "$(pf_ip4 $DST)" >/dev/null 2>&1 &
		pids+=($!)
	done
	# Path selection follows the destination after a first packet, and
	# probes every interval from then on: let it run two.
	sleep $((2 * DEAD / 1000 + 1))
	ip netns exec $PF_SW python3 "$FORGE" flood --src 1 --ttl 8 \
		--secs $((4 * DEAD / 1000 + 20)) "$(neighbour $DST)" \
		> "$PP_TMP/flood" 2>&1 &
	local flood=$!
	wait_for 60 grep -q sending "$PP_TMP/flood" || { cat "$PP_TMP/flood"; return 1; }
	t0=${EPOCHREALTIME/[.,]/}
	read -r rx0 lim0 sl0 < <(dp_stats "$PF_PREFIX$DST" dp0 rx_frames \
		probe_limit probe_sender_limit)
	# Two rounds of the flood before the first look; then each source
	# once, each look a round later than the one before it.
	sleep $((2 * DEAD / 1000 + 1))
	for ((i = 0; i < SRCS; i++)); do
		w=$(probe_words $i $DST 300)
		n=$((n + 1))
		# avoided:true on any path is path selection giving up a
		# healthy one; alive:false is route probe's own probe not
		# answered (the flooded budget: expected).
		[[ " $w " != *":true "* ]] || { bad=$((bad + 1)); echo "$i -> $DST: $w"; }
		[[ " $w " != *":false:"* ]] || starved=$((starved + 1))
	done
	kill "$flood" 2>/dev/null
	wait "$flood"
	read -r rx lim sl < <(dp_stats "$PF_PREFIX$DST" dp0 rx_frames \
		probe_limit probe_sender_limit)
	rx=$((rx - rx0)) lim=$((lim - lim0)) sl=$((sl - sl0))
	rate=$(( rx * 1000000 / (${EPOCHREALTIME/[.,]/} - t0 + 1) ))
	out=$(grep sent "$PP_TMP/flood")
	for s in "${pids[@]}"; do kill "$s" 2>/dev/null; done
	wait "${pids[@]}" 2>/dev/null
	echo "flood: $out; the destination took in $rate frames/s and left $sl probes unanswered over their sender's share (probe_sender_limit), $lim over the budget (probe_limit); $SRCS sources looked at: $bad avoided a path; route probe's own probes unanswered at $starved of $n" |
		tee "$PP_TMP/figures"
	[ $bad = 0 ] || rc=1
	# The flood must have been one: its sender's share of the
	# destination's budget for every probe but path selection's spent
	# (probe_sender_limit; or the budget, probe_limit).  A destination
	# that takes in fewer than twice that budget's frames a second (the
	# debug kernel under a loaded TCG host, whatever the neighbour
	# sends) cannot spend it; that run still takes every frame through
	# the parsers and budgets under KASAN and lockdep.
	if [ "$rate" -lt "$FLOOD_MIN" ]; then
		echo "the destination took in $rate frames/s, under $FLOOD_MIN/s: the budget is not checked" |
			tee -a "$PP_TMP/figures"
	elif [ $((lim + sl)) -le 0 ]; then
		echo "the flood spent no budget"
		rc=1
	fi
	return $rc
}

# sw_deaf ID on|off: the switches stop (on) or resume (off) forwarding
# unicast to server ID's ports: no learning, no unknown-unicast flooding,
# its learned MACs forgotten.  Its Hellos (and the ones it hears: group
# addresses) still pass, so its neighbours keep it alive and route to it,
# and what they send it is lost: a probe to it is never answered.
sw_deaf() {
	local p v=on
	[ "$2" = on ] && v=off
	for ((p = 0; p < PF_NPORTS; p++)); do
		bridge -n $PF_SW link set dev "v$1p$p" learning $v flood $v ||
			return 1
		[ "$2" = off ] ||
			ip -n $PF_SW link set "v$1p$p" type bridge_slave \
				fdb_flush || return 1
	done
}

forged() {
	local w before after rc=0
	sw_deaf $DOWN on || return 1
	before=$(dp0_stat "$PF_PREFIX$FORGED" probe_reply_bad)
	ip netns exec $PF_SW python3 "$FORGE" reply --src $DOWN --ids 8 \
		--seq 1-32 --secs 6 "$(neighbour $FORGED)" > "$PP_TMP/reply" 2>&1 &
	local forge=$!
	wait_for 60 grep -q sending "$PP_TMP/reply" || { cat "$PP_TMP/reply"; return 1; }
	w=$(probe_words $FORGED $DOWN 1000)
	after=$(dp0_stat "$PF_PREFIX$FORGED" probe_reply_bad)
	wait "$forge"
	sw_deaf $DOWN off || rc=1
	echo "forger: $(grep sent "$PP_TMP/reply"); route probe $FORGED -> $DOWN (deaf): $w; probe_reply_bad +$((after - before))" |
		tee -a "$PP_TMP/figures"
	[ -n "$w" ] || { echo "no route probe answer"; rc=1; }
	[[ " $w " != *":true:"* ]] || { echo "a forged reply was taken"; rc=1; }
	[ $((after - before)) -gt 0 ] || { echo "no forged reply counted"; rc=1; }
	return $rc
}

# The fabric view (dpctl fabric: every server's neighbour table by one
# probe each, ROUTE_NEIGHS, against the plan), on a DPillar (4,2) of 8
# servers built once the BCube is gone: cabled as planned, nothing
# differs; two ports swapped between their switches (server 1's port 0
# and server 6's port 1: each veth moved to the other's bridge), the view
# from server 0 names exactly those two cables, as miswired, within a
# few dead intervals.  FABRIC_SWAP_WANT: the cables it must name.
FABRIC_SWAP_WANT=${DPILLAR_PROBE_FABRIC_WANT:-"0:0.1/0 1:1.0/1"}
fabric_cables() {
	pf_on 0 "$DPCTL" fabric pace 0 timeout 500 > "$PP_TMP/fabric" 2>&1
	sed -n 's/^    cable \([^ ]*\) port\([0-9]*\): miswired: .*/\1\/\2/p' \
		"$PP_TMP/fabric" | sort | tr '\n' ' '
}
fabric_is() { [ "$(fabric_cables)" = "$1" ] && grep -q "$2" "$PP_TMP/fabric"; }
fabric_view() {
	local rc=0 b1 b6 t0=$SECONDS t1 t2 t3 t4 n=0
	fabric_poll() { n=$((n + 1)); fabric_is "$@"; }
	pf_destroy
	t1=$SECONDS
	PF_PREFIX=pw- PF_DIR=$PP_TMP/pw
	mkdir -p "$PF_DIR"
	pf_plan pw- topo dpillar n 4 k 2 && pf_bridges && pf_make &&
		pf_dp0 hello "$HELLO" dead "$DEAD" || return 1
	t2=$SECONDS
	wait_for 30 fabric_poll "" "8 of 8 servers answered; 0 cables differ" ||
		{ echo "as planned:"; cat "$PP_TMP/fabric"; return 1; }
	b1=${PF_BR[1/0]} b6=${PF_BR[6/1]}
	t3=$SECONDS
	ip -n "$PF_SW" link set v1p0 master "$b6" &&
		ip -n "$PF_SW" link set v6p1 master "$b1" || return 1
	wait_for 30 fabric_poll "$FABRIC_SWAP_WANT " \
		"8 of 8 servers answered; 2 cables differ" || rc=1
	t4=$SECONDS
	# The view the administrator's guide prints (guide_blocks).
	cp "$PP_TMP/fabric" "$PP_TMP/fabric.swapped"
	echo "fabric view: BCube down in $((t1 - t0)) s, DPillar(4,2) up in $((t2 - t1)) s, its view as planned $((t3 - t2)) s later; v1p0 ($b1) and v6p1 ($b6) swapped, named $((t4 - t3)) s later; $n views" |
		tee -a "$PP_TMP/figures"
	cat "$PP_TMP/fabric"
	return $rc
}

# guide_blocks: the command blocks of the documents (the administrator's
# guide, the reference and the design) that need the module, each marked
# there by an RST comment ".. guest-test: KIND ARGS" before it (each
# document's opening comment says how each KIND runs and what is
# substituted), run in the guest as printed; a block that fails fails
# the case.  The guide's /etc is a scratch directory, written from its
# "offline-test: file/append" blocks as tools/dpctl/test-offline.sh
# writes it.  KINDs:
#   fabric        in server 0:0.0's namespace of fabric_view's DPillar
#                 (4,2), its two cables moved back first (dpctl fabric
#                 then exits 0), the guide's example destination
#                 0:1.2.3.4 replaced by 1:1.1, dpctl monitor stopped
#                 after 2 s; from the top of a kernel tree (guide_ktree)
#   fresh WORDS   in a namespace of its own, whose NICs have the guide's
#                 names (veths enp1s0 to enp4s0), with "dpctl link add
#                 dp0 WORDS" up; then dp0 must have the addresses dpctl
#                 show prints for it (what dpctl up adds) and the routes
#   ns [WORDS]    in such a namespace (dp0 made by "dpctl link add dp0
#                 WORDS" and up first, if WORDS), each command line with
#                 sh -e, the plugin as built (IP_LIB_DIR), "modprobe
#                 dpillar" a check that the module is loaded, a
#                 synopsis's optional words ("[...]") left out, an RPS
#                 mask "ff" the guest's CPUs'; the lines indented under
#                 a command are its output: each piece between "..."
#                 must be in what it printed, the count of "reachable N"
#                 aside (guide_cmds)
#   ifupdown      the block is an /etc/network/interfaces stanza: the
#                 ifupdown hook runs with the variables ifup would set
#                 from it (dpillar_up.sh's way) in a namespace whose NICs
#                 have the guide's names (veths enp1s0 and enp2s0): dp0
#                 up as its file says, then ifdown's run removes it
#   output NAME   the block is "$ COMMAND" and its output: the output the
#                 suite saved as NAME (fabric.swapped: fabric_view's last
#                 view), the counts of neighbours and miswired senders of
#                 each server line and the sender a miswired cable names
#                 (the one heard last) left out: they follow the Hellos
#                 of the moment
GUIDE_DOCS="dpillar-admin-guide dpillar dpillar-design"
GUIDE=$DPILLAR_REPO/Documentation/networking/dpillar-admin-guide.rst
guide_blocks() {
	local dir=$PP_TMP/guide k b kind args n=0 bad=0 t0=$SECONDS ns iface conf wait
	local root=$dir/root hook=$dir/hook
	local doc docn=0 mask tb skipped=0
	local -A secs=()
	mkdir -p "$dir/off" "$root/bin" || return 1
	awk -v marker=offline-test -v dir="$dir/off" \
		-f "$DPILLAR_REPO/tools/common/rst-blocks.awk" "$GUIDE" || return 1
	# Each document's blocks in a directory of its own, named so that
	# they run in GUIDE_DOCS' order.
	for doc in $GUIDE_DOCS; do
		docn=$((docn + 1))
		mkdir -p "$dir/guest/$docn-$doc" &&
			awk -v marker=guest-test -v dir="$dir/guest/$docn-$doc" \
				-f "$DPILLAR_REPO/tools/common/rst-blocks.awk" \
				"$DPILLAR_REPO/Documentation/networking/$doc.rst" ||
			return 1
	done
	mask=$(printf %x $(((1 << $(nproc)) - 1)))
	for k in "$dir"/off/*.arg; do
		read -r kind args < "$k"
		case $kind in
		file) mkdir -p "$root${args%/*}" && cat "${k%.arg}.block" > "$root$args" ;;
		append) cat "${k%.arg}.block" >> "$root$args" ;;
		esac
	done
	ln -s "$DPCTL" "$root/bin/dpctl"
	sed "s|@SBINDIR@/dpctl|$DPCTL|g" "$DPILLAR_REPO/tools/ifupdown/dpillar" > "$hook"
	# fabric_view's DPillar, cabled as planned again.
	PF_PREFIX=pw- PF_DIR=$PP_TMP/pw
	pf_bridges &&
		ip -n "$PF_SW" link set v1p0 master "${PF_BR[1/0]}" &&
		ip -n "$PF_SW" link set v6p1 master "${PF_BR[6/1]}" || return 1
	wait_for 30 fabric_is "" "8 of 8 servers answered; 0 cables differ" ||
		{ echo "cables back: not as planned"; cat "$PP_TMP/fabric"; return 1; }
	for k in "$dir"/guest/*/*.arg; do
		[ -e "$k" ] || continue
		b=${k%.arg}.block
		read -r kind args < "$k"
		n=$((n + 1))
		doc=${k%/*}
		doc=${doc##*/[0-9]-}
		tb=$SECONDS
		echo "$doc.rst block $n ($kind $args): $(head -n 1 "$b")"
		sed "s#/etc/#$root/etc/#g" "$b" > "$dir/run.sh"
		case $kind in
		fabric)
			sed -i -e 's/0:1\.2\.3\.4/1:1.1/g' -e \
				's/^dpctl monitor\([^#]*\)/timeout 2 dpctl monitor\1 || [ $? = 124 ] /' \
				"$dir/run.sh"
			guide_ktree "$dir/linux" &&
				pf_on 0 env PATH="$root/bin:$PATH" sh -c 'cd "$1" && sh -e "$2"' \
				sh "$dir/linux" "$dir/run.sh" \
				> "$dir/out" 2>&1 || { bad=$((bad + 1)); cat "$dir/out"; }
			;;
		ns)
			ns=pw-guide
			# A kernel built without IPv6 policy routing
			# (CONFIG_IPV6_MULTIPLE_TABLES: our debug kernel)
			# refuses "ip -6 rule" (EOPNOTSUPP): the block is
			# named as not run there, not failed.
			if grep -q '^ip -6 rule' "$dir/run.sh" &&
			   ! ip -6 rule show > /dev/null 2>&1; then
				echo "  not run on this kernel: no IPv6 policy routing (ip -6 rule show fails)"
				skipped=$((skipped + 1))
				secs[$doc]=$((${secs[$doc]:-0} + SECONDS - tb))
				continue
			fi
			guide_ns $ns && { [ -z "$args" ] ||
				{ "$DPCTL" -n $ns link add dp0 $args &&
					ip -n $ns link set dp0 up; }; } &&
				guide_cmds $ns "$root" "$mask" > "$dir/out" 2>&1 ||
				{ bad=$((bad + 1)); cat "$dir/out"; }
			ip netns del $ns
			;;
		fresh)
			ns=pw-guide
			guide_ns $ns &&
				"$DPCTL" -n $ns link add dp0 $args &&
				ip -n $ns link set dp0 up &&
				ip netns exec $ns env PATH="$root/bin:$PATH" \
					sh -e "$dir/run.sh" > "$dir/out" 2>&1 &&
				guide_addrs $ns >> "$dir/out" 2>&1 ||
				{ bad=$((bad + 1)); cat "$dir/out"; }
			ip netns del $ns
			;;
		ifupdown)
			ns=pw-guide
			iface=$(awk '$1 == "iface" { print $2; exit }' "$dir/run.sh")
			conf=$(awk '$1 == "dpillar-config" { print $2; exit }' "$dir/run.sh")
			wait=$(awk '$1 == "dpillar-wait" { print $2; exit }' "$dir/run.sh")
			guide_ns $ns &&
				guide_ifupdown $ns start "$iface" \
					IF_DPILLAR_CONFIG="$conf" IF_DPILLAR_WAIT="$wait" &&
				ip -n $ns -j link show "$iface" |
					jq -e '.[0].flags | index("UP")' > /dev/null &&
				"$DPCTL" -n $ns show "$iface" &&
				guide_ifupdown $ns stop "$iface" IF_DPILLAR_CONFIG="$conf" &&
				! ip -n $ns link show "$iface" 2>/dev/null ||
				{ bad=$((bad + 1)); echo "ifupdown $iface ($conf, wait $wait): failed"; }
			ip netns del $ns
			;;
		output)
			sed 1d "$b" | guide_norm > "$dir/want"
			guide_norm < "$PP_TMP/$args" > "$dir/got"
			diff -u "$dir/want" "$dir/got" ||
				{ bad=$((bad + 1)); echo "output of $(head -n 1 "$b") differs"; }
			;;
		*)
			bad=$((bad + 1))
			echo "unknown kind $kind"
			;;
		esac
		secs[$doc]=$((${secs[$doc]:-0} + SECONDS - tb))
	done
	echo "the documents' command blocks: $((n - skipped)) run in the guest, $bad failed, $skipped not run on this kernel, in $((SECONDS - t0)) s ($(for doc in "$dir"/guest/*/; do
		set -- "$doc"*.block; doc=${doc%/}; doc=${doc##*/[0-9]-}
		[ -e "$1" ] && echo "$doc.rst $# in ${secs[$doc]:-0} s"; done | paste -sd , | sed "s/,/, /g"); the rest: fabric_view's cables put back)" |
		tee -a "$PP_TMP/figures"
	[ "$n" -gt 0 ] && [ "$bad" = 0 ]
}
# guide_ns NS: a namespace whose NICs have the documents' names (veths
# enp1s0 to enp4s0, their peers there too, up).
guide_ns() {
	local i
	ip netns add "$1" && ip -n "$1" link set lo up || return 1
	for i in 1 2 3 4; do
		ip -n "$1" link add enp${i}s0 type veth peer name enp${i}s0p &&
			ip -n "$1" link set enp${i}s0p up || return 1
	done
}
# guide_ktree DIR: a kernel tree, as far as its YNL tools go (those
# scripts/ynl.sh unpacks from Debian's linux-source-6.12), with our spec
# in it as Documentation/netlink/specs/dpillar.yaml.
guide_ktree() {
	local ynl
	[ -d "$1" ] && return 0
	ynl=$("$DPILLAR_REPO/scripts/ynl.sh" --dir) &&
		mkdir -p "$1/Documentation/netlink/specs" &&
		ln -s "$ynl/tools" "$1/tools" &&
		ln -s "$ynl"/Documentation/netlink/*.yaml "$1/Documentation/netlink/" &&
		ln -s "$DPILLAR_REPO/Documentation/netlink/specs/dpillar.yaml" \
			"$1/Documentation/netlink/specs/"
}
# guide_cmds NS ROOT MASK: the block in $PP_TMP/guide/run.sh, one command
# line (with its continuation lines) at a time, in NS with ROOT/bin first
# in PATH and ip's plugin as built; its substitutions are the "ns" KIND's
# (guide_blocks).  The lines indented under a command are its output:
# each piece of them between "..." must be in what it printed.
guide_cmds() {
	local ns=$1 root=$2 mask=$3 dir=$PP_TMP/guide/cmds i want got piece rc=0
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	sed -E -e ':a; s/ ?\[[^][]*\]//; ta' \
		-e 's/^modprobe dpillar( |$)/grep -q "^dpillar " \/proc\/modules\1/' \
		-e "s/echo ff > /echo $mask > /" "$PP_TMP/guide/run.sh" |
		awk -v dir="$dir" '
			cont { print > f; cont = /\\$/; next }
			/^[^ \t]/ { n++; f = sprintf("%s/%03d.sh", dir, n)
				print > f; cont = /\\$/; next }
			/^[ \t]+[^ \t]/ && n { print > sprintf("%s/%03d.want", dir, n) }'
	for i in "$dir"/*.sh; do
		echo "\$ $(cat "$i")"
		ip netns exec "$ns" env PATH="$root/bin:$PATH" \
			IP_LIB_DIR="$DPILLAR_REPO/tools/iproute2" sh -e "$i" \
			> "${i%.sh}.out" 2>&1 || { echo "exit $?"; rc=1; }
		cat "${i%.sh}.out"
		want=${i%.sh}.want
		[ -e "$want" ] || continue
		got=$(guide_words < "${i%.sh}.out")
		while read -r piece; do
			[ -z "$piece" ] || [[ " $got " == *" $piece "* ]] ||
				{ echo "not in its output: $piece"; rc=1; }
		done < <(guide_words < "$want" | sed 's/ *\.\.\. */\n/g')
	done
	return $rc
}
# guide_words: text as one line, runs of spaces and line ends as one
# space, the count of "reachable N" as N (a lone namespace hears no
# neighbour).
guide_words() {
	tr -s ' \t\n' '   ' | sed -E -e 's/^ //; s/ $//' \
		-e 's/ reachable [0-9]+/ reachable N/g'
}
# guide_norm: a fabric view without the counts of its server lines and
# the sender a miswired cable's line names.
guide_norm() {
	sed -E -e 's/, neighbours [0-9]+, miswired [0-9]+$/, neighbours N, miswired M/' \
		-e 's/(: miswired: .*), heard [^ ]+ port [0-9]+$/\1, heard S/'
}
# guide_ifupdown NS MODE IFACE [VAR=VALUE...]: the ifupdown hook with the
# variables ifup sets (as dpillar_up.sh runs it).
guide_ifupdown() {
	local ns=$1 mode=$2 iface=$3
	shift 3
	ip netns exec "$ns" env -i PATH="$PATH" MODE="$mode" IFACE="$iface" \
		LOGICAL="$iface" ADDRFAM=inet METHOD=manual "$@" \
		sh "$PP_TMP/guide/hook"
}
# guide_addrs NS: dp0's IPv4 and IPv6 addresses are those dpctl show
# prints for its address (what dpctl up adds), with the fabric's routes.
guide_addrs() {
	local want4 want6 got
	read -r want4 want6 < <("$DPCTL" -n "$1" -j show dp0 |
		jq -r '.[0] | "\(.ip4) \(.ip6)"')
	got=$(ip -n "$1" -j addr show dp0 | jq -r '[.[0].addr_info[] |
		select(.scope == "global") | .local] | join(" ")')
	echo "dp0: $got (dpctl show: $want4 $want6)"
	[[ " $got " == *" ${want4%/*} "* ]] && [[ " $got " == *" ${want6%/*} "* ]] &&
		ip -n "$1" route show dev dp0 | grep -q '^10\.0\.0\.0/8' &&
		ip -n "$1" -6 route show dev dp0 | grep -q '^fd64:7069:6c6c:6172::/96'
}

# fabric_flood: the view of fabric_view's DPillar (two cables still
# swapped) while a neighbour of server 5 floods it with requests for its
# table (probes with DPILLAR_PROBE_F_NEIGHS, under source 1, on 5's port
# 0, at its full rate): the flood gets its sender's share
# (DP_PROBE_SENDER_NEIGHS, 5 tables a second) and server 0's sweeps still
# get 5's table: every server answers in each of FABRIC_FLOOD_VIEWS
# views, and 5 counts the flood's excess (probe_sender_limit).  With one
# budget for every sender (before the shares), the flood spent 5's 20
# tables a second and a view said "7 of 8".
FABRIC_FLOOD_VIEWS=${DPILLAR_PROBE_FABRIC_FLOOD_VIEWS:-3}
fabric_flood() {
	local i ok=0 n=$FABRIC_FLOOD_VIEWS s0 l0 s1 l1 rate
	PF_PREFIX=pw-
	read -r s0 l0 < <(dp_stats pw-5 dp0 probe_sender_limit probe_limit)
	ip netns exec "$PF_SW" python3 "$FORGE" flood --src 1 --ttl 8 \
		--flags 1 --secs 120 "v5p0@$PF_SW=pw-5:p0:5" \
		> "$PP_TMP/nflood" 2>&1 &
	local flood=$!
	wait_for 60 grep -q sending "$PP_TMP/nflood" ||
		{ kill "$flood"; cat "$PP_TMP/nflood"; return 1; }
	# A second of the flood: 5's budgets spent, if one budget were all.
	sleep 2
	for ((i = 0; i < n; i++)); do
		pf_on 0 "$DPCTL" fabric pace 0 timeout 500 > "$PP_TMP/fabric" 2>&1
		if grep -q "8 of 8 servers answered" "$PP_TMP/fabric"; then
			ok=$((ok + 1))
		else
			grep "no answer\|servers answered" "$PP_TMP/fabric"
		fi
	done
	kill "$flood" 2>/dev/null
	wait "$flood"
	read -r s1 l1 < <(dp_stats pw-5 dp0 probe_sender_limit probe_limit)
	rate=$(grep sent "$PP_TMP/nflood")
	echo "table requests flooding server 5: $rate; views with every server answering: $ok of $n; server 5: probe_sender_limit +$((s1 - s0)), probe_limit +$((l1 - l0))" |
		tee -a "$PP_TMP/figures"
	[ "$ok" = "$n" ] && [ $((s1 - s0)) -gt 0 ]
}

PP_TMP=$(mktemp -d)
defer rm -rf "$PP_TMP"
defer ns_del_matching "^pw-"
run_test "BCube($BN,$BK): $NSRV servers from dpctl plan, dp0 on each" build ||
	ktap_skip_all "no fabric"
run_test "fan-in: $SRCS sources' path selection to one server keeps every path while a neighbour floods it with probes" \
	fanin
run_test "forged stamp: replies 'reached' for every (id, seq) of a fresh route probe, none taken, counted probe_reply_bad" \
	forged
run_test "fabric view: DPillar(4,2) with two ports swapped between switches, dpctl fabric from one server names exactly those cables" \
	fabric_view
# DPILLAR_PROBE_GUIDE=0 (make check's debug kernel) leaves the
# documents' blocks out: what they check is the documents, on the Debian
# kernels; their kernel paths (rtnetlink, the iproute2 plugin's, genl)
# are dpillar_link.sh's and dpillar_genl.sh's there.
if [ "${DPILLAR_PROBE_GUIDE:-1}" = 0 ]; then
	ktap_skip "the documents' command blocks (guest-test)" "DPILLAR_PROBE_GUIDE=0"
else
	run_test "the documents (administrator's guide, reference, design): their command blocks that need the module run in the guest as printed (guest-test)" \
		guide_blocks
fi
run_test "fabric view under a flood: one neighbour's table requests get its sender's share, the other servers' sweep still gets every table" \
	fabric_flood
# The figures, passed or failed (run_test shows a passing test's output
# only with V=1).
[ -s "$PP_TMP/figures" ] && ktap_diag "$(cat "$PP_TMP/figures")"
run_test "no kernel splat" dmesg_check "$mark"
ktap_finish
