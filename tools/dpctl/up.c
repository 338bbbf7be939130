// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl up / down: a device from its configuration file, with its ports up,
 * this server's fabric addresses and the on-link routes of the fabric's
 * prefixes; and all of it away again.  What systemd's dpillar@.service runs.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
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
/* How long "up" waits for its ports to appear (-w): udev names the NICs. */
#define UP_WAIT_S 10

const char up_help[] =
	"dpctl up DEV [-c FILE] [-w SECONDS] [-W] [-t | --dry-run]\n"
	"    create DEV from FILE (default " CONF_DIR "/DEV.conf), set its\n"
	"    ports and DEV up, add this server's fabric IPv4 (/32) and IPv6\n"
	"    (/128) addresses and the on-link routes of the fabric prefixes.\n"
	"    FILE holds \"KEY VALUE\" lines: the arguments of \"dpctl link\n"
	"    add\" (topo n k level nodes spaces seed coords addr port0 port1\n"
	"    ... hello dead mode ip4 ip6 key6 fallback), or \"ports IF IF\n"
	"    ...\" (and \"coords C0 C1 ...\"); # starts a comment.  A port\n"
	"    that does not exist yet is waited for, up to SECONDS (default\n"
	"    10; 0: no wait); DEV is then created without the ports still\n"
	"    missing (absent), each named in a warning.  -W (--wait-ports):\n"
	"    then stay, attaching each port's NIC when it appears (again\n"
	"    after it went away), until DEV is deleted or SIGTERM (exit 0);\n"
	"    what dpillar@.service runs (sd_notify READY=1 once DEV is up).\n"
	"    -t (test, --dry-run): check FILE and print the \"link add\" it\n"
	"    would send; create nothing (as \"dpctl check\").  See dpctl(8).\n";

const char check_help[] =
	"dpctl check [DEV] [-c FILE]\n"
	"    check FILE (default " CONF_DIR "/DEV.conf) as \"up\" would,\n"
	"    with every rule the kernel enforces on a new device, and print\n"
	"    the \"dpctl link add\" it stands for; create nothing.  Exit\n"
	"    status 2 when FILE is wrong, naming its line.\n";

const char down_help[] =
	"dpctl down DEV [-c FILE]\n"
	"    remove DEV's fabric addresses and routes, then delete DEV\n"
	"    (its ports are released; their own state is left as it is).\n";

struct conf {
	char *argv[CONF_WORDS];
	unsigned int line[CONF_WORDS];	/* of each word, in the file */
	int argc;
	char *ports[DPILLAR_PORTS_MAX];
	unsigned int nports;
	unsigned int ports_line;	/* of the "ports" line, if any */
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
	c->line[c->argc++] = line;
	return 0;
}

/* One name for the keys that set the same thing (topo_args_parse()). */
static const char *conf_canon(const char *key)
{
	if (!strcmp(key, "i"))
		return "level";
	if (!strcmp(key, "id") || matches(key, "addr") ||
	    matches(key, "address"))
		return "addr";
	if (matches(key, "topo"))
		return "topo";
	return key;
}

/*
 * A key given twice would silently win (the kernel sees the last): refused,
 * naming both lines.  @said is the key as written ("ports", for portN).
 */
