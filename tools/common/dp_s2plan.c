// SPDX-License-Identifier: GPL-2.0
/*
 * dp_s2plan.c - Space Shuffle plans (dp_s2plan.h): generation, growth
 * and the plan document of dpctl plan and dpsim plan (S2 plan mode).
 *
 * Ports are kept stable: a cable takes the lowest free port of each end
 * and a removed cable frees its two ports, so that growing a plan
 * changes no cable but those the paper's section 3.3 rewires, and an
 * operator moves only those.  A fabric generated without growth has its
 * cables on ports in the order they were made, which is the order of the
 * simulator's adjacency lists: routing ties break the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "dp_json.h"
#include "dp_s2plan.h"
#include "topo_s2.h"

void dp_s2rng_seed(struct dp_s2rng *r, u32 seed)
{
	r->s = 0x9e3779b97f4a7c15ULL ^ ((u64)seed << 1) ^ 1;
	for (int i = 0; i < 8; i++)
		dp_s2rng_next(r);
}

u32 dp_s2rng_next(struct dp_s2rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (u32)(r->s >> 16);
}

u32 dp_s2rng_below(struct dp_s2rng *r, u32 n)
{
	return (u32)(((u64)dp_s2rng_next(r) * n) >> 32);
}

int dp_s2gen_alloc(struct dp_s2gen *g, u32 max, u32 spaces, u32 ports)
{
	memset(g, 0, sizeof(*g));
	g->max = max;
	g->spaces = spaces;
	g->ports = ports;
	g->x = calloc((size_t)max * spaces + 1, sizeof(u32));
	g->peer = malloc(((size_t)max * ports + 1) * sizeof(u32));
	g->pport = calloc((size_t)max * ports + 1, 1);
	if (!g->x || !g->peer || !g->pport) {
		dp_s2gen_free(g);
		return -ENOMEM;
	}
	memset(g->peer, 0xff, ((size_t)max * ports + 1) * sizeof(u32));
	return 0;
}

void dp_s2gen_free(struct dp_s2gen *g)
{
	free(g->x);
	free(g->peer);
	free(g->pport);
	g->x = NULL;
	g->peer = NULL;
	g->pport = NULL;
}

int dp_s2gen_copy(struct dp_s2gen *dst, const struct dp_s2gen *src)
{
	if (dp_s2gen_alloc(dst, src->max, src->spaces, src->ports))
		return -ENOMEM;
	dst->n = src->n;
	dst->seed = src->seed;
	memcpy(dst->x, src->x, (size_t)src->max * src->spaces * sizeof(u32));
	memcpy(dst->peer, src->peer, (size_t)src->max * src->ports * sizeof(u32));
	memcpy(dst->pport, src->pport, (size_t)src->max * src->ports);
	return 0;
}

static u32 *gen_x(const struct dp_s2gen *g, u32 v)
{
	return g->x + (size_t)v * g->spaces;
}

u32 dp_s2gen_deg(const struct dp_s2gen *g, u32 v)
{
	u32 p, d = 0;

	for (p = 0; p < g->ports; p++)
		d += g->peer[v * g->ports + p] != DP_NODE_NONE;
	return d;
}

bool dp_s2gen_linked(const struct dp_s2gen *g, u32 a, u32 b)
{
	for (u32 p = 0; p < g->ports; p++)
		if (g->peer[a * g->ports + p] == b)
			return true;
	return false;
}

static int gen_free_port(const struct dp_s2gen *g, u32 v)
{
	for (u32 p = 0; p < g->ports; p++)
		if (g->peer[v * g->ports + p] == DP_NODE_NONE)
			return (int)p;
	return -1;
}

int dp_s2gen_link(struct dp_s2gen *g, u32 a, u32 b)
{
	int pa, pb;

	if (a == b || dp_s2gen_linked(g, a, b))
		return 0;
	pa = gen_free_port(g, a);
	pb = gen_free_port(g, b);
	if (pa < 0 || pb < 0)
		return -1;
	g->peer[a * g->ports + pa] = b;
	g->pport[a * g->ports + pa] = (u8)pb;
	g->peer[b * g->ports + pb] = a;
	g->pport[b * g->ports + pb] = (u8)pa;
	return 1;
}

void dp_s2gen_unlink(struct dp_s2gen *g, u32 a, u32 b)
{
	for (u32 p = 0; p < g->ports; p++) {
		if (g->peer[a * g->ports + p] == b)
			g->peer[a * g->ports + p] = DP_NODE_NONE;
		if (g->peer[b * g->ports + p] == a)
			g->peer[b * g->ports + p] = DP_NODE_NONE;
	}
}

void dp_s2gen_place(struct dp_s2gen *g, struct dp_s2rng *r, u32 v, u32 sp)
{
	u64 bestgap = 0, lo = 0, m, span;

	if (v == 0) {
		g->x[sp] = dp_s2rng_next(r);
		return;
	}
	for (u32 u = 0; u < v; u++) {
		/* gap clockwise from u to the next placed node */
		u64 a = gen_x(g, u)[sp], nxt = 1ULL << 32;

		for (u32 w = 0; w < v; w++) {
			u64 dd = ((u64)gen_x(g, w)[sp] - a) & 0xffffffffULL;

			if (w != u && dd && dd < nxt)
				nxt = dd;
		}
		if (nxt > bestgap) {
			bestgap = nxt;
			lo = a;
		}
	}
	m = (1ULL << 32) / (3 * v) + 1;
	span = bestgap > 2 * m ? bestgap - 2 * m : 1;
	gen_x(g, v)[sp] = (u32)(lo + m + ((u64)dp_s2rng_next(r) * span >> 32));
}

