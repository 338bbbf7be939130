#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Test of the DPillar fabric the DPillar suites run on (fabric.sh's
# fabric_build: plan_fabric.sh from "dpctl -j plan topo dpillar"), run in
# the guest:
#   selftests/vm/run-vm.sh -- selftests/topo_test.sh [N:K ...]
# (default sizes: DPILLAR_TOPO_SIZES, else "4:2 4:3 6:3").  For each size
# it builds the fabric and checks it against the DPillar definition,
# independently of the plan (only the documented naming is shared: server
# (C, L) is node id C*h^k + L, netns dp-<id>; bridge s<c>_<id> in
# plan_fabric.sh's switch netns is a switch of column c), so a wrong plan
# fails it:
#  - wiring: every bridge has n ports, h servers of column c on port p0 and
#    h of column c+1 on p1, all agreeing except on symbol c, c matching
#    the bridge name s<c>_..; every server port is on exactly one bridge;
#    STP off, forward_delay 0, multicast snooping off;
#  - traffic: an ICMPv6 echo to ff02::1 sent on every port of every server
#    is answered by exactly the n-1 ports that share its switch by the
#    definition;
#  - tools/dpsim/dpsim plan -n N -k K --csv, if available, agrees;
#  - topo_ns_of/topo_switch_of/topo_port_down; fabric_destroy.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/plan_fabric.sh"
. "$(dirname "$0")/fabric.sh"

require_vm
require_root
require_cmd ip python3 bc
require_tools

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || read -r -a sizes <<<"${DPILLAR_TOPO_SIZES:-4:2 4:3 6:3}"
defer fabric_destroy

# verify N K SWNS [DPSIM_CSV]: prints diagnostics, last line "RESULT a b c"
# with a/b/c = pass|fail|skip for wiring, traffic, dpsim.
verify() {
	python3 -S -E - "$@" <<'EOPY'
import ctypes, json, os, select, socket, struct, subprocess, sys, time

n, k, swns = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
dpsim_csv = sys.argv[4] if len(sys.argv) > 4 else ""
h = n // 2
libc = ctypes.CDLL(None, use_errno=True)
errors = {"wiring": [], "traffic": []}

def err(kind, msg):
    errors[kind].append(msg)

def setns(name):
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    if libc.setns(fd, 0x40000000) != 0:
        raise OSError(ctypes.get_errno(), "setns " + name)
    os.close(fd)

def ipj(*args):
    return json.loads(subprocess.run(["ip", "-j"] + list(args), check=True,
                      capture_output=True, text=True).stdout or "[]")

# ---- the definition, written independently of the plan ------------------
servers = []            # (C, (v_{k-1}, ..., v_0))
def labels(depth):
    if depth == 0:
        yield ()
        return
    for head in range(h):
        for rest in labels(depth - 1):
            yield (head,) + rest
for C in range(k):
    for lab in labels(k):
        servers.append((C, lab))
def sym(lab, i):        # symbol v_i; lab is (v_{k-1}, ..., v_0)
    return lab[k - 1 - i]
def nsname(s):         # node id C*h^k + L, L the label read in base h
    L = 0
    for v in s[1]:
        L = L * h + v
    return "dp-%d" % (s[0] * h ** k + L)
def addr(s):
    return "%d:%s" % (s[0], ".".join(map(str, s[1])))
def agree_except(a, b, i):
    return all(sym(a, j) == sym(b, j) for j in range(k) if j != i)
def expected_peers(s, port):
    """(server, port) pairs on the same switch as port `port` of s."""
    C, lab = s
    c = C if port == 0 else (C - 1) % k     # switch column
    out = set()
    for t in servers:
        if not agree_except(t[1], lab, c):
            continue
        if t[0] == c:
            out.add((t, 0))
        if t[0] == (c + 1) % k:
            out.add((t, 1))
    out.discard((s, port))
    return out

names = {nsname(s): s for s in servers}
if len(servers) != k * h ** k:
    err("wiring", "server count")

# ---- wiring: read the bridges from the switches' netns -------------------
nsids = {e["nsid"]: e.get("name") for e in ipj("-n", swns, "netns", "list-id")}
links = ipj("-d", "-n", swns, "link", "show")
bridges = {l["ifname"]: l for l in links
           if l.get("linkinfo", {}).get("info_kind") == "bridge"}
# server netns -> ifindex -> ifname, and link-local address -> (server, port)
ifnames, lladdr, own = {}, {}, {}
for name, s in names.items():
    try:
        setns(name)
    except OSError as e:
        err("wiring", "missing netns %s: %s" % (name, e))
        continue
    ifnames[name] = dict(socket.if_nameindex())
    with open("/proc/self/net/if_inet6") as f:
        for line in f:
            a, idx, plen, scope, flags, dev = line.split()
            if dev in ("p0", "p1") and a.startswith("fe80"):
                ip6 = socket.inet_ntop(socket.AF_INET6, bytes.fromhex(a))
                lladdr[ip6] = (s, int(dev[1]))
                own[(s, int(dev[1]))] = ip6
member = {}             # (server, port) -> bridge
onbridge = {b: [] for b in bridges}
for l in links:
    m = l.get("master")
    if m is None or l.get("linkinfo", {}).get("info_kind") != "veth":
        continue
    peer_ns = nsids.get(l.get("link_netnsid"))
    s = names.get(peer_ns)
    if s is None:
        err("wiring", "%s: peer in unknown netns %r" % (l["ifname"], peer_ns))
        continue
    pname = ifnames.get(peer_ns, {}).get(l.get("link_index"))
    if pname not in ("p0", "p1"):
        err("wiring", "%s: peer is %r in %s" % (l["ifname"], pname, peer_ns))
        continue
    key = (s, int(pname[1]))
    if key in member:
        err("wiring", "%s %s on two bridges" % (addr(s), pname))
    member[key] = m
    onbridge.setdefault(m, []).append(key)
    if "UP" not in l.get("flags", []):
        err("wiring", "%s is down" % l["ifname"])
for s in servers:
    for p in (0, 1):
        if (s, p) not in member:
            err("wiring", "%s p%d is on no bridge" % (addr(s), p))
if len(bridges) != k * h ** (k - 1):
    err("wiring", "%d bridges, want %d" % (len(bridges), k * h ** (k - 1)))
for b, l in bridges.items():
    d = l["linkinfo"].get("info_data", {})
    for opt, want in (("stp_state", 0), ("forward_delay", 0),
                      ("mcast_snooping", 0)):
        if d.get(opt) != want:
            err("wiring", "%s %s=%r" % (b, opt, d.get(opt)))
    mem = onbridge.get(b, [])
    if len(mem) != n:
        err("wiring", "%s has %d ports, want %d" % (b, len(mem), n))
        continue
    c = int(b[1:].split("_")[0])
    p0 = [s for s, p in mem if p == 0]
    p1 = [s for s, p in mem if p == 1]
    ok = (len(p0) == h and len(p1) == h and
          all(s[0] == c for s in p0) and all(s[0] == (c + 1) % k for s in p1) and
          all(agree_except(s[1], mem[0][0][1], c) for s, _ in mem) and
          len({sym(s[1], c) for s in p0}) == h and
          len({sym(s[1], c) for s in p1}) == h)
    if not ok:
        err("wiring", "%s members break the definition: %s" % (b,
            " ".join("%s/p%d" % (addr(s), p) for s, p in sorted(mem))))
    for s, p in mem:    # cross-check with the definition's peer sets
        if expected_peers(s, p) != set(mem) - {(s, p)}:
            err("wiring", "%s/p%d peers differ on %s" % (addr(s), p, b))
            break

# ---- traffic: echo to ff02::1 on every port, from one process ------------
socks, ifidx = {}, {}
req = struct.pack("!BBHHH", 128, 0, 0, 0x6470, 1) + b"dpillar-topo"
for name, s in names.items():
    try:
        setns(name)
    except OSError:
        continue
    for p in (0, 1):
        sk = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
        sk.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"p%d" % p)
        sk.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_LOOP, 0)
        sk.setblocking(False)
        socks[sk] = (s, p)
        ifidx[sk] = socket.if_nametoindex("p%d" % p)
