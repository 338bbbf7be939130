// SPDX-License-Identifier: GPL-2.0
/*
 * dpns3 - TCP throughput of a dpillar fabric in ns-3, routed by the kernel
 * module's routing core.
 *
 * Every server and every switch of the fabric is an ns-3 node, every
 * server port a point-to-point link (to its switch, or a cable to its
 * peer).  Servers run ns-3's IPv4 and TCP (NewReno); their only routing
 * protocol is DpRouting below, which asks the routing core
 * (net/dpillar/topo*.c, the files the module and dpsim compile) for
 * every hop: the source calls dp_route_init() with the flow hash and
 * dp_route() once, every relay dp_route() on the state the packet
 * carries.  That state travels in a packet tag (DpTag), as it travels in
 * the module's wire header; the tag also names the next server, which is
 * all a switch node needs (it is a dumb switch: no learning, no IP).
 * Failures are a failure set of topo_walk.c: its view is what routing
 * knows (the Hello tables of a converged fabric), and the failed
 * elements drop every frame (a receive error model of rate 1).
 *
 * Output: per-flow throughput, the aggregate bottleneck throughput (ABT:
 * flows times the slowest flow), its max-min fluid value from the paths
 * the packets took, Jain's fairness, flow completion times of fixed-size
 * flows.  Exit status: 0 ok, 1 runtime failure, 2 usage error.
 *
 * --graph FILE runs the S2 paper's baselines instead (FatTree, Jellyfish,
 * SWDC, from tools/ns3/graphs.py): the same model, but every hop is
 * decided here by the baseline's routing (ECMP, k shortest paths, greedy
 * by lattice distance), not by the routing core.
 */
#include <getopt.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

extern "C" {
#include "dp_params.h"
#include "topo.h"
#include "topo_walk.h"
#include "sim.h"
}

using namespace ns3;

#define EXIT_USAGE	2
#define TAG_PATH_MAX	64	/* nodes a tag records (longer: truncated) */
#define SINK_PORT_BASE	1024	/* a connection's sink port: base +
				   source endpoint * paths + subflow */

static const char usage_text[] =
"usage: dpns3 --topo NAME [-n N] [-k K] [-i I] [--nodes N --spaces L\n"
"             [--s2-seed S]] [--mode MODE] [--traffic perm|all]\n"
"             [--rate R] [--delay D] [--min-rto T] [--del-ack T]\n"
"             [--jitter J] [--queue P] [--time T] [--warmup W]\n"
"             [--bytes B] [--fail ADDR[/PORT],...] [--failed F]\n"
"             [--fail-links L] [--pair SRC,DST ...] [--seed S] [--json]\n"
"             [--flows] [--hosts H] [--paths K] [--endpoints M]\n"
"       dpns3 --graph FILE [options above but --fail*]\n"
"  --topo       dpillar, dcell, bcube, xdcent, s2 (derived cabling:\n"
"               --nodes, -n ports, --spaces, --s2-seed)\n"
"  --WORD V     any other parameter of the fabric by its dpctl link add\n"
"               word (net/dpillar/params.h), within the list's range\n"
"  --mode       the topology's routing mode (dpsim --mode)\n"
"  --traffic    perm: a random permutation, every live server sends to\n"
"               one and receives from one (default); all: every live\n"
"               server to every other\n"
"  --rate, --delay  of every link, ns-3 syntax (default 1Gbps, 1us)\n"
"  --min-rto    TCP's minimum RTO, SYN timeout and first RTO (default\n"
"               10ms, a data center's: ns-3's are 1 s and 3 s)\n"
"  --del-ack    the delayed ACK timeout (default 1ms; ns-3's 200ms\n"
"               against a 10 ms RTO starves flows, see below)\n"
"  --jitter     switches and relays wait up to this fraction of a\n"
"               1500-byte frame's time before queueing it (default 0.1;\n"
"               0: none, and flows lock out by phase effects)\n"
"  --queue      packets of every port's drop-tail queue (default 100)\n"
"  --time       simulated seconds (default 0.5); --warmup: throughput\n"
"               is measured after it (default a fifth of --time)\n"
"  --pair       one flow from SRC to DST (repeated: the traffic)\n"
"  --bytes      fixed-size flows of B bytes (flow completion times);\n"
"               default 0: bulk flows for the whole --time\n"
"  --fail       failed servers, ADDR/PORT a failed link (dpsim route);\n"
"               --failed F, --fail-links L: random ones (--seed)\n"
"  --seed       the permutation, start times, random failures (default 1)\n"
"  --flows      every flow's path (as dpsim route prints it), hash and\n"
"               throughput in the output\n"
"  --hosts      H hosts behind every server, each on its own link: the\n"
"               traffic's endpoints (the S2 paper's servers behind a ToR\n"
"               switch; the fabric's servers only route).  Default 0:\n"
"               the fabric's servers are the endpoints\n"
"  --paths      K TCP connections per flow (the S2 paper's k subflows),\n"
"               each hashed to its own first hop by its five-tuple;\n"
"               --bytes is split among them (default 1)\n"
"  --endpoints  only the first M endpoints send and receive, host h of\n"
"               server s being endpoint h * servers + s (hosts spread\n"
"               over the servers: a fat tree's server count on S2)\n"
"  --graph      a fabric given as a graph (tools/ns3/graphs.py): switch\n"
"               nodes with hosts behind them, routed by a baseline\n"
"               computed here, NOT the routing core: ecmp (shortest\n"
"               paths, next hop by the hash), ksp (8 shortest paths by\n"
"               Yen, subflow i on path i mod their count), greedy\n"
"               (SWDC: to the neighbour nearest the destination in\n"
"               lattice distance, the first hop hashed over the nearer\n"
"               ones)\n";

/* A tag of every packet routed in the fabric: the wire header's state. */
class DpTag : public Tag {
public:
	struct dp_route_state st;
	u32 next = DP_NODE_NONE;	/* the server this hop goes to */
	u32 hash = 0;			/* the flow hash the source used */
	u32 npath = 0;			/* servers visited, source first */
	u32 sub = 0;			/* --graph: its subflow */
	u32 path[TAG_PATH_MAX];

	DpTag() { memset(&st, 0, sizeof(st)); }
	static TypeId GetTypeId();
	TypeId GetInstanceTypeId() const override { return GetTypeId(); }
	uint32_t GetSerializedSize() const override;
	void Serialize(TagBuffer b) const override;
	void Deserialize(TagBuffer b) override;
	void Print(std::ostream &os) const override;
};

NS_OBJECT_ENSURE_REGISTERED(DpTag);

TypeId DpTag::GetTypeId()
{
	static TypeId tid = TypeId("DpTag").SetParent<Tag>()
		.AddConstructor<DpTag>();
	return tid;
}

uint32_t DpTag::GetSerializedSize() const
{
	return sizeof(st) + 5 * 4 + 4 * std::min(npath, (u32)TAG_PATH_MAX);
}

void DpTag::Serialize(TagBuffer b) const
{
	u32 n = std::min(npath, (u32)TAG_PATH_MAX);

	b.Write((const uint8_t *)&st, sizeof(st));
	b.WriteU32(next);
	b.WriteU32(hash);
	b.WriteU32(npath);
	b.WriteU32(sub);
	b.WriteU32(n);
	for (u32 i = 0; i < n; i++)
		b.WriteU32(path[i]);
}

void DpTag::Deserialize(TagBuffer b)
{
	u32 n;

	b.Read((uint8_t *)&st, sizeof(st));
	next = b.ReadU32();
	hash = b.ReadU32();
	npath = b.ReadU32();
	sub = b.ReadU32();
	n = std::min(b.ReadU32(), (u32)TAG_PATH_MAX);
	for (u32 i = 0; i < n; i++)
		path[i] = b.ReadU32();
}

void DpTag::Print(std::ostream &os) const
{
	os << "dst=" << st.dst << " next=" << next << " hash=" << hash;
}

static void tag_visit(DpTag &tag, u32 id)
{
	if (tag.npath < TAG_PATH_MAX)
		tag.path[tag.npath] = id;
	tag.npath++;
}

/* The path a flow's data took, as its first data packet recorded it. */
struct PathRec {
	std::vector<u32> path;
	u32 hash = 0;
	bool truncated = false;
	u64 changes = 0;	/* later data packets that took another path */
};

/* The whole fabric: one per run. */
struct Fabric {
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_view view;
	u32 sel = 0;
	std::vector<Ptr<Node>> server, sw;
	u32 hosts = 0;			/* per server (--hosts); 0: none */
	std::vector<Ptr<Node>> host;			/* [endpoint] */
	std::vector<Ptr<NetDevice>> hostdev, hostup;	/* host, server end */
	std::vector<std::vector<Ptr<NetDevice>>> dev;	/* [id][port] */
	std::vector<std::map<u32, Ptr<NetDevice>>> swdev; /* [sw][server] */
	std::map<u64, PathRec> paths;		/* dst << 32 | sink port */
	u64 drops_route[DP_DROP_MAX] = {};	/* dp_route() said no */
	u64 drops_switch = 0;			/* no port toward the next */
	u64 drops_failed = 0;			/* at a failed server */
	u64 no_tag = 0;				/* relayed without a tag */
	double jitter = 0;	/* the most a forwarding element waits, s */
	Ptr<UniformRandomVariable> rv;
};