/* Sorted ring order of nodes 0..n-1 in space @sp. */
static void ring_order(const struct dp_s2gen *g, u32 sp, u32 *o)
{
	for (u32 i = 0; i < g->n; i++) {
		u32 j = i;

		while (j && gen_x(g, o[j - 1])[sp] > gen_x(g, i)[sp]) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = i;
	}
}

void dp_s2gen_cable(struct dp_s2gen *g, struct dp_s2rng *r)
{
	u32 *o = calloc(g->n + 1, sizeof(u32)), n = g->n;

	if (!o)
		return;
	for (u32 sp = 0; sp < g->spaces; sp++) {
		ring_order(g, sp, o);
		for (u32 i = 0; i < n && n > 1; i++)
			dp_s2gen_link(g, o[i], o[(i + 1) % n]);
	}
	free(o);
	/* Spare ports paired at random (the paper's section 3.1). */
	for (u32 tries = 0; tries < 100 * n; tries++) {
		u32 fr[1024], nf = 0, a, b;

		for (u32 v = 0; v < n && nf < 1024; v++)
			if (dp_s2gen_deg(g, v) < g->ports)
				fr[nf++] = v;
		if (nf < 2)
			break;
		/* the draw order of the simulator's first version */
		b = fr[dp_s2rng_below(r, nf)];
		a = fr[dp_s2rng_below(r, nf)];
		dp_s2gen_link(g, a, b);
	}
}

/* Ring neighbours of @v in space @sp: *@l before it, *@r after it. */
static void ring_nb(const struct dp_s2gen *g, u32 v, u32 sp, u32 *l, u32 *r)
{
	u32 bl = 0xffffffffU, br = 0xffffffffU;

	*l = v;
	*r = v;
	for (u32 u = 0; u < g->n; u++) {
		u32 a = gen_x(g, v)[sp] - gen_x(g, u)[sp];
		u32 b = gen_x(g, u)[sp] - gen_x(g, v)[sp];

		if (u == v)
			continue;
		if (a && a < bl) {
			bl = a;
			*l = u;
		}
		if (b && b < br) {
			br = b;
			*r = u;
		}
	}
}

static bool ring_adjacent(const struct dp_s2gen *g, u32 a, u32 b)
{
	for (u32 sp = 0; sp < g->spaces; sp++) {
		u32 l, r;

		ring_nb(g, a, sp, &l, &r);
		if (l == b || r == b)
			return true;
	}
	return false;
}

/*
 * Free a port of @u by dropping one of its cables that no ring needs,
 * chosen at random.  @u has at most 2L - 1 cabled ring neighbours besides
 * the new node and 2L <= ports, so a full @u always has one.
 */
