// SPDX-License-Identifier: GPL-2.0
/* dp_print.c - wiring plan and path output shared by dpsim and dpctl. */
#include "dp_json.h"
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
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX], name[64];
	u32 id, p, i, peer, pass;
	struct dp_port_info pi;
	int pp;

	dp_topo_describe(t, name, sizeof(name));
	if (fmt == DP_PLAN_CSV)
		fprintf(f, "kind,level,switch,a,a_port,b,b_port\n");
	else
		fprintf(f, "# %s: %u servers, %u switches\n# switch LEVEL/ID:"
			" SERVER/PORT ...; cable SERVER/PORT <-> SERVER/PORT\n",
			name, t->nodes, t->switches);
	for (pass = 0; pass < 2; pass++) {
		for (id = 0; id < t->nodes; id++) {
			dp_addr_format(t, id, a, sizeof(a));
			for (p = 0; p < t->nports; p++) {
				dp_port_info(t, id, p, &pi);
				if (!pass && pi.kind == DP_PORT_SWITCH &&
				    plan_switch_first(t, id, p, pi.nneigh)) {
					if (fmt == DP_PLAN_CSV)
						fprintf(f, "switch,%u,%u,%s,%u,,\n",
							pi.sw_level, pi.sw_id, a, p);
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
						else
							fprintf(f, " %s/%d", b, pp);
					}
					if (fmt != DP_PLAN_CSV)
						fputc('\n', f);
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
					else
						fprintf(f, "cable %s/%u <-> %s/%d\n",
							a, p, b, pp);
				}
			}
		}
	}
	return ferror(f) ? 1 : 0;
}

/*
 * The plan as JSON (dp_json): a fabric of switches only as
 * {n, k, servers, switches, ports: [{server, id, port, switch_col,
 * switch_id}]}, one with cables as {topo, n, k, servers, switches:
 * [{level, switch, members: [{server, id, port}]}], cables: [{level, a,
 * a_id, a_port, b, b_id, b_port}]}; "id" is the server's node id (what
 * "#ID" names: the fabric builders name namespaces and addresses by it).
 */
static int plan_print_json(FILE *f, const struct dp_topo *t, bool pretty)
{
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX];
	bool cabled = plan_has_cables(t);
	struct dp_port_info pi;
	u32 id, p, i, peer;

	json_init_file(f, pretty);
	json_open_obj(NULL);
	if (cabled)
		json_str("topo", t->ops->name);
	json_uint("n", t->p.n);
	json_uint("k", t->p.k);
	json_uint("servers", t->nodes);
	if (!cabled) {
		json_uint("switches", t->switches);
		json_open_arr("ports");
		for (id = 0; id < t->nodes; id++) {
			dp_addr_format(t, id, a, sizeof(a));
			for (p = 0; p < t->nports; p++) {
				/* a cable or an unused port has no switch: ~0 */
				dp_port_info(t, id, p, &pi);
				json_open_obj(NULL);
				json_str("server", a);
				json_uint("id", id);
				json_uint("port", p);
				json_uint("switch_col", pi.kind == DP_PORT_SWITCH ?
					  pi.sw_level : ~0U);
				json_uint("switch_id", pi.kind == DP_PORT_SWITCH ?
					  pi.sw_id : ~0U);
				json_close_obj();
			}
		}
		json_close_arr();
		goto out;
	}
	json_open_arr("switches");
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			if (pi.kind != DP_PORT_SWITCH ||
			    !plan_switch_first(t, id, p, pi.nneigh))
				continue;
			json_open_obj(NULL);
			json_uint("level", pi.sw_level);
			json_uint("switch", pi.sw_id);
			json_open_arr("members");
			json_open_obj(NULL);
			json_str("server", a);
			json_uint("id", id);
			json_uint("port", p);
			json_close_obj();
			for (i = 0; i < pi.nneigh; i++) {
				peer = dp_port_neigh(t, id, p, i);
				dp_addr_format(t, peer, b, sizeof(b));
				json_open_obj(NULL);
				json_str("server", b);
				json_uint("id", peer);
				json_int("port", dp_peer_port(t, id, p, peer));
				json_close_obj();
			}
			json_close_arr();
			json_close_obj();
		}
	}
	json_close_arr();
	json_open_arr("cables");
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			if (pi.kind != DP_PORT_CABLE)
				continue;
			peer = dp_port_neigh(t, id, p, 0);
			if (peer == DP_NODE_NONE || peer < id)
				continue;	/* once */
			dp_addr_format(t, peer, b, sizeof(b));
			json_open_obj(NULL);
			json_uint("level", p);
			json_str("a", a);
			json_uint("a_id", id);
			json_uint("a_port", p);
			json_str("b", b);
			json_uint("b_id", peer);
			json_int("b_port", dp_peer_port(t, id, p, peer));
			json_close_obj();
		}
	}
	json_close_arr();
