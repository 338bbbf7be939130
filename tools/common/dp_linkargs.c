// SPDX-License-Identifier: GPL-2.0
/*
 * A device's topology, address and settings as words (dp_linkargs.h).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/dpillar.h>

#include "dp_linkargs.h"

const char *usage_where;

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", dp_prog);
	if (usage_where)
		fprintf(stderr, "%s: ", usage_where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* A file's error is the file's: no hint about the command line. */
	if (usage_where)
		fputc('\n', stderr);
	else
		fprintf(stderr, "\nTry '%s'.\n", dp_help);
	return EXIT_USAGE;
}

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

const struct setting_attrs dp_link_settings = {
	.hello = IFLA_DPILLAR_HELLO_MS,
	.dead = IFLA_DPILLAR_DEAD_MS,
	.ip4 = IFLA_DPILLAR_IP4_PREFIX,
	.ip4_len = IFLA_DPILLAR_IP4_PREFIXLEN,
	.ip6 = IFLA_DPILLAR_IP6_PREFIX,
	.mode = IFLA_DPILLAR_MODE,
	.key6 = IFLA_DPILLAR_KEY6_PREFIX,
	.fallback = IFLA_DPILLAR_FALLBACK,
	.nic_offload = IFLA_DPILLAR_NIC_OFFLOAD,
};

static const struct topo_attrs link_topo_attrs = {
	.topo = IFLA_DPILLAR_TOPO, .addr = IFLA_DPILLAR_ADDR,
};

/* topo_help()'s word @w at column *@col, on a new line past 76 columns. */
static void help_word(FILE *f, const char *indent, size_t *col, const char *w)
{
	if (*col + 1 + strlen(w) > 76) {
		fprintf(f, "\n%s            ", indent);
		*col = strlen(indent) + 12;
	} else {
		fputc(' ', f);
		(*col)++;
	}
	fputs(w, f);
	*col += strlen(w);
}

void topo_help(FILE *f, const char *indent)
{
	const struct dp_topo_ops *dflt = dp_topo_ops_by_name("dpillar");
	const char *lead = "TOPOLOGY :=";
	const struct dp_topo_ops *ops;
	const struct dp_topo_param *q;
	const char *c;
	char w[64];
	size_t col, j;
	u32 kind, i;
	bool req;

	for (kind = 0; kind <= DP_TOPO_KIND_MAX; kind++) {
		ops = dp_topo_ops_by_kind(kind);
		if (!ops || ops->fixture || !ops->nparams)
			continue;
		fprintf(f, "%s%s", indent, lead);
		col = strlen(indent) + strlen(lead);
		snprintf(w, sizeof(w), ops == dflt ? "[topo %s]" : "topo %s",
			 ops->name);
		help_word(f, indent, &col, w);
		for (i = 0; i < ops->nparams; i++) {
			q = &ops->params[i];
			req = q->flags & (DP_PARAM_REQUIRED | DP_PARAM_NEEDED);
			/* "[word WORD]", the coordinates "coords C0,C1,..." */
			j = snprintf(w, sizeof(w), "%s%s ", req ? "" : "[",
				     q->name);
			if (q->flags & DP_PARAM_COORDS)
				j += snprintf(w + j, sizeof(w) - j, "C0,C1,...");
			else
				for (c = q->name; *c && j < sizeof(w) - 2; c++)
					w[j++] = toupper((unsigned char)*c);
			snprintf(w + j, sizeof(w) - j, "%s", req ? "" : "]");
			help_word(f, indent, &col, w);
		}
		help_word(f, indent, &col, "addr ADDR");
		fputc('\n', f);
		lead = "          |";
	}
}

void help_put(const char *text, FILE *f)
{
	char indent[32];
	const char *eol;
	size_t sp, len;

	for (; *text; text = eol) {
		eol = strchr(text, '\n');
		eol = eol ? eol + 1 : text + strlen(text);
		len = eol - text;
		sp = strspn(text, " ");
		if (sp < sizeof(indent) &&
		    !strncmp(text + sp, TOPO_HELP, strlen(TOPO_HELP))) {
			memcpy(indent, text, sp);
			indent[sp] = '\0';
			topo_help(f, indent);
		} else {
			fwrite(text, 1, len, f);
		}
	}
}