static bool free_a_port(struct dp_s2gen *g, struct dp_s2rng *r, u32 u)
{
	u32 cand[DP_MAX_PORTS], nc = 0, p, w;

	for (p = 0; p < g->ports; p++) {
		w = g->peer[u * g->ports + p];
		if (w != DP_NODE_NONE && !ring_adjacent(g, u, w))
			cand[nc++] = w;
	}
	if (!nc)
		return false;
	dp_s2gen_unlink(g, u, cand[dp_s2rng_below(r, nc)]);
	return true;
}

/*
 * The new node's ports left after its rings go to random nodes with a
 * free port (those whose cable the rings took, most likely), as the
 * first nodes' spare ports were paired: no port stays idle that a cable
 * could use.  Returns the cables added.
 */
static u32 pair_spare(struct dp_s2gen *g, struct dp_s2rng *r, u32 v)
{
	u32 *fr = calloc(g->n + 1, sizeof(u32)), nf, u, added = 0;

	if (!fr)
		return 0;
	while (dp_s2gen_deg(g, v) < g->ports) {
		nf = 0;
		for (u = 0; u < g->n; u++)
			if (u != v && dp_s2gen_deg(g, u) < g->ports &&
			    !dp_s2gen_linked(g, v, u))
				fr[nf++] = u;
		if (!nf)
			break;
		dp_s2gen_link(g, v, fr[dp_s2rng_below(r, nf)]);
		added++;
	}
	free(fr);
	return added;
}

void dp_s2gen_grow(struct dp_s2gen *g, struct dp_s2rng *r, u32 m,
		   u32 *removed, u32 *added)
{
	u32 n0 = g->n;

	*removed = 0;
	*added = 0;
	for (u32 v = n0; v < n0 + m && v < g->max; v++) {
		for (u32 sp = 0; sp < g->spaces; sp++)
			dp_s2gen_place(g, r, v, sp);
		g->n = v + 1;
		for (u32 sp = 0; sp < g->spaces; sp++) {
			u32 l, rr;

			ring_nb(g, v, sp, &l, &rr);
			if (dp_s2gen_linked(g, l, rr) &&
			    !ring_adjacent(g, l, rr)) {
				dp_s2gen_unlink(g, l, rr);
				(*removed)++;
			}
			for (int k = 0; k < 2; k++) {
				u32 u = k ? rr : l;

				if (u == v || dp_s2gen_linked(g, v, u))
					continue;
				if (dp_s2gen_deg(g, u) >= g->ports &&
				    free_a_port(g, r, u))
					(*removed)++;
				if (dp_s2gen_link(g, v, u) > 0)
					(*added)++;
			}
		}
		*added += pair_spare(g, r, v);
	}
}

u32 dp_s2gen_ring_missing(const struct dp_s2gen *g)
{
	u32 v, sp, l, rr, miss = 0;

	for (v = 0; v < g->n; v++)
		for (sp = 0; sp < g->spaces; sp++) {
			ring_nb(g, v, sp, &l, &rr);
			miss += l != v && !dp_s2gen_linked(g, v, l);
			miss += rr != v && !dp_s2gen_linked(g, v, rr);
		}
	return miss;
}

int dp_s2plan_make(struct dp_s2gen *g, struct dp_s2gen *before, u32 nodes,
		   u32 ports, u32 spaces, u32 seed, u32 grow,
		   const char **why)
{
	struct dp_s2rng r;
	int err;

	if (nodes < 3 || grow > DP_S2_TTL_NODES_MAX ||
	    nodes + grow > DP_S2_TTL_NODES_MAX) {
		*why = "plan mode takes 3 to 255 nodes, grown ones included";
		return -EINVAL;
	}
	if (!spaces || spaces > DP_S2_SPACES_MAX) {
		*why = "spaces must be 1 to 8";
		return -EINVAL;
	}
	if (ports > DP_MAX_PORTS || 2 * spaces > ports) {
		*why = "n (ports) must be at least 2 * spaces, at most 16";
		return -EINVAL;
	}
	if (dp_s2gen_alloc(g, nodes, spaces, ports))
		return -ENOMEM;
	g->seed = seed;
	g->n = nodes;
	dp_s2rng_seed(&r, seed);
	for (u32 sp = 0; sp < spaces; sp++)
		for (u32 v = 0; v < nodes; v++)
			dp_s2gen_place(g, &r, v, sp);
	dp_s2gen_cable(g, &r);
	if (!grow)
		return 0;
	err = dp_s2plan_grow(g, before, grow);
	if (err)
		dp_s2gen_free(g);
	return err;
}

