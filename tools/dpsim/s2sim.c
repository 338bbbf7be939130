// SPDX-License-Identifier: GPL-2.0
/*
 * s2sim.c - dpsim --topo s2 on a graph: S2's graph model, a fabric source
 * of dpsim's one front end (the same options, parsed once, opts.c), not
 * a front end of its own.
 *
 * What it does that the routing core (dpsim.c over topo_walk.c's
 * dp_walk()) cannot, and so what it is for:
 *  - graphs the kernel never builds: the paper's generated graph
 *    (--switches: its random cabling, balanced or random coordinates, at
 *    any size, 780+ switches in Figs. 4, 5, 7, 18; the kernel's plan
 *    mode stops at 255 nodes, its derived mode has its own cabling); an
 *    authors' .Topo file (--file); the baselines' graphs of
 *    tools/ns3/graphs.py (SWDC routed greedily on its lattice, Jellyfish
 *    on its pre-computed path, ecmp), ft only, and keys on SWDC
 *    (Figs. 19/20: keys_baseline());
 *  - the experiments of the paper's model the kernel has no knob for:
 *    --d (routing on fewer spaces than there are), --servers ports of a
 *    switch, keys (store/retrieve hops, load) and locate, --grow of a
 *    graph and its .Topo output (plan), S2's ft over every ordered pair with
 *    shortcut discovery as a BFS from the stuck switch (Fig. 21);
 *  - compare: the simulator's greedy (dp_s2_greedy() fed what Hellos
 *    tell a node) against the core on a kernel plan, pair by pair.
 *
 * Routing decisions are always the kernel's dp_s2_greedy()
 * (net/dpillar/topo_s2.c).  Where the kernel builds the fabric itself
 * (--fabric plan or --plan FILE, --fabric derived or --nodes), paths,
 * route and pairs route through the core's dp_walk() (s2_walk()), and
 * ft, plan and route --json are the core's commands (dpsim.c); only
 * the graph's bookkeeping stays here.  Its output goes through the
 * shared JSON writer (tools/common/dp_json.c), its random numbers are the
 * plan generator's (dp_s2plan.c).  main() dispatches here from its one
 * command table (dpsim.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpsim.h"
#include "dp_json.h"
#include "dp_s2plan.h"
#include "topo_s2.h"
#include "topo_walk.h"
#include "s2sim.h"

#define S2_DEG_MAX	DP_MAX_PORTS
#define S2_CAND_MAX	(S2_DEG_MAX * (S2_DEG_MAX + 1))

struct s2net {
	u32 n, L;
	u32 *x;			/* n * L coordinates */
	u32 *deg;
	u32 *adj;		/* n * S2_DEG_MAX */
	u8 *dead;		/* n * S2_DEG_MAX: link failed */
	u8 *port;		/* n * S2_DEG_MAX: the port of that link */
	u32 *hosts;		/* servers per switch */
	/* a baseline's graph (tools/ns3/graphs.py's file), not S2: */
	char routing[16];	/* greedy (SWDC), ksp (Jellyfish), ecmp */
	u8 *lat;		/* n * S2_DEG_MAX: a lattice link (SWDC) */
};

/*
 * What an S2 command works on: the graph, and the fabric the kernel
 * builds that it was made from (derived or plan mode; s2fabric.c).
 */
struct s2run {
	struct s2net g;
	struct s2fabric fab;
};

/* The simulator's random numbers: the plan generator's (dp_s2plan.c). */
static struct dp_s2rng rng;

static u32 rnd(void)
{
	return dp_s2rng_next(&rng);
}

static void rnd_seed(u32 s)
{
	dp_s2rng_seed(&rng, s);
}

static u32 rnd_below(u32 n)
{
	return dp_s2rng_below(&rng, n);
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s);

	if (!p) {
		perror("dpsim");
		exit(1);
	}
	return p;
}

static void net_alloc(struct s2net *g, u32 n, u32 L)
{
	g->n = n;
	g->L = L;
	g->x = xcalloc((size_t)n * L, sizeof(u32));
	g->deg = xcalloc(n, sizeof(u32));
	g->adj = xcalloc((size_t)n * S2_DEG_MAX, sizeof(u32));
	g->dead = xcalloc((size_t)n * S2_DEG_MAX, 1);
	g->port = xcalloc((size_t)n * S2_DEG_MAX, 1);
	g->hosts = xcalloc(n, sizeof(u32));
	g->lat = xcalloc((size_t)n * S2_DEG_MAX, 1);
}

static void net_free(struct s2net *g)
{
	free(g->x);
	free(g->deg);
	free(g->adj);
	free(g->dead);
	free(g->port);
	free(g->hosts);
	free(g->lat);
}

static bool linked(const struct s2net *g, u32 a, u32 b)
{
	for (u32 i = 0; i < g->deg[a]; i++)
		if (g->adj[a * S2_DEG_MAX + i] == b)
			return true;
	return false;
}

static int add_edge(struct s2net *g, u32 a, u32 b)
{
	if (a == b || linked(g, a, b))
		return 0;
	if (g->deg[a] >= S2_DEG_MAX || g->deg[b] >= S2_DEG_MAX)
		return -1;
	g->port[a * S2_DEG_MAX + g->deg[a]] = (u8)g->deg[a];
	g->adj[a * S2_DEG_MAX + g->deg[a]++] = b;
	g->port[b * S2_DEG_MAX + g->deg[b]] = (u8)g->deg[b];
	g->adj[b * S2_DEG_MAX + g->deg[b]++] = a;
	return 1;
}

static const u32 *X(const struct s2net *g, u32 v)
{
	return g->x + (size_t)v * g->L;
}

/*
 * A baseline's graph, as tools/ns3/graphs.py writes it for dpns3 --graph
 * (one generator for both): "name", "routing greedy|ksp|ecmp", "nodes
 * N", "hosts V H", "link A B [lattice]" (0-based); no coordinates (L 0).
 */
static int load_graph(struct s2net *g, FILE *f, const char *path)
{
	char line[512], w[16];
	u32 a, b;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "nodes %u", &a) == 1 && !g->deg) {
			if (!a || a > 65535) {
				fprintf(stderr, "%s: bad nodes\n", path);
				return -1;
			}
			net_alloc(g, a, 0);
		} else if (sscanf(line, "routing %15s", w) == 1) {
			snprintf(g->routing, sizeof(g->routing), "%s", w);
		} else if (sscanf(line, "hosts %u %u", &a, &b) == 2 && g->deg &&
			   a < g->n) {
			g->hosts[a] = b;
		} else if (sscanf(line, "link %u %u %15s", &a, &b, w) >= 2 &&
			   g->deg) {
			int k = a < g->n && b < g->n ? add_edge(g, a, b) : -1;

			if (k < 0) {
				fprintf(stderr, "%s: bad link %u %u\n", path,
					a, b);
				return -1;
			}
			if (k && strstr(line, "lattice")) {
				g->lat[a * S2_DEG_MAX + g->deg[a] - 1] = 1;
				g->lat[b * S2_DEG_MAX + g->deg[b] - 1] = 1;
			}
		}
	}
	if (!g->deg || (strcmp(g->routing, "greedy") &&
			strcmp(g->routing, "ksp") &&
			strcmp(g->routing, "ecmp"))) {
		fprintf(stderr, "%s: no nodes line, or routing not greedy, ksp or ecmp\n",
			path);
		return -1;
	}
	return 0;
}

/*
 * The authors' file: N, L, E a b (1-based), C id c.. (x 1e-6), H; or a
 * baseline's graph (load_graph()), told by its first line.
 */
static int load_topo(struct s2net *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	u32 n = 0, L = 0;
	int ch;

	if (!f) {
		perror(path);
		return -1;
	}
	ch = getc(f);
	ungetc(ch, f);
	if (ch == 'n' || ch == 'r' || ch == '#') {
		ch = load_graph(g, f, path);
		fclose(f);
		return ch;
	}
	while (fgets(line, sizeof(line), f)) {
		u32 a, b;
		char *p;

		if (sscanf(line, "N %u", &a) == 1) {
			n = a;
		} else if (sscanf(line, "L %u", &a) == 1) {
			L = a;
			if (!n || !L || L > DP_S2_SPACES_MAX) {
				fprintf(stderr, "%s: bad N/L\n", path);
				fclose(f);
				return -1;
			}
			net_alloc(g, n, L);
		} else if (line[0] == 'E' && g->x &&
			   sscanf(line, "E %u %u", &a, &b) == 2) {
			if (!a || !b || a > n || b > n ||
			    add_edge(g, a - 1, b - 1) < 0) {
				fprintf(stderr, "%s: bad edge %u %u\n", path,
					a, b);
				fclose(f);
				return -1;
			}
		} else if (line[0] == 'C' && g->x &&
			   sscanf(line, "C %u", &a) == 1 && a < n) {
			p = line + 2;
			strtoul(p, &p, 10);
			for (u32 i = 0; i < L; i++) {
				u64 c = strtoull(p, &p, 10);

				/* c / 10^6 as c * 2^32 / 10^6 */
				g->x[(size_t)a * L + i] =
					(u32)((c << 32) / 1000000ULL);
			}
		} else if (line[0] == 'H' && g->x &&
			   sscanf(line, "H %u %u", &a, &b) == 2 && b && b <= n) {
			g->hosts[b - 1]++;
		}
	}
	fclose(f);
	if (!g->x) {
		fprintf(stderr, "%s: no N/L lines\n", path);
		return -1;
	}
	return 0;
}