out:
	json_close_obj();
	json_end();
	return ferror(f) ? 1 : 0;
}

int dp_plan_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt)
{
	char a[DP_ADDR_TEXT_MAX];
	struct dp_port_info pi;
	u32 id, p, sc, sid;

	if (fmt == DP_PLAN_JSON || fmt == DP_PLAN_JSON_PRETTY)
		return plan_print_json(f, t, fmt == DP_PLAN_JSON_PRETTY);
	if (plan_has_cables(t))
		return plan_print_cabled(f, t, fmt);
	plan_header(f, t, fmt);
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		for (p = 0; p < t->nports; p++) {
			/* a cable or an unused port has no switch: ~0 */
			dp_port_info(t, id, p, &pi);
			sc = pi.kind == DP_PORT_SWITCH ? pi.sw_level : ~0U;
			sid = pi.kind == DP_PORT_SWITCH ? pi.sw_id : ~0U;
			if (fmt == DP_PLAN_CSV)
				fprintf(f, "%s,%u,%u,%u\n", a, p, sc, sid);
			else
				fprintf(f, "%s %u %u %u\n", a, p, sc, sid);
		}
	}
	return ferror(f) ? 1 : 0;
}

/* The hop (from 1) of @path that leaves or enters @id by port @p, or 0. */
static u32 dot_hop(const struct dp_topo *t, const u32 *path, u32 len, u32 id,
		   u32 p)
{
	u32 i;

	for (i = 0; path && i + 1 < len; i++)
		if ((path[i] == id &&
		     dp_hop_port(t, id, path[i + 1]) == (int)p) ||
		    (path[i + 1] == id && dp_hop_port(t, id, path[i]) == (int)p))
			return i + 1;
	return 0;
}