/*
 * The topology words of "link add" and "set": one dialect for both.
 * @ports: whether portN IF may be given (link add; set leaves the NICs to
 * "ip link set NIC master DEV").  Returns EXIT_OK or EXIT_USAGE (after a
 * message); words that are settings are collected in @a->settings.
 */
int topo_args_parse(const char *cmd, int argc, char **argv, bool ports,
		    struct topo_args *a)
{
	const struct dp_param *param;
	int err;

	memset(a, 0, sizeof(*a));
	a->ops = dp_topo_ops_by_name("dpillar");
	for (; argc > 0; argc -= 2, argv += 2) {
		const char *key = argv[0];

		if (argc < 2)
			return usage_error("%s: \"%s\" needs a value", cmd, key);
		param = dp_param_parse(key, argv[1], &a->p, &err);
		if (err)
			return err;
		if (param) {
			a->gave |= 1U << (param - dp_params);
		} else if (!strcmp(key, "id")) {
			a->addr = argv[1];
		} else if (matches(key, "addr") || matches(key, "address")) {
			a->addr = argv[1];
		} else if (ports && !strncmp(key, "port", 4) && key[4]) {
			unsigned int p;

			if (parse_u32(key + 4, &p) || p >= DPILLAR_PORTS_MAX)
				return usage_error("invalid port \"%s\"", key);
			/* "none": a port without a NIC (yet), ifindex 0. */
			a->ports_given |= 1u << p;
			a->ifindex[p] = strcmp(argv[1], "none") ?
					if_nametoindex(argv[1]) : 0;
			if (!a->ifindex[p] && strcmp(argv[1], "none")) {
				fprintf(stderr, "%s: %s: device \"%s\" does not exist\n",
					dp_prog, key, argv[1]);
				return EXIT_KERNEL;
			}
			if (p + 1 > a->nports)
				a->nports = p + 1;
		} else if (is_setting(key)) {
			if (a->nsettings + 2 > TOPO_ARGS_SETTINGS)
				return usage_error("%s: too many settings", cmd);
			a->settings[a->nsettings++] = argv[0];
			a->settings[a->nsettings++] = argv[1];
		} else if (matches(key, "topo")) {
			a->ops = dp_topo_ops_by_name(argv[1]);
			if (!a->ops)
				return usage_error("unknown topology \"%s\"", argv[1]);
			a->have_topo = true;
		} else {
			return usage_error("%s: unknown key \"%s\"", cmd, key);
		}
	}
	a->given = a->have_topo || a->gave || a->addr;
	return EXIT_OK;
}

const struct dp_param *dp_param_parse(const char *key, const char *val,
				      struct dp_topo_params *p, int *err)
{
	const struct dp_param *d = dp_param_by_name(strcmp(key, "i") ?
						    key : "level");

	*err = EXIT_OK;
	if (!d || !dp_param_set(d, val, p))
		return d;
	if (d->flags & DP_PARAM_COORDS)
		*err = usage_error("invalid %s \"%s\": %u to %u u32s, comma separated",
				   d->name, val, d->min, d->max);
	else
		*err = usage_error("invalid %s \"%s\"", d->name, val);
	return NULL;
}

void dp_params_show(const struct dp_topo_ops *ops,
		    const struct dp_topo_params *p, bool conf,
		    dp_param_fn fn, void *ctx)
{
	const struct dp_topo_param *q;
	u32 i, v;

	for (i = 0; ops && i < ops->nparams; i++) {
		q = &ops->params[i];
		if ((q->flags & DP_PARAM_HIDDEN) && !conf)
			continue;
		if (q->flags & DP_PARAM_COORDS) {
			if (p->ncoords)
				fn(ctx, &dp_params[q->id], 0, p->coords,
				   p->ncoords);
			continue;
		}
		v = dp_topo_param_u32(p, q);
		if (v || (q->flags & (DP_PARAM_ZERO | DP_PARAM_REQUIRED)))
			fn(ctx, &dp_params[q->id], v, NULL, 0);
	}
}

struct dp_params_buf {
	char *buf;
	size_t len, at;
	const char *sep, *csep;
};