/*
 * The graph of a plan (dp_s2plan.h): each node's cables in port order,
 * so that routing here sees its candidates in the order the kernel's
 * core does on the same plan; @servers per node.
 */
static void net_from_gen(struct s2net *g, const struct dp_s2gen *p,
			 u32 servers)
{
	net_alloc(g, p->n, p->spaces);
	memcpy(g->x, p->x, (size_t)p->n * p->spaces * sizeof(u32));
	for (u32 v = 0; v < p->n; v++) {
		g->hosts[v] = servers;
		for (u32 q = 0; q < p->ports; q++) {
			u32 w = p->peer[(size_t)v * p->ports + q];

			if (w == DP_NODE_NONE)
				continue;
			g->port[v * S2_DEG_MAX + g->deg[v]] = (u8)q;
			g->adj[v * S2_DEG_MAX + g->deg[v]++] = w;
		}
	}
}

/* The plan of a graph, room for @grow nodes more (ports: @ports). */
static int gen_from_net(struct dp_s2gen *p, const struct s2net *g, u32 grow,
			u32 ports)
{
	if (dp_s2gen_alloc(p, g->n + grow, g->L, ports))
		return -1;
	p->n = g->n;
	memcpy(p->x, g->x, (size_t)g->n * g->L * sizeof(u32));
	for (u32 v = 0; v < g->n; v++)
		for (u32 i = 0; i < g->deg[v]; i++) {
			u32 w = g->adj[v * S2_DEG_MAX + i];
			u32 q = g->port[v * S2_DEG_MAX + i];

			if (q >= ports) {
				fprintf(stderr, "dpsim: switch %u has more than %u network ports in use\n",
					v, ports);
				dp_s2gen_free(p);
				return -1;
			}
			p->peer[(size_t)v * ports + q] = w;
			for (u32 j = 0; j < g->deg[w]; j++)
				if (g->adj[w * S2_DEG_MAX + j] == v)
					p->pport[(size_t)v * ports + q] =
						g->port[w * S2_DEG_MAX + j];
		}
	return 0;
}

/*
 * The graph of the kernel's derived fabric (--fabric derived, @t:
 * s2fabric.c): derived coordinates and the cabling of
 * net/dpillar/topo_s2.c's ops, each node's neighbours in its port order,
 * so that routing here sees its candidates in the order the kernel does.
 */
static void net_from_derived(struct s2net *g, const struct dp_topo *t,
			     const struct opts *o, u32 L)
{
	net_alloc(g, t->nodes, L);
	for (u32 v = 0; v < t->nodes; v++) {
		g->hosts[v] = o->servers;
		for (u32 sp = 0; sp < L; sp++)
			g->x[(size_t)v * L + sp] = dp_s2_coord(o->seed, t->nodes,
							       v, sp);
		for (u32 port = 0; port < t->nports; port++) {
			u32 peer = dp_port_neigh(t, v, port, 0);

			if (peer == DP_NODE_NONE)
				continue;
			g->port[v * S2_DEG_MAX + g->deg[v]] = (u8)port;
			g->adj[v * S2_DEG_MAX + g->deg[v]++] = peer;
		}
	}
}

/* The paper's graph: generated as the paper does (--fabric graph). */
static int gen_net(struct s2net *g, const struct opts *o)
{
	u32 n = o->nodes, L = o->spaces;
	u32 inter = o->n - o->servers;
	struct dp_s2gen p;

	if (!L && o->n > o->servers)
		L = inter / 2;
	if (!s2_sizes_ok(o, n, L, S2_DEG_MAX))
		return -1;
	if (dp_s2gen_alloc(&p, n, L, inter)) {
		perror("dpsim");
		return -1;
	}
	p.n = n;
	rnd_seed(o->seed);
	for (u32 sp = 0; sp < L; sp++) {
		for (u32 v = 0; v < n; v++) {
			if (!strcmp(o->coords, "random"))
				p.x[(size_t)v * L + sp] = rnd();
			else if (!strcmp(o->coords, "derived"))
				p.x[(size_t)v * L + sp] =
					dp_s2_coord(o->seed, n, v, sp);
			else
				dp_s2gen_place(&p, &rng, v, sp);
		}
	}
	dp_s2gen_cable(&p, &rng);
	net_from_gen(g, &p, o->servers);
	dp_s2gen_free(&p);
	return 0;
}

static u32 *bfs(const struct s2net *g, u32 s, u32 *dist, u32 *q)
{
	u32 h = 0, t = 0;

	for (u32 i = 0; i < g->n; i++)
		dist[i] = 0xffffffffU;
	dist[s] = 0;
	q[t++] = s;
	while (h < t) {
		u32 u = q[h++];

		for (u32 i = 0; i < g->deg[u]; i++) {
			u32 v = g->adj[u * S2_DEG_MAX + i];

			if (g->dead[u * S2_DEG_MAX + i] || dist[v] != 0xffffffffU)
				continue;
			dist[v] = dist[u] + 1;
			q[t++] = v;
		}
	}
	return dist;
}

/*
 * The candidates node @u knows from Hellos: its live neighbours, then
 * their live neighbours (2-hop, via the 1-hop index).  @nb1 gets the node
 * id of each 1-hop candidate.
 */
static u32 cands(const struct s2net *g, u32 u, u32 off,
		 struct dp_s2_cand *c, u32 *nb1)
{
	u32 n = 0, n1;

	for (u32 i = 0; i < g->deg[u]; i++) {
		if (g->dead[u * S2_DEG_MAX + i])
			continue;
		nb1[n] = g->adj[u * S2_DEG_MAX + i];
		c[n].x = X(g, nb1[n]) + off;
		c[n].via = n;
		c[n].two_hop = false;
		n++;
	}
	n1 = n;
	for (u32 i = 0; i < n1; i++) {
		u32 v = nb1[i];

		for (u32 j = 0; j < g->deg[v]; j++) {
			u32 w = g->adj[v * S2_DEG_MAX + j];

			if (g->dead[v * S2_DEG_MAX + j] || w == u)
				continue;
			c[n].x = X(g, w) + off;
			c[n].via = i;
			c[n].two_hop = true;
			n++;
		}
	}
	return n;
}

/*
 * Route switch @s to coordinates @dst (a switch's, or a key's) by
 * greediest routing with @rule over @d spaces.  Returns the hops taken;
 * *@end gets the switch where it stopped (the destination, or a local
 * minimum).  A packet never exceeds n hops (the MCD strictly decreases
 * for the loop-free rules; the paper's rule is cut at n).
 */
static u32 route(const struct s2net *g, u32 s, const u32 *dst, u32 off,
		 u32 d, u32 rule, u32 hash, u32 *end)
{
	struct dp_s2_cand c[S2_CAND_MAX];
	u32 nb1[S2_DEG_MAX], hops = 0, u = s;

	while (hops < g->n) {
		u32 n = cands(g, u, off, c, nb1);
		int k = -1;

		if (hops == 0 && hash)
			k = dp_s2_first_hop(X(g, u) + off, dst, d, c, n, hash);
		if (k < 0)
			k = dp_s2_greedy(X(g, u) + off, dst, d, c, n, rule, NULL);
		if (k < 0)
			break;
		u = nb1[k];
		hops++;
	}
	*end = u;
	return hops;
}

static const char * const rule_names[] = {
	[DP_S2_RULE_1HOP] = "1hop",
	[DP_S2_RULE_2HOP_SIM] = "2hop-sim",
	[DP_S2_RULE_2HOP_PAPER] = "2hop",
};

/* The walker's selector (dp_route_init's sel) of simulator rule @r. */
static int core_sel(const struct dp_topo *t, u32 r)
{
	for (int i = 0; t->ops->sel_names && t->ops->sel_names[i]; i++)
		if (!strcmp(t->ops->sel_names[i], rule_names[r]))
			return i;
	return -1;
}

/*
 * The simulator's own greedy walk from @s to @t over @d spaces, at most
 * @cap hops, the first hop hashed (@hash != 0, Algorithm 2): its path
 * (room for @cap + 1), delivered?
 */
