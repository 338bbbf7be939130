// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - topology-independent part of the routing core: dispatch through
 * the per-kind ops table, address text form, names for diagnostics.
 */
#include "topo.h"

/* u64 / u32 by shift and subtract: no 64-bit division, init time only. */
static u64 dp_div64(u64 n, u32 d)
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

static const struct dp_topo_ops *dp_topo_ops_of(u32 kind)
{
	switch (kind) {
	case DP_TOPO_DPILLAR:
		return &dp_dpillar_ops;
	default:
		return NULL;
	}
}

int dp_topo_init(struct dp_topo *t, u32 kind, u32 n, u32 k, const char **why)
{
	const struct dp_topo_ops *ops = dp_topo_ops_of(kind);
	const char *dummy;
	int err;

	if (!why)
		why = &dummy;
	memset(t, 0, sizeof(*t));
	if (!ops) {
		*why = "unknown topology kind";
		return -EINVAL;
	}
	err = ops->init(t, n, k, why);
	if (err) {
		memset(t, 0, sizeof(*t));
		return err;
	}
	t->ops = ops;
	t->kind = kind;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_topo_init);

int dp_addr_from_symbols(const struct dp_topo *t, u32 column, const u8 *sym,
			 u32 nsym, u32 *id, const char **why)
{
	const char *dummy;

	if (!why)
		why = &dummy;
	return t->ops->addr_from_symbols(t, column, sym, nsym, id, why);
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_from_symbols);

void dp_addr_to_symbols(const struct dp_topo *t, u32 id, u32 *column,
			u8 *sym)
{
	t->ops->addr_to_symbols(t, id, column, sym);
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_to_symbols);

bool dp_addr_valid(const struct dp_topo *t, u32 id)
{
	return id < t->nodes;
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_valid);

/* Append decimal @v at buf[*pos], counting even what does not fit. */
static void dp_put_u32(char *buf, u32 len, u32 *pos, u32 v)
{
	char tmp[10];
	u32 i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i) {
		i--;
		if (*pos + 1 < len)
			buf[*pos] = tmp[i];
		(*pos)++;
	}
}

static void dp_put_char(char *buf, u32 len, u32 *pos, char c)
{
	if (*pos + 1 < len)
		buf[*pos] = c;
	(*pos)++;
}

int dp_addr_format(const struct dp_topo *t, u32 id, char *buf, u32 len)
{
	u8 sym[DP_MAX_K];
	u32 column, pos = 0, i;

	if (!dp_addr_valid(t, id)) {
		if (len)
			buf[0] = '\0';
		return -EINVAL;
	}
	dp_addr_to_symbols(t, id, &column, sym);
	dp_put_u32(buf, len, &pos, column);
	dp_put_char(buf, len, &pos, ':');
	for (i = t->nsym; i-- > 0;) {
		dp_put_u32(buf, len, &pos, sym[i]);
		if (i)
			dp_put_char(buf, len, &pos, '.');
	}
	if (len)
		buf[pos < len ? pos : len - 1] = '\0';
	return (int)pos;
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_format);

/* Parse a decimal number at *s (at least one digit) not above @max. */
static int dp_parse_dec(const char **s, u32 max, u32 *out)
{
	const char *p = *s;
	u32 v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		u32 d = (u32)(*p - '0');

		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		p++;
	}
	*s = p;
	*out = v;
	return 0;
}

int dp_addr_parse_raw(const char *text, u32 *column, u8 *sym, u32 *nsym,
		      const char **why)
{
	u8 tmp[DP_MAX_K];
	const char *p = text;
	const char *dummy;
	u32 n = 0, v, i;
	int err;

	if (!why)
		why = &dummy;
	if (!p || !*p) {
		*why = "empty address";
		return -EINVAL;
	}
	err = dp_parse_dec(&p, 0xffffffffU, column);
	if (err) {
		*why = err == -ERANGE ? "column out of range" :
		       "address must look like C:v.v.v (column first)";
		return -EINVAL;
	}
	if (*p != ':') {
		*why = "address must look like C:v.v.v (missing ':')";
		return -EINVAL;
	}
	p++;
	for (;;) {
		err = dp_parse_dec(&p, 255, &v);
		if (err == -ERANGE) {
			*why = "label symbol out of range (must be < n/2)";
			return -EINVAL;
		}
		if (err) {
			*why = "label must be decimal symbols separated by '.'";
			return -EINVAL;
		}
		if (n == DP_MAX_K) {
			*why = "label has too many symbols";
			return -EINVAL;
		}
		tmp[n++] = (u8)v;
		if (*p == '\0')
			break;
		if (*p != '.') {
			*why = "label must be decimal symbols separated by '.'";
			return -EINVAL;
		}
		p++;
	}
	/* Text is most significant first; sym[] is v_0 first. */
	for (i = 0; i < n; i++)
		sym[i] = tmp[n - 1 - i];
	*nsym = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_parse_raw);