static Fabric F;

/*
 * --graph: a fabric given as a graph, for the baselines the S2 paper
 * compares with (FatTree, Jellyfish, SWDC).  Its nodes are the paper's
 * switches (our "servers": every one an IP router with DpRouting), its
 * hosts behind them; its routing is computed here, in the simulator, and
 * is not our routing core: ECMP over shortest paths, Jellyfish's k
 * shortest paths, SWDC's greedy lattice routing.
 */
#define GRAPH_KSP	8	/* Jellyfish's k */

static int bad_usage(const char *fmt, const char *arg);

struct Graph {
	bool on = false;
	std::string name, routing;		/* ecmp, ksp, greedy */
	u32 n = 0, nports = 0;
	std::vector<u32> hosts;			/* [node] */
	std::vector<u32> first;			/* [node]: first endpoint */
	std::vector<u32> epnode;		/* [endpoint] */
	std::vector<std::vector<u32>> adj;	/* [node][port]: neighbour */
	std::vector<std::vector<u8>> lat;	/* [node][port]: lattice? */
	std::vector<std::vector<u16>> dist;	/* [a][b]: hops (lattice's
						   for greedy) */
	std::map<u64, std::vector<std::vector<u32>>> ksp; /* src << 32 | dst */
	u32 subflows = 1;			/* --paths */
};

static Graph G;

/* Hop distances from @s, over lattice links only if asked (BFS). */
static std::vector<u16> graph_bfs(u32 s, bool lattice_only)
{
	std::vector<u16> d(G.n, 0xffff);
	std::vector<u32> q(1, s);

	d[s] = 0;
	for (size_t i = 0; i < q.size(); i++) {
		u32 a = q[i];

		for (u32 p = 0; p < G.adj[a].size(); p++) {
			u32 b = G.adj[a][p];

			if ((lattice_only && !G.lat[a][p]) || d[b] != 0xffff)
				continue;
			d[b] = d[a] + 1;
			q.push_back(b);
		}
	}
	return d;
}

/*
 * The graph file: "name NAME", "routing ecmp|ksp|greedy", "nodes N",
 * "hosts NODE H" (default 0), "link A B [lattice]"; '#' comments.
 */
static int graph_load(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[256], w[32], x[32];
	u32 a, b, e = 0;
	int k;

	if (!f) {
		fprintf(stderr, "dpns3: %s: %s\n", file, strerror(errno));
		return EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%31s", w) != 1)
			continue;
		if (!strcmp(w, "name") && sscanf(line, "%*s %31s", x) == 1) {
			G.name = x;
		} else if (!strcmp(w, "routing") &&
			   sscanf(line, "%*s %31s", x) == 1) {
			G.routing = x;
		} else if (!strcmp(w, "nodes") &&
			   sscanf(line, "%*s %u", &a) == 1 && a >= 2 &&
			   a < 65535 && !G.n) {
			G.n = a;
			G.hosts.assign(a, 0);
			G.adj.resize(a);
			G.lat.resize(a);
		} else if (!strcmp(w, "hosts") &&
			   sscanf(line, "%*s %u %u", &a, &b) == 2 && a < G.n &&
			   b <= 64) {
			G.hosts[a] = b;
		} else if (!strcmp(w, "link") &&
			   (k = sscanf(line, "%*s %u %u %31s", &a, &b,
				       x)) >= 2 && a < G.n && b < G.n && a != b) {
			G.adj[a].push_back(b);
			G.adj[b].push_back(a);
			G.lat[a].push_back(k == 3 && !strcmp(x, "lattice"));
			G.lat[b].push_back(G.lat[a].back());
		} else {
			fprintf(stderr, "dpns3: %s: bad line: %s", file, line);
			fclose(f);
			return EXIT_USAGE;
		}
	}
	fclose(f);
	if (G.routing != "ecmp" && G.routing != "ksp" &&
	    G.routing != "greedy")
		return bad_usage("%s", "--graph: routing ecmp, ksp or greedy");
	if (G.name.empty())
		G.name = G.routing;
	for (a = 0; a < G.n; a++) {
		G.first.push_back(e);
		for (b = 0; b < G.hosts[a]; b++)
			G.epnode.push_back(a);
		e += G.hosts[a];
		G.nports = std::max(G.nports, (u32)G.adj[a].size());
	}
	if (e < 2)
		return bad_usage("%s", "--graph: fewer than two hosts");
	for (a = 0; a < G.n; a++) {
		G.dist.push_back(graph_bfs(a, G.routing == "greedy"));
		for (b = 0; b < G.n; b++)
			if (G.dist[a][b] == 0xffff)
				return bad_usage("%s", "--graph: not connected "
						 "(greedy: by lattice links)");
	}
	G.on = true;
	return 0;
}

/* A shortest path from @s to @t avoiding the nodes and links marked. */
static bool graph_path(u32 s, u32 t, const std::vector<u8> &gone,
		       const std::set<u64> &cut, std::vector<u32> *path)
{
	std::vector<u32> from(G.n, DP_NODE_NONE), q(1, s);

	from[s] = s;
	for (size_t i = 0; i < q.size() && from[t] == DP_NODE_NONE; i++) {
		u32 a = q[i];

		for (u32 b : G.adj[a]) {
			if (from[b] != DP_NODE_NONE || gone[b] ||
			    cut.count((u64)a << 32 | b))
				continue;
			from[b] = a;
			q.push_back(b);
		}
	}
	if (from[t] == DP_NODE_NONE)
		return false;
	path->clear();
	for (u32 v = t; v != s; v = from[v])
		path->push_back(v);
	path->push_back(s);
	std::reverse(path->begin(), path->end());
	return true;
}

/* Yen's k shortest loopless paths, shortest first (ties: BFS order). */
static const std::vector<std::vector<u32>> &graph_ksp(u32 s, u32 t)
{
	u64 key = (u64)s << 32 | t;
	auto it = G.ksp.find(key);

	if (it != G.ksp.end())
		return it->second;
	std::vector<std::vector<u32>> A;
	std::set<std::pair<size_t, std::vector<u32>>> B;
	std::vector<u8> gone(G.n);
	std::vector<u32> p;
	std::set<u64> none;

	graph_path(s, t, gone, none, &p);
	A.push_back(p);
	while (A.size() < GRAPH_KSP) {
		const std::vector<u32> prev = A.back();

		for (size_t i = 0; i + 1 < prev.size(); i++) {
			std::vector<u32> root(prev.begin(),
					      prev.begin() + i + 1);
			std::set<u64> cut;

			for (const auto &q : A)
				if (q.size() > i + 1 &&
				    std::equal(root.begin(), root.end(),
					       q.begin()))
					cut.insert((u64)q[i] << 32 | q[i + 1]);
			std::fill(gone.begin(), gone.end(), 0);
			for (size_t j = 0; j < i; j++)
				gone[root[j]] = 1;
			if (!graph_path(prev[i], t, gone, cut, &p))
				continue;
			root.pop_back();
			root.insert(root.end(), p.begin(), p.end());
			if (std::find(A.begin(), A.end(), root) == A.end())
				B.insert({ root.size(), root });
		}
		if (B.empty())
			break;
		A.push_back(B.begin()->second);
		B.erase(B.begin());
	}
	return G.ksp.emplace(key, A).first->second;
}

/*
 * The port toward the next node of a packet at @self for node @dst:
 * @src the node the packet entered the fabric at, @hash its flow hash,
 * @sub its subflow.  -1: none (not seen: the graph is connected).
 */
static int graph_hop(u32 self, u32 src, u32 dst, u32 hash, u32 sub)
{
	std::vector<u32> near;
	u32 p, best;

	if (G.routing == "ksp") {
		const auto &ps = graph_ksp(src, dst);
		const std::vector<u32> &path = ps[sub % ps.size()];

		for (size_t i = 0; i + 1 < path.size(); i++)
			if (path[i] == self)
				for (p = 0; p < G.adj[self].size(); p++)
					if (G.adj[self][p] == path[i + 1])
						return (int)p;
		return -1;
	}
	for (p = 0; p < G.adj[self].size(); p++) {
		u32 b = G.adj[self][p];

		if (G.routing == "ecmp" &&
		    G.dist[b][dst] + 1 == G.dist[self][dst])
			near.push_back(p);
		if (G.routing == "greedy" && G.dist[b][dst] < G.dist[self][dst])
			near.push_back(p);
	}
	if (near.empty())
		return -1;
	/* ECMP: every switch hashes (its own seed); greedy: the source. */
	if (G.routing == "ecmp")
		return (int)near[dp_fmix32(hash ^ (self * 0x9e3779b9U)) %
				 near.size()];
	if (self == src)
		return (int)near[hash % near.size()];
	best = near[0];
	for (u32 q : near)
		if (G.dist[G.adj[self][q]][dst] <
		    G.dist[G.adj[self][best]][dst])
			best = q;
	return (int)best;
}