static int conf_dup(struct conf *c, const char *file, unsigned int line,
		    const char *said)
{
	const char *key = conf_canon(c->argv[c->argc - 2]);
	int i;

	for (i = 1; i + 2 < c->argc; i += 2) {
		if (strcmp(conf_canon(c->argv[i]), key))
			continue;
		fprintf(stderr, "dpctl: %s:%u: \"%s\" repeated (first on line %u)\n",
			file, line, said, c->line[i]);
		return EXIT_USAGE;
	}
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
			if (c->ports_line) {
				fprintf(stderr, "dpctl: %s:%u: \"ports\" repeated (first on line %u)\n",
					file, line, c->ports_line);
				err = EXIT_USAGE;
				break;
			}
			c->ports_line = line;
			for (w = val; w && !err; w = strtok_r(NULL, " \t\r", &save)) {
				if (c->nports >= DPILLAR_PORTS_MAX) {
					fprintf(stderr, "dpctl: %s:%u: more than %u ports\n",
						file, line, DPILLAR_PORTS_MAX);
					err = EXIT_USAGE;
					break;
				}
				snprintf(name, sizeof(name), "port%u", c->nports);
				err = conf_word(c, file, line, name) ?:
				      conf_word(c, file, line, w) ?:
				      conf_dup(c, file, line, "ports");
				if (err)
					break;
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
			      conf_word(c, file, line, joined) ?:
			      conf_dup(c, file, line, "coords");
			continue;
		}
		if (strtok_r(NULL, " \t\r", &save)) {
			fprintf(stderr, "dpctl: %s:%u: \"%s\" takes one value\n",
				file, line, key);
			err = EXIT_USAGE;
			break;
		}
		err = conf_word(c, file, line, key) ?:
		      conf_word(c, file, line, val) ?:
		      conf_dup(c, file, line, c->argv[c->argc - 2]);
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

/* A port of the file that names a NIC ("none": a port left absent). */
static bool port_named(const struct conf *c, unsigned int i)
{
	return c->ports[i] && strcmp(c->ports[i], "none");
}

/*
 * The words of @c checked as "link add" will take them, so that an error
 * names the file and the line: each KEY VALUE on its own line (the key
 * known, the value well formed; a routing mode by the file's topology),
 * then the whole (what the topology needs, the address) naming the file.
 * The ports are "link add"'s to check once they exist.
 */
static int conf_check(struct conf *c, const char *file)
{
	static const struct setting_attrs any = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	char where[PATH_MAX + 16];
	char msg[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	const struct dp_topo_ops *ops = dp_topo_ops_by_name("dpillar");
	char *words[CONF_WORDS];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msg);
	struct topo_args a;
	int i, nwords = 0, ret = 0;
	unsigned int p;

	for (i = 1; i + 1 < c->argc && !ret; i += 2) {
		char **kv = &c->argv[i];

		snprintf(where, sizeof(where), "%s:%u", file, c->line[i]);
		usage_where = where;
		if (!strncmp(kv[0], "port", 4) && kv[0][4]) {
			if (parse_u32(kv[0] + 4, &p) || p >= DPILLAR_PORTS_MAX)
				ret = usage_error("invalid port \"%s\"", kv[0]);
			continue;
		}
		ret = topo_args_parse("up", 2, kv, false, &a);
		if (!ret && a.have_topo)
			ops = a.ops;
		words[nwords++] = kv[0];
		words[nwords++] = kv[1];
	}
	for (i = 1; i + 1 < c->argc && !ret; i += 2) {
		if (!is_setting(c->argv[i]))
			continue;
		snprintf(where, sizeof(where), "%s:%u", file, c->line[i]);
		usage_where = where;
		if (put_setting(nlh, &any, ops, c->argv[i], c->argv[i + 1]) ==
		    EXIT_USAGE)
			ret = EXIT_USAGE;
	}
	usage_where = file;
	if (!ret)
		ret = topo_args_parse("up", nwords, words, false, &a);
	if (!ret && (a.given || c->nports)) {
		ret = topo_args_check("up", &a, false);
		for (p = 0; !ret && p < c->nports; p++)
			if (!c->ports[p])
				ret = usage_error("up: port%u missing", p);
		if (!ret && !c->nports)
			ret = usage_error("up: no ports (\"ports IF IF ...\")");
	}
	/* What the kernel would refuse, with its words. */
	if (!ret)
		ret = topo_args_check_new("up", &a, c->nports);
	/*
	 * And its rule for ports by name, so that it holds before the NICs
	 * exist (check -c on another machine, a boot before udev): one NIC
	 * is one port only.  "none" (an absent port) may repeat.
	 */
	for (p = 0; !ret && p < c->nports; p++) {
		unsigned int q;

		for (q = 0; !ret && q < p; q++)
			if (port_named(c, p) && port_named(c, q) &&
			    !strcmp(c->ports[p], c->ports[q]))
				ret = usage_error("up: port%u and port%u are both \"%s\": Ports must be distinct devices",
						  q, p, c->ports[p]);
	}
	usage_where = NULL;
	return ret;
}

/* The first named port of @c whose NIC does not exist, or c->nports. */
static unsigned int conf_missing(const struct conf *c)
{
	unsigned int i;

	for (i = 0; i < c->nports; i++)
		if (port_named(c, i) && !if_nametoindex(c->ports[i]))
			break;
	return i;
}

/* An rtnetlink socket that hears of every link (RTNLGRP_LINK). */
static int link_events_open(struct nl_ctx *ev)
{
	int grp = RTNLGRP_LINK;

	if (nl_open(ev, NETLINK_ROUTE) ||
	    mnl_socket_setsockopt(ev->sock, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		perror("dpctl: netlink (link events)");
		nl_close(ev);
		return -1;
	}
	return 0;
}

static long ms_until(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (end->tv_sec - now.tv_sec) * 1000 +
	       (end->tv_nsec - now.tv_nsec) / 1000000;
}

/*
 * Wait up to @secs for the ports of @c to exist: at boot the NICs may not
 * be there, or not yet renamed by udev, when the unit runs.  Woken by the
 * link events of @ev (a NIC registered or renamed), not by a timer; @sfd
 * (-1: none) is SIGTERM's, which ends the wait.  Returns 0 when every
 * port exists or the time is up (the caller names those missing), 1 on
 * a signal, -1 on an error.
 */
static int conf_wait_ports(const struct conf *c, const char *dev,
			   unsigned int secs, struct nl_ctx *ev, int sfd)
{
	static char rbuf[NL_BUF_SIZE];
	struct pollfd pfd[2];
	struct timespec end;
	unsigned int i;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	i = conf_missing(c);
	if (i == c->nports || !secs)
		return 0;
	fprintf(stderr, "dpctl: up %s: waiting up to %u s for port%u \"%s\"\n",
		dev, secs, i, c->ports[i]);
	pfd[0].fd = mnl_socket_get_fd(ev->sock);
	pfd[0].events = POLLIN;
	pfd[1].fd = sfd;
	pfd[1].events = POLLIN;
	while (conf_missing(c) < c->nports && (ms = ms_until(&end)) > 0) {
		if (poll(pfd, sfd >= 0 ? 2 : 1, (int)ms) < 0) {
			if (errno == EINTR)
				continue;
			perror("dpctl: poll");
			return -1;
		}
		if (sfd >= 0 && (pfd[1].revents & POLLIN))
			return 1;
		/* What changed does not matter: the names are looked up. */
		if ((pfd[0].revents & POLLIN) &&
		    mnl_socket_recvfrom(ev->sock, rbuf, sizeof(rbuf)) < 0 &&
		    errno != ENOBUFS) {
			perror("dpctl: receive (link events)");
			return -1;
		}
	}
	return 0;
}

/*
 * systemd's readiness protocol (sd_notify(3)) by hand: one datagram to
 * $NOTIFY_SOCKET, a path or (leading '@') an abstract name.  Nothing
 * without it (not started by systemd, or not Type=notify).
 */
static void sd_notify_msg(const char *msg)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	int fd;

	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	len = strlen(path);
	if (len >= sizeof(sa.sun_path))
		return;
	memcpy(sa.sun_path, path, len);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = 0;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0)
		fprintf(stderr, "dpctl: sd_notify: %s\n", strerror(errno));
	close(fd);
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

/*
 * "up -t" and "check": the file is good; what it stands for, as "dpctl
 * link add" words, and the ports that do not exist (yet) here.
 */
static int conf_show(const struct conf *c, const char *file)
{
	unsigned int i;
	int j;

	printf("dpctl link add");
	for (j = 0; j < c->argc; j++)
		printf(" %s", c->argv[j]);
	printf("\n");
	for (i = 0; i < c->nports; i++)
		if (port_named(c, i) && !if_nametoindex(c->ports[i]))
			fprintf(stderr, "dpctl: %s: note: port%u \"%s\" does not exist here (yet)\n",
				file, i, c->ports[i]);
	return EXIT_OK;
}

/* dpctl up -W: the device's ports as their NICs come and go. */
struct up_watch {
	const struct conf *c;
	const char *dev;
	unsigned int ifindex;			/* of the device */
	/*
	 * The NIC each port has had since it last went away: attached
	 * (by "up" or by us) or refused, not tried again, so that the
	 * events queued before an attach, and a NIC the kernel refuses,
	 * make one attempt and one message.
	 */
	unsigned int seen[DPILLAR_PORTS_MAX];
	bool gone;				/* the device was deleted */
};

/* NIC @ifindex to port @i, which has none, and up as "up" sets it. */
static void up_attach(struct up_watch *w, unsigned int i, unsigned int ifindex)
{
	char what[IFNAMSIZ + 48];
	struct nl_ctx ctx;

	if (w->seen[i] == ifindex)
		return;
	w->seen[i] = ifindex;
	snprintf(what, sizeof(what), "up %s: port%u \"%s\"", w->dev, i,
		 w->c->ports[i]);
	if (link_attach(w->dev, i, ifindex, what))
		return;
	fprintf(stderr, "dpctl: up %s: port%u \"%s\" attached\n", w->dev, i,
		w->c->ports[i]);
	if (!nl_open(&ctx, NETLINK_ROUTE)) {
		set_updown(&ctx, ifindex, true, w->c->ports[i]);
		nl_close(&ctx);
	}
}

/*
 * Every absent port whose NIC exists, attached: at the start, and after
 * events were lost (ENOBUFS).  The device gone, the watch ends.
 */
static void up_rescan(struct up_watch *w)
{
	unsigned int ports[DPILLAR_PORTS_MAX] = {}, nports = 0, i, ifindex;
	struct fabric_pfx pfx;
	u32 id;

	if (!if_nametoindex(w->dev) ||
	    link_fabric(w->dev, &pfx, &id, ports, &nports)) {
		w->gone = true;
		return;
	}
	for (i = 0; i < w->c->nports && i < nports; i++) {
		if (!port_named(w->c, i))
			continue;
		if (ports[i]) {
			w->seen[i] = ports[i];
			continue;
		}
		ifindex = if_nametoindex(w->c->ports[i]);
		if (ifindex)
			up_attach(w, i, ifindex);
	}
}

/* A link event: the device deleted, or a port's NIC come or gone. */
static int up_event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[IFLA_MAX + 1];
	struct up_watch *w = data;
	const char *name;
	unsigned int i;

	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return MNL_CB_OK;
	if ((unsigned int)ifi->ifi_index == w->ifindex) {
		if (nlh->nlmsg_type == RTM_DELLINK)
			w->gone = true;
		return w->gone ? MNL_CB_STOP : MNL_CB_OK;
	}
	nl_parse(nlh, sizeof(*ifi), tb, IFLA_MAX);
	if (!tb[IFLA_IFNAME])
		return MNL_CB_OK;
	name = mnl_attr_get_str(tb[IFLA_IFNAME]);
	for (i = 0; i < w->c->nports; i++)
		if (port_named(w->c, i) && !strcmp(w->c->ports[i], name))
			break;
	if (i == w->c->nports)
		return MNL_CB_OK;
	if (nlh->nlmsg_type == RTM_DELLINK) {
		fprintf(stderr, "dpctl: up %s: port%u \"%s\" went away: waiting for it\n",
			w->dev, i, name);
		w->seen[i] = 0;
		return MNL_CB_OK;
	}
	/* Ours already (the kernel's event of our own attach, or a flag). */
	if (tb[IFLA_MASTER] && mnl_attr_get_u32(tb[IFLA_MASTER]) == w->ifindex)
		return MNL_CB_OK;
	up_attach(w, i, (unsigned int)ifi->ifi_index);
	return MNL_CB_OK;
}