static void dp_params_word(void *ctx, const struct dp_param *d, u32 v,
			   const u32 *coords, u32 ncoords)
{
	struct dp_params_buf *b = ctx;
	u32 i;

#define DP_PARAMS_PUT(...)						\
	(b->at += snprintf(b->buf + b->at, b->at < b->len ?		\
			   b->len - b->at : 0, __VA_ARGS__))
	DP_PARAMS_PUT("%s%s ", b->sep, d->name);
	if (!ncoords)
		DP_PARAMS_PUT("%u", v);
	for (i = 0; i < ncoords; i++)
		DP_PARAMS_PUT("%s%u", i ? b->csep : "", coords[i]);
#undef DP_PARAMS_PUT
}

void dp_params_text(char *buf, size_t len, const struct dp_topo_ops *ops,
		    const struct dp_topo_params *p, bool conf,
		    const char *sep, const char *csep)
{
	struct dp_params_buf b = { buf, len, 0, sep, csep };

	if (len)
		*buf = '\0';
	dp_params_show(ops, p, conf, dp_params_word, &b);
}

void dp_params_get(struct dp_topo_params *p, const struct nlattr *const *tb,
		   bool genl)
{
	const struct nlattr *attr;
	u32 i, len, *at;

	for (i = 0; i < DP_PARAM_COUNT; i++) {
		attr = tb[genl ? dp_params[i].genl : dp_params[i].ifla];
		at = (u32 *)((char *)p + dp_params[i].off);
		if (!attr)
			continue;
		len = mnl_attr_get_payload_len(attr);
		if (!(dp_params[i].flags & DP_PARAM_COORDS)) {
			if (len == sizeof(u32))
				*at = mnl_attr_get_u32(attr);
			continue;
		}
		if (len && !(len % sizeof(u32)) &&
		    len <= dp_params[i].max * sizeof(u32)) {
			memcpy(at, mnl_attr_get_payload(attr), len);
			at[-1] = len / sizeof(u32);
		}
	}
}

/* The words of @a as the fabric's parameters (0: not given). */
static void topo_args_params(const struct topo_args *a,
			     struct dp_topo_params *p)
{
	*p = a->p;
	p->kind = a->ops->kind;
}

/* Whether @a has a word for @prm (0 is a value of n, k and seed). */
static bool topo_args_gave(const struct topo_args *a,
			   const struct dp_topo_param *prm)
{
	return a->gave & (1U << prm->id);
}

static const char *topo_args_foreign(const struct topo_args *a)
{
	return dp_params_foreign(a->ops, a->gave);
}

/*
 * What a topology needs, and the address checked where we can.  S2 has
 * messages of its own; any other topology's words are its table's, the
 * DP_PARAM_REQUIRED ones required.
 */
int topo_args_check(const char *cmd, const struct topo_args *a, bool ports)
{
	const char *foreign = topo_args_foreign(a);
	char need[64] = "";
	struct dp_topo_params prm;
	const char *why;
	struct dp_topo t;
	u32 i, id;
	bool missing = !a->addr || (ports && !a->nports);

	topo_args_params(a, &prm);
	for (i = 0; i < a->ops->nparams; i++) {
		const struct dp_topo_param *q = &a->ops->params[i];

		if (!(q->flags & DP_PARAM_REQUIRED))
			continue;
		snprintf(need + strlen(need), sizeof(need) - strlen(need),
			 "%s, ", q->name);
		missing |= !topo_args_gave(a, q);
	}
	if (foreign)
		return usage_error("%s: %s", cmd, foreign);
	if (a->ops->kind == DP_TOPO_S2) {
		if (!a->p.n || !a->p.nodes || !a->p.spaces || !a->addr ||
		    (ports && !a->nports))
			return usage_error("%s: s2 needs nodes, n, spaces, id%s",
					   cmd, ports ? " and ports" : "");
		if (a->gave & (1U << DP_PARAM_ID_k | 1U << DP_PARAM_ID_level))
			return usage_error("%s: s2 takes no k or level", cmd);
		if (a->p.ncoords && a->p.ncoords != a->p.spaces)
			return usage_error("%s: coords must give one coordinate per space (%u given, spaces %u)",
					   cmd, a->p.ncoords, a->p.spaces);
	} else if (missing) {
		return usage_error("%s: %saddr%s are required", cmd, need,
				   ports ? " and ports" : "");
	}
	for (i = 0; i < a->nports; i++)
		if (!(a->ports_given & (1u << i)))
			return usage_error("%s: port%u missing", cmd, i);
	/*
	 * The address goes to the kernel as text (IFLA_DPILLAR_ADDR, any
	 * topology).  Check it here when the fabric is one we know; a fabric
	 * we cannot build is left to the kernel, whose extack says why.
	 */
	if (!dp_topo_init(&t, &prm, &why) && dp_addr_parse(&t, a->addr, &id, &why))
		return usage_error("invalid address \"%s\": %s", a->addr, why);
	return EXIT_OK;
}

