// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl key: Space Shuffle key-based routing.  "key locate" hashes a key
 * to its coordinates (dp_s2_key_coords) and names its home node in every
 * space, with the module's own code: with derived coordinates (seed, node
 * count) the home is computed, not looked up (dp_s2_home).
 */
#include <stdio.h>
#include <string.h>

#include "dpctl.h"
#include "dp_json.h"
#include "topo_s2.h"

const char key_help[] =
	"dpctl key locate KEY spaces L nodes N seed S\n"
	"    the coordinates of KEY in each of the L spaces of an S2 fabric of\n"
	"    N nodes with derived coordinates of seed S, and its home node in\n"
	"    each space (the node closest to the key on that ring); a key is\n"
	"    stored at the home of a space and found by greediest routing\n"
	"    over the first spaces (see dpillar.rst, \"Key-based routing\")\n";

static int key_locate(int argc, char **argv)
{
	u32 spaces = 0, nodes = 0, seed = 0, x[DP_S2_SPACES_MAX], sp;
	bool have_seed = false;
	const char *key;
	int i;

	if (argc < 1 || is_help(argv[0]))
		return fputs(key_help, argc < 1 ? stderr : stdout),
		       argc < 1 ? EXIT_USAGE : EXIT_OK;
	key = argv[0];
	for (i = 1; i < argc; i += 2) {
		u32 *v;

		if (matches(argv[i], "spaces"))
			v = &spaces;
		else if (matches(argv[i], "nodes"))
			v = &nodes;
		else if (matches(argv[i], "seed"))
			v = &seed, have_seed = true;
		else
			return usage_error("key locate: unknown \"%s\"",
					   argv[i]);
		if (i + 1 >= argc || parse_u32(argv[i + 1], v))
			return usage_error("%s needs a number", argv[i]);
	}
	if (!spaces || spaces > DP_S2_SPACES_MAX)
		return usage_error("spaces must be 1..%u", DP_S2_SPACES_MAX);
	if (!nodes || nodes > DP_S2_NODES_MAX)
		return usage_error("nodes must be 1..%u", DP_S2_NODES_MAX);
	if (!have_seed)
		return usage_error("key locate needs seed S");
	dp_s2_key_coords((const u8 *)key, strlen(key), spaces, x);
	if (opts.json) {
		json_list_begin(opts.pretty);
		json_open_obj(NULL);
		json_str("key", key);
		json_open_arr("spaces");
	} else {
		printf("key %s\n", key);
	}
	for (sp = 0; sp < spaces; sp++) {
		u32 home = dp_s2_home(seed, nodes, x[sp], sp);

		if (opts.json) {
			json_open_obj(NULL);
			json_uint("space", sp);
			json_uint("coord", x[sp]);
			json_uint("home", home);
			json_close_obj();
		} else {
			printf("  space %u coord %.6f (%u) home #%u\n", sp,
			       x[sp] / 4294967296.0, x[sp], home);
		}
	}
	if (opts.json) {
		json_close_arr();
		json_close_obj();
		json_list_end();
	}
	return EXIT_OK;
}

static const struct cmd key_cmds[] = {
	{ "locate", key_locate, key_help },
	{ NULL, NULL, NULL },
};

int do_key(int argc, char **argv)
{
	return run_cmd("key", key_help, key_cmds, argc, argv, NULL);
}