/*
 * dpctl up -W, once the device is up: attach each port's NIC when it
 * appears (registered, or renamed by udev), again after it went away,
 * from the link events of @ev; until the device is deleted (dpctl down,
 * the unit's ExecStop) or SIGTERM / SIGINT (@sfd).  EXIT_OK then.
 */
static int up_watch(const struct conf *c, const char *dev, struct nl_ctx *ev,
		    int sfd)
{
	static char rbuf[NL_BUF_SIZE * 2];
	struct up_watch w = { .c = c, .dev = dev };
	struct signalfd_siginfo si;
	struct pollfd pfd[2];
	ssize_t len;

	w.ifindex = if_nametoindex(dev);
	pfd[0].fd = mnl_socket_get_fd(ev->sock);
	pfd[0].events = POLLIN;
	pfd[1].fd = sfd;
	pfd[1].events = POLLIN;
	/* What came between the wait and our events: attached now. */
	up_rescan(&w);
	while (!w.gone) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("dpctl: poll");
			return EXIT_KERNEL;
		}
		if (pfd[1].revents & POLLIN) {
			if (read(sfd, &si, sizeof(si)) != sizeof(si))
				si.ssi_signo = SIGTERM;
			fprintf(stderr, "dpctl: up %s: %s: no longer watching its ports\n",
				dev, strsignal((int)si.ssi_signo));
			return EXIT_OK;
		}
		if (!(pfd[0].revents & POLLIN))
			continue;
		len = mnl_socket_recvfrom(ev->sock, rbuf, sizeof(rbuf));
		if (len < 0 && errno == ENOBUFS) {
			fprintf(stderr, "dpctl: up %s: link events lost: looking again\n",
				dev);
			up_rescan(&w);
			continue;
		}
		if (len < 0) {
			perror("dpctl: receive (link events)");
			return EXIT_KERNEL;
		}
		if (mnl_cb_run(rbuf, len, 0, 0, up_event_cb, &w) < MNL_CB_STOP) {
			perror("dpctl: link events");
			return EXIT_KERNEL;
		}
	}
	fprintf(stderr, "dpctl: up %s: device deleted: no longer watching its ports\n",
		dev);
	return EXIT_OK;
}

