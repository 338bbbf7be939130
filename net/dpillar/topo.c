// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - topology-independent part of the routing core: the registry of
 * topologies, the check of their ops tables, dispatch, the "#<id>" address
 * form every topology accepts, and names for diagnostics.
 */
#include <linux/dpillar.h>

#include "topo.h"

/*
 * Every topology the module carries (topologies.h), indexed by enum
 * dp_topo_kind: a fixture's slot stays NULL in a build without them.
 */
static const struct dp_topo_ops *const dp_topologies[DP_TOPO_KIND_MAX + 1] = {
	DP_TOPOLOGIES_BUILT(DP_TOPO_REGISTER)
};

const struct dp_topo_ops *dp_topo_ops_by_kind(u32 kind)
{
	return kind <= DP_TOPO_KIND_MAX ? dp_topologies[kind] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_ops_by_kind);

const struct dp_topo_ops *dp_topo_ops_by_name(const char *name)
{
	u32 i;

	for (i = 0; i <= DP_TOPO_KIND_MAX; i++)
		if (dp_topologies[i] && !strcmp(dp_topologies[i]->name, name))
			return dp_topologies[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_ops_by_name);

const struct dp_param dp_params[DP_PARAM_COUNT] = {
	DP_PARAM_LIST(DP_PARAM_DEF, DP_PARAM_DEF)
};
EXPORT_SYMBOL_IF_KUNIT(dp_params);

const struct dp_param *dp_param_by_name(const char *word)
{
	u32 i;

	for (i = 0; i < DP_PARAM_COUNT; i++)
		if (!strcmp(dp_params[i].name, word))
			return &dp_params[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dp_param_by_name);

const struct dp_topo_param *dp_topo_param_by_ifla(const struct dp_topo_ops *ops,
						  u32 ifla)
{
	u32 i;

	for (i = 0; i < ops->nparams; i++)
		if (ops->params[i].ifla == ifla)
			return &ops->params[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_param_by_ifla);

/*
 * The parameter after (*kind, *i) among every registered topology's
 * tables, or NULL after the last: start with both 0.  A parameter that two
 * topologies list comes once for each.
 */
const struct dp_topo_param *dp_topo_param_next(u32 *kind, u32 *i)
{
	const struct dp_topo_ops *o;

	for (; *kind <= DP_TOPO_KIND_MAX; (*kind)++, *i = 0) {
		o = dp_topo_ops_by_kind(*kind);
		if (o && *i < o->nparams)
			return &o->params[(*i)++];
	}
	return NULL;
}

static const char *const dp_generic_drops[DP_DROP_TOPO] = {
	"none", "bad_addr", "at_dst",
};

/*
 * The generic module indexes attribute tables with a parameter's
 * attributes and writes its field: both must be in range, and a u32
 * parameter one of the u32s between kind and the coordinates.
 */
static bool dp_topo_param_ok(const struct dp_topo_param *q)
{
	const struct dp_param *d = q->id < DP_PARAM_COUNT ?
				   &dp_params[q->id] : NULL;

	if (!d || d->ifla != q->ifla || d->genl != q->genl ||
	    d->off != q->off || (d->flags & ~q->flags))
		return false;
	if (!q->name || !q->ifla || q->ifla > IFLA_DPILLAR_MAX || !q->genl ||
	    q->genl > DPILLAR_A_DEV_MAX)
		return false;
	if (q->flags & DP_PARAM_COORDS)
		return q->off == offsetof(struct dp_topo_params, coords);
	return q->off >= offsetof(struct dp_topo_params, n) &&
	       q->off + sizeof(u32) <= offsetof(struct dp_topo_params, ncoords) &&
	       !(q->off % sizeof(u32));
}

int dp_topo_ops_check(const struct dp_topo_ops *ops, const char **why)
{
	u32 i;

	if (!ops->name || !ops->kind || ops->kind > DP_TOPO_KIND_MAX) {
		*why = "topology ops: no name or bad kind";
		return -EINVAL;
	}
	if (!ops->init || !ops->describe || !ops->addr_parse ||
	    !ops->addr_format || !ops->port_info || !ops->port_neigh ||
	    !ops->port_neigh_index || !ops->peer_port || !ops->route_init ||
	    !ops->route) {
		*why = "topology ops: a required callback is missing";
		return -EINVAL;
	}
	if (!ops->addr_to_label != !ops->addr_from_label) {
		*why = "topology ops: label callbacks come in pairs";
		return -EINVAL;
	}
	if (ops->coords && (!ops->coords->flag || !ops->coords->hello ||
			    !ops->coords->hello_ok)) {
		*why = "topology ops: coordinates extension without flag or Hello callbacks";
		return -EINVAL;
	}
	if (ops->keys && (!ops->keys->route_init || !ops->keys->dst_is_key)) {
		*why = "topology ops: the keys extension needs both callbacks";
		return -EINVAL;
	}
	if (ops->nparams && !ops->params) {
		*why = "topology ops: nparams without a parameter table";
		return -EINVAL;
	}
	for (i = 0; i < ops->nparams; i++) {
		if (!dp_topo_param_ok(&ops->params[i])) {
			*why = "topology ops: a parameter has no name, a bad attribute or field";
			return -EINVAL;
		}
	}
	if (!ops->phases || ops->nphases < DP_PHASE_TOPO ||
	    ops->nphases > DP_PHASE_MAX ||
	    strcmp(ops->phases[DP_PHASE_NONE].name, "none") ||
	    strcmp(ops->phases[DP_PHASE_DIRECT].name, "direct")) {
		*why = "topology ops: phases must start with none, direct";
		return -EINVAL;
	}
	if (!ops->drops || ops->ndrops < DP_DROP_TOPO ||
	    ops->ndrops > DP_DROP_MAX) {
		*why = "topology ops: bad drop reason table";
		return -EINVAL;
	}
	for (i = 0; i < DP_DROP_TOPO; i++) {
		if (strcmp(ops->drops[i], dp_generic_drops[i])) {
			*why = "topology ops: drop reasons must start with none, bad_addr, at_dst";
			return -EINVAL;
		}
	}
	for (i = 0; i < ops->nphases; i++) {
		u8 d = ops->phases[i].detour;

		if (!ops->phases[i].name ||
		    (d && (d > DP_DETOUR_SLOTS || !ops->detours ||
			   !ops->detours[d - 1]))) {
			*why = "topology ops: a phase has no name or a bad detour slot";
			return -EINVAL;
		}
	}
	if (ops->discover_drop && (ops->discover_drop < DP_DROP_TOPO ||
				   ops->discover_drop >= ops->ndrops)) {
		*why = "topology ops: discover_drop is no drop of the topology";
		return -EINVAL;
	}
	if ((ops->fallback_drops & ((1U << DP_DROP_TOPO) - 1)) ||
	    (ops->fallback_drops & ~((1U << ops->ndrops) - 1)) ||
	    (ops->discover_drop &&
	     (ops->fallback_drops & (1U << ops->discover_drop)))) {
		*why = "topology ops: fallback_drops names no failure of the topology";
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_ops_check);

int dp_topo_init(struct dp_topo *t, const struct dp_topo_params *p,
		 const char **why)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(p->kind);
	const char *dummy;
	int err;

	if (!why)
		why = &dummy;
	memset(t, 0, sizeof(*t));
	if (!ops) {
		*why = "unknown topology kind";
		return -EINVAL;
	}
	err = ops->init(t, p, why);
	/*
	 * A bound wider than the wire's u8 TTL only with a topology that
	 * renews the TTL on the way (dp_ttl_relay()).
	 */
	if (!err && (!t->nodes || !t->nports || t->nports > DP_MAX_PORTS ||
		     !t->max_hops || t->max_hops > DP_HOPS_MAX ||
		     (t->max_hops > DP_TTL_MAX && !ops->ttl_renew))) {
		*why = "topology has no nodes, too many ports or paths longer than the TTL";
		err = -EINVAL;
	}
	if (err) {
		memset(t, 0, sizeof(*t));
		return err;
	}
	t->ops = ops;
	t->kind = p->kind;
	t->p = *p;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_init);

bool dp_topo_alloc(struct dp_topo *t)
{
	if (!t->alloc && t->ops && t->ops->alloc)
		t->alloc = t->ops->alloc(t);
	return !!t->alloc;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_alloc);

void dp_topo_free(struct dp_topo *t)
{
	dp_free(t->alloc);
	t->alloc = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_free);

/*
 * "none": the topology of a device created without one ("ip link add dp0
 * type dpillar"), until it gets one.  No node, no routing: every address
 * is invalid, so the generic checks above the ops drop or reject whatever
 * would reach a topology, and these callbacks only have to be harmless.
 * Any port may hold a NIC (DP_MAX_PORTS), with an empty neighbour table.
 * Not registered: no kind, dp_topo_ops_by_kind() never returns it.
 */
static const struct dp_phase_desc dp_none_phases[DP_PHASE_TOPO] = {
	{ .name = "none" }, { .name = "direct" },
};

static int dp_none_init(struct dp_topo *t, const struct dp_topo_params *p,
			const char **why)
{
	(void)t;
	(void)p;
	*why = "the none topology is not configured by parameters";
	return -EINVAL;
}

static int dp_none_describe(const struct dp_topo *t, char *buf, u32 len)
{
	u32 pos = 0;

	(void)t;
	dp_put_str(buf, len, &pos, "unconfigured");
	return dp_put_end(buf, len, pos);
}

static int dp_none_addr_parse(const struct dp_topo *t, const char *text,
			      u32 *id, const char **why)
{
	(void)t;
	(void)text;
	(void)id;
	*why = "device has no topology yet";
	return -EINVAL;
}

static int dp_none_addr_format(const struct dp_topo *t, u32 id, char *buf,
			       u32 len)
{
	(void)t;
	(void)id;
	return dp_put_end(buf, len, 0);
}

static void dp_none_port_info(const struct dp_topo *t, u32 id, u32 port,
			      struct dp_port_info *pi)
{
	/* dp_port_info() cleared it: an unused port. */
	(void)t;
	(void)id;
	(void)port;
	(void)pi;
}

static u32 dp_none_port_neigh(const struct dp_topo *t, u32 id, u32 port,
			      u32 idx)
{
	(void)t;
	(void)id;
	(void)port;
	(void)idx;
	return DP_NODE_NONE;
}

static int dp_none_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
				    u32 peer)
{
	(void)t;
	(void)id;
	(void)port;
	(void)peer;
	return -1;
}

static void dp_none_route_init(const struct dp_topo *t, u32 src, u32 dst,
			       u32 sel, u32 hash, struct dp_route_state *st)
{
	(void)t;
	(void)src;
	(void)sel;
	(void)hash;
	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->word = 0;
	st->flags = 0;
}

static int dp_none_route(const struct dp_topo *t, u32 self,
			 struct dp_route_state *st, const struct dp_view *v,
			 struct dp_hop *hop)
{
	(void)t;
	(void)self;
	(void)st;
	(void)v;
	hop->reason = DP_DROP_ROUTE_BAD_ADDR;
	return -1;
}

static const struct dp_topo_ops dp_none_ops = {
	.name			= "none",
	.phases			= dp_none_phases,
	.nphases		= DP_PHASE_TOPO,
	.drops			= dp_generic_drops,
	.ndrops			= DP_DROP_TOPO,
	.init			= dp_none_init,
	.describe		= dp_none_describe,
	.addr_parse		= dp_none_addr_parse,
	.addr_format		= dp_none_addr_format,
	.port_info		= dp_none_port_info,
	.port_neigh		= dp_none_port_neigh,
	.port_neigh_index	= dp_none_port_neigh_index,
	.peer_port		= dp_none_port_neigh_index,
	.route_init		= dp_none_route_init,
	.route			= dp_none_route,
};

void dp_topo_init_none(struct dp_topo *t)
{
	memset(t, 0, sizeof(*t));
	t->ops = &dp_none_ops;
	t->nports = DP_MAX_PORTS;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_init_none);

bool dp_topo_configured(const struct dp_topo *t)
{
	return t->ops != &dp_none_ops;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_configured);

int dp_topo_describe(const struct dp_topo *t, char *buf, u32 len)
{
	return t->ops->describe(t, buf, len);
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_describe);

/* ---- text helpers, shared by the topologies ---- */

u64 dp_div64(u64 n, u32 d)
{
	u64 q = 0, r = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ULL << i;
		}
	}
	return q;
}
EXPORT_SYMBOL_IF_KUNIT(dp_div64);

