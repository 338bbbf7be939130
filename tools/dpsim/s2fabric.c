// SPDX-License-Identifier: GPL-2.0
/*
 * s2fabric.c - the S2 fabrics the kernel builds, as the routing core's
 * topology: derived mode (--fabric derived: coordinates and cabling from
 * (seed, N) alone, net/dpillar/topo_s2.c) and plan mode (--fabric plan: a
 * plan generated as dpctl plan generates it; --plan FILE: a plan
 * document; dp_s2plan.h), grown by --grow.
 *
 * On these, dpsim runs the core's code: ft, plan and route --json are
 * the core's commands (dpsim.c), and the commands on S2's graph (s2sim.c)
 * route through the core (dp_walk()) wherever the kernel's routing
 * applies.  Only the paper's graph model (an authors' .Topo file, a
 * generated graph) is routed by the simulator alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dpsim.h"
#include "topo_s2.h"

bool s2_sizes_ok(const struct opts *o, u32 nodes, u32 spaces, u32 max)
{
	u32 inter = o->n > o->servers ? o->n - o->servers : 0;
	const char *dflt = o->servers_set ? "" : " (--servers defaults to 2)";

	if (!nodes)
		fprintf(stderr, "dpsim: bad s2 sizes: no switches (--switches N, or the kernel's --nodes N)\n");
	else if (!spaces && inter < 2)
		fprintf(stderr, "dpsim: bad s2 sizes: ports %u less servers %u leave %u cable ports, 2 at least%s\n",
			o->n, o->servers, inter, dflt);
	else if (spaces > DP_S2_SPACES_MAX)
		fprintf(stderr, "dpsim: bad s2 sizes: %u spaces, at most %u\n",
			spaces, DP_S2_SPACES_MAX);
	else if (2 * spaces > inter)
		fprintf(stderr, "dpsim: bad s2 sizes: %u spaces need %u cable ports; ports %u less servers %u leave %u%s\n",
			spaces, 2 * spaces, o->n, o->servers, inter, dflt);
	else if (inter > max)
		fprintf(stderr, "dpsim: bad s2 sizes: %u cable ports, at most %u\n",
			inter, max);
	else
		return true;
	return false;
}

bool s2_kernel_fabric(const struct opts *o)
{
	return o->plan_file || o->plan_mode || (o->wiring_derived && !o->file);
}

int s2_fabric_plan(struct s2fabric *f, const struct opts *o)
{
	const char *why = "";
	u32 line = 0;
	int err;

	if (o->plan_file) {
		FILE *fp = fopen(o->plan_file, "r");

		if (!fp) {
			perror(o->plan_file);
			return 1;
		}
		err = dp_s2plan_load(fp, &f->pg, &why, &line);
		fclose(fp);
		if (err) {
			fprintf(stderr, "dpsim: %s:%u: %s\n", o->plan_file,
				line, err == -ENOMEM ? "out of memory" : why);
			return 1;
		}
		if (o->grow && dp_s2plan_grow(&f->pg, &f->before, o->grow)) {
			fprintf(stderr, "dpsim: cannot grow %s by %u nodes (at most 255 in all)\n",
				o->plan_file, o->grow);
			return 2;
		}
	} else {
		err = dp_s2plan_make(&f->pg, o->grow ? &f->before : NULL,
				     o->nodes, o->n, o->spaces ?
				     o->spaces : o->n / 2, o->seed,
				     o->grow, &why);
		if (err) {
			fprintf(stderr, "dpsim: s2 plan: %s\n",
				err == -ENOMEM ? "out of memory" : why);
			return 2;
		}
	}
	f->plan = true;
	f->spaces = f->pg.spaces;
	return 0;
}

/* The core on the plan (s2_fabric_plan()), @who for the complaint. */
static int fabric_plan_topo(struct s2fabric *f, const char *who)
{
	const struct dp_s2gen *p = &f->pg;
	struct dp_topo_params tp = { .kind = DP_TOPO_S2, .nodes = p->n,
				     .n = p->ports, .spaces = p->spaces,
				     .seed = p->seed, .ncoords = p->spaces };
	const char *why = "";

	f->pl = (struct dp_s2_plan){ .nodes = p->n, .spaces = p->spaces,
				     .ports = p->ports, .coords = p->x,
				     .peer = p->peer };
	memcpy(tp.coords, p->x, p->spaces * sizeof(u32));
	if (dp_topo_init(&f->t, &tp, &why)) {
		fprintf(stderr, "dpsim: %s: the core takes no such plan: %s\n",
			who, why);
		return 2;
	}
	if (dp_s2_plan_attach(&f->t, &f->pl)) {
		fprintf(stderr, "dpsim: %s: the core takes no such table\n", who);
		return 2;
	}
	return 0;
}

/*
 * Derived mode: --switches N, --ports P less --servers S cable ports,
 * --spaces L (default half the cable ports), --seed.
 */
static int fabric_derived_topo(struct s2fabric *f, const struct opts *o)
{
	u32 inter = o->n - o->servers, L = o->spaces;
	struct dp_topo_params p = o->tparams;
	const char *why = "";

	if (params_taken(dp_topo_ops_by_name("s2"), o->tparams_given))
		return 2;
	p.kind = DP_TOPO_S2;
	p.nodes = o->nodes;
	p.n = inter;
	p.seed = (u32)o->seed;

	if (!L && o->n > o->servers)
		L = inter / 2;
	if (!s2_sizes_ok(o, o->nodes, L, DP_MAX_PORTS))
		return 2;
	p.spaces = L;
	if (dp_topo_init(&f->t, &p, &why)) {
		fprintf(stderr, "dpsim: s2 --fabric derived: %s\n", why);
		return 2;
	}
	/* its tables, as the kernel's device has them (s2_fabric_free()) */
	dp_topo_alloc(&f->t);
	f->spaces = L;
	return 0;
}

int s2_fabric_topo(struct s2fabric *f, const struct opts *o,
		   const char *who)
{
	int rc;

	if (f->on)
		return 0;
	rc = f->plan ? fabric_plan_topo(f, who) : fabric_derived_topo(f, o);
	f->on = !rc;
	return rc;
}

int s2_fabric_open(struct s2fabric *f, const struct opts *o,
		   const char *who)
{
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (o->plan_file || o->plan_mode)
		rc = s2_fabric_plan(f, o);
	return rc ? rc : s2_fabric_topo(f, o, who);
}

void s2_fabric_free(struct s2fabric *f)
{
	dp_s2gen_free(&f->pg);
	dp_s2gen_free(&f->before);
	if (f->on)
		dp_topo_free(&f->t);
	f->on = false;
}
