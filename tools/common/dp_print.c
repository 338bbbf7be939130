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

/* Does the topology have direct cables (DCell, ...)? */
static bool plan_has_cables(const struct dp_topo *t)
{
	struct dp_port_info pi;
	u32 p;

	for (p = 0; p < t->nports; p++) {
		dp_port_info(t, 0, p, &pi);
		if (pi.kind == DP_PORT_CABLE)
			return true;
	}
	return false;
}

/* Is @id the lowest id on the switch of its port @p? */
static bool plan_switch_first(const struct dp_topo *t, u32 id, u32 p,
			      u32 nneigh)
{
	u32 i;

	for (i = 0; i < nneigh; i++)
		if (dp_port_neigh(t, id, p, i) < id)
			return false;
	return true;
}

/*
 * The plan of a fabric with cables: every switch with its members (server
 * and port, lowest id first), then every cable once with both ends.
 * CSV rows: "switch,LEVEL,SWITCH,SERVER,PORT,," per member and
 * "cable,LEVEL,,A,A_PORT,B,B_PORT" per cable (LEVEL: the switch level or
 * the port number of a cable).
 */
static int plan_print_cabled(FILE *f, const struct dp_topo *t,
			     enum dp_plan_fmt fmt)
{
	bool json = fmt == DP_PLAN_JSON || fmt == DP_PLAN_JSON_PRETTY;
	const char *nl = fmt == DP_PLAN_JSON_PRETTY ? "\n        " : " ";
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX], name[64];
	u32 id, p, i, peer, nsw = 0, ncab = 0, pass;
	struct dp_port_info pi;
	int pp;

	dp_topo_describe(t, name, sizeof(name));
	if (fmt == DP_PLAN_CSV)
		fprintf(f, "kind,level,switch,a,a_port,b,b_port\n");
	else if (json)
		fprintf(f, "{\"topo\": \"%s\", \"n\": %u, \"k\": %u, "
			"\"servers\": %u, \"switches\": [", t->ops->name,
			t->p.n, t->p.k, t->nodes);
	else
		fprintf(f, "# %s: %u servers, %u switches\n# switch LEVEL/ID:"
			" SERVER/PORT ...; cable SERVER/PORT <-> SERVER/PORT\n",
			name, t->nodes, t->switches);
	for (pass = 0; pass < 2; pass++) {
		if (json && pass)
			fprintf(f, "], \"cables\": [");
		for (id = 0; id < t->nodes; id++) {
			dp_addr_format(t, id, a, sizeof(a));
			for (p = 0; p < t->nports; p++) {
				dp_port_info(t, id, p, &pi);
				if (!pass && pi.kind == DP_PORT_SWITCH &&
				    plan_switch_first(t, id, p, pi.nneigh)) {
					if (fmt == DP_PLAN_CSV)
						fprintf(f, "switch,%u,%u,%s,%u,,\n",
							pi.sw_level, pi.sw_id, a, p);
					else if (json)
						fprintf(f, "%s%s{\"level\": %u, "
							"\"switch\": %u, \"members\": "
							"[{\"server\": \"%s\", "
							"\"port\": %u}", nsw ? "," : "",
							nl, pi.sw_level, pi.sw_id, a, p);
					else
						fprintf(f, "switch %u/%u: %s/%u",
							pi.sw_level, pi.sw_id, a, p);
					for (i = 0; i < pi.nneigh; i++) {
						peer = dp_port_neigh(t, id, p, i);
						pp = dp_peer_port(t, id, p, peer);
						dp_addr_format(t, peer, b, sizeof(b));
						if (fmt == DP_PLAN_CSV)
							fprintf(f, "switch,%u,%u,%s,%d,,\n",
								pi.sw_level, pi.sw_id, b, pp);
						else if (json)
							fprintf(f, ", {\"server\": \"%s\", "
								"\"port\": %d}", b, pp);
						else
							fprintf(f, " %s/%d", b, pp);
					}
					fprintf(f, json ? "]}" : fmt == DP_PLAN_CSV ?
						"" : "\n");
					nsw++;
				}
				if (pass && pi.kind == DP_PORT_CABLE) {
					peer = dp_port_neigh(t, id, p, 0);
					if (peer == DP_NODE_NONE || peer < id)
						continue;	/* once */
					pp = dp_peer_port(t, id, p, peer);
					dp_addr_format(t, peer, b, sizeof(b));
					if (fmt == DP_PLAN_CSV)
						fprintf(f, "cable,%u,,%s,%u,%s,%d\n",
							p, a, p, b, pp);
					else if (json)
						fprintf(f, "%s%s{\"level\": %u, "
							"\"a\": \"%s\", \"a_port\": %u, "
							"\"b\": \"%s\", \"b_port\": %d}",
							ncab ? "," : "", nl, p, a, p,
							b, pp);
					else
						fprintf(f, "cable %s/%u <-> %s/%d\n",
							a, p, b, pp);
					ncab++;
				}
			}
		}
	}
	if (json)
		fprintf(f, "]}\n");
	return ferror(f) ? 1 : 0;
}

int dp_plan_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt)
{
	char a[DP_ADDR_TEXT_MAX];
	struct dp_port_info pi;
	u32 id, p, sc, sid;

	if (plan_has_cables(t))
		return plan_print_cabled(f, t, fmt);
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

int dp_hop_port(const struct dp_topo *t, u32 from, u32 to)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (dp_port_neigh_index(t, from, p, to) >= 0)
			return p;
	return -1;
}

void dp_hop_print(FILE *f, const struct dp_topo *t, u32 i, u32 from, u32 to,
		  u8 phase)
{
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX];
	struct dp_port_info pi;
	int hp = dp_hop_port(t, from, to);
	u32 p = hp < 0 ? 0 : hp;

	dp_addr_format(t, from, a, sizeof(a));
	dp_addr_format(t, to, b, sizeof(b));
	dp_port_info(t, from, p, &pi);
	fprintf(f, "  %2u: %-16s -> %-16s port %u ", i, a, b, p);
	if (pi.kind == DP_PORT_SWITCH)
		fprintf(f, "(switch %u/%u)", pi.sw_level, pi.sw_id);
	else
		fprintf(f, "(%s)", pi.kind == DP_PORT_CABLE ? "cable" : "unused");
	fprintf(f, " %s\n", dp_phase_name(t, phase));
}