/*
 * The kernel's defaults for a new device (net/dpillar/dpillar_types.h,
 * settings.c dp_settings_default(); tools/dpctl/test-offline.sh checks
 * they agree).
 */
#define LINK_HELLO_MS_DEFAULT	100
#define LINK_DEAD_MS_DEFAULT	300
static const unsigned char link_ip6_default[16] = {
	0xfd, 0x64, 0x70, 0x69, 0x6c, 0x6c, 0x61, 0x72,
};

int topo_args_check_new(const char *cmd, const struct topo_args *a,
			unsigned int nports)
{
	char buf[1024] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	unsigned int hello = LINK_HELLO_MS_DEFAULT;
	unsigned int dead = LINK_DEAD_MS_DEFAULT, mode = 0, plen = 8;
	unsigned char ip6[16], key6[16];
	bool have_key6 = false;
	struct dp_topo_params prm;
	const char *why = NULL;
	struct nlattr *attr;
	uint32_t ip4 = 0x0a000000, mask;
	struct dp_topo t;
	unsigned int i;

	memcpy(ip6, link_ip6_default, sizeof(ip6));
	memset(key6, 0, sizeof(key6));
	if (a->given) {
		topo_args_params(a, &prm);
		if (dp_topo_init(&t, &prm, &why))
			return usage_error("%s: %s", cmd,
					   why ? why : "invalid topology");
	} else {
		dp_topo_init_none(&t);
	}
	if (a->given && nports > t.nports)
		return usage_error("%s: Too many ports for this topology (%u, %s has %u)",
				   cmd, nports, a->ops->name, t.nports);
	if (a->given && nports && nports < t.nports)
		return usage_error("%s: Too few ports for this topology (%u, %s has %u)",
				   cmd, nports, a->ops->name, t.nports);

	/* The values as put_setting() writes them: one parser. */
	for (i = 0; i + 1 < a->nsettings; i += 2)
		if (put_setting(nlh, &dp_link_settings, a->ops, a->settings[i],
				a->settings[i + 1]) == EXIT_USAGE)
			return EXIT_USAGE;
	mnl_attr_for_each(attr, nlh, 0) {
		int type = mnl_attr_get_type(attr);

		if (type == dp_link_settings.hello)
			hello = mnl_attr_get_u32(attr);
		else if (type == dp_link_settings.dead)
			dead = mnl_attr_get_u32(attr);
		else if (type == dp_link_settings.mode)
			mode = mnl_attr_get_u32(attr);
		else if (type == dp_link_settings.ip4)
			ip4 = ntohl(*(uint32_t *)mnl_attr_get_payload(attr));
		else if (type == dp_link_settings.ip4_len)
			plen = mnl_attr_get_u8(attr);
		else if (type == dp_link_settings.ip6)
			memcpy(ip6, mnl_attr_get_payload(attr), sizeof(ip6));
		else if (type == dp_link_settings.key6) {
			memcpy(key6, mnl_attr_get_payload(attr), sizeof(key6));
			have_key6 = true;
		}
	}
	/* The policy's bounds (rtnl.c dp_policy, genl.c), then the rest. */
	if (hello < DPILLAR_HELLO_MS_MIN || hello > DPILLAR_HELLO_MS_MAX)
		return usage_error("%s: hello %u out of range (%u to %u ms)", cmd,
				   hello, DPILLAR_HELLO_MS_MIN,
				   DPILLAR_HELLO_MS_MAX);
	if (dead < DPILLAR_HELLO_MS_MIN + 1 || dead > DPILLAR_DEAD_MS_MAX)
		return usage_error("%s: dead %u out of range (%u to %u ms)", cmd,
				   dead, DPILLAR_HELLO_MS_MIN + 1,
				   DPILLAR_DEAD_MS_MAX);
	if (dead <= hello)
		return usage_error("%s: Dead interval must be longer than the Hello interval (hello %u ms, dead %u ms)",
				   cmd, hello, dead);
	if (mode >= dp_sel_count(&t))
		return usage_error("%s: No such routing mode in this topology (%s)",
				   cmd, a->given ? a->ops->name :
				   "none: the device is unconfigured");
	mask = plen ? ~0U << (32 - plen) : 0;
	if (ip4 & ~mask)
		return usage_error("%s: IPv4 prefix has host bits set", cmd);
	if (ip6[12] | ip6[13] | ip6[14] | ip6[15])
		return usage_error("%s: IPv6 prefix is a /96: its low 32 bits must be zero",
				   cmd);
	/* The kernel's rule and words (newlink); absent ports may repeat. */
	for (i = 0; i < a->nports; i++) {
		unsigned int j;

		for (j = 0; j < i; j++)
			if (a->ifindex[i] && a->ifindex[i] == a->ifindex[j])
				return usage_error("%s: port%u and port%u are one device: Ports must be distinct devices",
						   cmd, j, i);
	}
	for (i = 0; i < 16 && !key6[i]; i++)
		;
	if (i == 16)
		return EXIT_OK;
	if (have_key6 && !dp_topo_has_keys(&t))
		return usage_error("%s: This topology has no key-based routing",
				   cmd);
	if (key6[12] | key6[13] | key6[14] | key6[15])
		return usage_error("%s: Key prefix is a /96: its low 32 bits must be zero",
				   cmd);
	if (!memcmp(key6, ip6, 12))
		return usage_error("%s: Key prefix must differ from the node prefix",
				   cmd);
	return EXIT_OK;
}

