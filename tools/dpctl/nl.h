/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DPCTL_NL_H
#define DPCTL_NL_H

#include <libmnl/libmnl.h>

#define NL_BUF_SIZE 32768

struct nl_ctx {
	struct mnl_socket *sock;
	unsigned int family;	/* generic netlink: the family's id */
	unsigned int portid;
	unsigned int seq;
	char buf[NL_BUF_SIZE];
};

int nl_open(struct nl_ctx *ctx, int bus);
void nl_close(struct nl_ctx *ctx);
struct nlmsghdr *nl_msg(struct nl_ctx *ctx, int type, int flags);
/*
 * Send @nlh and read replies until the ack or the end of the dump, calling
 * @cb for each data message.  On a kernel error, prints "dpctl: <what>:
 * <strerror>: <extack message>" and returns -1.
 */
int nl_talk(struct nl_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
	    const char *what);
/* The same, but returns -@quiet_err without a word if that is the error. */
int nl_talk_quiet(struct nl_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data, const char *what, int quiet_err);
/* Read unsolicited messages (multicast) until @cb stops or an error. */
int nl_listen(struct nl_ctx *ctx, mnl_cb_t cb, void *data);

/* Attribute tables: tb[type] for each valid type <= @max, others NULL. */
void nl_parse(const struct nlmsghdr *nlh, unsigned int offset,
	      const struct nlattr **tb, int max);
void nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
		     int max);

#endif