struct dp_rdiv dp_rdiv_init(u32 d)
{
	struct dp_rdiv r;
	u32 l = 0;
	u64 m;

	/* l = ceil(log2(d)) */
	while (l < 32 && (1ULL << l) < d)
		l++;
	m = dp_div64((1ULL << 32) * ((1ULL << l) - d), d) + 1;
	r.m = (u32)m;
	r.sh1 = l ? 1 : 0;
	r.sh2 = l ? (u8)(l - 1) : 0;
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(dp_rdiv_init);

void dp_put_char(char *buf, u32 len, u32 *pos, char c)
{
	if (*pos + 1 < len)
		buf[*pos] = c;
	(*pos)++;
}
EXPORT_SYMBOL_IF_KUNIT(dp_put_char);

void dp_put_u32(char *buf, u32 len, u32 *pos, u32 v)
{
	char tmp[10];
	u32 i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		dp_put_char(buf, len, pos, tmp[--i]);
}
EXPORT_SYMBOL_IF_KUNIT(dp_put_u32);

void dp_put_str(char *buf, u32 len, u32 *pos, const char *s)
{
	while (*s)
		dp_put_char(buf, len, pos, *s++);
}
EXPORT_SYMBOL_IF_KUNIT(dp_put_str);

int dp_put_end(char *buf, u32 len, u32 pos)
{
	if (len)
		buf[pos < len ? pos : len - 1] = '\0';
	return (int)pos;
}
EXPORT_SYMBOL_IF_KUNIT(dp_put_end);

int dp_parse_dec(const char **s, u32 max, u32 *out)
{
	const char *p = *s;
	u32 v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		u32 d = (u32)(*p - '0');

		/* d > max: max - d would wrap (a one-digit max: ids of 6 nodes) */
		if (d > max || v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		p++;
	}
	*s = p;
	*out = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_parse_dec);

/* ---- addresses ---- */

int dp_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
		  const char **why)
{
	const char *dummy, *p = text;
	u32 v;
	int err;

	if (!why)
		why = &dummy;
	if (!text || !*text) {
		*why = "empty address";
		return -EINVAL;
	}
	if (*p != '#')
		return t->ops->addr_parse(t, text, id, why);
	p++;
	/* *id is left alone on any error: parse into @v. */
	err = dp_parse_dec(&p, 0xffffffffU, &v);
	if (err || *p) {
		*why = "#<node id> wants a decimal node id";
		return -EINVAL;
	}
	if (!dp_addr_valid(t, v)) {
		*why = "no such node id in this fabric";
		return -EINVAL;
	}
	*id = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_parse);

