// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl: control tool for dpillar fabrics.
 */
#define _GNU_SOURCE	/* setns() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dpctl.h"
#include "version.h"

struct dpctl_opts opts;
const char dp_prog[] = "dpctl", dp_help[] = "dpctl help";

bool is_help(const char *arg)
{
	return !strcmp(arg, "help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "--help") || !strcmp(arg, "-help");
}

static int level_help(FILE *out, const char *header, const struct cmd *cmds)
{
	const struct cmd *c;

	fputs(header, out);
	for (c = cmds; c->name; c++)
		if (c->help)
			help_put(c->help, out);
	return out == stdout ? EXIT_OK : EXIT_USAGE;
}

/* The help of @c, or of its whole level when it has none of its own. */
static int cmd_help(const struct cmd *c, const char *header,
		    const struct cmd *cmds)
{
	if (!c)
		return EXIT_USAGE;
	if (!c->help)
		return level_help(stdout, header, cmds);
	help_put(c->help, stdout);
	return EXIT_OK;
}

/* The command @arg names: exact, else the only one it abbreviates. */
static const struct cmd *find_cmd(const char *what, const struct cmd *cmds,
				  const char *arg)
{
	const struct cmd *c, *found = NULL;

	for (c = cmds; c->name; c++)
		if (!strcmp(arg, c->name))
			return c;
	for (c = cmds; c->name; c++) {
		if (!matches(arg, c->name) || (found && found->fn == c->fn))
			continue;
		if (found) {
			usage_error("%s%s\"%s\" is ambiguous: %s, %s, ...", what,
				    *what ? ": " : "", arg, found->name, c->name);
			return NULL;
		}
		found = c;
	}
	if (!found)
		usage_error("%s%sunknown command \"%s\"", what,
			    *what ? ": " : "", arg);
	return found;
}

int run_cmd(const char *what, const char *header, const struct cmd *cmds,
	    int argc, char **argv, int (*dflt)(int argc, char **argv))
{
	const struct cmd *c;
	int i;

	if (argc < 1)
		return dflt ? dflt(0, argv) : level_help(stderr, header, cmds);
	if (is_help(argv[0]))	/* "help" or "help COMMAND" */
		return argc < 2 ? level_help(stdout, header, cmds) :
		       cmd_help(find_cmd(what, cmds, argv[1]), header, cmds);
	c = find_cmd(what, cmds, argv[0]);
	if (!c)
		return EXIT_USAGE;
	for (i = 1; i < argc; i++)
		if (is_help(argv[i]))
			return cmd_help(c, header, cmds);
	return c->fn(argc - 1, argv + 1);
}

/* Print @w unless it is among the @n words of @seen already. */
static void word_once(const char **seen, u32 *n, u32 max, const char *w)
{
	u32 i;

	for (i = 0; i < *n; i++)
		if (!strcmp(seen[i], w))
			return;
	if (*n < max)
		seen[(*n)++] = w;
	printf("%s\n", w);
}

/*
 * "dpctl words topo|mode|param": the registered topologies (test fixtures
 * aside), every routing mode of theirs or every word of their parameter
 * tables, one a line, for the bash completion, which thus lists none of
 * them by hand.  Not in the help.
 */
static int do_words(int argc, char **argv)
{
	const char *seen[256];
	const struct dp_topo_ops *ops;
	u32 kind, i, n = 0;

	if (argc != 1 || (strcmp(argv[0], "topo") && strcmp(argv[0], "mode") &&
			  strcmp(argv[0], "param")))
		return usage_error("words: topo, mode or param");
	for (kind = 1; kind <= DP_TOPO_KIND_MAX; kind++) {
		ops = dp_topo_ops_by_kind(kind);
		if (!ops || ops->fixture)
			continue;
		if (!strcmp(argv[0], "topo"))
			word_once(seen, &n, ARRAY_SIZE(seen), ops->name);
		else if (!strcmp(argv[0], "mode"))
			for (i = 0; ops->sel_names && ops->sel_names[i]; i++)
				word_once(seen, &n, ARRAY_SIZE(seen),
					  ops->sel_names[i]);
		else
			for (i = 0; i < ops->nparams; i++)
				word_once(seen, &n, ARRAY_SIZE(seen),
					  ops->params[i].name);
	}
	return EXIT_OK;
}

static const char main_header[] =
	"Usage: dpctl [OPTIONS] COMMAND [ARGS]\n"
	"       dpctl [OPTIONS] [-force] -b[atch] FILE\n"
	"OPTIONS := { -j[son] | -p[retty] | -t[imestamp] | -n[etns] NETNS |\n"
	"             -V[ersion] | -h[elp] }\n"
	"Commands and keywords may be abbreviated to a unique prefix;\n"
	"\"help\" or -h after any of them explains it.\n"
	"Exit status: 0 ok, 1 the kernel refused, 2 usage error.  See dpctl(8).\n"
	"\n";

static const struct cmd main_cmds[] = {
	{ "link", do_link, link_help },
	{ "show", do_show, show_help },
	{ "neighbour", do_neigh, neigh_help },
	{ "neighbor", do_neigh, NULL },
	{ "shortcut", do_shortcut, shortcut_help },
	{ "route", do_route, route_help },
	{ "fabric", do_fabric, fabric_help },
	{ "stats", do_stats, stats_help },
	{ "set", do_set, set_help },
	{ "monitor", do_monitor, monitor_help },
	{ "plan", do_plan, plan_help },
	{ "address", do_addr, addr_help },
	{ "key", do_key, key_help },
	{ "up", do_up, up_help },
	{ "down", do_down, down_help },
	{ "showconf", do_showconf, showconf_help },
	{ "check", do_check, check_help },
	{ "words", do_words, NULL },
	{ NULL, NULL, NULL },
};

/* Enter network namespace @name: a name from "ip netns", or a path. */
static int enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "dpctl: netns \"%s\": %s\n", name, strerror(errno));
		return EXIT_KERNEL;
	}
	if (setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "dpctl: netns \"%s\": %s\n", name, strerror(errno));
		close(fd);
		return EXIT_KERNEL;
	}
	close(fd);
	return EXIT_OK;
}

