// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl up / down: a device from its configuration file, with its ports up,
 * this server's fabric addresses and the on-link routes of the fabric's
 * prefixes; and all of it away again.  What systemd's dpillar@.service runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <linux/dpillar.h>

#include "dpctl.h"
#include "fabric.h"
#include "nl.h"

#define CONF_DIR "/etc/dpillar"
#define CONF_WORDS 128		/* "KEY VALUE" pairs plus the device */
#define CONF_LINE 512
#define CONF_PATH (sizeof(CONF_DIR) + IFNAMSIZ + 8)

const char up_help[] =
	"dpctl up DEV [-c FILE]\n"
	"    create DEV from FILE (default " CONF_DIR "/DEV.conf), set its\n"
	"    ports and DEV up, add this server's fabric IPv4 (/32) and IPv6\n"
	"    (/128) addresses and the on-link routes of the fabric prefixes.\n"
	"    FILE holds \"KEY VALUE\" lines: the arguments of \"dpctl link\n"
	"    add\" (topo n k level nodes spaces seed coords addr port0 port1\n"
	"    ... hello dead mode ip4 ip6), or \"ports IF IF ...\" (and\n"
	"    \"coords C0 C1 ...\"); # starts a comment.  See dpctl(8).\n";

const char down_help[] =
	"dpctl down DEV [-c FILE]\n"
	"    remove DEV's fabric addresses and routes, then delete DEV\n"
	"    (its ports are released; their own state is left as it is).\n";

struct conf {
	char *argv[CONF_WORDS];
	int argc;
	char *ports[DPILLAR_PORTS_MAX];
	unsigned int nports;
	char text[16384];
	size_t used;
};

/* A copy of @s in @c's own storage (the file is read once, then closed). */
static char *conf_keep(struct conf *c, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p;

	if (c->used + len > sizeof(c->text))
		return NULL;
	p = memcpy(c->text + c->used, s, len);
	c->used += len;
	return p;
}

static int conf_word(struct conf *c, const char *file, unsigned int line,
		     const char *w)
{
	if (c->argc >= CONF_WORDS || !(c->argv[c->argc] = conf_keep(c, w))) {
		fprintf(stderr, "dpctl: %s:%u: too many settings\n", file, line);
		return EXIT_USAGE;
	}
	c->argc++;
	return 0;
}

/*
 * Read @file into "link add" arguments after @dev.  "ports A B" becomes
 * "port0 A port1 B"; the rest is passed on as it is, so that the file and
 * the command line are one dialect and "link add" checks both.
 */
static int conf_read(struct conf *c, const char *dev, const char *file)
{
	char buf[CONF_LINE], name[16], *key, *val, *save, *w;
	unsigned int line = 0, i;
	FILE *f;
	int err = 0;

	memset(c, 0, sizeof(*c));
	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "dpctl: %s: %s\n", file, strerror(errno));
		return EXIT_USAGE;
	}
	conf_word(c, file, 0, dev);
	while (!err && fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			fprintf(stderr, "dpctl: %s:%u: line too long\n", file, line);
			err = EXIT_USAGE;
			break;
		}
		buf[strcspn(buf, "#\n")] = 0;
		key = strtok_r(buf, " \t\r", &save);
		if (!key)
			continue;
		val = strtok_r(NULL, " \t\r", &save);
		if (!val) {
			fprintf(stderr, "dpctl: %s:%u: \"%s\" needs a value\n",
				file, line, key);
			err = EXIT_USAGE;
			break;
		}
		if (!strcmp(key, "ports")) {
			for (w = val; w && !err; w = strtok_r(NULL, " \t\r", &save)) {
				if (c->nports >= DPILLAR_PORTS_MAX) {
					fprintf(stderr, "dpctl: %s:%u: more than %u ports\n",
						file, line, DPILLAR_PORTS_MAX);
					err = EXIT_USAGE;
					break;
				}
				snprintf(name, sizeof(name), "port%u", c->nports);
				err = conf_word(c, file, line, name) ?:
				      conf_word(c, file, line, w);
				c->ports[c->nports++] = c->argv[c->argc - 1];
			}
			continue;
		}
		/*
		 * S2's coords may be written as on the command line
		 * ("coords C0,C1") or one word a coordinate ("coords C0
		 * C1", as a plan lists them): joined with commas.
		 */
		if (!strcmp(key, "coords")) {
			char joined[CONF_LINE];
			size_t pos = 0;

			for (w = val; w; w = strtok_r(NULL, " \t\r", &save))
				pos += snprintf(joined + pos, sizeof(joined) - pos,
						"%s%s", pos ? "," : "", w);
			err = conf_word(c, file, line, key) ?:
			      conf_word(c, file, line, joined);
			continue;
		}
		if (strtok_r(NULL, " \t\r", &save)) {
			fprintf(stderr, "dpctl: %s:%u: \"%s\" takes one value\n",
				file, line, key);
			err = EXIT_USAGE;
			break;
		}
		err = conf_word(c, file, line, key) ?: conf_word(c, file, line, val);
		if (!err && !strncmp(key, "port", 4) && key[4] &&
		    !parse_u32(key + 4, &i) && i < DPILLAR_PORTS_MAX) {
			c->ports[i] = c->argv[c->argc - 1];
			if (i + 1 > c->nports)
				c->nports = i + 1;
		}
	}
	fclose(f);
	return err;
}