static Ipv4Address node_addr(u32 id)
{
	return Ipv4Address(0x0a000001U + id);	/* 10.0.0.1 + id */
}

static bool addr_node(Ipv4Address a, u32 *id)
{
	u32 v = a.Get() - 0x0a000001U;

	if (a.Get() < 0x0a000001U ||
	    (G.on ? v >= G.n : !dp_addr_valid(&F.t, v)))
		return false;
	*id = v;
	return true;
}

static std::string addr_text(u32 id)
{
	char buf[DP_ADDR_TEXT_MAX];

	if (G.on)
		return std::to_string(id);
	dp_addr_format(&F.t, id, buf, sizeof(buf));
	return buf;
}

/*
 * The traffic's endpoints: the servers themselves, or with --hosts the
 * hosts behind them (endpoint e is host e % H of server e / H, at
 * 11.0.0.1 + e: a /8 of their own, so a server tells them from servers).
 */
#define HOST_ADDR_BASE	0x0b000001U

static u32 ep_count(void)
{
	if (G.on)
		return (u32)G.epnode.size();
	return F.hosts ? F.t.nodes * F.hosts : F.t.nodes;
}

static u32 ep_node(u32 e)
{
	if (G.on)
		return G.epnode[e];
	return F.hosts ? e / F.hosts : e;
}

static Ipv4Address ep_addr(u32 e)
{
	return F.hosts ? Ipv4Address(HOST_ADDR_BASE + e) : node_addr(e);
}

static bool addr_ep(Ipv4Address a, u32 *e)
{
	if (!F.hosts)
		return addr_node(a, e);
	if (a.Get() < HOST_ADDR_BASE || a.Get() - HOST_ADDR_BASE >= ep_count())
		return false;
	*e = a.Get() - HOST_ADDR_BASE;
	return true;
}

/* A host is SERVER@INDEX: '/' and ':' are taken by addresses and ports. */
static std::string ep_text(u32 e)
{
	if (!F.hosts)
		return addr_text(e);
	return addr_text(ep_node(e)) + "@" +
	       std::to_string(G.on ? e - G.first[ep_node(e)] : e % F.hosts);
}

/* A failed server (never, with --graph: no failures there). */
static bool node_failed(u32 id)
{
	return !G.on && dp_fail_node(&F.fs, id);
}

/* The subflow of a TCP connection: its sink port's (make_conns()). */
static u32 packet_sub(Ptr<const Packet> p, const Ipv4Header &header)
{
	TcpHeader th;
	u32 lo = SINK_PORT_BASE, hi = SINK_PORT_BASE + ep_count() * G.subflows;
	u32 port;

	if (!p || header.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
		return 0;
	p->PeekHeader(th);
	port = th.GetDestinationPort();
	if (port < lo || port >= hi)
		port = th.GetSourcePort();
	return port >= lo && port < hi ? (port - lo) % G.subflows : 0;
}

/*
 * The flow hash of a packet the source sends.  The module uses the
 * kernel's skb_get_hash(); ns-3 has none, so a mix of the same five-tuple
 * (murmur3's finaliser, the core's dp_fmix32()).  Only its spread
 * matters: dpsim route --hash takes the value.
 */
static u32 flow_hash(u32 saddr, u32 daddr, u8 proto, u16 sport, u16 dport)
{
	u32 h = dp_fmix32(saddr ^ 0x9e3779b9U);

	h = dp_fmix32(h ^ daddr);
	h = dp_fmix32(h ^ ((u32)sport << 16 | dport));
	return dp_fmix32(h ^ proto);
}

/* flow_hash() of packet @p (nullptr: a socket choosing its source). */
static u32 packet_hash(Ptr<const Packet> p, const Ipv4Header &header,
		       Ipv4Address src)
{
	u16 sport = 0, dport = 0;

	if (p && header.GetProtocol() == TcpL4Protocol::PROT_NUMBER) {
		TcpHeader th;

		p->PeekHeader(th);
		sport = th.GetSourcePort();
		dport = th.GetDestinationPort();
	}
	return flow_hash(src.Get(), header.GetDestination().Get(),
			 header.GetProtocol(), sport, dport);
}

/*
 * How long a switch or a relaying server waits before it queues a frame:
 * up to a tenth of a frame's transmission time by default.  Without it
 * every event of the simulation falls on the same grid (equal links,
 * equal frames) and drop-tail queues lock some flows out for good,
 * always the same ones (Floyd and Jacobson's phase effects); a real
 * switch's or server's processing time varies that much and more.  Too
 * short to reorder a flow's frames, which are a frame time apart.
 */
static double fwd_delay(void)
{
	return F.jitter > 0 ? F.rv->GetValue(0, F.jitter) : 0;
}

/* The routing protocol of every server: each hop from the routing core. */
class DpRouting : public Ipv4RoutingProtocol {
public:
	static TypeId GetTypeId();
	void SetSelf(u32 id) { m_self = id; }
	void SetHost(u32 ep) { m_self = ep; m_host = true; }

	Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p, const Ipv4Header &header,
				   Ptr<NetDevice> oif,
				   Socket::SocketErrno &err) override;
	bool RouteInput(Ptr<const Packet> p, const Ipv4Header &header,
			Ptr<const NetDevice> idev,
			UnicastForwardCallback ucb,
			MulticastForwardCallback mcb,
			LocalDeliverCallback lcb,
			ErrorCallback ecb) override;
	void NotifyInterfaceUp(uint32_t) override {}
	void NotifyInterfaceDown(uint32_t) override {}
	void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override {}
	void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override {}
	void SetIpv4(Ptr<Ipv4> ipv4) override { m_ipv4 = ipv4; }
	void PrintRoutingTable(Ptr<OutputStreamWrapper>,
			       Time::Unit) const override {}

private:
	Ptr<Ipv4Route> Hop(Ipv4Address dst, DpTag &tag);
	Ptr<Ipv4Route> HostOutput(Ptr<Packet> p, const Ipv4Header &header,
				  Socket::SocketErrno &err);

	Ptr<Ipv4> m_ipv4;
	u32 m_self = DP_NODE_NONE;	/* server id, or endpoint if m_host */
	bool m_host = false;
};

NS_OBJECT_ENSURE_REGISTERED(DpRouting);

TypeId DpRouting::GetTypeId()
{
	static TypeId tid = TypeId("DpRouting")
		.SetParent<Ipv4RoutingProtocol>()
		.AddConstructor<DpRouting>();
	return tid;
}

/*
 * dp_route(), remembered per (server, state before): the decision is a
 * function of them while the failures and the view stay as they are
 * (all run long).  S2 derives a node's coordinates from the seed at
 * every call (topo_s2.c: no tables, as in the kernel), three quarters of
 * the CPU of a run at 24 nodes without this.  At most one entry per
 * connection, direction and hop (32,000 for 4,000 connections of 4
 * hops), as a state carries its flow hash.  The paths stay the walker's
 * (checked: paths_equal_walk).
 */
struct HopMemo {
	int err;
	struct dp_hop hop;
	struct dp_route_state st;
};

static std::unordered_map<std::string, HopMemo> hop_memo;

static int route_memo(u32 self, struct dp_route_state *st,
		      struct dp_hop *hop)
{
	std::string key((const char *)&self, sizeof(self));
	HopMemo m;

	key.append((const char *)st, sizeof(*st));
	auto it = hop_memo.find(key);
	if (it != hop_memo.end()) {
		*hop = it->second.hop;
		*st = it->second.st;
		return it->second.err;
	}
	m.err = dp_route(&F.t, self, st, &F.view, hop);
	m.hop = *hop;
	m.st = *st;
	hop_memo.emplace(key, m);
	return m.err;
}

/* One dp_route() from this server: the route, or nullptr (counted). */
Ptr<Ipv4Route> DpRouting::Hop(Ipv4Address dst, DpTag &tag)
{
	struct dp_hop hop;
	Ptr<Ipv4Route> rt;

	if (G.on) {
		u32 dn;
		int p;

		if (!addr_ep(dst, &dn))
			return nullptr;
		p = graph_hop(m_self, tag.path[0], ep_node(dn), tag.hash,
			      tag.sub);
		if (p < 0) {
			F.drops_route[0]++;
			return nullptr;
		}
		hop.port = (u32)p;
		hop.next = G.adj[m_self][p];
	} else if (route_memo(m_self, &tag.st, &hop)) {
		F.drops_route[hop.reason < DP_DROP_MAX ? hop.reason : 0]++;
		return nullptr;
	}
	if (hop.port >= F.dev[m_self].size() || !F.dev[m_self][hop.port]) {
		F.drops_switch++;
		return nullptr;
	}
	tag.next = hop.next;
	rt = Create<Ipv4Route>();
	rt->SetDestination(dst);
	rt->SetSource(node_addr(m_self));
	rt->SetGateway(node_addr(hop.next));
	rt->SetOutputDevice(F.dev[m_self][hop.port]);
	return rt;
}