static const char *batch_file;
static bool batch_force;	/* -force: go on after a failed line */

/*
 * Global options, iproute2 style: before the command (any prefix).
 * Returns how many words it took (1 or 2), -1 for help, -2 for the
 * version, or the negative of an exit status less 10.
 */
static int leading_option(int argc, char **argv)
{
	const char *arg = argv[0], *opt = arg + 1;
	int err;

	if (*opt == '-')
		opt++;
	if (!strcmp(opt, "V") || !strcmp(opt, "Version") ||
	    !strcmp(opt, "version"))
		return -2;
	if (matches(opt, "json")) {
		opts.json = true;
	} else if (matches(opt, "pretty")) {
		opts.pretty = true;
	} else if (matches(opt, "timestamp")) {
		opts.timestamp = true;
	} else if (matches(opt, "help")) {
		return -1;
	} else if (!strcmp(opt, "force")) {
		batch_force = true;
	} else if (matches(opt, "netns") || matches(opt, "batch")) {
		if (argc < 2)
			return -10 - usage_error("option \"%s\" needs a value", arg);
		if (*opt == 'b') {
			batch_file = argv[1];
		} else {
			err = enter_netns(argv[1]);
			if (err)
				return -10 - err;
		}
		return 2;
	} else {
		return -10 - usage_error("unknown option \"%s\"", arg);
	}
	return 1;
}

/* ... and, spelled out or as -j / -p, anywhere after it. */
static bool late_option(const char *arg)
{
	static const char *const json[] = { "-j", "-json", "--json", NULL };
	static const char *const pretty[] = { "-p", "-pretty", "--pretty", NULL };
	int i;

	for (i = 0; json[i]; i++) {
		if (!strcmp(arg, json[i]))
			return opts.json = true;
		if (!strcmp(arg, pretty[i]))
			return opts.pretty = true;
	}
	return false;
}

/* One command: its late options taken out, then run. */
static int run_line(int argc, char **argv)
{
	int i, j;

	for (i = j = 0; i < argc; i++)
		if (!late_option(argv[i]))
			argv[j++] = argv[i];
	return run_cmd("", main_header, main_cmds, j, argv, NULL);
}