/* IFF_UP on or off for @ifindex. */
static int set_updown(struct nl_ctx *ctx, unsigned int ifindex, bool up,
		      const char *what)
{
	struct nlmsghdr *nlh = nl_msg(ctx, RTM_NEWLINK, 0);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = (int)ifindex;
	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	return nl_talk(ctx, nlh, NULL, NULL, what);
}

/*
 * Add (@add) or remove this node's address @a/@plen on @ifindex and the
 * on-link route @pfx/@pfxlen.  Removing what is already gone is no error:
 * "down" after a half-done "up" must finish.
 */
static int fabric_l3(struct nl_ctx *ctx, unsigned int ifindex, bool add,
		     int family, const void *a, unsigned int plen,
		     const void *pfx, unsigned int pfxlen, const char *text)
{
	size_t alen = family == AF_INET ? 4 : 16;
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	struct rtmsg *rtm;
	int err;

	nlh = nl_msg(ctx, add ? RTM_NEWADDR : RTM_DELADDR,
		     add ? NLM_F_CREATE | NLM_F_EXCL : 0);
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = family;
	ifa->ifa_prefixlen = plen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = ifindex;
	/* Node ids are unique by construction: no duplicate detection. */
	ifa->ifa_flags = family == AF_INET6 ? IFA_F_NODAD : 0;
	mnl_attr_put(nlh, IFA_LOCAL, alen, a);
	mnl_attr_put(nlh, IFA_ADDRESS, alen, a);
	/* There already (up) or gone already (down): go on to the route. */
	err = nl_talk_quiet(ctx, nlh, NULL, NULL, text,
			    add ? EEXIST : EADDRNOTAVAIL);
	if (err && err != -EEXIST && err != -EADDRNOTAVAIL)
		return -1;

	nlh = nl_msg(ctx, add ? RTM_NEWROUTE : RTM_DELROUTE,
		     add ? NLM_F_CREATE | NLM_F_REPLACE : 0);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = family;
	rtm->rtm_dst_len = pfxlen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_scope = RT_SCOPE_LINK;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, alen, pfx);
	mnl_attr_put_u32(nlh, RTA_OIF, ifindex);
	err = nl_talk_quiet(ctx, nlh, NULL, NULL, text, ESRCH);
	return err && (add || err != -ESRCH) ? -1 : 0;
}