/*
 * A packet this server sends (or, without a packet, a socket choosing its
 * source address): a new routing state from the flow hash, the first hop.
 */
Ptr<Ipv4Route> DpRouting::RouteOutput(Ptr<Packet> p, const Ipv4Header &header,
				      Ptr<NetDevice>, Socket::SocketErrno &err)
{
	Ptr<Ipv4Route> rt;
	DpTag tag;
	u32 dst;

	if (m_host)
		return HostOutput(p, header, err);
	if (G.on || !addr_node(header.GetDestination(), &dst) ||
	    dst == m_self || dp_fail_node(&F.fs, m_self)) {
		err = Socket::ERROR_NOROUTETOHOST;
		return nullptr;
	}
	tag.hash = packet_hash(p, header, node_addr(m_self));
	dp_route_init(&F.t, m_self, dst, F.sel, tag.hash, &tag.st);
	tag_visit(tag, m_self);
	rt = Hop(header.GetDestination(), tag);
	if (!rt) {
		err = Socket::ERROR_NOROUTETOHOST;
		return nullptr;
	}
	if (p) {
		DpTag old;

		p->RemovePacketTag(old);
		p->AddPacketTag(tag);
	}
	err = Socket::ERROR_NOTERROR;
	return rt;
}

/*
 * A host's packet: up its one link to its server, tagged with the flow
 * hash of its five-tuple and no routing state yet (no server visited):
 * the server starts the route as a source server would (RouteInput).
 */
Ptr<Ipv4Route> DpRouting::HostOutput(Ptr<Packet> p, const Ipv4Header &header,
				     Socket::SocketErrno &err)
{
	Ptr<Ipv4Route> rt;
	DpTag tag, old;
	u32 dst;

	if (!addr_ep(header.GetDestination(), &dst) || dst == m_self) {
		err = Socket::ERROR_NOROUTETOHOST;
		return nullptr;
	}
	tag.hash = packet_hash(p, header, ep_addr(m_self));
	tag.sub = G.on ? packet_sub(p, header) : 0;
	tag.next = ep_node(m_self);
	rt = Create<Ipv4Route>();
	rt->SetDestination(header.GetDestination());
	rt->SetSource(ep_addr(m_self));
	rt->SetGateway(node_addr(ep_node(m_self)));
	rt->SetOutputDevice(F.hostdev[m_self]);
	if (p) {
		p->RemovePacketTag(old);
		p->AddPacketTag(tag);
	}
	err = Socket::ERROR_NOTERROR;
	return rt;
}

/*
 * The path of a connection's data packet arriving at endpoint @ep (of
 * server @self), under its sink port: several connections (--paths,
 * --hosts) may join one pair of servers.
 */
static void record_path(Ptr<const Packet> p, const DpTag &tag, u32 self,
			u32 ep)
{
	std::vector<u32> path;
	TcpHeader th;
	PathRec *r;
	u32 i;

	p->PeekHeader(th);
	if (p->GetSize() <= th.GetSerializedSize() || !tag.npath)
		return;		/* a pure ACK: the reverse flow's */
	for (i = 0; i < std::min(tag.npath, (u32)TAG_PATH_MAX); i++)
		path.push_back(tag.path[i]);
	path.push_back(self);
	r = &F.paths[(u64)ep << 32 | th.GetDestinationPort()];
	if (r->path.empty()) {
		r->path = path;
		r->hash = tag.hash;
		r->truncated = tag.npath > TAG_PATH_MAX;
	} else if (r->path != path) {
		r->changes++;
	}
}

static void relay_send(Ipv4RoutingProtocol::UnicastForwardCallback ucb,
		       Ptr<Ipv4Route> rt, Ptr<const Packet> p, Ipv4Header h)
{
	ucb(rt, p, h);
}

bool DpRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header &header,
			   Ptr<const NetDevice> idev,
			   UnicastForwardCallback ucb,
			   MulticastForwardCallback ,
			   LocalDeliverCallback lcb,
			   ErrorCallback )
{
	Ptr<Ipv4Route> rt;
	Ptr<Packet> q;
	DpTag tag, old;
	bool tagged = p->PeekPacketTag(tag);

	u32 dep;

	if (m_host) {
		if (header.GetDestination() != ep_addr(m_self))
			return false;
		if (tagged && header.GetProtocol() == TcpL4Protocol::PROT_NUMBER)
			record_path(p, tag, ep_node(m_self), m_self);
		lcb(p, header, m_ipv4->GetInterfaceForDevice(idev));
		return true;
	}
	if (node_failed(m_self)) {
		F.drops_failed++;
		return false;
	}
	if (!F.hosts && header.GetDestination() == node_addr(m_self)) {
		if (tagged && header.GetProtocol() == TcpL4Protocol::PROT_NUMBER)
			record_path(p, tag, m_self, m_self);
		lcb(p, header, m_ipv4->GetInterfaceForDevice(idev));
		return true;
	}
	if (!tagged) {
		F.no_tag++;
		return false;
	}
	if (F.hosts) {
		if (!addr_ep(header.GetDestination(), &dep))
			return false;
		if (ep_node(dep) == m_self) {
			/* Down to the host: the tag keeps the path. */
			rt = Create<Ipv4Route>();
			rt->SetDestination(header.GetDestination());
			rt->SetSource(node_addr(m_self));
			rt->SetGateway(ep_addr(dep));
			rt->SetOutputDevice(F.hostup[dep]);
			Simulator::Schedule(Seconds(fwd_delay()), &relay_send,
					    ucb, rt, p->Copy(), header);
			return true;
		}
		/* From a host of ours: the source server's dp_route_init(). */
		if (!tag.npath && !G.on)
			dp_route_init(&F.t, m_self, ep_node(dep), F.sel,
				      tag.hash, &tag.st);
	}
	tag_visit(tag, m_self);
	rt = Hop(header.GetDestination(), tag);
	if (!rt)
		return false;
	q = p->Copy();
	q->RemovePacketTag(old);
	q->AddPacketTag(tag);
	if (F.jitter > 0)
		Simulator::Schedule(Seconds(fwd_delay()), &relay_send, ucb,
				    rt, q, header);
	else
		ucb(rt, q, header);
	return true;
}

/* What InternetStackHelper installs on every server. */
class DpRoutingHelper : public Ipv4RoutingHelper {
public:
	DpRoutingHelper *Copy() const override
	{
		return new DpRoutingHelper(*this);
	}
	Ptr<Ipv4RoutingProtocol> Create(Ptr<Node>) const override
	{
		return ns3::Create<DpRouting>();
	}
};

/*
 * A switch: the frame goes out of the port toward the server its tag
 * names (a real switch learns that from the destination MAC address; a
 * dumb switch has nothing else to decide).
 */
static void switch_send(Ptr<NetDevice> d, Ptr<Packet> p, uint16_t proto)
{
	d->Send(p, d->GetBroadcast(), proto);
}

static void switch_rx(u32 sw, Ptr<NetDevice>, Ptr<const Packet> p,
		      uint16_t proto, const Address &, const Address &,
		      NetDevice::PacketType)
{
	DpTag tag;
	std::map<u32, Ptr<NetDevice>>::iterator it;

	if (!p->PeekPacketTag(tag)) {
		F.no_tag++;
		return;
	}
	it = F.swdev[sw].find(tag.next);
	if (it == F.swdev[sw].end()) {
		F.drops_switch++;
		return;
	}
	if (F.jitter > 0)
		Simulator::Schedule(Seconds(fwd_delay()), &switch_send,
				    it->second, p->Copy(), proto);
	else
		switch_send(it->second, p->Copy(), proto);
}

struct Opts {
	struct dp_topo_params p = {};
	const char *topo = nullptr;
	const char *mode = nullptr;
	bool all = false;
	std::string rate = "1Gbps";
	std::string delay = "1us";
	std::string min_rto = "10ms";
	std::string del_ack = "1ms";
	double jitter = 0.1;
	u32 queue = 100;
	double time = 0.5;
	double warmup = -1;
	u64 bytes = 0;
	const char *fail = nullptr;
	std::vector<std::string> pairs;	/* --pair SRC,DST */
	u32 failed = 0, fail_links = 0;
	u32 hosts = 0, paths = 1, endpoints = 0;
	const char *graph = nullptr;
	u64 seed = 1;
	bool json = false;
	bool flows = false;
};

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "dpns3: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_text);
	return EXIT_USAGE;
}