seen = {v: set() for v in socks.values()}
def drain(timeout):
    end = time.time() + timeout
    while True:
        left = end - time.time()
        if left <= 0:
            return
        r, _, _ = select.select(list(socks), [], [], left)
        for sk in r:
            try:
                data, src = sk.recvfrom(2048)
            except BlockingIOError:
                continue
            if data[0] == 129 and data[4:6] == b"\x64\x70":
                seen[socks[sk]].add(src[0].split("%")[0])
for attempt in range(3):        # a few rounds: multicast is best effort
    sent = 0
    for sk, (s, p) in socks.items():
        want = {own.get(x) for x in expected_peers(s, p)}
        if seen[(s, p)] >= want:
            continue
        sent += 1
        try:
            sk.sendto(req, ("ff02::1", 0, 0, ifidx[sk]))
        except OSError as e:
            err("traffic", "%s p%d send: %s" % (addr(s), p, e))
    if sent == 0:
        break
    drain(2.0 + attempt)
bad = 0
for (s, p), got in sorted(seen.items()):
    want = {own.get(x) for x in expected_peers(s, p)}
    if len(want) != n - 1 or got != want:
        bad += 1
        if bad <= 10:
            err("traffic", "%s p%d: %d repliers, want %d%s%s" % (
                addr(s), p, len(got), n - 1,
                "; unexpected " + " ".join(
                    "%s/p%d" % (addr(lladdr[a][0]), lladdr[a][1]) if a in lladdr
                    else a for a in sorted(got - want)) if got - want else "",
                "; missing " + " ".join(
                    "%s/p%d" % (addr(x[0]), x[1]) for x in sorted(expected_peers(s, p))
                    if own.get(x) not in got) if want - got else ""))