static bool sim_walk(const struct s2net *g, u32 s, u32 t, u32 d, u32 rule,
		     u32 hash, u32 cap, u32 *path, u32 *len)
{
	struct dp_s2_cand c[S2_CAND_MAX];
	u32 nb1[S2_DEG_MAX], u = s, hops = 0;

	path[0] = s;
	while (u != t && hops < cap) {
		u32 n = cands(g, u, 0, c, nb1);
		int k = -1;

		/* Algorithm 2: the flow's first hop, as route() takes it */
		if (!hops && hash)
			k = dp_s2_first_hop(X(g, u), X(g, t), d, c, n, hash);
		if (k < 0)
			k = dp_s2_greedy(X(g, u), X(g, t), d, c, n, rule, NULL);
		if (k < 0)
			break;
		u = nb1[k];
		path[++hops] = u;
	}
	*len = hops + 1;
	return u == t;
}

/*
 * The kernel's routing core on a fabric the kernel builds (plan mode, or
 * the derived wiring: s2fabric.c): the shared walker routes on it, with
 * the failures of the graph.  @on: set up; else the fabric is the
 * paper's graph, the simulator's alone.
 */
struct s2core {
	const struct dp_topo *t;	/* the fabric's */
	struct dp_fail_set fs;
	u8 *fnode, *flink;
	int sels[DP_S2_RULE_COUNT];	/* each rule's selector, -1: none */
	bool on;
};

/* The failed cables of @g, and the switches @down (may be NULL). */
static void s2core_fail(struct s2core *c, const struct s2net *g,
			const u8 *down)
{
	for (u32 v = 0; c->on && v < g->n; v++) {
		if (down && down[v])
			dp_fail_set_node(&c->fs, v);
		for (u32 i = 0; i < g->deg[v]; i++)
			if (g->dead[v * S2_DEG_MAX + i])
				dp_fail_set_link(&c->fs, v,
						 g->port[v * S2_DEG_MAX + i]);
	}
}

static void s2core_free(struct s2core *c)
{
	free(c->fnode);
	free(c->flink);
}

/* The core on the fabric of @r, if the kernel builds it.  0 or an exit status. */
static int s2core_fabric(struct s2core *c, struct s2run *r,
			 const struct opts *o, const char *who)
{
	int err;

	memset(c, 0, sizeof(*c));
	if (r->fab.plan || s2_kernel_fabric(o)) {
		err = s2_fabric_topo(&r->fab, o, who);
		if (err)
			return err;
		c->t = &r->fab.t;
		c->fnode = xcalloc(dp_fail_node_bytes(c->t), 1);
		c->flink = xcalloc(dp_fail_link_bytes(c->t), 1);
		dp_fail_init(&c->fs, c->t, c->fnode, c->flink);
		c->on = true;
	}
	for (u32 rule = 0; rule < DP_S2_RULE_COUNT; rule++)
		c->sels[rule] = c->on ? core_sel(c->t, rule) : -1;
	return 0;
}

/*
 * The router of paths, route and pairs: the core where the kernel has
 * this fabric (plan mode, the derived wiring) and routes over every
 * space, else the simulator's greedy.  0 or an exit status.
 */
static int s2core_open(struct s2core *c, struct s2run *r,
		       const struct opts *o, const char *who)
{
	memset(c, 0, sizeof(*c));
	/* --d below L is the simulator's experiment: the kernel uses all */
	if (o->d && o->d < r->g.L)
		return 0;
	return s2core_fabric(c, r, o, who);
}

/* One walk of paths, route or pairs (see s2core_open), <= @cap hops. */
static bool s2_walk(const struct s2core *c, const struct s2net *g, u32 rule,
		    u32 s, u32 t, u32 d, u32 hash, u32 cap, u32 *path,
		    u32 *len)
{
	struct dp_walk w = { .path = path, .path_max = cap + 1 };

	if (!c->on || c->sels[rule] < 0)
		return sim_walk(g, s, t, d, rule, hash, cap, path, len);
	dp_walk(c->t, s, t, (u32)c->sels[rule], hash, &c->fs, cap, &w);
	if (w.bad_hop)
		fprintf(stderr, "dpsim: %u -> %u: the core took a hop off the cabling\n",
			s, t);
	*len = w.path_len;
	return w.delivered;
}

/*
 * Fail links at random, both directions: --fail-links L of them, or
 * --fail-frac F of the graph's (rounded), as the core's ft counts them
 * (ft_links(), dpsim.c).  The count; *@frac the fraction failed (F as
 * given, else L of the links).
 */
static u32 fail_links(struct s2net *g, const struct opts *o, double *frac)
{
	u32 m = 0, want, done = 0;

	for (u32 v = 0; v < g->n; v++)
		m += g->deg[v];
	m /= 2;
	if (o->fail_links_set) {
		want = o->fail_links < m ? o->fail_links : m;
		*frac = m ? (double)want / m : 0;
	} else {
		want = (u32)(o->fail_frac * m + 0.5);
		*frac = o->fail_frac;
	}
	while (done < want) {
		u32 a = rnd_below(g->n), i, b;

		if (!g->deg[a])
			continue;
		i = rnd_below(g->deg[a]);
		if (g->dead[a * S2_DEG_MAX + i])
			continue;
		b = g->adj[a * S2_DEG_MAX + i];
		g->dead[a * S2_DEG_MAX + i] = 1;
		for (u32 j = 0; j < g->deg[b]; j++)
			if (g->adj[b * S2_DEG_MAX + j] == a)
				g->dead[b * S2_DEG_MAX + j] = 1;
		done++;
	}
	return done;
}

/*
 * Text: the line above a command's figures, as the other topologies have
 * one: the graph (the fabric the kernel builds, in dpctl plan's words, or
 * the paper's graph model), its cables, then what was computed (@fmt).
 */