/* A number that is all of @s (strtod's syntax), at least @min. */
static bool parse_num(const char *s, double min, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !errno && end != s && !*end && *v >= min;
}

static bool parse_dec_u32(const char *s, u32 *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || end == s || *end || x > 0xffffffffUL)
		return false;
	*v = (u32)x;
	return true;
}

static int parse_opts(int argc, char **argv, Opts *o)
{
	static const struct option longopts[] = {
		{ "topo", required_argument, nullptr, 't' },
		{ "level", required_argument, nullptr, 'i' },
		{ "nodes", required_argument, nullptr, 'N' },
		{ "spaces", required_argument, nullptr, 'L' },
		{ "s2-seed", required_argument, nullptr, 'Z' },
		{ "mode", required_argument, nullptr, 'm' },
		{ "traffic", required_argument, nullptr, 'T' },
		{ "rate", required_argument, nullptr, 'r' },
		{ "delay", required_argument, nullptr, 'd' },
		{ "min-rto", required_argument, nullptr, 'R' },
		{ "del-ack", required_argument, nullptr, 'A' },
		{ "jitter", required_argument, nullptr, 'J' },
		{ "queue", required_argument, nullptr, 'q' },
		{ "time", required_argument, nullptr, 's' },
		{ "warmup", required_argument, nullptr, 'w' },
		{ "bytes", required_argument, nullptr, 'b' },
		{ "fail", required_argument, nullptr, 'f' },
		{ "pair", required_argument, nullptr, 'p' },
		{ "failed", required_argument, nullptr, 'F' },
		{ "fail-links", required_argument, nullptr, 'l' },
		{ "seed", required_argument, nullptr, 'S' },
		{ "json", no_argument, nullptr, 'j' },
		{ "flows", no_argument, nullptr, 'P' },
		{ "hosts", required_argument, nullptr, 'H' },
		{ "paths", required_argument, nullptr, 'K' },
		{ "endpoints", required_argument, nullptr, 'E' },
		{ "graph", required_argument, nullptr, 'G' },
		{ "help", no_argument, nullptr, 'h' },
	};
	/*
	 * Every other word of DP_PARAM_LIST (net/dpillar/params.h) as
	 * --WORD V into the fabric's parameters, the list's range checked:
	 * a parameter added to the list needs no line here.  Not -n and -k
	 * (above), not seed (--s2-seed: --seed is the traffic's), not the
	 * coordinates (S2's plan mode, which dpns3 does not build).
	 */
	std::vector<struct option> lo(std::begin(longopts),
				      std::end(longopts));
	const int param_opt = 1000;
	double x;
	u32 v, i;
	int c;

	for (i = 0; i < DP_PARAM_COUNT; i++) {
		const struct dp_param *d = &dp_params[i];
		bool have = !strcmp(d->name, "n") || !strcmp(d->name, "k") ||
			    !strcmp(d->name, "seed") ||
			    (d->flags & DP_PARAM_COORDS);

		for (const struct option &l : longopts)
			have |= !strcmp(l.name, d->name);
		if (!have)
			lo.push_back({ d->name, required_argument, nullptr,
				       param_opt + (int)i });
	}
	lo.push_back({ nullptr, 0, nullptr, 0 });
	while ((c = getopt_long(argc, argv, "n:k:i:jh", lo.data(),
				nullptr)) != -1) {
		if (c >= param_opt) {
			const struct dp_param *d = &dp_params[c - param_opt];
			char why[96];

			if (!dp_param_set(d, optarg, &o->p))
				continue;
			snprintf(why, sizeof(why), "bad --%s '%s' (%u..%u)",
				 d->name, optarg, d->min, d->max);
			return bad_usage("%s", why);
		}
		switch (c) {
		case 't': o->topo = optarg; break;
		case 'm': o->mode = optarg; break;
		case 'r': o->rate = optarg; break;
		case 'd': o->delay = optarg; break;
		case 'R': o->min_rto = optarg; break;
		case 'A': o->del_ack = optarg; break;
		case 'J':
			if (!parse_num(optarg, 0, &o->jitter) || o->jitter > 1)
				return bad_usage("bad --jitter '%s'", optarg);
			break;
		case 'f': o->fail = optarg; break;
		case 'G': o->graph = optarg; break;
		case 'p': o->pairs.push_back(optarg); break;
		case 'j': o->json = true; break;
		case 'P': o->flows = true; break;
		case 'T':
			if (!strcmp(optarg, "all"))
				o->all = true;
			else if (strcmp(optarg, "perm"))
				return bad_usage("bad --traffic '%s'", optarg);
			break;
		case 's':
		case 'w':
			if (!parse_num(optarg, 0, c == 's' ? &o->time :
				       &o->warmup) || (c == 's' && o->time <= 0))
				return bad_usage("bad time '%s'", optarg);
			break;
		case 'b':
			if (!parse_num(optarg, 0, &x) || x != (double)(u64)x)
				return bad_usage("bad --bytes '%s'", optarg);
			o->bytes = (u64)x;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case '?':
			return bad_usage("%s", "bad option");
		default:
			if (!parse_dec_u32(optarg, &v))
				return bad_usage("bad number '%s'", optarg);
			switch (c) {
			case 'n': o->p.n = v; break;
			case 'k': o->p.k = v; break;
			case 'i': o->p.level = v; break;
			case 'N': o->p.nodes = v; break;
			case 'L': o->p.spaces = v; break;
			case 'Z': o->p.seed = v; break;
			case 'q': o->queue = v; break;
			case 'F': o->failed = v; break;
			case 'l': o->fail_links = v; break;
			case 'S': o->seed = v; break;
			case 'H': o->hosts = v; break;
			case 'K': o->paths = v; break;
			case 'E': o->endpoints = v; break;
			}
		}
	}
	if (optind < argc)
		return bad_usage("unexpected '%s'", argv[optind]);
	if (!o->topo == !o->graph)
		return bad_usage("%s", "--topo or --graph is required");
	if (o->graph && (o->fail || o->failed || o->fail_links ||
			 o->hosts || o->endpoints || o->mode))
		return bad_usage("%s", "--graph: its own hosts, no failures");
	if (o->graph && !o->pairs.empty())
		return bad_usage("%s", "--graph: no --pair");
	if (o->endpoints && !o->hosts)
		return bad_usage("%s", "--endpoints needs --hosts");
	if (o->warmup < 0)
		o->warmup = o->time / 5;
	if (o->warmup >= o->time)
		return bad_usage("%s", "--warmup must be below --time");
	if (!o->paths || o->paths > 64)
		return bad_usage("%s", "--paths must be 1 to 64");
	if (o->hosts > 64)
		return bad_usage("%s", "--hosts must be at most 64");
	if (o->bytes && o->bytes < o->paths)
		return bad_usage("%s", "--bytes below --paths");
	if (o->hosts && !o->pairs.empty())
		return bad_usage("%s", "--pair names servers: not with --hosts");
	return 0;
}

/* --fail ADDR[/PORT],...: as dpsim route's. */
static int parse_fail(const char *spec)
{
	std::string list = spec, tok;
	size_t pos = 0, comma, slash;
	const char *why = "";
	u32 id, port;

	while (pos <= list.size()) {
		comma = list.find(',', pos);
		if (comma == std::string::npos)
			comma = list.size();
		tok = list.substr(pos, comma - pos);
		pos = comma + 1;
		slash = tok.find('/');
		port = DP_NODE_NONE;
		if (slash != std::string::npos) {
			if (!parse_dec_u32(tok.c_str() + slash + 1, &port) ||
			    port >= F.t.nports)
				return bad_usage("bad port in --fail '%s'", spec);
			tok.resize(slash);
		}
		if (dp_addr_parse(&F.t, tok.c_str(), &id, &why)) {
			fprintf(stderr, "dpns3: %s: %s\n", tok.c_str(), why);
			return EXIT_USAGE;
		}
		if (port == DP_NODE_NONE)
			dp_fail_set_node(&F.fs, id);
		else
			dp_fail_set_link(&F.fs, id, port);
	}
	return 0;
}

/* A receive error model that drops everything: a dead end of a link. */
static void kill_device(Ptr<NetDevice> d)
{
	Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();

	em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
	em->SetRate(1.0);
	d->SetAttribute("ReceiveErrorModel", PointerValue(em));
}