/*
 * Split @line into words as "ip -batch" does: blanks separate, double
 * quotes group (a backslash keeps the next character), a word that
 * starts with # starts a comment (so a node id "#6" is quoted).  Returns
 * the number of words, or -1 when there are too many or a quote is not
 * closed.
 */
static int split_line(char *line, char **argv, int max)
{
	char *r = line, *w = line;
	int argc = 0;

	for (;;) {
		bool quoted = false;

		while (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n')
			r++;
		if (!*r || *r == '#')
			return argc;
		if (argc == max)
			return -1;
		argv[argc++] = w;
		for (; *r; r++) {
			if (*r == '"') {
				quoted = !quoted;
			} else if (*r == '\\' && r[1]) {
				*w++ = *++r;
			} else if (!quoted && strchr(" \t\r\n", *r)) {
				r++;
				break;
			} else {
				*w++ = *r;
			}
		}
		if (quoted)
			return -1;
		*w++ = 0;
	}
}

/*
 * A batch line's own "-n NETNS" (or -netns): run it in NETNS, so that one
 * dpctl serves a whole fabric (a test's dp0 on every server) instead of a
 * process per namespace.  Each command opens its netlink sockets when it
 * runs, so the netns it is in then is the one it talks to.  Returns how
 * many words it took, or the negative of an exit status.
 */
static int line_netns(int argc, char **argv, int home)
{
	int err;

	if (argc < 1 || (strcmp(argv[0], "-n") && strcmp(argv[0], "-netns")))
		return 0;
	if (argc < 2)
		return -usage_error("option \"%s\" needs a value", argv[0]);
	if (home < 0) {		/* no way back: not one line's own */
		fprintf(stderr, "dpctl: /proc/self/ns/net: %s\n",
			strerror(errno));
		return -EXIT_KERNEL;
	}
	err = enter_netns(argv[1]);
	return err ? -err : 2;
}

/*
 * dpctl -batch FILE: each line a command; stop at the first that fails
 * (with -force: go on, and exit with the status of the last failure).
 * A line may start with -n NETNS (its own: the next line is back in the
 * netns dpctl started in).
 */
static int run_batch(const char *file)
{
	bool json = opts.json, pretty = opts.pretty;
	char line[4096], *argv[128];
	unsigned int n = 0;
	int argc, err, took, ret = EXIT_OK, home;
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;

	if (!f) {
		fprintf(stderr, "dpctl: %s: %s\n", file, strerror(errno));
		return EXIT_USAGE;
	}
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	while (fgets(line, sizeof(line), f)) {
		n++;
		argc = split_line(line, argv, sizeof(argv) / sizeof(argv[0]) - 1);
		if (argc < 0) {
			fprintf(stderr, "dpctl: %s:%u: unclosed quote or too many words\n",
				file, n);
			ret = EXIT_USAGE;
			if (batch_force)
				continue;
			break;
		}
		if (!argc)
			continue;
		argv[argc] = NULL;
		opts.json = json;	/* a line's -j is its own */
		opts.pretty = pretty;
		took = line_netns(argc, argv, home);
		fflush(stdout);
		err = took < 0 ? -took : run_line(argc - took, argv + took);
		fflush(stdout);
		if (took > 0 && setns(home, CLONE_NEWNET)) {
			fprintf(stderr, "dpctl: back to the first netns: %s\n",
				strerror(errno));
			err = EXIT_KERNEL;
			ret = err;
			break;
		}
		if (err) {
			fprintf(stderr, "dpctl: %s:%u: command failed\n", file, n);
			ret = err;
			if (!batch_force)
				break;
		}
	}
	if (home >= 0)
		close(home);
	if (f != stdin)
		fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	int took;

	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-' && argv[0][1]) {
		took = leading_option(argc, argv);
		if (took == -1)
			return level_help(stdout, main_header, main_cmds);
		if (took == -2) {
			printf("dpctl (dpillar) %s\n", DP_VERSION);
			return EXIT_OK;
		}
		if (took < 0)
			return -10 - took;
		argc -= took;
		argv += took;
	}
	if (batch_file) {
		if (argc)
			return usage_error("-batch: unexpected \"%s\"", argv[0]);
		return run_batch(batch_file);
	}
	return run_line(argc, argv);
}