int dp_addr_format(const struct dp_topo *t, u32 id, char *buf, u32 len)
{
	if (!dp_addr_valid(t, id)) {
		if (len)
			buf[0] = '\0';
		return -EINVAL;
	}
	return t->ops->addr_format(t, id, buf, len);
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_format);

int dp_addr_to_label(const struct dp_topo *t, u32 id, u32 *column, u8 *sym,
		     u32 *nsym)
{
	if (!t->ops->addr_to_label)
		return -EOPNOTSUPP;
	if (!dp_addr_valid(t, id))
		return -EINVAL;
	return t->ops->addr_to_label(t, id, column, sym, nsym);
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_to_label);

int dp_addr_from_label(const struct dp_topo *t, u32 column, const u8 *sym,
		       u32 nsym, u32 *id, const char **why)
{
	const char *dummy;

	if (!why)
		why = &dummy;
	if (!t->ops->addr_from_label) {
		*why = "this topology has no column/label address";
		return -EOPNOTSUPP;
	}
	return t->ops->addr_from_label(t, column, sym, nsym, id, why);
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_from_label);

/* ---- wiring ---- */

void dp_port_info(const struct dp_topo *t, u32 id, u32 port,
		  struct dp_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->sw = DP_NODE_NONE;
	if (port < t->nports && dp_addr_valid(t, id))
		t->ops->port_info(t, id, port, pi);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_info);