int dp_s2plan_grow(struct dp_s2gen *g, struct dp_s2gen *before, u32 grow)
{
	struct dp_s2gen h;
	struct dp_s2rng r;
	u32 rm, add;

	if (g->n + grow > DP_S2_TTL_NODES_MAX)
		return -EINVAL;
	if (dp_s2gen_alloc(&h, g->n + grow, g->spaces, g->ports))
		return -ENOMEM;
	if (before && dp_s2gen_copy(before, g)) {
		dp_s2gen_free(&h);
		return -ENOMEM;
	}
	h.n = g->n;
	h.seed = g->seed;
	memcpy(h.x, g->x, (size_t)g->n * g->spaces * sizeof(u32));
	memcpy(h.peer, g->peer, (size_t)g->n * g->ports * sizeof(u32));
	memcpy(h.pport, g->pport, (size_t)g->n * g->ports);
	dp_s2gen_free(g);
	*g = h;
	dp_s2rng_seed(&r, g->seed ^ DP_S2PLAN_GROW_SALT);
	dp_s2gen_grow(g, &r, grow, &rm, &add);
	return 0;
}

/* Cables of @a that @b lacks, once each (a before b, by node then port). */
static u32 cables_minus(const struct dp_s2gen *a, const struct dp_s2gen *b,
			struct dp_s2cable *out)
{
	u32 v, p, w, k = 0;
	size_t i;

	for (v = 0; v < a->n; v++)
		for (p = 0; p < a->ports; p++) {
			i = (size_t)v * a->ports + p;
			w = a->peer[i];
			if (w == DP_NODE_NONE || w < v)
				continue;
			if (v < b->n && b->peer[i] == w &&
			    b->pport[i] == a->pport[i])
				continue;
			out[k].a = v;
			out[k].ap = p;
			out[k].b = w;
			out[k].bp = a->pport[i];
			k++;
		}
	return k;
}

void dp_s2plan_diff(const struct dp_s2gen *before,
		    const struct dp_s2gen *after, struct dp_s2cable *rm,
		    u32 *nrm, struct dp_s2cable *add, u32 *nadd)
{
	*nrm = cables_minus(before, after, rm);
	*nadd = cables_minus(after, before, add);
}

static const char *const change_kind[2] = { "removed", "added" };

static void print_text(FILE *f, const struct dp_s2gen *g,
		       const struct dp_s2gen *before,
		       struct dp_s2cable *ch[2], const u32 *nch)
{
	u32 v, s, p;
	size_t i;

	fprintf(f, "# S2 plan (nodes %u, ports %u, spaces %u, seed %u",
		g->n, g->ports, g->spaces, g->seed);
	if (before)
		fprintf(f, ", grown from %u", before->n);
	fprintf(f, "): coords c/2^32 per space; ports PEER/PEER_PORT, - unused\n");
	for (v = 0; v < g->n; v++) {
		fprintf(f, "node %u coords", v);
		for (s = 0; s < g->spaces; s++)
			fprintf(f, "%c%u", s ? ',' : ' ', gen_x(g, v)[s]);
		fprintf(f, " ports");
		for (p = 0; p < g->ports; p++) {
			i = (size_t)v * g->ports + p;
			if (g->peer[i] == DP_NODE_NONE)
				fprintf(f, " -");
			else
				fprintf(f, " %u/%u", g->peer[i], g->pport[i]);
		}
		fputc('\n', f);
	}
	if (!before)
		return;
	fprintf(f, "# grown by %u nodes: %u cables removed, %u added\n",
		g->n - before->n, nch[0], nch[1]);
	for (int k = 0; k < 2; k++)
		for (i = 0; i < nch[k]; i++)
			fprintf(f, "%s %u/%u <-> %u/%u\n", change_kind[k],
				ch[k][i].a, ch[k][i].ap, ch[k][i].b,
				ch[k][i].bp);
}