/*
 * The topology and address as attributes of one family (@at): the
 * topology's table in its order (a parameter when required, always shown
 * or given), then the shared words it has no entry for (level), for its
 * init to refuse.
 */
void topo_args_put(struct nlmsghdr *nlh, const struct topo_args *a,
		   const struct topo_attrs *at)
{
	const struct dp_topo_param *q;
	struct dp_topo_params p;
	u32 kind = 0, i = 0, v;
	u32 done = 0;

	topo_args_params(a, &p);
	mnl_attr_put_u32(nlh, at->topo, a->ops->kind);
	for (i = 0; i < a->ops->nparams; i++) {
		q = &a->ops->params[i];
		done |= 1U << q->id;
		if (q->flags & DP_PARAM_COORDS) {
			if (p.ncoords)
				mnl_attr_put(nlh, at->genl ? q->genl : q->ifla,
					     p.ncoords * sizeof(p.coords[0]),
					     p.coords);
			continue;
		}
		v = dp_topo_param_u32(&p, q);
		if (v || (q->flags & (DP_PARAM_REQUIRED | DP_PARAM_ZERO |
				      DP_PARAM_HIDDEN)))
			mnl_attr_put_u32(nlh, at->genl ? q->genl : q->ifla, v);
	}
	for (i = 0; (q = dp_topo_param_next(&kind, &i));) {
		if (q->only || (done & (1U << q->id)))
			continue;
		done |= 1U << q->id;
		v = dp_topo_param_u32(&p, q);
		if (v)
			mnl_attr_put_u32(nlh, at->genl ? q->genl : q->ifla, v);
	}
	mnl_attr_put_strz(nlh, at->addr, a->addr);
}

bool is_setting(const char *key)
{
	return !strcmp(key, "hello") || !strcmp(key, "dead") ||
	       !strcmp(key, "ip4") || !strcmp(key, "ip6") ||
	       !strcmp(key, "mode") || !strcmp(key, "key6") ||
	       !strcmp(key, "fallback") || !strcmp(key, "nic_offload");
}

