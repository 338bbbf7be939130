// SPDX-License-Identifier: GPL-2.0
/* Netlink plumbing for dpctl: requests, acks and extack messages. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/utsname.h>
#include <linux/netlink.h>

#include "nl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

int nl_open(struct nl_ctx *ctx, int bus)
{
	int one = 1;

	ctx->sock = mnl_socket_open(bus);
	if (!ctx->sock)
		return -1;
	/* Ask for the kernel's reason text; do not echo our request back. */
	mnl_socket_setsockopt(ctx->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(ctx->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(ctx->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(ctx->sock);
		ctx->sock = NULL;
		return -1;
	}
	ctx->portid = mnl_socket_get_portid(ctx->sock);
	ctx->seq = (unsigned int)time(NULL);
	return 0;
}

void nl_close(struct nl_ctx *ctx)
{
	if (ctx->sock)
		mnl_socket_close(ctx->sock);
	ctx->sock = NULL;
}

struct nlmsghdr *nl_msg(struct nl_ctx *ctx, int type, int flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(ctx->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++ctx->seq;
	return nlh;
}

/* Print a kernel error with the extack message when there is one. */
static void nl_report(const struct nlmsghdr *nlh, int err, const char *what)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const char *msg = NULL;
	const struct nlattr *attr;
	unsigned int off = sizeof(*e);

	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(e->msg);
		mnl_attr_for_each(attr, nlh, off) {
			if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
			    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
				msg = mnl_attr_get_str(attr);
		}
	}
	if (msg && *msg)
		fprintf(stderr, "dpctl: %s: %s: %s\n", what, strerror(err), msg);
	else
		fprintf(stderr, "dpctl: %s: %s\n", what, strerror(err));
	/*
	 * rtnetlink's answer to a link kind no module registers, after the
	 * kernel's own "modprobe rtnl-link-dpillar" found none: what to do.
	 */
	if (err == EOPNOTSUPP && msg && !strcmp(msg, "Unknown device type")) {
		struct utsname u;

		if (uname(&u))
			snprintf(u.release, sizeof(u.release), "?");
		fprintf(stderr,
			"dpctl: the dpillar module is not loaded and could not be loaded (modprobe dpillar):\n"
			"dpctl: is it built for this kernel (%s)?  dpillar-dkms builds it (dkms status dpillar;\n"
			"dpctl: linux-headers-%s needed), or make && make install; then see dmesg\n",
			u.release, u.release);
	}
}

static void nl_report_errno(int err, const char *what)
{
	fprintf(stderr, "dpctl: %s: %s\n", what, strerror(err));
}

int nl_talk(struct nl_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
	    const char *what)
{
	return nl_talk_quiet(ctx, nlh, cb, data, what, 0);
}

int nl_talk_quiet(struct nl_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data, const char *what, int quiet_err)
{
	unsigned int seq = nlh->nlmsg_seq;
	static char rbuf[NL_BUF_SIZE * 2];

	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(ctx->sock, nlh, nlh->nlmsg_len) < 0) {
		fprintf(stderr, "dpctl: %s: send: %s\n", what, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(ctx->sock, rbuf, sizeof(rbuf));
		const struct nlmsghdr *m = (const struct nlmsghdr *)rbuf;
		int rest = (int)len;

		if (len < 0) {
			fprintf(stderr, "dpctl: %s: receive: %s\n", what,
				strerror(errno));
			return -1;
		}
		for (; mnl_nlmsg_ok(m, rest); m = mnl_nlmsg_next(m, &rest)) {
			if (m->nlmsg_seq != seq || m->nlmsg_pid != ctx->portid)
				continue;
			if (m->nlmsg_type == NLMSG_DONE) {
				/* A failed dump ends with its errno here. */
				const int *derr = mnl_nlmsg_get_payload(m);

				if (mnl_nlmsg_get_payload_len(m) >= sizeof(int) &&
				    *derr < 0) {
					nl_report_errno(-*derr, what);
					return -1;
				}
				return 0;
			}
			if (m->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);

				if (!e->error)
					return 0;
				if (quiet_err && -e->error == quiet_err)
					return -quiet_err;
				nl_report(m, -e->error, what);
				return -1;
			}
			if (cb && cb(m, data) < MNL_CB_OK)
				return -1;
		}
	}
}

int nl_listen(struct nl_ctx *ctx, mnl_cb_t cb, void *data)
{
	static char rbuf[NL_BUF_SIZE * 2];
	int ret;

	for (;;) {
		ssize_t len = mnl_socket_recvfrom(ctx->sock, rbuf, sizeof(rbuf));

		if (len < 0) {
			/* Events were lost; say so and go on listening. */
			if (errno == ENOBUFS) {
				fprintf(stderr, "dpctl: events lost (receive "
					"buffer overrun)\n");
				continue;
			}
			fprintf(stderr, "dpctl: receive: %s\n", strerror(errno));
			return -1;
		}
		ret = mnl_cb_run(rbuf, len, 0, 0, cb, data);
		if (ret <= MNL_CB_STOP)
			return ret;
	}
}

struct nl_tb {
	const struct nlattr **tb;
	int max;
};

static int nl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nl_tb *t = data;

	if (mnl_attr_type_valid(attr, t->max) > 0)
		t->tb[mnl_attr_get_type(attr)] = attr;
	return MNL_CB_OK;
}

void nl_parse(const struct nlmsghdr *nlh, unsigned int offset,
	      const struct nlattr **tb, int max)
{
	struct nl_tb t = { tb, max };

	memset(tb, 0, sizeof(*tb) * (max + 1));
	mnl_attr_parse(nlh, offset, nl_attr_cb, &t);
}

void nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
		     int max)
{
	struct nl_tb t = { tb, max };

	memset(tb, 0, sizeof(*tb) * (max + 1));
	mnl_attr_parse_nested(nest, nl_attr_cb, &t);
}
