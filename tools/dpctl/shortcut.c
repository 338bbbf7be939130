// SPDX-License-Identifier: GPL-2.0
/* dpctl shortcut: S2's shortcut tables (shortcut discovery). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpctl.h"
#include "genl.h"
#include "dp_json.h"
#include "table.h"

const char shortcut_help[] =
	"dpctl shortcut [DEV]\n"
	"    S2's shortcut table: per destination greedy routing got stuck\n"
	"    toward, the discovered next hop, its port and the hops left,\n"
	"    whether this server discovered it, its age and idle time\n"
	"    (HOPS 0: a discovery waits for its reply)\n";

struct shortcut_list {
	struct table t;
	unsigned int ifindex;
};

static int shortcut_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[DPILLAR_A_SHORTCUT_MAX + 1];
	char dev[IF_NAMESIZE] = "", port[16] = "-", next[16] = "-";
	struct shortcut_list *l = data;
	u32 ifindex = 0, dst = 0, hops = 0, age = 0, idle = 0;
	bool has_next, origin;
	const char *addr;

	nl_parse(nlh, GENL_HDRLEN_ALIGNED, tb, DPILLAR_A_SHORTCUT_MAX);
	if (tb[DPILLAR_A_SHORTCUT_IFINDEX])
		ifindex = mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_IFINDEX]);
	/* Filter here too: the kernel may not. */
	if (l->ifindex && ifindex != l->ifindex)
		return MNL_CB_OK;
	if (!ifindex || !if_indextoname(ifindex, dev))
		snprintf(dev, sizeof(dev), "if%u", ifindex);
	if (tb[DPILLAR_A_SHORTCUT_DST])
		dst = mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_DST]);
	addr = tb[DPILLAR_A_SHORTCUT_DST_ADDR] ?
	       mnl_attr_get_str(tb[DPILLAR_A_SHORTCUT_DST_ADDR]) : "?";
	if (tb[DPILLAR_A_SHORTCUT_HOPS])
		hops = mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_HOPS]);
	if (tb[DPILLAR_A_SHORTCUT_AGE_MS])
		age = mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_AGE_MS]);
	if (tb[DPILLAR_A_SHORTCUT_IDLE_MS])
		idle = mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_IDLE_MS]);
	has_next = tb[DPILLAR_A_SHORTCUT_PORT] && tb[DPILLAR_A_SHORTCUT_NEXT];
	origin = tb[DPILLAR_A_SHORTCUT_ORIGIN];
	if (opts.json) {
		json_open_obj(NULL);
		json_str("dev", dev);
		json_uint("ifindex", ifindex);
		json_str("dst", addr);
		json_uint("dst_id", dst);
		if (has_next) {
			json_uint("port", mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_PORT]));
			json_uint("next_id", mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_NEXT]));
		}
		json_uint("hops", hops);
		json_bool("origin", origin);
		json_uint("age_ms", age);
		json_uint("idle_ms", idle);
		json_close_obj();
		return MNL_CB_OK;
	}
	if (has_next) {
		snprintf(port, sizeof(port), "%u",
			 mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_PORT]));
		snprintf(next, sizeof(next), "%u",
			 mnl_attr_get_u32(tb[DPILLAR_A_SHORTCUT_NEXT]));
	}
	table_row(&l->t, "%s\t%s\t%u\t%s\t%s\t%u\t%s\t%ums\t%ums", dev, addr,
		  dst, port, next, hops, origin ? "yes" : "no", age, idle);
	return MNL_CB_OK;
}

int do_shortcut(int argc, char **argv)
{
	struct shortcut_list l = { .ifindex = 0 };
	const char *dev = NULL;
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;

	for (; argc > 0; argc--, argv++) {
		if (matches(argv[0], "dev") && argc > 1 && !dev) {
			dev = argv[1];
			argc--;
			argv++;
		} else if (!dev) {
			dev = argv[0];
		} else {
			return usage_error("shortcut: unexpected \"%s\"",
					   argv[0]);
		}
	}
	if (dev) {
		l.ifindex = dev_index(dev);
		if (!l.ifindex)
			return EXIT_KERNEL;
	}
	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	nlh = genl_msg(&ctx, DPILLAR_CMD_SHORTCUT_GET, NLM_F_DUMP);
	if (dev)
		mnl_attr_put_u32(nlh, DPILLAR_A_SHORTCUT_IFINDEX, l.ifindex);
	return genl_dump_rows(&ctx, nlh, &l.t,
			      "DEV DEST ID PORT NEXT HOPS ORIGIN AGE IDLE",
			      shortcut_cb, &l, dev ? dev : "shortcut");
}
