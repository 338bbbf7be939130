#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Loss windows of a 1 kHz probe stream across a failure (failover_test.sh).

usage: dp_failover.py SWNS
    A coprocess: reads one command a line on stdin, answers with lines
    then "END" (one python3 start for the whole suite: ~1-3 s each under
    TCG).  SWNS is the switches' netns (plan_fabric.sh's pfsw), where the
    failures are made.  Namespaces are names under /run/netns.

    PORTS below is a file of "NS IF VETH BRIDGE" lines, one per server
    port: IF in the server's netns NS, VETH its switch-side end in SWNS,
    plugged into BRIDGE.

    relays MS SRC DST IP PORTS
        a MS-long stream SRC -> DST (UDP to IP, DST's fabric address);
        "sent N received N", "relay NS IN OUT" and "relays NS...": the
        servers that relayed the stream (dp0's "forwarded" grew by half
        the frames sent, or more), and the first of them, the one on the
        bridge of SRC's out port, with its in and out ports (its ports'
        frame counts in /proc/net/dev tell them); "-" when the path has
        no relay.
    stream SRC DST IP PRE HOLD CEIL POST SCENARIO PORTS
        the stream for PRE ms; then the failure SCENARIO of its first
        relay R (found as relays does, over 100 more frames, and R still
        relaying 20 more, just before: a path may change with every
        failure, and under load), made over rtnetlink in SWNS in
        a thread, no process:
          switch    R's out port's VETH out of its bridge, still up: R
                    keeps carrier and hears nobody on it
          carrier   that VETH down: R's port loses carrier
          relay     every VETH of R down at once
        On until HOLD ms have passed since it and the last 100 ms of
        frames sent were all received (recovered), or until CEIL ms (not
        recovered); then the repair, and on again until POST ms have
        passed since it and the stream recovered, or CEIL.  One "result"
        line of KEY=VALUE words:
          relay, relays           R (NS,IN,OUT) and every relay ("relay=-":
                                  none, no failure made, and only the
                                  next two)
          look, fwd               the frames sent to find R (100), and
                                  each server's "forwarded" grown in them
                                  (NS:N, the servers where it grew)
          sent, received, hz      frames, and the rate the sender kept
          pre_lost                lost before the failure (noise)
          window                  the longest run of lost frames after
                                  the failure, in ms of send time: from
                                  the first lost frame of the run to the
                                  last, plus one interval (at 1 kHz, the
                                  count)
          lost, span              frames lost between the failure and the
                                  repair, and ms from the first of them to
                                  the last (several runs: their extent)
          runs                    runs of lost frames in that phase
          recovered               1 when the stream recovered before CEIL
          fault_ms                how long the failure lasted
          act_ms                  ms the failure's and the repair's
                                  netlink requests took (1-150 ms under
                                  TCG; the stream goes on meanwhile: a
                                  thread makes them)
          repair_lost, repair_window   the same after the repair
          tail_ok                 1 when it recovered after the repair
          dup                     frames received twice
          ttl                     drop_ttl grown on the servers (a loop)