int dp_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
		  const char **why)
{
	u8 sym[DP_MAX_K];
	const char *dummy;
	u32 column, nsym;
	int err;

	if (!why)
		why = &dummy;
	err = dp_addr_parse_raw(text, &column, sym, &nsym, why);
	if (err)
		return err;
	return t->ops->addr_from_symbols(t, column, sym, nsym, id, why);
}
EXPORT_SYMBOL_IF_KUNIT(dp_addr_parse);

void dp_port_switch(const struct dp_topo *t, u32 id, u32 port, u32 *sw_col,
		    u32 *sw_id)
{
	t->ops->port_switch(t, id, port, sw_col, sw_id);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_switch);

u32 dp_port_neigh_count(const struct dp_topo *t)
{
	return t->port_neighs;
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_neigh_count);

u32 dp_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	return t->ops->port_neigh(t, id, port, idx);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_neigh);

int dp_port_neigh_index(const struct dp_topo *t, u32 id, u32 port, u32 peer)
{
	return t->ops->port_neigh_index(t, id, port, peer);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_neigh_index);

void dp_route_init_dir(const struct dp_topo *t, u32 src, u32 dst,
		       enum dp_dir dir, struct dp_route_state *st)
{
	t->ops->route_init(t, src, dst, dir, st);
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_init_dir);

void dp_route_init(const struct dp_topo *t, u32 src, u32 dst,
		   struct dp_route_state *st)
{
	t->ops->route_init(t, src, dst, DP_DIR_AUTO, st);
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_init);

int dp_sroute(const struct dp_topo *t, u32 self, struct dp_route_state *st,
	      struct dp_hop *hop)
{
	return t->ops->route(t, self, st, NULL, hop);
}
EXPORT_SYMBOL_IF_KUNIT(dp_sroute);

int dp_ftroute(const struct dp_topo *t, u32 self, struct dp_route_state *st,
	       const struct dp_reach *r, struct dp_hop *hop)
{
	return t->ops->route(t, self, st, r, hop);
}
EXPORT_SYMBOL_IF_KUNIT(dp_ftroute);

static const char * const dp_drop_names[DP_DROP_ROUTE_COUNT] = {
	[DP_DROP_ROUTE_NONE] = "none",
	[DP_DROP_ROUTE_BAD_ADDR] = "bad_addr",
	[DP_DROP_ROUTE_AT_DST] = "at_dst",
	[DP_DROP_ROUTE_RING] = "ring_blocked",
	[DP_DROP_ROUTE_UTURN] = "uturn_blocked",
	[DP_DROP_ROUTE_HELIX] = "helix_blocked",
	[DP_DROP_ROUTE_TUNNEL] = "tunnel_blocked",
	[DP_DROP_ROUTE_BUDGET] = "tunnel_budget",
	[DP_DROP_ROUTE_NOPATH] = "no_path",
};

static const char * const dp_phase_names[DP_PHASE_COUNT] = {
	[DP_PHASE_NONE] = "none",
	[DP_PHASE_DIRECT] = "direct",
	[DP_PHASE_HELIX] = "helix",
	[DP_PHASE_RING] = "ring",
	[DP_PHASE_TUNNEL] = "tunnel",
	[DP_PHASE_UTURN] = "uturn",
	[DP_PHASE_RING_REV] = "ring_reverse",
};

const char *dp_drop_reason_name(u8 reason)
{
	return reason < DP_DROP_ROUTE_COUNT ? dp_drop_names[reason] : "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(dp_drop_reason_name);

const char *dp_phase_name(u8 phase)
{
	return phase < DP_PHASE_COUNT ? dp_phase_names[phase] : "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(dp_phase_name);
