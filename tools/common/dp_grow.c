// SPDX-License-Identifier: GPL-2.0
/*
 * dp_grow.c - growth order of a DPillar.
 *
 * A DPillar (n, k) whose labels only use the symbols 0..s-1 is a complete
 * DPillar (2s, k): each of its switches has 2s ports in use, and routing
 * in it is as short as in any DPillar of that size.  So the order grows
 * shell by shell: shell s holds the servers whose largest label symbol is
 * s, shell 0 being the k servers of label 0 (a ring).  Within a shell,
 * servers come in breadth-first order from the ones cabled to the shells
 * before it (one symbol equal to s, on a switch that varies exactly that
 * symbol), so every server added is one hop from a server already there
 * and every stage is connected.  Any prefix of the order is a complete
 * smaller DPillar plus part of the next shell, attached to it.
 */
#include <stdlib.h>

#include "dp_grow.h"
#include "dp_json.h"
#include "topo_dpillar.h"

static u32 dp_grow_maxsym(const struct dp_topo *t, u32 l, u32 *count)
{
	u32 i, v, max = 0, n = 0;

	for (i = 0; i < dpp(t)->k; i++) {
		v = l % dpp(t)->h;
		l /= dpp(t)->h;
		if (v > max) {
			max = v;
			n = 0;
		}
		if (v == max)
			n++;
	}
	*count = n;
	return max;
}

/* Is (c, l) in shell s cabled to a server of an earlier shell? */
static bool dp_grow_seed(const struct dp_topo *t, u32 id, u32 s)
{
	u32 c = id / dpp(t)->nlabels, l = id % dpp(t)->nlabels, cnt, i, cm;

	if (dp_grow_maxsym(t, l, &cnt) != s || cnt != 1)
		return false;
	cm = c ? c - 1 : dpp(t)->k - 1;
	for (i = 0; i < dpp(t)->k; i++, l /= dpp(t)->h)
		if (l % dpp(t)->h == s)
			return i == c || i == cm;
	return false;
}

int dp_grow_order(const struct dp_topo *t, u32 *order)
{
	u32 head, tail = 0, s, id, p, i, nb, cnt;
	u8 *in;

	if (t->kind != DP_TOPO_DPILLAR)
		return -EOPNOTSUPP;
	if (t->nodes > DP_GROW_MAX_NODES)
		return -E2BIG;
	in = calloc(t->nodes, 1);
	if (!in)
		return -ENOMEM;
	for (id = 0; id < t->nodes; id += dpp(t)->nlabels) {
		order[tail++] = id;
		in[id] = 1;
	}
	for (s = 1; s < dpp(t)->h; s++) {
		head = tail;
		for (id = 0; id < t->nodes; id++) {
			if (!in[id] && dp_grow_seed(t, id, s)) {
				order[tail++] = id;
				in[id] = 1;
			}
		}
		for (; head < tail; head++) {
			for (p = 0; p < t->nports; p++) {
				for (i = 0; i + 1 < dpp(t)->n; i++) {
					nb = dp_port_neigh(t, order[head], p, i);
					if (in[nb] || dp_grow_maxsym(t,
					    nb % dpp(t)->nlabels, &cnt) != s)
						continue;
					order[tail++] = nb;
					in[nb] = 1;
				}
			}
		}
	}
	free(in);
	return tail == t->nodes ? 0 : -EINVAL;
}

int dp_grow_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt)
{
	char a[DP_ADDR_TEXT_MAX];
	u32 *order, i;
	bool json;
	int err;

	order = malloc((size_t)t->nodes * sizeof(*order));
	if (!order)
		return -ENOMEM;
	err = dp_grow_order(t, order);
	if (err) {
		free(order);
		return err;
	}
	json = fmt == DP_PLAN_JSON || fmt == DP_PLAN_JSON_PRETTY;
	if (json) {
		/* [{rank, server}], through the one JSON writer (-p, escaping) */
		json_init_file(f, fmt == DP_PLAN_JSON_PRETTY);
		json_open_arr(NULL);
	} else if (fmt == DP_PLAN_CSV) {
		fprintf(f, "rank,server\n");
	} else {
		fprintf(f, "# growth order: populate the servers in this "
			"order\n# rank server\n");
	}
	for (i = 0; i < t->nodes; i++) {
		dp_addr_format(t, order[i], a, sizeof(a));
		if (json) {
			json_open_obj(NULL);
			json_uint("rank", i + 1);
			json_str("server", a);
			json_close_obj();
		} else if (fmt == DP_PLAN_CSV) {
			fprintf(f, "%u,%s\n", i + 1, a);
		} else {
			fprintf(f, "%u %s\n", i + 1, a);
		}
	}
	if (json) {
		json_close_arr();
		json_end();
	}
	free(order);
	return ferror(f) ? -EIO : 0;
}