u32 dp_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	if (port >= t->nports || !dp_addr_valid(t, id))
		return DP_NODE_NONE;
	return t->ops->port_neigh(t, id, port, idx);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_neigh);

int dp_peer_port(const struct dp_topo *t, u32 id, u32 port, u32 peer)
{
	if (port >= t->nports || !dp_addr_valid(t, id) ||
	    !dp_addr_valid(t, peer) || id == peer)
		return -1;
	return t->ops->peer_port(t, id, port, peer);
}
EXPORT_SYMBOL_IF_KUNIT(dp_peer_port);

/* ---- routing ---- */

void dp_route_init(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
		   u32 hash, struct dp_route_state *st)
{
	st->ncoords = 0;
	/* No indirect call for a topology built in: see DP_TOPO_CASE_ROUTE. */
	switch (t->kind) {
	default:
		t->ops->route_init(t, src, dst, sel, hash, st);
		return;
	DP_TOPOLOGIES_BUILT(DP_TOPO_CASE_ROUTE_INIT)
	}
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_init);

bool dp_route_set_coords(const struct dp_topo *t, struct dp_route_state *st,
			 const u32 *x, u32 n)
{
	u8 flag = dp_topo_coords_flag(t);
	u32 i;

	if (!flag || !n || n > DP_COORDS_MAX)
		return false;
	for (i = 0; i < n; i++)
		st->coords[i] = x[i];
	st->ncoords = n;
	st->flags |= flag;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_set_coords);