/* A routing mode by the topology's name for it, or its number. */
static int mode_parse(const struct dp_topo_ops *ops, const char *val,
		      unsigned int *v)
{
	const char *const *n = ops ? ops->sel_names : NULL;
	unsigned int i;

	for (i = 0; n && n[i]; i++) {
		if (!strcmp(n[i], val)) {
			*v = i;
			return 0;
		}
	}
	return parse_u32(val, v) || *v > DPILLAR_MODE_MAX ? -1 : 0;
}

int put_setting(struct nlmsghdr *nlh, const struct setting_attrs *a,
		const struct dp_topo_ops *ops, const char *key,
		const char *val)
{
	unsigned int v;

	if (!strcmp(key, "mode")) {
		if (mode_parse(ops, val, &v))
			return usage_error("unknown routing mode \"%s\"%s%s",
					   val, ops ? " for topology " : "",
					   ops ? ops->name : "");
		mnl_attr_put_u32(nlh, a->mode, v);
		return 1;
	}

	/* The words "ip -d link show" and dpctl print, nothing else. */
	if (!strcmp(key, "fallback") || !strcmp(key, "nic_offload")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return usage_error("%s takes on or off, not \"%s\"",
					   key, val);
		mnl_attr_put_u8(nlh, !strcmp(key, "fallback") ? a->fallback :
				a->nic_offload, !strcmp(val, "on"));
		return 1;
	}

	if (!strcmp(key, "hello") || !strcmp(key, "dead")) {
		if (parse_u32(val, &v))
			return usage_error("invalid %s interval \"%s\"", key, val);
		mnl_attr_put_u32(nlh, !strcmp(key, "hello") ? a->hello : a->dead,
				 v);
		return 1;
	}
	if (!strcmp(key, "ip4")) {
		char buf[INET_ADDRSTRLEN + 4], *slash;
		struct in_addr ip;
		unsigned int len;

		snprintf(buf, sizeof(buf), "%s", val);
		slash = strchr(buf, '/');
		if (!slash || parse_u32(slash + 1, &len) || len > 32)
			return usage_error("ip4 wants PREFIX/LEN, not \"%s\"", val);
		*slash = 0;
		if (inet_pton(AF_INET, buf, &ip) != 1)
			return usage_error("invalid IPv4 prefix \"%s\"", val);
		mnl_attr_put(nlh, a->ip4, sizeof(ip), &ip);
		mnl_attr_put_u8(nlh, a->ip4_len, (uint8_t)len);
		return 1;
	}
	if (!strcmp(key, "ip6") || !strcmp(key, "key6")) {
		char buf[INET6_ADDRSTRLEN + 4], *slash;
		struct in6_addr ip;

		if (!strcmp(key, "key6") && !strcmp(val, "none")) {
			memset(&ip, 0, sizeof(ip));
			mnl_attr_put(nlh, a->key6, sizeof(ip), &ip);
			return 1;
		}

		snprintf(buf, sizeof(buf), "%s", val);
		slash = strchr(buf, '/');
		if (slash && strcmp(slash, "/96"))
			return usage_error("the IPv6 prefix is a /96, not \"%s\"", val);
		if (slash)
			*slash = 0;
		if (inet_pton(AF_INET6, buf, &ip) != 1)
			return usage_error("invalid IPv6 prefix \"%s\"", val);
		mnl_attr_put(nlh, strcmp(key, "key6") ? a->ip6 : a->key6,
			     sizeof(ip), &ip);
		return 1;
	}
	return 0;
}

void topo_args_put_link(struct nlmsghdr *nlh, const struct topo_args *a)
{
	struct nlattr *ports;
	unsigned int i;

	topo_args_put(nlh, a, &link_topo_attrs);
	/* None: a change of topology, whose NICs stay where they are. */
	if (!a->nports)
		return;
	ports = mnl_attr_nest_start(nlh, IFLA_DPILLAR_PORTS);
	for (i = 0; i < a->nports; i++)
		mnl_attr_put_u32(nlh, IFLA_DPILLAR_PORT, a->ifindex[i]);
	mnl_attr_nest_end(nlh, ports);
}

const char *port_state_name(unsigned int state)
{
	switch (state) {
	case DPILLAR_PORT_STATE_UP:
		return "up";
	case DPILLAR_PORT_STATE_DOWN:
		return "down";
	case DPILLAR_PORT_STATE_ABSENT:
		return "absent";
	}
	return "unknown";
}
