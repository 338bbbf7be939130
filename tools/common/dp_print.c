// SPDX-License-Identifier: GPL-2.0
/* dp_print.c - wiring plan and path output shared by dpsim and dpctl. */
#include "dp_print.h"

static void plan_header(FILE *f, const struct dp_topo *t,
			enum dp_plan_fmt fmt)
{
	switch (fmt) {
	case DP_PLAN_CSV:
		fprintf(f, "server,port,switch_col,switch_id\n");
		break;
	case DP_PLAN_JSON:
		fprintf(f, "{\"n\": %u, \"k\": %u, \"servers\": %u, "
			"\"switches\": %u, \"ports\": [", t->n, t->k, t->nodes,
			t->switches);
		break;
	case DP_PLAN_JSON_PRETTY:
		fprintf(f, "{\n    \"n\": %u,\n    \"k\": %u,\n    \"servers\": "
			"%u,\n    \"switches\": %u,\n    \"ports\": [", t->n,
			t->k, t->nodes, t->switches);
		break;
	default:
		fprintf(f, "# DPillar (%u,%u): %u servers, %u switches; port 0 "
			"-> S_C, port 1 -> S_C-1\n# server port switch_col "
			"switch_id\n", t->n, t->k, t->nodes, t->switches);
		break;
	}
}

int dp_plan_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt)
{
	char a[DP_ADDR_TEXT_MAX];
	u32 id, p, sc, sid;

	plan_header(f, t, fmt);
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		for (p = 0; p < t->nports; p++) {
			const char *sep = id || p ? "," : "";

			dp_port_switch(t, id, p, &sc, &sid);
			if (fmt == DP_PLAN_CSV)
				fprintf(f, "%s,%u,%u,%u\n", a, p, sc, sid);
			else if (fmt == DP_PLAN_JSON)
				fprintf(f, "%s%s{\"server\": \"%s\", \"port\": "
					"%u, \"switch_col\": %u, \"switch_id\":"
					" %u}", sep, *sep ? " " : "", a, p, sc,
					sid);
			else if (fmt == DP_PLAN_JSON_PRETTY)
				fprintf(f, "%s\n        {\"server\": \"%s\", "
					"\"port\": %u, \"switch_col\": %u, "
					"\"switch_id\": %u}", sep, a, p, sc,
					sid);
			else
				fprintf(f, "%s %u %u %u\n", a, p, sc, sid);
		}
	}
	if (fmt == DP_PLAN_JSON)
		fprintf(f, "]}\n");
	else if (fmt == DP_PLAN_JSON_PRETTY)
		fprintf(f, "\n    ]\n}\n");
	return ferror(f) ? 1 : 0;
}

void dp_hop_print(FILE *f, const struct dp_topo *t, u32 i, u32 from, u32 to,
		  u8 phase)
{
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX];
	u32 sc, sid, p;

	dp_addr_format(t, from, a, sizeof(a));
	dp_addr_format(t, to, b, sizeof(b));
	p = dp_port_neigh_index(t, from, 0, to) >= 0 ? 0 : 1;
	dp_port_switch(t, from, p, &sc, &sid);
	fprintf(f, "  %2u: %-16s -> %-16s port %u (switch %u/%u) %s\n", i, a,
		b, p, sc, sid, dp_phase_name(phase));
}