static void print_csv(FILE *f, const struct dp_s2gen *g,
		      struct dp_s2cable *ch[2], const u32 *nch)
{
	u32 v, s, p;
	size_t i;

	fprintf(f, "kind,node,port,peer,peer_port,coords\n");
	for (v = 0; v < g->n; v++)
		for (p = 0; p < g->ports; p++) {
			i = (size_t)v * g->ports + p;
			if (g->peer[i] == DP_NODE_NONE)
				fprintf(f, "port,%u,%u,,,", v, p);
			else
				fprintf(f, "port,%u,%u,%u,%u,", v, p,
					g->peer[i], g->pport[i]);
			for (s = 0; s < g->spaces; s++)
				fprintf(f, "%s%u", s ? " " : "",
					gen_x(g, v)[s]);
			fputc('\n', f);
		}
	for (int k = 0; k < 2; k++)
		for (i = 0; i < nch[k]; i++)
			fprintf(f, "%s,%u,%u,%u,%u,\n", change_kind[k],
				ch[k][i].a, ch[k][i].ap, ch[k][i].b,
				ch[k][i].bp);
}

static void print_json(FILE *f, const struct dp_s2gen *g,
		       const struct dp_s2gen *before,
		       struct dp_s2cable *ch[2], const u32 *nch, bool pretty)
{
	u32 v, s, p;
	size_t i;

	json_init_file(f, pretty);
	json_open_obj(NULL);
	json_str("topo", "s2");
	json_str("mode", "plan");
	json_uint("nodes", g->n);
	json_uint("ports", g->ports);
	json_uint("spaces", g->spaces);
	json_uint("seed", g->seed);
	if (before)
		json_uint("grown_from", before->n);
	json_open_arr("plan");
	for (v = 0; v < g->n; v++) {
		json_open_obj(NULL);
		json_uint("node", v);
		json_open_arr("coords");
		for (s = 0; s < g->spaces; s++)
			json_uint(NULL, gen_x(g, v)[s]);
		json_close_arr();
		json_open_arr("ports");
		for (p = 0; p < g->ports; p++) {
			i = (size_t)v * g->ports + p;
			json_open_obj(NULL);
			json_uint("port", p);
			if (g->peer[i] == DP_NODE_NONE) {
				json_str("kind", "unused");
			} else {
				json_str("kind", "cable");
				json_uint("peer", g->peer[i]);
				json_uint("peer_port", g->pport[i]);
			}
			json_close_obj();
		}
		json_close_arr();
		json_close_obj();
	}
	json_close_arr();
	for (int k = 0; before && k < 2; k++) {
		json_open_arr(change_kind[k]);
		for (i = 0; i < nch[k]; i++) {
			json_open_obj(NULL);
			json_uint("a", ch[k][i].a);
			json_uint("a_port", ch[k][i].ap);
			json_uint("b", ch[k][i].b);
			json_uint("b_port", ch[k][i].bp);
			json_close_obj();
		}
		json_close_arr();
	}
	json_close_obj();
	json_end();
}

int dp_s2plan_print(FILE *f, const struct dp_s2gen *g,
		    const struct dp_s2gen *before, enum dp_plan_fmt fmt)
{
	size_t most = (size_t)g->max * g->ports / 2 + 1;
	struct dp_s2cable *ch[2] = { NULL, NULL };
	u32 nch[2] = { 0, 0 };

	if (before) {
		ch[0] = calloc(most, sizeof(*ch[0]));
		ch[1] = calloc(most, sizeof(*ch[1]));
		if (!ch[0] || !ch[1]) {
			free(ch[0]);
			free(ch[1]);
			return -ENOMEM;
		}
		dp_s2plan_diff(before, g, ch[0], &nch[0], ch[1], &nch[1]);
	}
	if (fmt == DP_PLAN_CSV)
		print_csv(f, g, ch, nch);
	else if (fmt == DP_PLAN_TEXT)
		print_text(f, g, before, ch, nch);
	else
		print_json(f, g, before, ch, nch, fmt == DP_PLAN_JSON_PRETTY);
	free(ch[0]);
	free(ch[1]);
	return 0;
}