/* ---- names ---- */

const char *dp_phase_name(const struct dp_topo *t, u8 phase)
{
	return phase < t->ops->nphases ? t->ops->phases[phase].name :
					 "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(dp_phase_name);

const char *dp_drop_reason_name(const struct dp_topo *t, u8 reason)
{
	return reason < t->ops->ndrops ? t->ops->drops[reason] : "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(dp_drop_reason_name);

const char *dp_detour_name(const struct dp_topo *t, u8 slot)
{
	if (!slot || slot > DP_DETOUR_SLOTS || !t->ops->detours)
		return NULL;
	return t->ops->detours[slot - 1];
}
EXPORT_SYMBOL_IF_KUNIT(dp_detour_name);

int dp_sel_parse(const struct dp_topo *t, const char *name)
{
	const char *const *s = t->ops->sel_names;
	u32 i, n = dp_sel_count(t);

	for (i = 0; s && s[i] && i < n; i++)
		if (!strcmp(s[i], name))
			return i;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(dp_sel_parse);

u32 dp_sel_count(const struct dp_topo *t)
{
	const char *const *s = t->ops->sel_names;
	u32 i;

	for (i = 0; s && s[i]; i++)
		;
	if (t->nsels && t->nsels < i)
		i = t->nsels;
	return i ? i : 1;
}
EXPORT_SYMBOL_IF_KUNIT(dp_sel_count);

u32 dp_route_choices(const struct dp_topo *t, u32 self,
		     const struct dp_route_state *st, const struct dp_view *v,
		     u32 *ids, u32 max)
{
	if (!t->ops->route_choices || self >= t->nodes || st->dst >= t->nodes ||
	    self == st->dst)
		return 0;
	return t->ops->route_choices(t, self, st, v, ids, max);
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_choices);

u32 dp_route_npaths(const struct dp_topo *t, u32 src, u32 dst, u32 sel)
{
	u32 n;

	if (!t->ops->npaths || !t->ops->path_init || src >= t->nodes ||
	    dst >= t->nodes || src == dst)
		return 0;
	n = t->ops->npaths(t, src, dst, sel);
	return n < DP_PATHS_MAX ? n : DP_PATHS_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_npaths);

/* @m < dp_route_npaths(): the caller asked it first. */
void dp_route_path_init(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			struct dp_route_state *st)
{
	st->ncoords = 0;
	t->ops->path_init(t, src, dst, m, st);
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_path_init);

const char *dp_sel_name(const struct dp_topo *t, u32 sel)
{
	const char *const *s = t->ops->sel_names;
	u32 i;

	for (i = 0; s && s[i]; i++)
		if (i == sel)
			return s[i];
	return "?";
}
EXPORT_SYMBOL_IF_KUNIT(dp_sel_name);
