/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words of a device's topology, address and settings, as "dpctl link
 * add", "dpctl set" and "ip link add/set DEV type dpillar" (the iproute2
 * plugin, tools/iproute2) take them: one parser, one dialect, written as
 * attributes of either netlink family.
 */
#ifndef DP_LINKARGS_H
#define DP_LINKARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <libmnl/libmnl.h>

#include "dp_params.h"
#include "topo.h"

/* Exit status, as iproute2: ok, the kernel said no, the user said nonsense. */
enum { EXIT_OK = 0, EXIT_KERNEL = 1, EXIT_USAGE = 2 };

/* "show" matches "sh", "s": the iproute2 habit of abbreviating keywords. */
bool matches(const char *arg, const char *word);
/* A port's DPILLAR_PORT_STATE_* as dpctl and ip print it. */
const char *port_state_name(unsigned int state);
/*
 * Each program that links dp_linkargs.c defines these two: its name in
 * messages ("dpctl") and the command that prints its help ("dpctl help").
 */
extern const char dp_prog[], dp_help[];
/* Say what is wrong (printf-style) on stderr; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Where the words usage_error() complains about came from ("FILE:LINE"). */
extern const char *usage_where;

/* Attribute numbers of the settings, rtnetlink's or generic netlink's. */
struct setting_attrs {
	int hello, dead, ip4, ip4_len, ip6, mode, key6, fallback, nic_offload;
};

#define SETTINGS_HELP \
	"SETTINGS := [hello MS] [dead MS] [ip4 PREFIX/LEN] [ip6 PREFIX]\n" \
	"            [mode MODE] [key6 PREFIX] [fallback on|off]\n" \
	"            [nic_offload on|off]\n" \
	"    MODE is the routing mode of what this server sends; DPillar:\n" \
	"    shortest (default), paper, cw, ccw.  key6 (S2) is the /96 of the\n" \
	"    key addresses (\"none\": off): dpctl key locate.  fallback: the\n" \
	"    discovery fallback (default on; only in the default mode, never\n" \
	"    S2's): off leaves failures to the topology's own routing.\n" \
	"    nic_offload: TCP's segmentation and checksums to the ports whose\n" \
	"    NIC is qualified (e1000; default off)\n"

/* Is @key one of the settings? */
bool is_setting(const char *key);
/*
 * Add setting @key (hello, dead, ip4, ip6, mode, key6, fallback,
 * nic_offload) with value @val to @nlh;
 * @ops names the modes of the device's topology.  Returns 1 when @key was
 * a setting, 0 when not, or EXIT_USAGE.
 */
int put_setting(struct nlmsghdr *nlh, const struct setting_attrs *a,
		const struct dp_topo_ops *ops, const char *key,
		const char *val);

/*
 * Attribute numbers of the topology and address, either family's; the
 * parameters' are their table's (struct dp_topo_param), @genl says which.
 */
struct topo_attrs {
	int topo, addr;
	bool genl;
};

#define TOPO_ARGS_SETTINGS	16

/* A topology, an address and (dpctl link add) ports as words give them. */
struct topo_args {
	const struct dp_topo_ops *ops;	/* default dpillar */
	/* The parameters (DP_PARAM_LIST): p.kind is not set here. */
	struct dp_topo_params p;
	u32 gave;			/* 1 << DP_PARAM_ID_*: its word given */
	bool have_topo;
	bool given;			/* any topology word or an address */
	const char *addr;
	/* ifindex 0: "portN none", a port without a NIC (yet) */
	unsigned int ifindex[DP_MAX_PORTS], nports;
	unsigned int ports_given;	/* bit p: portN was given */
	char *settings[TOPO_ARGS_SETTINGS];	/* KEY VALUE pairs */
	unsigned int nsettings;
};

/*
 * One parameter word and its value (DP_PARAM_LIST: "spaces 2", "coords
 * 1,2"), checked against the list's range, into @p.  Returns the
 * parameter, or NULL when @key is none (*@err 0) or after a message
 * (*@err EXIT_USAGE).  "i" is level's other name.
 */
const struct dp_param *dp_param_parse(const char *key, const char *val,
				      struct dp_topo_params *p, int *err);

/*
 * The one printer of a fabric's parameters: calls @fn for each of @ops's
 * table in its order that @p has (nonzero, DP_PARAM_ZERO or
 * DP_PARAM_REQUIRED; DP_PARAM_HIDDEN ones only when @conf: the words that
 * recreate the device) with the value (a u32, or the coordinates).
 */
typedef void (*dp_param_fn)(void *ctx, const struct dp_param *d, u32 v,
			    const u32 *coords, u32 ncoords);
void dp_params_show(const struct dp_topo_ops *ops,
		    const struct dp_topo_params *p, bool conf,
		    dp_param_fn fn, void *ctx);
/*
 * "WORD VALUE" words of dp_params_show() into @buf, each after @sep, the
 * coordinates joined by @csep ("," as the words take them).
 */
void dp_params_text(char *buf, size_t len, const struct dp_topo_ops *ops,
		    const struct dp_topo_params *p, bool conf,
		    const char *sep, const char *csep);
/*
 * The parameters of a netlink message, rtnetlink's (@genl false: @tb
 * indexed by IFLA_DPILLAR_*) or genetlink's (DPILLAR_A_DEV_*), into @p.
 */
void dp_params_get(struct dp_topo_params *p, const struct nlattr *const *tb,
		   bool genl);

/*
 * Parse the words of "link add" and "set" into @a (see dp_linkargs.c),
 * check them, and write the topology and address as attributes.
 */
int topo_args_parse(const char *cmd, int argc, char **argv, bool ports,
		    struct topo_args *a);
int topo_args_check(const char *cmd, const struct topo_args *a, bool ports);
/*
 * The rules the kernel enforces on a new device (net/dpillar/settings.c,
 * rtnl.c: dp_parse_topo, dp_parse_ports, dp_settings_parse and the policy's
 * bounds), with its extack wording: the topology (or none, for a device
 * without one) builds, @nports ports (0: not counted) are the topology's
 * number, and the settings with the kernel's defaults for the others hold
 * together (dead longer than hello, a mode of the topology, prefixes
 * without host bits, ...).  "link add", "ip link add" and "dpctl up" /
 * "dpctl check" before anything is created.
 */
int topo_args_check_new(const char *cmd, const struct topo_args *a,
			unsigned int nports);
void topo_args_put(struct nlmsghdr *nlh, const struct topo_args *a,
		   const struct topo_attrs *at);
/* The settings of the "dpillar" link type (IFLA_DPILLAR_*). */
extern const struct setting_attrs dp_link_settings;
/* The topology, address and ports (if any) as the link type's attributes. */
void topo_args_put_link(struct nlmsghdr *nlh, const struct topo_args *a);

/*
 * TOPOLOGY's grammar in a help text: a line of its own, which help_put()
 * replaces with topo_help()'s lines at that line's indent.  Not written
 * here: a topology (topologies.h) or a parameter (params.h, a topology's
 * table) is in the help by its own line there.
 */
#define TOPO_HELP_MARK	"@TOPOLOGY"
#define TOPO_HELP	TOPO_HELP_MARK "\n"
/*
 * "TOPOLOGY := [topo dpillar] n N k K addr ADDR", then "| topo NAME ..."
 * for every other topology but the test fixtures, from each one's
 * parameter table (DP_PARAM_REQUIRED ones without brackets), every line
 * starting with @indent.
 */
void topo_help(FILE *f, const char *indent);
/* fputs(@text, @f), its TOPO_HELP lines expanded by topo_help(). */
void help_put(const char *text, FILE *f);

#endif