/* --graph's nodes and links (its nodes have no switches). */
static void build_graph(PointToPointHelper &p2p)
{
	InternetStackHelper stack;
	DpRoutingHelper rh;
	u32 a, p;

	F.server.resize(G.n);
	F.dev.resize(G.n);
	stack.SetRoutingHelper(rh);
	for (a = 0; a < G.n; a++) {
		F.server[a] = CreateObject<Node>();
		stack.Install(F.server[a]);
		F.dev[a].resize(G.adj[a].size());
	}
	for (a = 0; a < G.n; a++)
		for (p = 0; p < G.adj[a].size(); p++) {
			u32 b = G.adj[a][p], q;
			NetDeviceContainer link;

			if (b < a)
				continue;	/* made from its end */
			/* b's port back to a: the first not yet made. */
			for (q = 0; q < G.adj[b].size(); q++)
				if (G.adj[b][q] == a && !F.dev[b][q])
					break;
			link = p2p.Install(F.server[a], F.server[b]);
			F.dev[a][p] = link.Get(0);
			F.dev[b][q] = link.Get(1);
		}
}

/* Nodes, links, addresses; failed elements drop what reaches them. */
static void build_fabric(const Opts &o)
{
	PointToPointHelper p2p;
	InternetStackHelper stack;
	DpRoutingHelper rh;
	struct dp_port_info pi;
	u32 id, port, peer, i;
	int pp;

	p2p.SetDeviceAttribute("DataRate", StringValue(o.rate));
	p2p.SetChannelAttribute("Delay", StringValue(o.delay));
	p2p.SetQueue("ns3::DropTailQueue", "MaxSize",
		     StringValue(std::to_string(o.queue) + "p"));
	stack.SetRoutingHelper(rh);
	if (G.on) {
		build_graph(p2p);
		goto hosts;
	}
	F.server.resize(F.t.nodes);
	F.dev.assign(F.t.nodes, std::vector<Ptr<NetDevice>>(F.t.nports));
	F.sw.resize(F.t.switches);
	F.swdev.resize(F.t.switches);
	for (id = 0; id < F.t.nodes; id++)
		F.server[id] = CreateObject<Node>();
	for (i = 0; i < F.t.switches; i++)
		F.sw[i] = CreateObject<Node>();
	for (id = 0; id < F.t.nodes; id++)
		stack.Install(F.server[id]);
	for (id = 0; id < F.t.nodes; id++) {
		for (port = 0; port < F.t.nports; port++) {
			NetDeviceContainer link;
			bool dead;

			dp_port_info(&F.t, id, port, &pi);
			dead = dp_fail_node(&F.fs, id) ||
			       dp_fail_link(&F.fs, id, port);
			if (pi.kind == DP_PORT_SWITCH && pi.sw < F.t.switches) {
				link = p2p.Install(F.server[id], F.sw[pi.sw]);
				F.swdev[pi.sw][id] = link.Get(1);
				F.sw[pi.sw]->RegisterProtocolHandler(
					MakeBoundCallback(&switch_rx, pi.sw),
					0, link.Get(1));
			} else if (pi.kind == DP_PORT_CABLE && pi.nneigh) {
				peer = dp_port_neigh(&F.t, id, port, 0);
				if (!dp_addr_valid(&F.t, peer) || peer < id)
					continue;	/* made from its end */
				pp = dp_peer_port(&F.t, id, port, peer);
				if (pp < 0 || (u32)pp >= F.t.nports)
					continue;
				link = p2p.Install(F.server[id],
						   F.server[peer]);
				F.dev[peer][pp] = link.Get(1);
				dead = dead || dp_fail_node(&F.fs, peer) ||
				       dp_fail_link(&F.fs, peer, (u32)pp);
			} else {
				continue;
			}
			F.dev[id][port] = link.Get(0);
			if (dead) {
				kill_device(link.Get(0));
				kill_device(link.Get(1));
			}
		}
	}
hosts:
	/* Hosts: each on a link of its own to its server. */
	F.host.resize(F.hosts ? ep_count() : 0);
	F.hostdev.resize(F.host.size());
	F.hostup.resize(F.host.size());
	for (id = 0; id < F.host.size(); id++) {
		NetDeviceContainer link;
		Ptr<Ipv4> ip;
		int32_t ifi;

		F.host[id] = CreateObject<Node>();
		stack.Install(F.host[id]);
		link = p2p.Install(F.host[id], F.server[ep_node(id)]);
		F.hostdev[id] = link.Get(0);
		F.hostup[id] = link.Get(1);
		ip = F.host[id]->GetObject<Ipv4>();
		DynamicCast<DpRouting>(ip->GetRoutingProtocol())->SetHost(id);
		ifi = ip->AddInterface(link.Get(0));
		ip->AddAddress(ifi, Ipv4InterfaceAddress(ep_addr(id),
				Ipv4Mask("255.0.0.0")));
		ip->SetUp(ifi);
	}
	/* Every interface of a server carries its one address. */
	for (id = 0; id < F.server.size(); id++) {
		Ptr<Ipv4> ip = F.server[id]->GetObject<Ipv4>();

		DynamicCast<DpRouting>(ip->GetRoutingProtocol())->SetSelf(id);
		for (port = 0; port < F.dev[id].size(); port++) {
			int32_t ifi;

			if (!F.dev[id][port])
				continue;
			ifi = ip->AddInterface(F.dev[id][port]);
			ip->AddAddress(ifi, Ipv4InterfaceAddress(node_addr(id),
					Ipv4Mask("255.0.0.0")));
			ip->SetUp(ifi);
		}
		for (u32 h = 0; h < (G.on ? G.hosts[id] : F.hosts); h++) {
			int32_t ifi = ip->AddInterface(F.hostup[G.on ?
					G.first[id] + h : id * F.hosts + h]);

			ip->AddAddress(ifi, Ipv4InterfaceAddress(node_addr(id),
					Ipv4Mask("255.0.0.0")));
			ip->SetUp(ifi);
		}
	}
}

/* A flow: between two endpoints (servers, or hosts with --hosts). */
struct Flow {
	u32 src, dst;
};

/*
 * One TCP connection of a flow: a flow is --paths of them (the S2
 * paper's subflows), each with its own source port, so its own flow hash
 * and first hop; they start together and share the flow's bytes.
 */
struct Conn {
	u32 flow;		/* index in flows */
	u32 src, dst;		/* endpoints */
	u16 port;		/* the sink's: the connection's key */
	double start;
	u64 goal = 0;		/* bytes to send, 0: bulk */
	Ptr<PacketSink> sink;
	u64 rx = 0, rx_warm = 0;
	double done = -1;	/* when the last byte arrived (--bytes) */
};

static std::vector<Flow> flows;
static std::vector<Conn> conns;
static u32 conns_done;

static void on_rx(u32 i, Ptr<const Packet> p, const Address &)
{
	Conn &c = conns[i];

	c.rx += p->GetSize();
	if (c.goal && c.done < 0 && c.rx >= c.goal) {
		c.done = Simulator::Now().GetSeconds();
		if (++conns_done == conns.size())
			Simulator::Stop();
	}
}

static void on_warm(void)
{
	for (Conn &c : conns)
		c.rx_warm = c.rx;
}

/* --pair SRC,DST: one flow each. */
static int given_pairs(const Opts &o)
{
	const char *why = "";
	u32 s, d;

	for (const std::string &pr : o.pairs) {
		size_t comma = pr.find(',');

		if (comma == std::string::npos)
			return bad_usage("--pair '%s': SRC,DST", pr.c_str());
		if (dp_addr_parse(&F.t, pr.substr(0, comma).c_str(), &s, &why) ||
		    dp_addr_parse(&F.t, pr.substr(comma + 1).c_str(), &d, &why)) {
			fprintf(stderr, "dpns3: --pair %s: %s\n", pr.c_str(), why);
			return EXIT_USAGE;
		}
		if (s == d || dp_fail_node(&F.fs, s) || dp_fail_node(&F.fs, d))
			return bad_usage("--pair '%s': two live servers",
					 pr.c_str());
		for (const Flow &f : flows)
			if (f.src == s && f.dst == d)
				return bad_usage("--pair '%s' twice", pr.c_str());
		flows.push_back({ s, d });
	}
	return 0;
}

/*
 * Permutation (Sattolo: one cycle, so nobody sends to itself), all to
 * all, or the pairs given.
 */
static int make_pairs(const Opts &o, struct rng *r)
{
	std::vector<u32> live, to;
	u32 i, j;

	if (!o.pairs.empty())
		return given_pairs(o);
	for (i = 0; i < ep_count(); i++)
		if (!node_failed(ep_node(i)) && (!o.endpoints ||
		    (i % F.hosts) * F.t.nodes + i / F.hosts < o.endpoints))
			live.push_back(i);
	if (o.all) {
		for (u32 s : live)
			for (u32 d : live)
				if (s != d)
					flows.push_back({ s, d });
		return 0;
	}
	to = live;
	for (i = (u32)to.size() - 1; i > 0; i--) {
		j = rng_below(r, i);
		std::swap(to[i], to[j]);
	}
	for (i = 0; i < live.size(); i++)
		flows.push_back({ live[i], to[i] });
	return 0;
}