static void out_title(const struct s2run *r, const struct opts *o,
		      const char *fmt, ...)
{
	const struct s2net *g = &r->g;
	u32 cables = 0;
	va_list ap;

	if (o->json)
		return;
	for (u32 v = 0; v < g->n; v++)
		cables += g->deg[v];
	if (r->fab.plan)
		printf("S2 plan (nodes %u, ports %u, spaces %u, seed %u)",
		       r->fab.pg.n, r->fab.pg.ports, r->fab.pg.spaces,
		       r->fab.pg.seed);
	else if (r->fab.on)
		printf("S2 (nodes %u, ports %u, spaces %u, seed %u)",
		       r->fab.t.nodes, r->fab.t.nports, r->fab.spaces,
		       (u32)o->seed);
	else if (o->file)
		printf("S2 %s (switches %u, spaces %u)", o->file, g->n, g->L);
	else
		printf("S2 graph (switches %u, ports %u, servers %u, spaces %u, seed %u, coords %s)",
		       g->n, o->n, o->servers, g->L, (u32)o->seed,
		       o->coords);
	printf(": %u cables; ", cables / 2);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * One figure: an indented line, the key in words ("bfs_avg": "bfs avg")
 * and its value, or a member of one JSON object (the key as it is).
 */
static void out_num(const struct opts *o, bool *first, const char *k,
		    double v, int prec)
{
	char words[64];
	size_t i;

	if (o->json) {
		if (*first) {
			json_init(false);
			json_open_obj(NULL);
		}
		json_double(k, v, prec);
	} else {
		for (i = 0; k[i] && i + 1 < sizeof(words); i++)
			words[i] = k[i] == '_' ? ' ' : k[i];
		words[i] = '\0';
		printf("  %-28s %.*f\n", words, prec, v);
	}
	*first = false;
}

static void out_end(const struct opts *o, bool first)
{
	if (!o->json)
		return;
	if (first) {
		json_init(false);
		json_open_obj(NULL);
	}
	json_close_obj();
	json_end();
}

/*
 * Every ordered pair of switches under each rule (through the core where
 * the kernel has the fabric: s2core_open()), and BFS's shortest paths.
 */
int s2_paths(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u32 *dist = xcalloc(g->n, sizeof(u32)), *q = xcalloc(g->n, sizeof(u32));
	u32 *path = xcalloc(g->n + 1, sizeof(u32)), len;
	struct s2core core;
	double sum[DP_S2_RULE_COUNT] = { 0 }, sp = 0, pairs = 0;
	u32 stuck[DP_S2_RULE_COUNT] = { 0 }, maxh[DP_S2_RULE_COUNT] = { 0 };
	u32 d = o->d ? o->d : g->L, links = 0, mindist = 0xffffffffU;
	double choices = 0;
	bool first = true;

	if (d > g->L)
		d = g->L;
	if (s2core_open(&core, r, o, "paths")) {
		free(dist);
		free(q);
		free(path);
		return 2;
	}
	for (u32 s = 0; s < g->n; s++) {
		bfs(g, s, dist, q);
		for (u32 t = 0; t < g->n; t++) {
			u32 ms = 0;

			if (t == s)
				continue;
			pairs++;
			sp += dist[t];
			/* Algorithm 2: the first hops a flow may be hashed to */
			for (u32 i = 0; i < g->deg[s]; i++)
				if (dp_s2_mcd(X(g, g->adj[s * S2_DEG_MAX + i]),
					      X(g, t), d) <
				    dp_s2_mcd(X(g, s), X(g, t), d))
					ms++;
			choices += ms;
			for (u32 rule = 0; rule < DP_S2_RULE_COUNT; rule++) {
				if (!s2_walk(&core, g, rule, s, t, d, 0, g->n, path,
					     &len))
					stuck[rule]++;
				sum[rule] += len - 1;
				if (len - 1 > maxh[rule])
					maxh[rule] = len - 1;
			}
		}
		links += g->deg[s];
	}
	for (u32 sp2 = 0; sp2 < g->L; sp2++)
		for (u32 a = 0; a < g->n; a++)
			for (u32 b = a + 1; b < g->n; b++) {
				u32 c = dp_s2_cd(X(g, a)[sp2], X(g, b)[sp2]);

				if (c < mindist)
					mindist = c;
			}
	out_title(r, o, "every ordered pair of switches, greedy routing on %u of %u spaces, each rule; switch hops",
		  d, g->L);
	out_num(o, &first, "switches", g->n, 0);
	out_num(o, &first, "spaces", g->L, 0);
	out_num(o, &first, "d", d, 0);
	out_num(o, &first, "links", links / 2, 0);
	out_num(o, &first, "pairs", pairs, 0);
	out_num(o, &first, "bfs_avg", sp / pairs, 4);
	for (u32 rule = 0; rule < DP_S2_RULE_COUNT; rule++) {
		char k[64];

		snprintf(k, sizeof(k), "%s_avg", rule_names[rule]);
		out_num(o, &first, k, sum[rule] / pairs, 4);
		snprintf(k, sizeof(k), "%s_max", rule_names[rule]);
		out_num(o, &first, k, maxh[rule], 0);
		snprintf(k, sizeof(k), "%s_stuck", rule_names[rule]);
		out_num(o, &first, k, stuck[rule], 0);
	}
	out_num(o, &first, "first_hop_choices_avg", choices / pairs, 4);
	/* min distance of two coordinates in one space, times N */
	out_num(o, &first, "min_cd_times_n",
		(double)mindist * g->n / 4294967296.0, 4);
	out_end(o, first);
	free(dist);
	free(q);
	free(path);
	s2core_free(&core);
	for (u32 rule = 0; rule < DP_S2_RULE_COUNT; rule++)
		if (stuck[rule])
			return 1;
	return 0;
}

/*
 * ft of the paper's graph model (a fabric the kernel builds is the
 * core's ft: cmd_s2_ft(), dpsim.c).
 * Fig. 21: a fraction of links fails; every ordered pair of switches is
 * routed by greedy routing over the live neighbours (--mode, default the
 * paper's 2-hop).  A packet stuck at a local minimum p is lost without shortcut
 * discovery; with it, p's probe floods the live links and the reply
 * installs the path it found, so the packet arrives iff the destination
 * is connected to p, after the BFS distance from p (dpsim models the
 * discovery by that BFS).
 */
/*
 * A baseline's next step at @u toward @t, SWDC's greedy routing on its
 * lattice coordinates: to the live 1-hop neighbour, or with 2-hop
 * knowledge (SWDC's nodes store their 2-hop neighbours) the live 2-hop
 * neighbour, nearest the target in lattice distance @dt (@dt[v]: v's
 * distance to the target in the intact lattice's hops, the distance of
 * the coordinates; a key's retrieve: to the nearest of its homes), if
 * nearer than @u; a 1-hop one on ties.  2hop-sim takes 2-hop ones only
 * through a nearer neighbour, as S2's rule of that name.  The distance
 * strictly decreases: no loop.  Returns the hops (0: a local minimum),
 * *@next the node reached.
 */
static u32 swdc_step(const struct s2net *g, const u16 *dt, u32 u, u32 rule,
		     u32 *next)
{
	u32 best = dt[u], hops = 0;

	for (u32 i = 0; i < g->deg[u]; i++) {
		u32 v = g->adj[u * S2_DEG_MAX + i];

		if (!g->dead[u * S2_DEG_MAX + i] && dt[v] < best) {
			best = dt[v];
			*next = v;
			hops = 1;
		}
	}
	for (u32 i = 0; rule != DP_S2_RULE_1HOP && i < g->deg[u]; i++) {
		u32 v = g->adj[u * S2_DEG_MAX + i];

		if (g->dead[u * S2_DEG_MAX + i] ||
		    (rule == DP_S2_RULE_2HOP_SIM && dt[v] >= dt[u]))
			continue;
		for (u32 j = 0; j < g->deg[v]; j++) {
			u32 w = g->adj[v * S2_DEG_MAX + j];

			if (!g->dead[v * S2_DEG_MAX + j] && w != u &&
			    dt[w] < best) {
				best = dt[w];
				*next = w;
				hops = 2;
			}
		}
	}
	return hops;
}

/*
 * SWDC's coordinates' distances: the intact lattice's hops (BFS over the
 * lattice's links), n x n, row t the distances to t; @q n scratch nodes.
 */
static u16 *lattice_dist(const struct s2net *g, u32 *q)
{
	u32 n = g->n;
	u16 *ld = xcalloc((size_t)n * n, sizeof(u16));

	for (u32 t = 0; t < n; t++) {
		u16 *d = ld + (size_t)t * n;
		u32 h = 0, e = 0;

		for (u32 v = 0; v < n; v++)
			d[v] = 0xffff;
		d[t] = 0;
		q[e++] = t;
		while (h < e) {
			u32 u = q[h++];

			for (u32 i = 0; i < g->deg[u]; i++) {
				u32 v = g->adj[u * S2_DEG_MAX + i];

				if (g->lat[u * S2_DEG_MAX + i] &&
				    d[v] == 0xffff) {
					d[v] = d[u] + 1;
					q[e++] = v;
				}
			}
		}
	}
	return ld;
}

/*
 * The nearest-rank @q-quantile of @total values counted in @hist (@len
 * bins): the least h whose bins up to h hold ceil(q * total) of them, as
 * eval-s2load.py's quantile().
 */
static u32 hist_quantile(const double *hist, u32 len, double total, double q)
{
	double want = ceil(q * total - 1e-9), c = 0;

	if (want < 1)
		want = 1;
	for (u32 h = 0; h < len; h++) {
		c += hist[h];
		if (c >= want)
			return h;
	}
	return len - 1;
}

/*
 * ft of a baseline's graph (tools/ns3/graphs.py; the S2 paper's Fig. 21
 * compares SWDC and Jellyfish): the same failures as S2's ft (a fraction
 * of the cables at random, the same seeding), every ordered pair of
 * switches.  greedy (SWDC): swdc_step() until the destination or a local
 * minimum.  ksp (Jellyfish, "pre-computed paths"): the flow's path is
 * computed on the intact graph (the first of its k shortest paths: a
 * BFS shortest path, ties to the first found) and the packet arrives iff
 * every cable of it is alive.  No shortcut discovery here.
 */
static int ft_baseline(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u32 n = g->n, failed, *dist = xcalloc(n, sizeof(u32));
	u32 *q = xcalloc(n, sizeof(u32)), *par = xcalloc(n, sizeof(u32));
	u16 *ld = NULL;
	u8 *ok_link = NULL;
	double ok = 0, conn = 0, pairs = 0, hops = 0, bfs_sum = 0, frac;
	double *hist = xcalloc(2 * (size_t)n + 1, sizeof(double));
	bool greedy = !strcmp(g->routing, "greedy"), first = true;

	if (!greedy && strcmp(g->routing, "ksp")) {
		fprintf(stderr, "dpsim: ft: a graph of routing greedy (SWDC) or ksp (Jellyfish)\n");
		free(dist);
		free(q);
		free(par);
		free(hist);
		return EXIT_USAGE;
	}
	if (greedy)
		ld = lattice_dist(g, q);
	rnd_seed(o->seed ^ 0x51f7);
	failed = fail_links(g, o, &frac);
	if (!greedy) {
		ok_link = xcalloc((size_t)n * n, 1);
		for (u32 u = 0; u < n; u++)
			for (u32 i = 0; i < g->deg[u]; i++)
				ok_link[(size_t)u * n +
					g->adj[u * S2_DEG_MAX + i]] =
					!g->dead[u * S2_DEG_MAX + i];
	}
	for (u32 s = 0; s < n; s++) {
		bfs(g, s, dist, q);
		if (!greedy) {
			/* the intact graph's BFS tree from s: the paths */
			u32 h = 0, e = 0;

			for (u32 v = 0; v < n; v++)
				par[v] = 0xffffffffU;
			par[s] = s;
			q[e++] = s;
			while (h < e) {
				u32 u = q[h++];

				for (u32 i = 0; i < g->deg[u]; i++) {
					u32 v = g->adj[u * S2_DEG_MAX + i];

					if (par[v] == 0xffffffffU) {
						par[v] = u;
						q[e++] = v;
					}
				}
			}
		}
		for (u32 t = 0; t < n; t++) {
			u32 u = s, h = 0, step, next = 0;
			bool arrived = true;

			if (t == s)
				continue;
			pairs++;
			if (dist[t] != 0xffffffffU) {
				conn++;
				bfs_sum += dist[t];
			}
			if (greedy) {
				const u16 *dt = ld + (size_t)t * n;

				while (u != t &&
				       (step = swdc_step(g, dt, u, o->rule,
							 &next))) {
					u = next;
					h += step;
				}
				arrived = u == t;
			} else {
				for (u = t; u != s && arrived; u = par[u], h++)
					arrived = par[u] != 0xffffffffU &&
						  ok_link[(size_t)par[u] * n +
							  u];
			}
			if (arrived) {
				ok++;
				hops += h;
				hist[h < 2 * n ? h : 2 * n]++;
			}
		}
	}
	if (!o->json)
		printf("graph %s (switches %u, routing %s, rule %s): failed cables %.1f%% (%u), every ordered pair of switches, no shortcut discovery\n",
		       o->file, n, g->routing,
		       greedy ? rule_names[o->rule] : "precomputed",
		       frac * 100, failed);
	out_num(o, &first, "switches", n, 0);
	out_num(o, &first, "fail_frac", frac, 3);
	out_num(o, &first, "failed_links", failed, 0);
	out_num(o, &first, "pairs", pairs, 0);
	out_num(o, &first, "connected", conn, 0);
	out_num(o, &first, "success", ok / pairs, 4);
	out_num(o, &first, "success_connected", conn ? ok / conn : 0, 4);
	out_num(o, &first, "avg_hops", ok ? hops / ok : 0, 4);
	/* Fig. 18's percentiles, of the delivered pairs' hops */
	out_num(o, &first, "hops_p10",
		ok ? hist_quantile(hist, 2 * n + 1, ok, 0.1) : 0, 0);
	out_num(o, &first, "hops_p90",
		ok ? hist_quantile(hist, 2 * n + 1, ok, 0.9) : 0, 0);
	out_num(o, &first, "bfs_avg_connected", conn ? bfs_sum / conn : 0, 4);
	out_end(o, first);
	free(dist);
	free(q);
	free(par);
	free(ld);
	free(ok_link);
	free(hist);
	return 0;
}

int s2_ft(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u32 *dist = xcalloc(g->n, sizeof(u32)), *q = xcalloc(g->n, sizeof(u32));
	u32 *dp = xcalloc(g->n, sizeof(u32));
	double ok = 0, ok_sc = 0, conn = 0, pairs = 0, hops = 0, hops_sc = 0;
	double bfs_sum = 0, frac;
	u32 d = o->d ? o->d : g->L, failed, looped = 0;
	bool first = true;

	if (g->routing[0]) {
		free(dist);
		free(q);
		free(dp);
		return ft_baseline(r, o);
	}
	rnd_seed(o->seed ^ 0x51f7);
	failed = fail_links(g, o, &frac);
	for (u32 s = 0; s < g->n; s++) {
		bfs(g, s, dist, q);
		for (u32 t = 0; t < g->n; t++) {
			u32 end, h;

			if (t == s)
				continue;
			pairs++;
			if (dist[t] != 0xffffffffU) {
				conn++;
				bfs_sum += dist[t];
			}
			h = route(g, s, X(g, t), 0, d, o->rule, 0, &end);
			if (h >= g->n)
				looped++;
			if (end == t) {
				ok++;
				ok_sc++;
				hops += h;
				hops_sc += h;
				continue;
			}
			bfs(g, end, dp, q);
			if (dp[t] != 0xffffffffU) {
				ok_sc++;
				hops_sc += h + dp[t];
			}
		}
	}
	out_title(r, o, "failed cables %.1f%% (%u), every ordered pair of switches, rule %s, %s",
		  frac * 100, failed, rule_names[o->rule], o->discover ?
		  "without and with shortcut discovery" :
		  "no shortcut discovery (--no-discover)");
	out_num(o, &first, "switches", g->n, 0);
	out_num(o, &first, "fail_frac", frac, 3);
	out_num(o, &first, "failed_links", failed, 0);
	out_num(o, &first, "pairs", pairs, 0);
	out_num(o, &first, "connected", conn, 0);
	out_num(o, &first, "success", ok / pairs, 4);
	out_num(o, &first, "success_connected", conn ? ok / conn : 0, 4);
	if (o->discover) {
		out_num(o, &first, "shortcut_success", ok_sc / pairs, 4);
		out_num(o, &first, "shortcut_success_connected",
			conn ? ok_sc / conn : 0, 4);
	}
	out_num(o, &first, "avg_hops", ok ? hops / ok : 0, 4);
	if (o->discover)
		out_num(o, &first, "shortcut_avg_hops",
			ok_sc ? hops_sc / ok_sc : 0, 4);
	out_num(o, &first, "bfs_avg_connected", conn ? bfs_sum / conn : 0, 4);
	out_num(o, &first, "looped", looped, 0);
	out_end(o, first);
	free(dist);
	free(q);
	free(dp);
	return ok_sc < conn || looped ? 1 : 0;
}

/* The home of coordinates @x in space @sp: the node closest on the ring. */
static u32 home(const struct s2net *g, const u32 *x, u32 sp)
{
	u32 best = 0, bd = 0xffffffffU;

	for (u32 v = 0; v < g->n; v++) {
		u32 c = dp_s2_cd(X(g, v)[sp], x[sp]);

		if (c < bd) {
			bd = c;
			best = v;
		}
	}
	return best;
}

/*
 * Fig. 19/20 on SWDC (a graph of routing greedy, tools/ns3/graphs.py):
 * the key's d homes are the nodes its d hashes (dp_s2_key_coords(), d
 * values) name, home r = node floor(H_r * N): on SWDC's regular
 * lattice every node owns 1/N of each hash's range (its uniform
 * coordinates: the paper's "near-perfect load balance"), and the lattice
 * looks the same from every node, so which lattice point a hash names
 * changes no distance.  STORE(K, r): greedy on the lattice distance to
 * home r from a random switch; retrieve: greedy on the distance to the
 * nearest of the d homes (SWDC has one space: the d replicas are d
 * points of it).  swdc_step() under --mode; no failure.
 */
static int keys_baseline(struct s2run *run, const struct opts *o)
{
	struct s2net *g = &run->g;
	u32 n = g->n, d = o->d ? o->d : 3, bad = 0, max1 = 0, maxd = 0;
	u32 *q = xcalloc(n, sizeof(u32)), *load1 = xcalloc(n, sizeof(u32));
	u32 *loadd = xcalloc(n, sizeof(u32));
	u16 *ld, *dmin = xcalloc(n, sizeof(u16));
	double store = 0, ret = 0, stores = 0;
	bool first = true;

	if (strcmp(g->routing, "greedy")) {
		fprintf(stderr, "dpsim: keys: a graph of routing greedy (SWDC), or S2's\n");
		free(q);
		free(load1);
		free(loadd);
		free(dmin);
		return EXIT_USAGE;
	}
	if (d > DP_S2_SPACES_MAX)
		d = DP_S2_SPACES_MAX;
	ld = lattice_dist(g, q);
	rnd_seed(o->seed ^ 0x6b6579);
	for (u32 i = 0; i < o->keys; i++) {
		char key[32];
		u32 x[DP_S2_SPACES_MAX], homes[DP_S2_SPACES_MAX], u, next, step;
		int len = snprintf(key, sizeof(key), "key%u", i);
		bool found = false;

		dp_s2_key_coords((const u8 *)key, len, d, x);
		for (u32 r = 0; r < d; r++) {
			const u16 *dt;
			u32 rr;

			homes[r] = (u32)(((u64)x[r] * n) >> 32);
			dt = ld + (size_t)homes[r] * n;
			u = rnd_below(n);
			while (u != homes[r] &&
			       (step = swdc_step(g, dt, u, o->rule, &next))) {
				u = next;
				store += step;
			}
			if (u != homes[r])
				bad++;
			for (rr = 0; rr < r && homes[rr] != homes[r]; rr++)
				;
			if (rr == r)
				loadd[homes[r]]++;
			stores++;
		}
		load1[homes[0]]++;
		for (u32 v = 0; v < n; v++) {
			dmin[v] = 0xffff;
			for (u32 r = 0; r < d; r++)
				if (ld[(size_t)homes[r] * n + v] < dmin[v])
					dmin[v] = ld[(size_t)homes[r] * n + v];
		}
		u = rnd_below(n);
		while (dmin[u] && (step = swdc_step(g, dmin, u, o->rule, &next))) {
			u = next;
			ret += step;
		}
		for (u32 r = 0; r < d; r++)
			found |= u == homes[r];
		if (!found)
			bad++;
	}
	for (u32 v = 0; v < n; v++) {
		if (load1[v] > max1)
			max1 = load1[v];
		if (loadd[v] > maxd)
			maxd = loadd[v];
	}
	if (!o->json)
		printf("graph %s (switches %u, routing greedy, rule %s): %u keys stored and retrieved, %u replicas\n",
		       o->file, n, rule_names[o->rule], o->keys, d);
	out_num(o, &first, "switches", n, 0);
	out_num(o, &first, "keys", o->keys, 0);
	out_num(o, &first, "d", d, 0);
	out_num(o, &first, "store_avg_hops", store / stores, 4);
	out_num(o, &first, "retrieve_avg_hops", ret / o->keys, 4);
	out_num(o, &first, "not_home", bad, 0);
	out_num(o, &first, "load_mean", (double)o->keys / n, 2);
	out_num(o, &first, "load_max_1space", max1, 0);
	out_num(o, &first, "load_max_dspaces_per_replica", maxd / (double)d, 2);
	out_end(o, first);
	free(q);
	free(ld);
	free(dmin);
	free(load1);
	free(loadd);
	return bad ? 1 : 0;
}

/*
 * Fig. 19/20: o->keys keys ("key<i>"), each stored with d replicas (home
 * of space r, 0 <= r < d, reached by greedy routing on space r alone),
 * retrieved from a random switch by greediest routing over the first d
 * spaces; the retrieval must end on one of the key's homes.
 */
int s2_keys(struct s2run *run, const struct opts *o)
{
	struct s2net *g = &run->g;
	u32 d = o->d ? o->d : 3, *load1 = xcalloc(g->n, sizeof(u32));
	u32 *loadd = xcalloc(g->n, sizeof(u32)), bad = 0;
	double store = 0, ret = 0, stores = 0;
	u32 max1 = 0, maxd = 0;
	bool first = true;

	if (g->routing[0]) {
		free(load1);
		free(loadd);
		return keys_baseline(run, o);
	}
	if (d > g->L)
		d = g->L;
	rnd_seed(o->seed ^ 0x6b6579);
	for (u32 i = 0; i < o->keys; i++) {
		char key[32];
		/* d >= 1 (every graph has a space): homes[0] is set */
		u32 x[DP_S2_SPACES_MAX], homes[DP_S2_SPACES_MAX] = { 0 }, end;
		int len = snprintf(key, sizeof(key), "key%u", i);
		bool found = false;

		dp_s2_key_coords((const u8 *)key, len, g->L, x);
		for (u32 r = 0; r < d; r++) {
			/* STORE(K, r): greedy on space r alone */
			homes[r] = home(g, x, r);
			store += route(g, rnd_below(g->n), x + r, r, 1,
				       o->rule, 0, &end);
			if (end != homes[r])
				bad++;
			if (r == 0 || homes[r] != homes[0])
				loadd[homes[r]]++;
			stores++;
		}
		load1[homes[0]]++;
		end = 0;
		ret += route(g, rnd_below(g->n), x, 0, d, o->rule, 0, &end);
		for (u32 r = 0; r < d; r++)
			found |= end == homes[r];
		if (!found)
			bad++;
	}
	for (u32 v = 0; v < g->n; v++) {
		if (load1[v] > max1)
			max1 = load1[v];
		if (loadd[v] > maxd)
			maxd = loadd[v];
	}
	out_title(run, o, "%u keys stored and retrieved on %u spaces, rule %s",
		  o->keys, d, rule_names[o->rule]);
	out_num(o, &first, "switches", g->n, 0);
	out_num(o, &first, "keys", o->keys, 0);
	out_num(o, &first, "d", d, 0);
	out_num(o, &first, "store_avg_hops", store / stores, 4);
	out_num(o, &first, "retrieve_avg_hops", ret / o->keys, 4);
	out_num(o, &first, "not_home", bad, 0);
	out_num(o, &first, "load_mean", (double)o->keys / g->n, 2);
	out_num(o, &first, "load_max_1space", max1, 0);
	out_num(o, &first, "load_max_dspaces_per_replica", maxd / (double)d, 2);
	out_end(o, first);
	free(load1);
	free(loadd);
	return bad ? 1 : 0;
}

static void print_plan(const struct s2net *g)
{
	printf("N %u\nL %u\n", g->n, g->L);
	for (u32 a = 0; a < g->n; a++)
		for (u32 i = 0; i < g->deg[a]; i++)
			if (g->adj[a * S2_DEG_MAX + i] > a)
				printf("E %u %u 1\n", a + 1,
				       g->adj[a * S2_DEG_MAX + i] + 1);
	for (u32 a = 0; a < g->n; a++) {
		printf("C %u", a);
		for (u32 sp = 0; sp < g->L; sp++)
			printf(" %llu", (unsigned long long)
			       (((u64)X(g, a)[sp] * 1000000ULL) >> 32));
		printf("\n");
	}
	for (u32 a = 0, h = 1; a < g->n; a++)
		for (u32 i = 0; i < g->hosts[a]; i++, h++)
			printf("H %u %u %u\n", h, a + 1, h);
}

/*
 * The network as Graphviz DOT: switches (with their server count) and
 * cables, and @path (@len switches) in red, its hops numbered; a failed
 * switch (@down, may be NULL) grey and dashed, a failed cable dashed, as
 * dp_plan_dot() draws the other topologies' failures.  The coordinates
 * place nothing: Space Shuffle's layout is the circle of space 0, which
 * neato approximates well enough for a few dozen switches.
 */
static void print_dot(const struct s2net *g, const u32 *path, u32 len,
		      const u8 *down)
{
	bool failures = false;

	for (u32 a = 0; a < g->n; a++)
		for (u32 i = 0; i < g->deg[a]; i++)
			failures |= g->dead[a * S2_DEG_MAX + i];
	printf("graph \"Space Shuffle\" {\n\tgraph [label=\"Space Shuffle: "
	       "%u switches, %u spaces%s\", labelloc=t, fontname=Helvetica, "
	       "layout=circo];\n\tnode [fontname=Helvetica, fontsize=10, "
	       "shape=ellipse, style=filled, fillcolor=lightblue];\n"
	       "\tedge [color=gray40];\n", g->n, g->L, !path ? "" :
	       failures ? ", a path around the failures (dashed)" : ", a path");
	for (u32 a = 0; a < g->n; a++)
		printf("\t\"%u\" [label=\"%u (%u servers)\"%s%s];\n", a, a,
		       g->hosts[a], path && (a == path[0] || a == path[len - 1]) ?
		       ", color=red, penwidth=2" : "", down && down[a] ?
		       ", style=\"filled,dashed\", fillcolor=gray80" : "");
	for (u32 a = 0; a < g->n; a++)
		for (u32 i = 0; i < g->deg[a]; i++) {
			u32 b = g->adj[a * S2_DEG_MAX + i], hop = 0;

			if (b < a)
				continue;
			for (u32 j = 0; path && j + 1 < len; j++)
				if ((path[j] == a && path[j + 1] == b) ||
				    (path[j] == b && path[j + 1] == a))
					hop = j + 1;
			printf("\t\"%u\" -- \"%u\"", a, b);
			if (hop)
				printf(" [color=red, penwidth=3, fontcolor=red, "
				       "label=\"%u\"]", hop);
			else if (g->dead[a * S2_DEG_MAX + i])
				printf(" [style=dashed, color=gray70]");
			printf(";\n");
		}
	printf("}\n");
}

/* Mark both directions of every cable of @a (to @b, or all when -1). */
static void fail_cables(struct s2net *g, u32 a, u32 b)
{
	for (u32 i = 0; i < g->deg[a]; i++) {
		u32 w = g->adj[a * S2_DEG_MAX + i];

		if (b != 0xffffffffU && w != b)
			continue;
		g->dead[a * S2_DEG_MAX + i] = 1;
		for (u32 j = 0; j < g->deg[w]; j++)
			if (g->adj[w * S2_DEG_MAX + j] == a)
				g->dead[w * S2_DEG_MAX + j] = 1;
	}
}

/*
 * A node id in @p (its address, or #id as any topology's): the id, or
 * 0xffffffff when none below the graph's size; *@e after it.
 */
static u32 fail_id(const struct s2net *g, const char *p, char **e)
{
	unsigned long v;

	p += *p == '#';
	if (!isdigit((unsigned char)*p)) {
		*e = (char *)p;
		return 0xffffffffU;
	}
	v = strtoul(p, e, 10);
	return v < g->n ? (u32)v : 0xffffffffU;
}

/*
 * --fail @spec, the topology's failure list: "A" a switch (every cable
 * of it fails, and @down[A] is set), "A/P" the link on its port P (as
 * every topology's ADDR/PORT), "A-B" the cable between two; commas
 * between.  Returns 0, or 2 (usage) after saying what is wrong.
 */
static int parse_fail(struct s2net *g, const char *spec, u8 *down)
{
	const char *p = spec;

	while (p && *p) {
		char *e;
		u32 a = fail_id(g, p, &e), b = 0xffffffffU, i;
		unsigned long port;

		if (a == 0xffffffffU)
			goto bad;
		if (*e == '-') {
			b = fail_id(g, e + 1, &e);
			if (b == 0xffffffffU)
				goto bad;
		} else if (*e == '/') {
			p = e + 1;
			port = isdigit((unsigned char)*p) ?
			       strtoul(p, &e, 10) : ~0UL;
			for (i = 0; i < g->deg[a]; i++)
				if (g->port[a * S2_DEG_MAX + i] == port)
					break;
			if (i == g->deg[a])
				goto bad;
			b = g->adj[a * S2_DEG_MAX + i];
		} else {
			down[a] = 1;
		}
		fail_cables(g, a, b);
		if (*e && *e != ',')
			goto bad;
		p = *e ? e + 1 : e;
	}
	return 0;
bad:
	fprintf(stderr, "dpsim: bad --fail '%s' (A, A/PORT or A-B, commas)\n",
		spec);
	return 2;
}

/*
 * One flow's path, hop by hop (the first hop hashed as Algorithm 2), with
 * the switches and cables of --fail failed: the live neighbours (Hellos)
 * route around them, as the kernel does (through its routing core, where
 * the fabric is one the kernel builds).
 */
int s2_route(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u32 d = o->d && o->d < g->L ? o->d : g->L, *path, len;
	struct s2core c;
	bool ok;
	u8 *down;
	int rc;

	if (o->from_id >= g->n || o->to_id >= g->n) {
		fprintf(stderr, "dpsim: --from/--to must be below %u\n", g->n);
		return 2;
	}
	down = xcalloc(g->n, 1);
	rc = parse_fail(g, o->fail, down);
	if (!rc && (down[o->from_id] || down[o->to_id])) {
		fprintf(stderr, "dpsim: --from/--to is a failed switch\n");
		rc = 2;
	}
	if (!rc)
		rc = s2core_open(&c, r, o, "route");
	if (rc) {
		free(down);
		return rc;
	}
	s2core_fail(&c, g, down);
	path = xcalloc(g->n + 1, sizeof(*path));
	ok = s2_walk(&c, g, o->rule, o->from_id, o->to_id, d, o->hash, g->n, path,
		     &len);
	if (o->dot) {
		print_dot(g, path, len, down);
	} else {
		for (u32 i = 0; i < len; i++)
			printf(i ? " %u" : "%u", path[i]);
		printf("\n%s in %u hops\n", ok ? "delivered" : "stuck", len - 1);
	}
	free(path);
	s2core_free(&c);
	free(down);
	return ok ? 0 : 1;
}

/*
 * "locate --key K --from A": the key's retrieve from switch @from (every
 * switch: 0xffffffff), greediest routing over all L spaces with --mode
 * until no candidate is closer (as route() above: the simulator's own
 * candidate lists, not the kernel's dp_s2_route()): "from A home H hops
 * N path A .. H", one line per source, which the guest suite compares
 * with where the kernel delivers a packet sent to the key address.
 */
static int key_from(const struct s2net *g, const struct opts *o,
		    const u32 *x, u32 from)
{
	struct dp_s2_cand c[S2_CAND_MAX];
	u32 nb1[S2_DEG_MAX];

	if (from != 0xffffffffU && from >= g->n) {
		fprintf(stderr, "dpsim: --from must be below %u\n", g->n);
		return 2;
	}
	u32 *path = calloc(g->n + 1, sizeof(*path));

	if (!path)
		return 1;
	for (u32 s = 0; s < g->n; s++) {
		u32 u = s, hops = 0, end;

		if (from != 0xffffffffU && s != from)
			continue;
		path[0] = u;
		while (hops < g->n) {
			int k = dp_s2_greedy(X(g, u), x, g->L, c,
					     cands(g, u, 0, c, nb1), o->rule,
					     NULL);

			if (k < 0)
				break;
			u = nb1[k];
			path[++hops] = u;
		}
		end = u;
		printf("from %u home %u hops %u path", s, end, hops);
		for (u32 i = 0; i <= hops; i++)
			printf(" %u", path[i]);
		putchar('\n');
	}
	free(path);
	return 0;
}

/*
 * The outcome of @s to @t over every flow hash, as the kernel's data path
 * sends (the first hop hashed over the live neighbours closer to @t, the
 * paper's Algorithm 2, then greediest routing): "delivered" when every
 * choice arrives, "dropped" when none does, else "mixed" (it depends on
 * the flow).
 */
static const char *s2_mp_outcome(const struct s2net *g, u32 s, u32 t,
				 u32 d, u32 rule)
{
	struct dp_s2_cand c[S2_CAND_MAX];
	u32 nb1[S2_DEG_MAX], n, k, cnt = 0, ok = 0, end;
	u32 ms = dp_s2_mcd(X(g, s), X(g, t), d);

	n = cands(g, s, 0, c, nb1);
	for (k = 0; k < n; k++) {
		if (c[k].two_hop || dp_s2_mcd(c[k].x, X(g, t), d) >= ms)
			continue;
		cnt++;
		if (nb1[k] == t) {
			ok++;
			continue;
		}
		route(g, nb1[k], X(g, t), 0, d, rule, 0, &end);
		ok += end == t;
	}
	if (!cnt) {
		route(g, s, X(g, t), 0, d, rule, 0, &end);
		cnt = 1;
		ok = end == t;
	}
	return ok == cnt ? "delivered" : ok ? "mixed" : "dropped";
}

/*
 * Every ordered pair of live switches, as the kernel routes it with the
 * failures of --fail ("A" a switch, "A-B" the cable between two; commas
 * between): "SRC DST delivered|dropped HOPS PATH", PATH comma-separated.
 */
int s2_pairs(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u8 *down = xcalloc(g->n, 1);
	u32 d = o->d && o->d < g->L ? o->d : g->L;
	u32 cap = g->n < 255 ? g->n : 255, path[256], len;
	struct s2core c;
	bool ok;

	if (parse_fail(g, o->fail, down)) {
		free(down);
		return 2;
	}
	if (s2core_open(&c, r, o, "pairs")) {
		free(down);
		return 2;
	}
	s2core_fail(&c, g, down);
	for (u32 s = 0; s < g->n; s++) {
		for (u32 t = 0; t < g->n; t++) {
			if (s == t || down[s] || down[t])
				continue;
			ok = s2_walk(&c, g, o->rule, s, t, d, 0, cap, path,
				     &len);
			pairs_line(NULL, s, t, o->multipath ?
				   s2_mp_outcome(g, s, t, d, o->rule) :
				   ok ? "delivered" : "dropped", len - 1,
				   path, len);
		}
	}
	s2core_free(&c);
	free(down);
	return 0;
}

static void print_path(const char *who, const u32 *path, u32 len, bool ok)
{
	fprintf(stderr, "  %s (%s):", who, ok ? "delivered" : "not delivered");
	for (u32 i = 0; i < len; i++)
		fprintf(stderr, " %u", path[i]);
	fputc('\n', stderr);
}

/*
 * compare: route every ordered pair of the plan @p (the graph @g made
 * from it) through the kernel's routing core (dp_walk() on a plan-mode
 * topology with the plan as its table: the view answers coordinates and
 * peers as Hellos would, the frame carries dst's coordinates) and through
 * the simulator's own greedy (dp_s2_greedy() over cands()), under each
 * rule and (multipath) with the 2hop rule's first hop hashed over the
 * closer neighbours (Algorithm 2, three flow hashes), with a fraction
 * --fail-links of the cables failed; the two must take the same path,
 * hop for hop, and agree on delivery.  Exit 1 on any
 * difference (the first one is shown on stderr), or when a node is not
 * cabled to a ring neighbour (ring_missing: a broken plan).
 */
/* compare's two routers and where they stand. */
struct cmp_ctx {
	struct s2core c;	/* the core on the plan */
	u32 failed;		/* cables failed (--fail-links) */
	struct dp_walk w;	/* the core's walk */
	u32 *sp;		/* the simulator's path */
	bool first, shown;
};

/*
 * The core's topology on plan @p, and --fail-links' failures in @g and in
 * the core's failure set alike.  0, or an exit status.
 */
static int cmp_setup(struct cmp_ctx *x, struct s2run *r,
		     const struct opts *o)
{
	struct s2net *g = &r->g;
	int rc = s2core_fabric(&x->c, r, o, "compare");

	if (rc)
		return rc;
	x->sp = xcalloc(g->n + 1, sizeof(u32));
	x->w.path = xcalloc(DP_TTL_MAX + 2, sizeof(u32));
	x->w.path_max = DP_TTL_MAX + 2;
	if (o->fail_frac > 0 || o->fail_links) {
		double frac;

		rnd_seed(o->seed ^ 0x51f7);
		x->failed = fail_links(g, o, &frac);
		s2core_fail(&x->c, g, NULL);
	}
	return 0;
}

/*
 * Case @c of compare: rule @c, or (c == DP_S2_RULE_COUNT) "multipath",
 * the 2hop rule with 3 flow hashes.  Prints its figures; the number of
 * pairs that differ (a rule the core lacks counts one).
 */
static u32 cmp_case(struct cmp_ctx *x, const struct s2net *g, u32 c,
		    const struct opts *o)
{
	static const u32 hashes[] = { 1, 977, 40000 };
	u32 r = c < DP_S2_RULE_COUNT ? c : DP_S2_RULE_2HOP_PAPER;
	u32 nh = c < DP_S2_RULE_COUNT ? 1 : sizeof(hashes) / sizeof(*hashes);
	const char *name = c < DP_S2_RULE_COUNT ? rule_names[r] : "multipath";
	double hc = 0, hs = 0, pairs = 0, dc = 0, ds = 0;
	int sel = core_sel(x->c.t, r);
	struct dp_walk *w = &x->w;
	u32 differ = 0, lens;
	char k[64];

	if (sel < 0) {
		fprintf(stderr, "dpsim: compare: the core has no rule %s\n",
			rule_names[r]);
		return 1;
	}
	for (u32 pi = 0; pi < g->n * g->n * nh; pi++) {
		u32 s = pi / nh / g->n, d = pi / nh % g->n;
		u32 hash = c < DP_S2_RULE_COUNT ? 0 : hashes[pi % nh];
		bool ok, same;

		if (s == d)
			continue;
		pairs++;
		ok = sim_walk(g, s, d, g->L, r, hash, g->n, x->sp, &lens);
		dp_walk(x->c.t, s, d, (u32)sel, hash,
			x->failed ? &x->c.fs : NULL, x->c.t->max_hops, w);
		same = ok == w->delivered && !w->bad_hop &&
		       !w->looped && lens == w->path_len &&
		       !memcmp(x->sp, w->path, lens * sizeof(u32));
		if (ok) {
			ds++;
			hs += lens - 1;
		}
		if (w->delivered) {
			dc++;
			hc += w->hops;
		}
		if (same)
			continue;
		differ++;
		if (x->shown)
			continue;
		x->shown = true;
		fprintf(stderr, "dpsim: compare: %u -> %u (%s, hash %u) differs%s%s\n",
			s, d, name, hash,
			w->bad_hop ? ": the core took a hop off the plan's cabling" : "",
			w->looped ? ": the core's TTL expired" : "");
		print_path("s2sim", x->sp, lens, ok);
		print_path("core", w->path, w->path_len, w->delivered);
	}
	snprintf(k, sizeof(k), "%s_pairs", name);
	out_num(o, &x->first, k, pairs, 0);
	snprintf(k, sizeof(k), "%s_differ", name);
	out_num(o, &x->first, k, differ, 0);
	snprintf(k, sizeof(k), "%s_core_delivered", name);
	out_num(o, &x->first, k, dc, 0);
	snprintf(k, sizeof(k), "%s_sim_delivered", name);
	out_num(o, &x->first, k, ds, 0);
	snprintf(k, sizeof(k), "%s_core_avg", name);
	out_num(o, &x->first, k, dc ? hc / dc : 0, 4);
	snprintf(k, sizeof(k), "%s_sim_avg", name);
	out_num(o, &x->first, k, ds ? hs / ds : 0, 4);
	return differ;
}

static int cmd_compare(struct s2run *r, const struct opts *o)
{
	const struct dp_s2gen *p = &r->fab.pg;
	struct s2net *g = &r->g;
	struct cmp_ctx x = { .first = true };
	u32 differ_all = 0;
	int rc;

	rc = cmp_setup(&x, r, o);
	if (rc) {
		s2core_free(&x.c);
		return rc;
	}
	out_title(r, o, "every ordered pair through the kernel's core and the simulator, each rule; %u failed cables",
		  x.failed);
	out_num(o, &x.first, "nodes", g->n, 0);
	out_num(o, &x.first, "ports", p->ports, 0);
	out_num(o, &x.first, "spaces", p->spaces, 0);
	out_num(o, &x.first, "failed_links", x.failed, 0);
	/* each rule, then "multipath": the 2hop rule with 3 flow hashes */
	for (u32 c = 0; c <= DP_S2_RULE_COUNT; c++)
		differ_all += cmp_case(&x, g, c, o);
	/* every node cabled to its ring neighbours (greedy's guarantee) */
	out_num(o, &x.first, "ring_missing", dp_s2gen_ring_missing(p), 0);
	out_end(o, x.first);
	free(x.sp);
	free(x.w.path);
	s2core_free(&x.c);
	return differ_all || dp_s2gen_ring_missing(p) ? 1 : 0;
}

/* The simulator's rule named @name, or -1. */
int s2_rule_parse(const char *name)
{
	for (u32 r = 0; r < DP_S2_RULE_COUNT; r++)
		if (!strcmp(name, rule_names[r]))
			return (int)r;
	return -1;
}

/*
 * plan of the paper's graph: the graph in the authors' .Topo format
 * (after --grow: grown, as section 3.3 adds switches) or as DOT.  (A
 * fabric the kernel builds is the core's plan: cmd_s2_plan(), dpsim.c.)
 */
int s2_plan(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u32 rem = 0, add = 0;
	struct dp_s2gen p;

	if (o->grow) {
		if (gen_from_net(&p, g, o->grow, o->n - o->servers))
			return 1;
		rnd_seed(o->seed ^ DP_S2PLAN_GROW_SALT);
		dp_s2gen_grow(&p, &rng, o->grow, &rem, &add);
		net_free(g);
		net_from_gen(g, &p, o->servers);
		dp_s2gen_free(&p);
		fprintf(stderr, "grow: %u switches, %u cables removed, %u added\n",
			o->grow, rem, add);
	}
	if (o->dot)
		print_dot(g, NULL, 0, NULL);
	else
		print_plan(g);
	return 0;
}

int s2_compare(struct s2run *r, const struct opts *o)
{
	if (r->fab.plan)
		return cmd_compare(r, o);
	fprintf(stderr, "dpsim: compare routes a plan: --fabric plan or --plan FILE\n");
	return 2;
}

/* locate --key K: the key's homes; --from: its retrieve path from there. */
int s2_locate(struct s2run *r, const struct opts *o)
{
	struct s2net *g = &r->g;
	u32 x[DP_S2_SPACES_MAX];

	if (!o->key)
		return usage(stderr, EXIT_USAGE);
	dp_s2_key_coords((const u8 *)o->key, strlen(o->key), g->L, x);
	for (u32 sp = 0; sp < g->L; sp++)
		printf("space %u coord %u home %u\n", sp, x[sp],
		       home(g, x, sp));
	return o->from_all || o->from_id != 0xffffffffU ?
	       key_from(g, o, x, o->from_all ? 0xffffffffU : o->from_id) : 0;
}

int s2_run(s2_cmd_fn *fn, const struct opts *o)
{
	struct s2run r = { 0 };
	int rc;

	if (o->plan_file || o->plan_mode) {
		/* every port a cable port: --servers does not apply */
		rc = s2_fabric_plan(&r.fab, o);
		if (rc)
			return rc;
		net_from_gen(&r.g, &r.fab.pg, 0);
	} else if (s2_kernel_fabric(o)) {
		rc = s2_fabric_topo(&r.fab, o, NULL);
		if (rc)
			return rc;
		net_from_derived(&r.g, &r.fab.t, o, r.fab.spaces);
	} else if (o->file ? load_topo(&r.g, o->file) : gen_net(&r.g, o)) {
		return o->file ? 1 : 2;
	}
	if (r.g.routing[0] && fn && fn != s2_ft && fn != s2_keys) {
		fprintf(stderr, "dpsim: %s: a baseline's graph (routing %s): ft and keys only\n",
			o->file, r.g.routing);
		rc = EXIT_USAGE;
	} else {
		rc = fn ? fn(&r, o) : usage(stderr, EXIT_USAGE);
	}
	net_free(&r.g);
	s2_fabric_free(&r.fab);
	return rc;
}