The sender keeps one frame per ms without catching up: when the guest is
descheduled it sends the next frame late, not a burst, so every missing
sequence number is a frame the fabric lost.  Each frame's send time
(CLOCK_MONOTONIC; sender and receiver are this one process) is kept, and
loss windows are measured in send time, not in frame counts, so a sender
slowed by a busy host does not shrink them.
"""
import array
import ctypes
import fcntl
import os
import select
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dp_fabric import rtnl  # noqa: E402

libc = ctypes.CDLL(None, use_errno=True)
PORT = 7409
STEP = 1000000          # ns between frames: 1 kHz
RECOVER = 100000000     # ns of frames all received: recovered
LATE = 50000000         # ns a frame may take to arrive (a TCG guest)
LOOK = 100              # frames of stream before a failure that find its relay
CHECK = 20              # frames more that R must relay, just before it


def setns(ns):
    fd = os.open("/run/netns/" + ns, os.O_RDONLY)
    try:
        if libc.setns(fd, 0x40000000) != 0:
            raise OSError(ctypes.get_errno(), "setns " + ns)
    finally:
        os.close(fd)


def now():
    return time.monotonic_ns()


class Stream:
    """A UDP sender in SRC's netns and its receiver in DST's."""

    def __init__(self, src, dst, ip):
        setns(dst)
        self.rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.rx.bind((ip, PORT))
        self.rx.setblocking(False)
        setns(src)
        self.tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.tx.connect((ip, PORT))
        self.t = array.array("q")       # send time of each sequence number
        self.got = bytearray()          # times each was received
        self.next = now()

    def close(self):
        self.tx.close()
        self.rx.close()

    def run(self, until):
        """Send and receive until until(t) is true (t: now, ns); returns
        that t."""
        while True:
            t = now()
            if until(t):
                return t
            if t >= self.next:
                seq = len(self.t)
                self.t.append(t)
                self.got.append(0)
                try:
                    self.tx.send(struct.pack("!Iq", seq, t))
                except OSError:
                    pass        # no route: lost like a dropped frame
                # no catching up: a late frame is followed by one 1 ms on
                self.next = max(self.next + STEP, t + STEP // 2)
            wait = max(0, self.next - now()) / 1e9
            r, _, _ = select.select([self.rx], [], [], wait)
            if r:
                self.drain()

    def drain(self):
        while True:
            try:
                b = self.rx.recv(64)
            except BlockingIOError:
                return
            if len(b) >= 4:
                seq = struct.unpack_from("!I", b)[0]
                if seq < len(self.got) and self.got[seq] < 255:
                    self.got[seq] += 1

    def settle(self):
        """Let the frames in flight arrive (no more sent)."""
        end = now() + LATE
        while now() < end:
            r, _, _ = select.select([self.rx], [], [], (end - now()) / 1e9)
            if r:
                self.drain()

    def all_since(self, t0, t1):
        """Every frame sent in [t0, t1) was received."""
        i = self.index(t0)
        while i < len(self.t) and self.t[i] < t1:
            if not self.got[i]:
                return False
            i += 1
        return True

    def index(self, t0):
        lo, hi = 0, len(self.t)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.t[mid] < t0:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def losses(self, a, b):
        """Runs of lost frames among sequence numbers [a, b): their count,
        frames, the longest window and the span, in ms of send time."""
        runs, lost, longest, first, last, i = 0, 0, 0, None, None, a
        while i < b:
            if self.got[i]:
                i += 1
                continue
            j = i
            while j < b and not self.got[j]:
                j += 1
            runs += 1
            lost += j - i
            longest = max(longest, self.t[j - 1] - self.t[i] + STEP)
            first = i if first is None else first
            last = j - 1
            i = j
        span = self.t[last] - self.t[first] + STEP if runs else 0
        return runs, lost, longest / 1e6, span / 1e6


class Links:
    """rtnetlink on the links of SWNS, a socket of its own per stream (the
    fabric's namespaces are made again for every topology)."""

    def __init__(self, swns, actions):
        setns(swns)
        self.nl = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        self.nl.bind((0, 0))
        self.seq = 0
        self.idx = {}
        self.error = None
        self.done = None
        self.resolve(actions)

    def resolve(self, actions):
        """The ifindex of every link the actions name: if_nametoindex()
        asks a socket of the current netns, so before leaving SWNS."""
        for a in actions:
            for name in a.split(":")[1:]:
                self.idx[name] = socket.if_nametoindex(name)

    def close(self):
        self.nl.close()

    def start(self, actions):
        """act(ACTIONS) in a thread; done: when it ended (ns), error: what
        it raised."""
        def run():
            try:
                self.act(actions)
            except (OSError, ValueError) as e:
                self.error = e
            self.done = now()
        t = threading.Thread(target=run)
        t.start()
        return t

    def act(self, actions):
        for a in actions:
            w = a.split(":")
            ifi = self.idx[w[1]]
            attrs, flags, change = [], 0, 0
            if w[0] in ("up", "down"):
                flags, change = (1 if w[0] == "up" else 0), 1
            elif w[0] == "nomaster":
                attrs = [(10, struct.pack("I", 0))]             # IFLA_MASTER
            elif w[0] == "master":
                attrs = [(10, struct.pack("I", self.idx[w[2]]))]
            else:
                raise ValueError("bad action " + a)
            self.seq += 1
            rtnl(self.nl, self.seq, 16,                         # RTM_NEWLINK
                 struct.pack("BxHiII", 0, 0, ifi, flags, change), attrs, 0)


NAMES = {}


def ethtool(ns):
    """dp0's ethtool -S counters in netns NS, {name: value} ({} without
    dp0)."""
    setns(ns)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        def ioctl(buf):
            ifr = struct.pack("16sP", b"dp0", ctypes.addressof(buf)) + bytes(16)
            fcntl.ioctl(s, 0x8946, ifr)                 # SIOCETHTOOL
        try:
            info = ctypes.create_string_buffer(struct.pack("IIQI", 0x37, 0, 2, 0))
            ioctl(info)                                 # GSSET_INFO, SS_STATS
            n = struct.unpack_from("IIQI", info.raw)[3]
            names = NAMES.get(n)    # one module: the same names everywhere
            if names is None:
                gs = ctypes.create_string_buffer(
                    struct.pack("III", 0x1b, 1, n) + bytes(32 * n))
                ioctl(gs)                               # GSTRINGS
                names = NAMES[n] = [
                    gs.raw[12 + 32 * i:44 + 32 * i].split(b"\0")[0].decode()
                    for i in range(n)]
            st = ctypes.create_string_buffer(struct.pack("II", 0x1d, n) +
                                             bytes(8 * n))
            ioctl(st)                                   # GSTATS
            return dict(zip(names, struct.unpack_from("%dQ" % n, st.raw, 8)))
        except OSError:
            return {}


def ethtool_stat(name, nss):
    """The sum of dp0's ethtool -S counter NAME over the namespaces."""
    return sum(ethtool(ns).get(name, 0) for ns in nss)


def snapshot(nss):
    """{(ns, ifname): (rx_packets, tx_packets)} from /proc/net/dev, and
    {ns: dp0's forwarded counter}."""
    out, fwd = {}, {}
    for ns in nss:
        fwd[ns] = ethtool(ns).get("forwarded", 0)
        with open("/proc/self/net/dev") as f:
            for line in f.readlines()[2:]:
                name, rest = line.split(":", 1)
                v = rest.split()
                out[(ns, name.strip())] = (int(v[1]), int(v[9]))
    return out, fwd


def load_ports(path):
    """PORTS: "NS IF VETH BRIDGE" lines, a server port each (IF in server
    netns NS, VETH its switch-side end in SWNS, in BRIDGE)."""
    ports = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4:
                ports[(w[0], w[1])] = (w[2], w[3])
    return ports


def crossed(before, after, sent, src, dst, ports):
    """The servers that relayed the SENT frames of the stream between two
    snapshots (dp0's forwarded counter grown by half of them or more):
    RELAYS {ns: (in port, out port)}, and the first relay: the one with a
    port on the bridge of SRC's out port (None when there is none).  A
    port's counts include Hellos, the same number out of every port (but
    not in: a switch has more members than a cable), so a server's out
    port is its port that sent the most, by half the stream's frames at
    least, and its in port the one that received the most."""
    def delta(k):
        a, b = after[0].get(k), before[0].get(k)
        return (a[0] - b[0], a[1] - b[1]) if a and b else (0, 0)

    def busiest(ns, col):
        d = sorted((delta(k)[col], k[1]) for k in ports if k[0] == ns)
        if not d:
            return None
        if col == 0 or len(d) == 1 or (d[-1][0] - d[-2][0]) * 2 >= sent:
            return d[-1][1]
        return None

    relays = {}
    if sent < 10:
        return relays, None
    for ns, f in after[1].items():
        if ns in (src, dst) or (f - before[1].get(ns, 0)) * 2 < sent:
            continue
        out = busiest(ns, 1)
        if out:
            relays[ns] = (busiest(ns, 0), out)
    first, out = None, busiest(src, 1)
    if out:
        br = ports[(src, out)][1]
        near = [ns for ns in relays
                if any(ports[k][1] == br for k in ports if k[0] == ns)]
        # two on that bridge: the one the stream came in to by it
        near.sort(key=lambda ns: ports[(ns, relays[ns][0])][1] != br)
        first = near[0] if near else None
    return relays, first


def cmd_relays(swns, argv):
    ms, src, dst, ip, ports = int(argv[0]), argv[1], argv[2], argv[3], \
        load_ports(argv[4])
    nss = sorted({k[0] for k in ports})
    before = snapshot(nss)
    s = Stream(src, dst, ip)
    end = now() + ms * 1000000
    s.run(lambda t: t >= end)
    s.settle()
    after = snapshot(nss)
    s.close()
    sent, got = len(s.t), sum(1 for g in s.got if g)
    relays, first = crossed(before, after, sent, src, dst, ports)
    return ["sent %d received %d" % (sent, got),
            "relay %s %s %s" % (first or "-", *relays.get(first, ("-", "-"))),
            "relays %s" % " ".join(sorted(relays))]


def actions(scenario, relay, out, ports):
    """The failure SCENARIO of RELAY (its out port OUT) and its repair."""
    veth, br = ports[(relay, out)]
    if scenario == "switch":
        return ["nomaster:" + veth], ["master:%s:%s" % (veth, br)]
    if scenario == "carrier":
        return ["down:" + veth], ["up:" + veth]
    if scenario == "relay":
        v = [ports[k][0] for k in sorted(ports) if k[0] == relay]
        return ["down:" + x for x in v], ["up:" + x for x in v]
    raise ValueError("bad scenario " + scenario)


def cmd_stream(swns, argv):
    src, dst, ip = argv[0:3]
    pre, hold, ceil, post = (int(x) * 1000000 for x in argv[3:7])
    scenario, ports = argv[7], load_ports(argv[8])
    nss = sorted({k[0] for k in ports})
    ttl0 = ethtool_stat("drop_ttl", nss)
    s = Stream(src, dst, ip)
    t0 = now()
    s.run(lambda t: t >= t0 + pre)
    # The relay the stream crosses now, in its next LOOK frames (its path
    # may have moved since the last failure: equal-cost paths, neighbours
    # late under load).  A snapshot of every server takes 100-300 ms
    # under TCG, in which the path may move again (fast Hellos late): R
    # must then still relay CHECK frames more, a snapshot of R alone
    # around them (a few ms), or all of it again, three times at most.
    for _ in range(3):
        before, n0 = snapshot(nss), len(s.t)
        s.run(lambda t: len(s.t) >= n0 + LOOK)
        after = snapshot(nss)
        look = len(s.t) - n0
        relays, first = crossed(before, after, look, src, dst, ports)
        fwd = "look=%d fwd=%s" % (look, ",".join(
            "%s:%d" % (ns, after[1][ns] - before[1].get(ns, 0))
            for ns in nss if after[1][ns] != before[1].get(ns, 0)) or "-")
        if first is None:
            continue
        f0, n0 = snapshot([first])[1][first], len(s.t)
        s.run(lambda t: len(s.t) >= n0 + CHECK)
        if (snapshot([first])[1][first] - f0) * 4 >= (len(s.t) - n0) * 3:
            break
        first = None
    if first is None:
        s.close()
        return ["result relay=- relays=%s %s" % (",".join(sorted(relays)),
                                                 fwd)]
    fault, repair = actions(scenario, first, relays[first][1], ports)
    links = Links(swns, fault + repair)
    # The requests in a thread of their own: the kernel makes them in
    # the sender's system call, for 1-150 ms under TCG (a port leaving a
    # bridge waits for RCU), while the stream must go on
    tf0, sf = now(), len(s.t)
    act = links.start(fault)

    def over(t0, least):
        """At least LEAST ns since T0 and the last frames all received,
        or CEIL ns since T0."""
        return lambda t: t >= t0 + ceil or t >= t0 + least and \
            s.all_since(t - LATE - RECOVER, t - LATE)
    t = s.run(over(tf0, hold))
    act.join()
    tf = links.done
    recovered = s.all_since(t - LATE - RECOVER, t - LATE)
    tr0, sr = now(), len(s.t)
    act = links.start(repair)
    t = s.run(over(tr0, post))
    act.join()
    tr = links.done
    tail = s.all_since(t - LATE - RECOVER, t - LATE)
    s.settle()
    s.close()
    links.close()
    if links.error:
        raise links.error
    n = len(s.t)
    ttl = ethtool_stat("drop_ttl", nss) - ttl0
    _, pre_lost, _, _ = s.losses(0, sf)
    runs, lost, window, span = s.losses(sf, sr)
    _, rlost, rwindow, _ = s.losses(sr, n)
    secs = (s.t[-1] - s.t[0]) / 1e9 if n > 1 else 1
    return ["result relay=%s,%s,%s relays=%s %s sent=%d received=%d hz=%d "
            "pre_lost=%d window=%.0f lost=%d span=%.0f runs=%d recovered=%d "
            "fault_ms=%.0f act_ms=%.0f,%.0f repair_lost=%d repair_window=%.0f "
            "tail_ok=%d "
            "dup=%d ttl=%d"
            % (first, *relays[first], ",".join(sorted(relays)), fwd, n,
               sum(1 for g in s.got if g), (n - 1) / secs, pre_lost,
               window, lost, span, runs, recovered, (tr0 - tf0) / 1e6,
               (tf - tf0) / 1e6, (tr - tr0) / 1e6,
               rlost, rwindow, tail, sum(1 for g in s.got if g > 1), ttl)]


def main():
    swns = sys.argv[1]
    cmds = {"relays": cmd_relays, "stream": cmd_stream}
    print("READY", flush=True)
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        try:
            out = cmds[w[0]](swns, w[1:])
        except (OSError, ValueError, KeyError, IndexError) as e:
            out = ["ERROR %s: %s" % (w[0], e)]
        print("\n".join(out + ["END"]), flush=True)


if __name__ == "__main__":
    main()
