/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The iproute2 internals that link_dpillar.so uses, and nothing else.
 *
 * iproute2 installs no headers for its link plugins: "ip" dlopen()s
 * <IP_LIB_DIR>/link_<kind>.so, takes its struct link_util
 * "<kind>_link_util" and calls back into the helpers the "ip" binary
 * exports.  What follows is written from iproute2 IP_VERSION's
 * ip/ip_common.h, include/json_print.h and include/color.h; an "ip" of
 * another version may lay struct link_util out otherwise, and nothing at
 * run time would notice.  check-ip.sh (make -C tools/iproute2 check, and
 * every build where an "ip" is installed) compares "ip -V" with
 * IP_VERSION and every iproute2 symbol the plugin imports with what "ip"
 * exports, and fails loudly on a mismatch.
 */
#ifndef DP_IPROUTE2_H
#define DP_IPROUTE2_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* The iproute2 these declarations are written for ("ip -V"). */
#define IP_VERSION	"6.1.0"

/* ip/ip_common.h: one link kind. */
struct link_util {
	struct link_util	*next;
	const char		*id;
	int			maxattr;
	int			(*parse_opt)(struct link_util *lu, int argc,
					     char **argv, struct nlmsghdr *n);
	void			(*print_opt)(struct link_util *lu, FILE *f,
					     struct rtattr *tb[]);
	void			(*print_xstats)(struct link_util *lu, FILE *f,
						struct rtattr *xstats);
	void			(*print_help)(struct link_util *lu, int argc,
					      char **argv, FILE *f);
	int			(*parse_ifla_xstats)(struct link_util *lu,
						     int argc, char **argv);
	int			(*print_ifla_xstats)(struct nlmsghdr *n,
						     void *arg);
};

/*
 * ip/ip_common.h: the request parse_opt() adds to, a netlink header and
 * struct ifinfomsg then this many bytes of attributes.
 */
#define IPLINK_REQ_ATTRS	1024

/* include/color.h */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE
};

/* include/json_print.h: text, JSON, or either as "ip -j" says. */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value);

/* include/ll_map.h: an ifindex's name ("if%d" when unknown). */
const char *ll_index_to_name(unsigned int idx);

#endif