if bad > 10:
    err("traffic", "... %d ports in all" % bad)

# ---- dpsim plan ---------------------------------------------------------
dpsim = "skip"
if dpsim_csv:
    lines = [l.strip() for l in open(dpsim_csv) if l.strip()]
    if not lines or lines[0].replace(" ", "") != "server,port,switch_col,switch_id":
        print("dpsim: unexpected header %r" % (lines[:1],))
        dpsim = "fail"
    else:
        rows, dpsim = 0, "pass"
        byaddr = {addr(s): s for s in servers}
        for l in lines[1:]:
            a, p, col, sid = l.split(",")
            s = byaddr.get(a.strip())
            b = member.get((s, int(p)))
            rows += 1
            if b != "s%s_%s" % (col.strip(), sid.strip()):
                print("dpsim: %s port %s -> S_%s #%s, built %s" % (a, p, col, sid, b))
                dpsim = "fail"
        if rows != 2 * len(servers):
            print("dpsim: %d rows, want %d" % (rows, 2 * len(servers)))
            dpsim = "fail"

for kind in ("wiring", "traffic"):
    for m in errors[kind][:20]:
        print("%s: %s" % (kind, m))
print("RESULT %s %s %s" % ("fail" if errors["wiring"] else "pass",
                          "fail" if errors["traffic"] else "pass", dpsim))
EOPY
}

for nk in "${sizes[@]}"; do
	n=${nk%%:*} k=${nk##*:}
	t0=$EPOCHREALTIME
	if ! fabric_build "$n" "$k"; then
		ktap_fail "($n,$k) build"
		continue
	fi
	bt=$(printf '%.1f' "$(echo "${EPOCHREALTIME/,/.} - ${t0/,/.}" | bc)")
	ktap_ok "($n,$k) build: ${#SERVERS[@]} servers, ${#PF_SWITCH[@]} switches in ${bt}s"

	csv=
	if [ -x "$DPSIM" ]; then
		csv=$(mktemp)
		defer rm -f "$csv"
		"$DPSIM" plan -n "$n" -k "$k" --csv > "$csv" 2>/dev/null || csv=
	fi
	t0=$EPOCHREALTIME
	out=$(verify "$n" "$k" "$PF_SW" $csv 2>&1)
	vt=$(printf '%.1f' "$(echo "${EPOCHREALTIME/,/.} - ${t0/,/.}" | bc)")
	res=$(sed -n 's/^RESULT //p' <<< "$out")
	diag=$(grep -v '^RESULT ' <<< "$out")
	[ -n "$diag" ] && ktap_diag "$diag"
	read -r w t d <<< "$res"
	ktap_result "($n,$k) wiring matches the DPillar definition" \
		"$([ "$w" = pass ] && echo 0 || echo 1)"
	ktap_result "($n,$k) ff02::1 on each port reaches exactly its n-1 switch mates (${vt}s)" \
		"$([ "$t" = pass ] && echo 0 || echo 1)"
	case "$d" in
	pass) ktap_ok "($n,$k) agrees with dpsim plan" ;;
	fail) ktap_fail "($n,$k) agrees with dpsim plan" ;;
	*) ktap_skip "($n,$k) agrees with dpsim plan" "no $DPSIM with 'plan --csv'" ;;
	esac

	# The helpers on the last server and the naming.
	last=${SERVERS[-1]}
	ns=$(topo_ns_of "$last")
	t() {
		[ "$ns" = "dp-$((k * (n / 2) ** k - 1))" ] || return 1
		[ "${FNS[$last]}" = "$ns" ] || return 1
		ip netns exec "$ns" true || return 1
		! topo_ns_of "$k:0" 2>/dev/null || return 1
		! topo_ns_of "0:$((n / 2))" 2>/dev/null || return 1
		# Failure injection cuts exactly one port.
		topo_port_down "$last" 1 || return 1
		ip -n "$PF_SW" link show "$(topo_peer_of "$last" 1)" | grep -q 'state DOWN' || return 1
		topo_port_up "$last" 1
	}
	run_test "($n,$k) topo_ns_of/topo_port_down ($last = $ns)" t
done

# The checks must be able to fail: swap two ports between bridges.
t() {
	local out a=1:0.0 b=1:1.1 sa sb
	fabric_build 4 2 || return 1
	sa=$(topo_switch_of $a 0) sb=$(topo_switch_of $b 0)
	ip -n "$PF_SW" link set "$(topo_peer_of $a 0)" master "$sb" &&
	ip -n "$PF_SW" link set "$(topo_peer_of $b 0)" master "$sa" || return 1
	out=$(verify 4 2 "$PF_SW")
	echo "$out"
	grep -q '^RESULT fail fail' <<< "$out"
}
run_test "a miswired (4,2) fails the wiring and traffic checks" t

t() {
	fabric_destroy
	sleep 1
	! compgen -G '/run/netns/dp-*' >/dev/null && [ ! -e "/run/netns/$PF_SW" ]
}
run_test "fabric_destroy removes every namespace" t

ktap_finish