/* Each flow's --paths connections, --bytes split among them. */
static int make_conns(const Opts &o, struct rng *r)
{
	u32 i, j;

	if ((u64)ep_count() * o.paths + SINK_PORT_BASE > 65536)
		return bad_usage("%s", "too many endpoints x --paths for the "
				 "sink ports");
	for (i = 0; i < flows.size(); i++) {
		/* Start within the first millisecond: no synchronised SYNs. */
		double start = (double)(rng_next(r) >> 11) /
			       9007199254740992.0 * 1e-3;

		for (j = 0; j < o.paths; j++) {
			Conn c;

			c.flow = i;
			c.src = flows[i].src;
			c.dst = flows[i].dst;
			c.port = (u16)(SINK_PORT_BASE + c.src * o.paths + j);
			c.start = start;
			c.goal = o.bytes / o.paths +
				 (j < o.bytes % o.paths ? 1 : 0);
			conns.push_back(c);
		}
	}
	return 0;
}

static Ptr<Node> ep_node_ptr(u32 e)
{
	return F.hosts ? F.host[e] : F.server[e];
}

static void install_apps(const Opts &o)
{
	u32 i;

	for (i = 0; i < conns.size(); i++) {
		Conn &c = conns[i];
		Address to = InetSocketAddress(ep_addr(c.dst), c.port);
		PacketSinkHelper sh("ns3::TcpSocketFactory",
				    InetSocketAddress(Ipv4Address::GetAny(),
						      c.port));
		BulkSendHelper bh("ns3::TcpSocketFactory", to);
		ApplicationContainer a;

		a = sh.Install(ep_node_ptr(c.dst));
		c.sink = DynamicCast<PacketSink>(a.Get(0));
		c.sink->TraceConnectWithoutContext("Rx",
						   MakeBoundCallback(&on_rx, i));
		a.Start(Seconds(0));
		bh.SetAttribute("MaxBytes", UintegerValue(c.goal));
		bh.SetAttribute("SendSize", UintegerValue(14480));
		a = bh.Install(ep_node_ptr(c.src));
		a.Start(Seconds(c.start));
		a.Stop(Seconds(o.time));
	}
}

/* The port of @a whose switch or cable reaches @b, or -1. */
static int port_to(u32 a, u32 b)
{
	u32 p;

	if (G.on) {
		for (p = 0; p < G.adj[a].size(); p++)
			if (G.adj[a][p] == b)
				return (int)p;
		return -1;
	}
	for (p = 0; p < F.t.nports; p++)
		if (F.dev[a][p] && dp_port_neigh_index(&F.t, a, p, b) >= 0)
			return (int)p;
	return -1;
}

/*
 * The most flows that cross one directed link (server to switch, switch
 * to server, a cable's direction), from the paths the data took: under
 * max-min fair sharing the slowest flow gets rate / that, so the ABT is
 * flows * rate / that (the fluid value the measured ABT is held to).
 */
static u32 max_link_load(void)
{
	std::map<u64, u32> load;
	u32 most = 0;
	int p, pp;

	for (auto &kv : F.paths) {
		const std::vector<u32> &path = kv.second.path;

		for (size_t i = 0; i + 1 < path.size(); i++) {
			struct dp_port_info pi;
			u64 key;

			p = port_to(path[i], path[i + 1]);
			if (p < 0)
				continue;
			key = ((u64)path[i] * 256 + (u32)p) * 2;
			most = std::max(most, ++load[key]);
			if (G.on)
				continue;
			dp_port_info(&F.t, path[i], (u32)p, &pi);
			if (pi.kind != DP_PORT_SWITCH)
				continue;
			pp = dp_peer_port(&F.t, path[i], (u32)p, path[i + 1]);
			key = ((u64)path[i + 1] * 256 + (u32)pp) * 2 + 1;
			most = std::max(most, ++load[key]);
		}
	}
	return most;
}

/*
 * Recorded paths that equal the walker's (topo_walk.c: dpsim's route
 * and pairs) for the same flow hash and failures: all of them, unless
 * the model routes differently from the core.
 */
static u32 paths_equal_walk(void)
{
	std::vector<u32> buf(F.t.max_hops + 2);
	struct dp_walk w;
	u32 same = 0;

	if (G.on)
		return 0;	/* not our core's routing */
	for (auto &kv : F.paths) {
		const PathRec &r = kv.second;

		memset(&w, 0, sizeof(w));
		w.path = buf.data();
		w.path_max = (u32)buf.size();
		dp_walk(&F.t, r.path.front(), r.path.back(), F.sel, r.hash,
			&F.fs, F.t.max_hops, &w);
		same += w.delivered && !r.truncated &&
			std::vector<u32>(buf.begin(), buf.begin() + w.path_len) ==
			r.path;
	}
	return same;
}

static double quantile(std::vector<double> v, double q)
{
	size_t i;

	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	i = (size_t)std::ceil(q * (double)v.size());
	return v[i ? i - 1 : 0];
}