int dp_plan_dot(FILE *f, const struct dp_topo *t, const u32 *path,
		u32 path_len,
		bool (*failed)(const void *ctx, u32 id, int port),
		const void *ctx)
{
	bool dpillar = t->kind == DP_TOPO_DPILLAR, circle = false, any = false;
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX], name[64];
	struct dp_port_info pi;
	u32 id, p, hop, lvl, peer = DP_NODE_NONE, nlevels = 0;

	dp_topo_describe(t, name, sizeof(name));
	/* a path with failures is a detour: the title says so */
	for (id = 0; failed && !any && id < t->nodes; id++)
		for (p = 0; p < t->nports; p++)
			any |= failed(ctx, id, -1) || failed(ctx, id, (int)p);
	for (p = 0; p < t->nports; p++) {
		dp_port_info(t, 0, p, &pi);
		if (pi.kind == DP_PORT_CABLE)
			circle = true;
		if (pi.kind == DP_PORT_SWITCH && pi.sw_level + 1 > nlevels)
			nlevels = pi.sw_level + 1;
	}
	fprintf(f, "graph \"%s\" {\n", name);
	fprintf(f, "\tgraph [label=\"%s: %u servers, %u switches%s\", "
		"labelloc=t, fontname=Helvetica%s];\n", name, t->nodes,
		t->switches, !path ? "" : any ?
		", a path around the failures (dashed)" : ", a path",
		circle ? ", layout=circo" : dpillar ? ", rankdir=LR" : "");
	fprintf(f, "\tnode [fontname=Helvetica, fontsize=10];\n"
		"\tedge [color=gray40];\n");
	/* servers */
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		fprintf(f, "\t\"%s\" [shape=box%s%s];\n", a,
			path && (id == path[0] || id == path[path_len - 1]) ?
			", style=bold, color=red" : "",
			failed && failed(ctx, id, -1) ?
			", style=\"filled,dashed\", fillcolor=gray80" : "");
	}
	/*
	 * switches: one node each, named by level and id; DPillar's switch
	 * columns and server columns alternate left to right, BCube's and
	 * XDCent's levels stack
	 */
	for (lvl = 0; lvl < nlevels; lvl++) {
		fprintf(f, "\tsubgraph level%u {%s\n", lvl,
			dpillar || !circle ? " rank=same;" : "");
		for (id = 0; id < t->nodes; id++)
			for (p = 0; p < t->nports; p++) {
				dp_port_info(t, id, p, &pi);
				if (pi.kind == DP_PORT_SWITCH &&
				    pi.sw_level == lvl &&
				    plan_switch_first(t, id, p, pi.nneigh))
					fprintf(f, "\t\t\"s%u/%u\" [shape=ellipse, "
						"label=\"%u/%u\", style=filled, "
						"fillcolor=lightblue];\n",
						pi.sw_level, pi.sw_id,
						pi.sw_level, pi.sw_id);
			}
		fprintf(f, "\t}\n");
	}
	if (dpillar)
		for (lvl = 0; lvl < t->p.k; lvl++) {
			fprintf(f, "\tsubgraph col%u { rank=same;", lvl);
			for (id = 0; id < t->nodes; id++) {
				dp_port_info(t, id, 0, &pi);
				if (pi.sw_level != lvl)
					continue;
				dp_addr_format(t, id, a, sizeof(a));
				fprintf(f, " \"%s\";", a);
			}
			fprintf(f, " }\n");
		}
	/* links: server-switch, and each cable once */
	for (id = 0; id < t->nodes; id++) {
		dp_addr_format(t, id, a, sizeof(a));
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			if (pi.kind == DP_PORT_SWITCH) {
				snprintf(b, sizeof(b), "s%u/%u", pi.sw_level,
					 pi.sw_id);
			} else if (pi.kind == DP_PORT_CABLE) {
				peer = dp_port_neigh(t, id, p, 0);
				if (peer == DP_NODE_NONE || peer < id)
					continue;
				dp_addr_format(t, peer, b, sizeof(b));
			} else {
				continue;
			}
			hop = dot_hop(t, path, path_len, id, p);
			/*
			 * dot ranks an edge's tail before its head: DPillar's
			 * port 1 goes to the switch column before the
			 * server's, so that the columns follow the helix;
			 * BCube's and XDCent's upper levels sit above the
			 * servers, level 0 below
			 */
			if (pi.kind == DP_PORT_SWITCH &&
			    (dpillar ? p == 1 : pi.sw_level > 0))
				fprintf(f, "\t\"%s\" -- \"%s\" [headlabel=\"%u\"",
					b, a, p);
			else
				fprintf(f, "\t\"%s\" -- \"%s\" [taillabel=\"%u\"",
					a, b, p);
			if (pi.kind == DP_PORT_CABLE)
				fprintf(f, ", headlabel=\"%d\"",
					dp_peer_port(t, id, p, peer));
			if (hop)
				fprintf(f, ", color=red, penwidth=3, fontcolor=red, "
					"label=\"%u\"", hop);
			/* a cable is down with either end, or its server */
			if (failed && (failed(ctx, id, (int)p) ||
				       failed(ctx, id, -1) ||
				       (pi.kind == DP_PORT_CABLE &&
					(failed(ctx, peer, -1) ||
					 failed(ctx, peer,
						dp_peer_port(t, id, p, peer))))))
				fprintf(f, ", style=dashed, color=gray70");
			fprintf(f, ", fontsize=8];\n");
		}
	}
	fprintf(f, "}\n");
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