/* The fabric addresses and routes of @dev, added or removed. */
static int fabric_addrs(const char *dev, bool add)
{
	char ip4[INET_ADDRSTRLEN], ip6[INET6_ADDRSTRLEN];
	char t4[FABRIC_IP4_TEXT], t6[FABRIC_IP6_TEXT];
	struct in_addr a4, p4;
	struct in6_addr a6, p6;
	struct fabric_pfx pfx;
	unsigned int ifindex;
	struct nl_ctx ctx;
	int ret = EXIT_OK;
	u32 id;

	if (link_fabric(dev, &pfx, &id, NULL, NULL))
		return EXIT_KERNEL;
	ifindex = if_nametoindex(dev);
	if (!ifindex || nl_open(&ctx, NETLINK_ROUTE)) {
		perror("dpctl: netlink");
		return EXIT_KERNEL;
	}
	fabric_pfx_text(&pfx, t4, t6);
	/* The masked prefixes: the kernel wants no host bits in a route. */
	p4.s_addr = pfx.ip4_len ?
		    pfx.ip4.s_addr & htonl(~0u << (32 - pfx.ip4_len)) : 0;
	p6 = pfx.ip6;
	memset(&p6.s6_addr[12], 0, 4);
	if (fabric_ip4(&pfx, id, ip4)) {
		inet_pton(AF_INET, ip4, &a4);
		if (fabric_l3(&ctx, ifindex, add, AF_INET, &a4, 32, &p4,
			      pfx.ip4_len, t4))
			ret = EXIT_KERNEL;
	} else {
		fprintf(stderr, "dpctl: %s: node id %u does not fit %s: no IPv4\n",
			dev, id, t4);
	}
	fabric_ip6(&pfx, id, ip6);
	inet_pton(AF_INET6, ip6, &a6);
	if (fabric_l3(&ctx, ifindex, add, AF_INET6, &a6, 128, &p6, 96, t6))
		ret = EXIT_KERNEL;
	nl_close(&ctx);
	return ret;
}

static int do_down_dev(const char *dev)
{
	char *argv[] = { (char *)dev, NULL };
	int ret;

	ret = fabric_addrs(dev, false);
	if (ret && !if_nametoindex(dev))
		return ret;
	return link_del(1, argv) ?: ret;
}

/* DEV [-c FILE]: both "up" and "down" take them (down ignores FILE). */
static int updown_args(const char *what, int argc, char **argv,
		       const char **dev, const char **file)
{
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(argv[0], "-c") || matches(argv[0], "config")) {
			if (argc < 2)
				return usage_error("%s: \"%s\" needs a file",
						   what, argv[0]);
			*file = *++argv;
			argc--;
		} else if (!*dev) {
			*dev = argv[0];
		} else {
			return usage_error("%s: unexpected \"%s\"", what, argv[0]);
		}
	}
	if (!*dev)
		return usage_error("%s: missing device name", what);
	if (strlen(*dev) >= IFNAMSIZ || strchr(*dev, '/'))
		return usage_error("%s: invalid device name \"%s\"", what, *dev);
	return 0;
}

int do_up(int argc, char **argv)
{
	char path[CONF_PATH];
	const char *file = NULL, *dev = NULL;
	unsigned int i, ifindex;
	struct nl_ctx ctx;
	struct conf *c;
	int ret;

	ret = updown_args("up", argc, argv, &dev, &file);
	if (ret)
		return ret;
	if (!file) {
		snprintf(path, sizeof(path), CONF_DIR "/%s.conf", dev);
		file = path;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return EXIT_KERNEL;
	ret = conf_read(c, dev, file);
	if (ret)
		goto out;
	ret = link_add(c->argc, c->argv);
	if (ret)
		goto out;
	if (nl_open(&ctx, NETLINK_ROUTE)) {
		perror("dpctl: netlink");
		ret = EXIT_KERNEL;
		goto undo;
	}
	for (i = 0; i < c->nports && !ret; i++) {
		ifindex = c->ports[i] ? if_nametoindex(c->ports[i]) : 0;
		if (ifindex && set_updown(&ctx, ifindex, true, c->ports[i]))
			ret = EXIT_KERNEL;
	}
	if (!ret && set_updown(&ctx, if_nametoindex(dev), true, dev))
		ret = EXIT_KERNEL;
	nl_close(&ctx);
	if (!ret)
		ret = fabric_addrs(dev, true);
undo:
	/* All or nothing: a unit that failed leaves no half device behind. */
	if (ret)
		do_down_dev(dev);
out:
	free(c);
	return ret;
}

int do_down(int argc, char **argv)
{
	const char *file = NULL, *dev = NULL;

	return updown_args("down", argc, argv, &dev, &file) ?:
	       do_down_dev(dev);
}