/*
 * DEV [-c FILE] [-w SECONDS] [-W] [-t]: "up" takes them all (-t also as
 * "test", "dry-run" and "--dry-run"), "down" DEV and FILE (ignored; @wait,
 * @watch and @test NULL), "check" DEV and FILE (@wait NULL).
 */
static int updown_args(const char *what, int argc, char **argv,
		       const char **dev, const char **file, unsigned int *wait,
		       bool *watch, bool *test)
{
	for (; argc > 0; argc--, argv++) {
		if (watch && (!strcmp(argv[0], "-W") ||
			      !strcmp(argv[0], "--wait-ports") ||
			      !strcmp(argv[0], "wait-ports"))) {
			*watch = true;
		} else if (!strcmp(argv[0], "-c") || matches(argv[0], "config")) {
			if (argc < 2)
				return usage_error("%s: \"%s\" needs a file",
						   what, argv[0]);
			*file = *++argv;
			argc--;
		} else if (wait && (!strcmp(argv[0], "-w") ||
				    matches(argv[0], "wait"))) {
			if (argc < 2 || parse_u32(argv[1], wait) || *wait > 3600)
				return usage_error("%s: \"%s\" needs seconds (0 to 3600)",
						   what, argv[0]);
			argv++;
			argc--;
		} else if (test && wait && (!strcmp(argv[0], "-t") ||
					    matches(argv[0], "test") ||
					    !strcmp(argv[0], "--dry-run") ||
					    !strcmp(argv[0], "dry-run"))) {
			*test = true;
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
	unsigned int i, j, ifindex, wait = UP_WAIT_S;
	struct nl_ctx ctx, ev = { 0 };
	bool test = false, watch = false;
	sigset_t mask;
	int sfd = -1;
	struct conf *c;
	int ret;

	ret = updown_args("up", argc, argv, &dev, &file, &wait, &watch, &test);
	if (ret)
		return ret;
	if (!file) {
		snprintf(path, sizeof(path), CONF_DIR "/%s.conf", dev);
		file = path;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return EXIT_KERNEL;
	ret = conf_read(c, dev, file) ?: conf_check(c, file);
	if (!ret && test)
		ret = conf_show(c, file);
	if (ret || test)
		goto out;
	/*
	 * -W ends on SIGTERM (systemctl stop) or SIGINT with exit 0, read
	 * from a signalfd: blocked from here, so that none is lost.  The
	 * link events are heard from before the wait: a NIC that comes
	 * after it was found missing is an event waiting to be read.
	 */
	if (watch) {
		sigemptyset(&mask);
		sigaddset(&mask, SIGTERM);
		sigaddset(&mask, SIGINT);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		sfd = signalfd(-1, &mask, SFD_CLOEXEC);
		if (sfd < 0) {
			perror("dpctl: signalfd");
			ret = EXIT_KERNEL;
			goto out;
		}
	}
	if (link_events_open(&ev)) {
		ret = EXIT_KERNEL;
		goto out;
	}
	ret = conf_wait_ports(c, dev, wait, &ev, sfd);
	if (ret) {
		/* SIGTERM while waiting: nothing was created. */
		ret = ret > 0 ? EXIT_OK : EXIT_KERNEL;
		goto out;
	}
	/*
	 * A port whose NIC is still missing is created absent ("none"),
	 * named here: the server joins the fabric through the others.
	 */
	for (i = 0; i < c->nports; i++) {
		if (!port_named(c, i) || if_nametoindex(c->ports[i]))
			continue;
		fprintf(stderr, "dpctl: up %s: warning: port%u \"%s\" does not exist (waited %u s): absent%s\n",
			dev, i, c->ports[i], wait,
			watch ? ", attached when it appears" : "");
		for (j = 1; j < (unsigned int)c->argc; j++)
			if (c->argv[j] == c->ports[i])
				c->argv[j] = "none";
	}
	ret = link_add(c->argc, c->argv);
	if (ret)
		goto out;
	if (nl_open(&ctx, NETLINK_ROUTE)) {
		perror("dpctl: netlink");
		ret = EXIT_KERNEL;
		goto undo;
	}
	for (i = 0; i < c->nports && !ret; i++) {
		ifindex = port_named(c, i) ? if_nametoindex(c->ports[i]) : 0;
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
	if (!ret && watch) {
		sd_notify_msg("READY=1");
		ret = up_watch(c, dev, &ev, sfd);
		sd_notify_msg("STOPPING=1");
	}
out:
	nl_close(&ev);
	if (sfd >= 0)
		close(sfd);
	free(c);
	return ret;
}

int do_down(int argc, char **argv)
{
	const char *file = NULL, *dev = NULL;

	return updown_args("down", argc, argv, &dev, &file, NULL, NULL, NULL) ?:
	       do_down_dev(dev);
}

/*
 * "dpctl check [DEV] [-c FILE]": "up DEV -c FILE -t" (no -w: nothing
 * waits); DEV, when not given, is dp0 (the name the printed words use).
 */
int do_check(int argc, char **argv)
{
	char *args[] = { "dp0", NULL, NULL, "-t", NULL };
	bool dev = false;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(argv[0], "-c") || matches(argv[0], "config")) {
			if (argc < 2)
				return usage_error("check: \"%s\" needs a file",
						   argv[0]);
			args[1] = "-c";
			args[2] = *++argv;
			argc--;
		} else if (!dev) {
			args[0] = argv[0];
			dev = true;
		} else {
			return usage_error("check: unexpected \"%s\"", argv[0]);
		}
	}
	if (!dev && !args[2])
		return usage_error("check: a device or \"-c FILE\"");
	if (!args[2]) {
		args[1] = "-t";
		args[2] = NULL;
		return do_up(2, args);
	}
	return do_up(4, args);
}
