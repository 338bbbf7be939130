// SPDX-License-Identifier: GPL-2.0
/* dp_print.c - wiring plan and path output shared by dpsim and dpctl. */
#include "dp_print.h"

static void plan_header(FILE *f, const struct dp_topo *t,
			enum dp_plan_fmt fmt)
{
	char name[64];

	dp_topo_describe(t, name, sizeof(name));
	switch (fmt) {
	case DP_PLAN_CSV:
		fprintf(f, "server,port,switch_col,switch_id\n");
		break;
	case DP_PLAN_JSON:
		fprintf(f, "{\"n\": %u, \"k\": %u, \"servers\": %u, "
			"\"switches\": %u, \"ports\": [", t->p.n, t->p.k,
			t->nodes, t->switches);
		break;
	case DP_PLAN_JSON_PRETTY:
		fprintf(f, "{\n    \"n\": %u,\n    \"k\": %u,\n    \"servers\": "
			"%u,\n    \"switches\": %u,\n    \"ports\": [",
			t->p.n, t->p.k, t->nodes, t->switches);
		break;
	default:
		fprintf(f, "# %s: %u servers, %u switches%s\n# server port "
			"switch_col switch_id\n", name, t->nodes, t->switches,
			t->kind == DP_TOPO_DPILLAR ?
			"; port 0 -> S_C, port 1 -> S_C-1" : "");
		break;
	}
}

int dp_plan_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt)
{
	char a[DP_ADDR_TEXT_MAX];
	struct dp_port_info pi;
	u32 id, p, sc, sid;

	plan_header(f, t, fmt);
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		for (p = 0; p < t->nports; p++) {
			const char *sep = id || p ? "," : "";

			/* a cable or an unused port has no switch: ~0 */
			dp_port_info(t, id, p, &pi);
			sc = pi.kind == DP_PORT_SWITCH ? pi.sw_level : ~0U;
			sid = pi.kind == DP_PORT_SWITCH ? pi.sw_id : ~0U;
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
	struct dp_port_info pi;
	u32 p;

	dp_addr_format(t, from, a, sizeof(a));
	dp_addr_format(t, to, b, sizeof(b));
	/* the first port whose neighbour table holds @to */
	for (p = 0; p < t->nports; p++)
		if (dp_port_neigh_index(t, from, p, to) >= 0)
			break;
	if (p == t->nports)
		p = 0;
	dp_port_info(t, from, p, &pi);
	fprintf(f, "  %2u: %-16s -> %-16s port %u ", i, a, b, p);
	if (pi.kind == DP_PORT_SWITCH)
		fprintf(f, "(switch %u/%u)", pi.sw_level, pi.sw_id);
	else
		fprintf(f, "(%s)", pi.kind == DP_PORT_CABLE ? "cable" : "unused");
	fprintf(f, " %s\n", dp_phase_name(t, phase));
}