/* One "node" line: its coordinates and its ports' peers. */
static int load_node(struct dp_s2gen *g, char *s, const char **why)
{
	u32 v, sp, p, w, q;
	char *e;

	v = strtoul(s + 5, &e, 10);
	if (e == s + 5 || v != g->n || v >= g->max || strncmp(e, " coords ", 8)) {
		*why = "node lines must come in id order, with coords";
		return -EINVAL;
	}
	s = e + 8;
	for (sp = 0; sp < g->spaces; sp++) {
		gen_x(g, v)[sp] = strtoul(s, &e, 0);
		if (e == s || *e != (sp + 1 < g->spaces ? ',' : ' ')) {
			*why = "node lines need one coordinate per space";
			return -EINVAL;
		}
		s = e + 1;
	}
	if (strncmp(s, "ports", 5)) {
		*why = "node lines need ports";
		return -EINVAL;
	}
	s += 5;
	for (p = 0; p < g->ports; p++) {
		while (*s == ' ')
			s++;
		if (*s == '-') {
			s++;
			continue;
		}
		w = strtoul(s, &e, 10);
		if (e == s || *e != '/')
			break;
		s = e + 1;
		q = strtoul(s, &e, 10);
		if (e == s || w >= g->max || w == v || q >= g->ports)
			break;
		s = e;
		g->peer[(size_t)v * g->ports + p] = w;
		g->pport[(size_t)v * g->ports + p] = (u8)q;
	}
	while (*s == ' ' || *s == '\n')
		s++;
	if (p < g->ports || *s) {
		*why = "node lines need PEER/PORT or - for every port";
		return -EINVAL;
	}
	g->n++;
	return 0;
}

/* Every cable named at both ends, the same way, and no node pair twice. */
static bool load_consistent(const struct dp_s2gen *g)
{
	for (u32 v = 0; v < g->n; v++)
		for (u32 p = 0; p < g->ports; p++) {
			size_t i = (size_t)v * g->ports + p, j;
			u32 w = g->peer[i];

			if (w == DP_NODE_NONE)
				continue;
			j = (size_t)w * g->ports + g->pport[i];
			if (w >= g->n || g->peer[j] != v || g->pport[j] != p)
				return false;
			/* two cables between the same nodes: not a plan's */
			for (j = 0; j < p; j++)
				if (g->peer[(size_t)v * g->ports + j] == w)
					return false;
		}
	return true;
}

int dp_s2plan_load(FILE *f, struct dp_s2gen *g, const char **why,
		   u32 *line)
{
	u32 nodes, ports, spaces, seed;
	char buf[1024];
	int err;

	*line = 1;
	if (!fgets(buf, sizeof(buf), f) ||
	    sscanf(buf, "# S2 plan (nodes %u, ports %u, spaces %u, seed %u",
		   &nodes, &ports, &spaces, &seed) != 4) {
		*why = "not an S2 plan (first line: \"# S2 plan (nodes ...\")";
		return -EINVAL;
	}
	if (nodes < 1 || nodes > DP_S2_TTL_NODES_MAX || !spaces ||
	    spaces > DP_S2_SPACES_MAX || ports > DP_MAX_PORTS ||
	    2 * spaces > ports) {
		*why = "bad nodes, ports or spaces";
		return -EINVAL;
	}
	if (dp_s2gen_alloc(g, nodes, spaces, ports))
		return -ENOMEM;
	g->seed = seed;
	while (fgets(buf, sizeof(buf), f)) {
		(*line)++;
		if (strncmp(buf, "node ", 5))
			continue;	/* comments, removed/added cables */
		err = load_node(g, buf, why);
		if (err) {
			dp_s2gen_free(g);
			return err;
		}
	}
	if (g->n != nodes || !load_consistent(g)) {
		*why = g->n != nodes ? "fewer node lines than nodes" :
		       "a cable is not named the same at both ends, or two join the same nodes";
		dp_s2gen_free(g);
		return -EINVAL;
	}
	return 0;
}