static void report(const Opts &o, double rate)
{
	double win = o.time - o.warmup, sum = 0, sq = 0, mn = -1, mx = 0;
	std::vector<double> thr(flows.size()), fdone(flows.size()), fct;
	std::vector<u64> frx(flows.size());
	std::vector<u32> open(flows.size());
	u32 delivered = 0, npaths = 0, trunc = 0, i, maxload;
	u64 changes = 0, rdrops = 0;
	char desc[128];

	/* A flow: its connections' bytes, done when the last one is. */
	for (Conn &c : conns) {
		frx[c.flow] += c.rx;
		if (!o.bytes)
			thr[c.flow] += (double)(c.rx - c.rx_warm) * 8 / win;
		if (c.done < 0)
			open[c.flow]++;
		else
			fdone[c.flow] = std::max(fdone[c.flow],
						 c.done - c.start);
	}
	for (i = 0; i < flows.size(); i++) {
		double x = thr[i];

		if (o.bytes) {
			x = open[i] ? 0 : (double)o.bytes * 8 / fdone[i];
			thr[i] = x;
			if (!open[i])
				fct.push_back(fdone[i]);
		}
		sum += x;
		sq += x * x;
		mn = mn < 0 ? x : std::min(mn, x);
		mx = std::max(mx, x);
		delivered += frx[i] > 0;
	}
	for (auto &kv : F.paths) {
		npaths++;
		changes += kv.second.changes;
		trunc += kv.second.truncated;
	}
	for (i = 0; i < DP_DROP_MAX; i++)
		rdrops += F.drops_route[i];
	maxload = max_link_load();
	if (G.on)
		snprintf(desc, sizeof(desc), "%s: %u nodes, %zu hosts, %s",
			 G.name.c_str(), G.n, G.epnode.size(),
			 G.routing.c_str());
	else
		dp_topo_describe(&F.t, desc, sizeof(desc));

	double n = (double)flows.size();
	double abt = n * (mn < 0 ? 0 : mn);
	/* Connections on the busiest link; a host's link holds one flow. */
	double fluid = maxload ? (double)conns.size() / maxload : 0;

	if (F.hosts)
		fluid = std::min(fluid, n);
	double jain = sq > 0 ? sum * sum / (n * sq) : 0;
	u32 live = G.on ? G.n : F.t.nodes - F.fs.nfailed;

	if (o.json) {
		printf("{\"topo\":\"%s\",\"describe\":\"%s\",\"servers\":%u,"
		       "\"switches\":%u,\"mode\":\"%s\",\"traffic\":\"%s\","
		       "\"rate_bps\":%.0f,\"delay\":\"%s\",\"queue\":%u,"
		       "\"time\":%g,\"warmup\":%g,\"bytes\":%" PRIu64 ","
		       "\"failed_servers\":%u,\"failed_links\":%u,"
		       "\"hosts\":%u,\"paths_per_flow\":%zu,"
		       "\"connections\":%zu,"
		       "\"flows\":%zu,\"delivered\":%u,\"paths\":%u,"
		       "\"paths_equal_walk\":%u,"
		       "\"path_changes\":%" PRIu64 ",\"paths_truncated\":%u,"
		       "\"route_drops\":%" PRIu64 ",\"switch_drops\":%" PRIu64
		       ",\"no_tag\":%" PRIu64 ",",
		       G.on ? "graph" : F.t.ops->name, desc, live,
		       G.on ? 0 : F.t.switches, G.on ? G.routing.c_str() :
		       dp_sel_name(&F.t, F.sel), o.all ? "all" : "perm",
		       rate, o.delay.c_str(), o.queue, o.time, o.warmup,
		       o.bytes, F.fs.nfailed, F.fs.nlinks, F.hosts,
		       conns.size() / std::max(flows.size(), (size_t)1),
		       conns.size(), flows.size(),
		       delivered, npaths, paths_equal_walk(), changes, trunc,
		       rdrops,
		       F.drops_switch, F.no_tag);
		printf("\"aggregate_bps\":%.0f,\"min_bps\":%.0f,"
		       "\"max_bps\":%.0f,\"abt_bps\":%.0f,\"abt_links\":%.4f,"
		       "\"abt_per_server\":%.4f,\"abt_fluid_links\":%.4f,"
		       "\"max_link_flows\":%u,\"jain\":%.4f",
		       sum, mn < 0 ? 0 : mn, mx, abt, abt / rate,
		       live ? abt / rate / live : 0, fluid, maxload, jain);
		if (o.bytes)
			printf(",\"completed\":%zu,\"fct_mean\":%.6f,"
			       "\"fct_p50\":%.6f,\"fct_p99\":%.6f,"
			       "\"fct_max\":%.6f",
			       fct.size(), fct.empty() ? 0 :
			       std::accumulate(fct.begin(), fct.end(), 0.0) /
			       (double)fct.size(), quantile(fct, 0.5),
			       quantile(fct, 0.99), quantile(fct, 1.0));
		if (o.flows) {
			/* Per flow; "flow" below is per connection. */
			printf(",\"flow_bps\":[");
			for (i = 0; i < flows.size(); i++)
				printf("%s%.0f", i ? "," : "", thr[i]);
			printf("],\"flow_fct\":[");
			for (i = 0; i < flows.size(); i++)
				printf("%s%.6f", i ? "," : "",
				       open[i] ? -1.0 : fdone[i]);
			printf("],\"flow\":[");
			for (i = 0; i < conns.size(); i++) {
				Conn &c = conns[i];
				auto it = F.paths.find((u64)c.dst << 32 | c.port);

				/* src_id, dst_id: the servers, for dpsim. */
				printf("%s{\"src\":\"%s\",\"dst\":\"%s\","
				       "\"src_id\":%u,\"dst_id\":%u,"
				       "\"flow\":%u,"
				       "\"bps\":%.0f,\"rx\":%" PRIu64,
				       i ? "," : "", ep_text(c.src).c_str(),
				       ep_text(c.dst).c_str(), ep_node(c.src),
				       ep_node(c.dst), c.flow,
				       o.bytes ? (c.done > 0 ? (double)c.goal * 8 /
						  (c.done - c.start) : 0) :
				       (double)(c.rx - c.rx_warm) * 8 / win,
				       c.rx);
				if (c.done > 0)
					printf(",\"fct\":%.6f", c.done - c.start);
				if (it != F.paths.end()) {
					printf(",\"hash\":%u,\"path\":[",
					       it->second.hash);
					for (size_t j = 0;
					     j < it->second.path.size(); j++)
						printf("%s\"%s\"", j ? "," : "",
						       addr_text(it->second.path[j]).c_str());
					printf("]");
				}
				printf("}");
			}
			printf("]");
		}
		printf("}\n");
		return;
	}
	printf("%s, mode %s, %s traffic: %zu flows, %u servers (%u failed), "
	       "%u failed links\n", desc, G.on ? G.routing.c_str() :
	       dp_sel_name(&F.t, F.sel), o.all ? "all-to-all" : "permutation",
	       flows.size(), live, F.fs.nfailed, F.fs.nlinks);
	if (F.hosts || o.paths > 1)
		printf("%u hosts per server are the endpoints; %u TCP "
		       "connections per flow\n", F.hosts, o.paths);
	printf("links %s, %s, queues %u packets; %g s simulated, measured "
	       "after %g s\n", o.rate.c_str(), o.delay.c_str(), o.queue,
	       o.time, o.warmup);
	printf("delivered          %u of %zu flows (%" PRIu64 " routing drops, "
	       "%" PRIu64 " path changes)\n", delivered, flows.size(), rdrops,
	       changes);
	printf("paths              %u recorded, %u equal the core's walker\n",
	       npaths, paths_equal_walk());
	printf("aggregate          %.3f Gb/s (%.3f links)\n", sum / 1e9,
	       sum / rate);
	printf("per flow           min %.3f, mean %.3f, max %.3f Mb/s\n",
	       (mn < 0 ? 0 : mn) / 1e6, sum / n / 1e6, mx / 1e6);
	printf("ABT                %.3f Gb/s = %.3f links, %.4f per server\n",
	       abt / 1e9, abt / rate, live ? abt / rate / live : 0);
	printf("ABT, max-min fluid %.3f links (%u flows on the busiest link)\n",
	       fluid, maxload);
	printf("Jain's fairness    %.4f\n", jain);
	if (o.bytes)
		printf("FCT                %zu of %zu completed: mean %.3f ms, "
		       "p50 %.3f, p99 %.3f, max %.3f\n", fct.size(),
		       flows.size(), fct.empty() ? 0 :
		       std::accumulate(fct.begin(), fct.end(), 0.0) /
		       (double)fct.size() * 1e3, quantile(fct, 0.5) * 1e3,
		       quantile(fct, 0.99) * 1e3, quantile(fct, 1.0) * 1e3);
	if (o.flows)
		for (i = 0; i < conns.size(); i++) {
			auto it = F.paths.find((u64)conns[i].dst << 32 |
					       conns[i].port);

			printf("  %s -> %s  %.3f Mb/s ", ep_text(conns[i].src).c_str(),
			       ep_text(conns[i].dst).c_str(),
			       thr[conns[i].flow] / 1e6);
			if (it != F.paths.end())
				for (u32 id : it->second.path)
					printf(" %s", addr_text(id).c_str());
			printf("\n");
		}
}

int main(int argc, char **argv)
{
	const struct dp_topo_ops *ops;
	const char *why = "";
	struct rng r;
	Opts o;
	int err, s;

	err = parse_opts(argc, argv, &o);
	if (err)
		return err;
	if (o.graph) {
		err = graph_load(o.graph);
		if (err)
			return err;
		G.subflows = o.paths;
		r.s = o.seed;
		goto sim;
	}
	ops = dp_topo_ops_by_name(o.topo);
	if (!ops)
		return bad_usage("unknown topology '%s'", o.topo);
	o.p.kind = ops->kind;
	if (dp_topo_init(&F.t, &o.p, &why)) {
		fprintf(stderr, "dpns3: %s\n", why);
		return EXIT_USAGE;
	}
	if (F.t.learn_peers)
		return bad_usage("%s", "plan mode (learned cabling) is not modelled");
	if (o.mode) {
		s = dp_sel_parse(&F.t, o.mode);
		if (s < 0)
			return bad_usage("bad --mode '%s'", o.mode);
		F.sel = (u32)s;
	}
	if (fs_init(&F.fs, &F.t)) {
		fprintf(stderr, "dpns3: out of memory\n");
		return 1;
	}
	if (o.fail) {
		err = parse_fail(o.fail);
		if (err)
			return err;
	}
	r.s = o.seed;
	fs_random(&F.fs, &r, F.fs.nfailed + o.failed,
		  F.fs.nlinks + o.fail_links);
	if (F.t.nodes - F.fs.nfailed < 2)
		return bad_usage("%s", "fewer than two live servers");
	dp_fail_view(&F.fs, &F.view);
sim:

	Config::SetDefault("ns3::TcpL4Protocol::SocketType",
			   TypeIdValue(TcpNewReno::GetTypeId()));
	Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
	/*
	 * A data center's retransmission timers, not the Internet's (1 s
	 * minimum, 3 s for a SYN): with hundreds of flows starting at once
	 * some SYNs are lost, and a second's wait would be the whole run.
	 */
	Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Time(o.min_rto)));
	Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Time(o.min_rto)));
	Config::SetDefault("ns3::RttEstimator::InitialEstimation",
			   TimeValue(Time(o.min_rto)));
	/*
	 * And so must the delayed ACK be: after a timeout the window is one
	 * segment, whose ACK the receiver holds for the delayed ACK timeout
	 * (ns-3: 200 ms) while the sender's RTO (10 ms, backed off) fires
	 * first and resets the window to one segment again: one segment per
	 * timeout, for good (Vasudevan et al., SIGCOMM 2009, on fine-grained
	 * RTOs; Linux acks quickly in this state).
	 */
	Config::SetDefault("ns3::TcpSocket::DelAckTimeout",
			   TimeValue(Time(o.del_ack)));
	RngSeedManager::SetRun(o.seed);
	F.rv = CreateObject<UniformRandomVariable>();
	F.jitter = o.jitter * 1500 * 8 / (double)DataRate(o.rate).GetBitRate();
	F.hosts = G.on ? 1 : o.hosts;
	build_fabric(o);
	err = make_pairs(o, &r);
	if (err)
		return err;
	err = make_conns(o, &r);
	if (err)
		return err;
	install_apps(o);
	if (!o.bytes)
		Simulator::Schedule(Seconds(o.warmup), &on_warm);
	Simulator::Stop(Seconds(o.time));
	Simulator::Run();

	report(o, (double)DataRate(o.rate).GetBitRate());
	Simulator::Destroy();
	if (!G.on)
		fs_free(&F.fs);
	return 0;
}
