// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl: control tool for dpillar fabrics.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpctl.h"

struct dpctl_opts opts;

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

bool is_help(const char *arg)
{
	return !strcmp(arg, "help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "--help") || !strcmp(arg, "-help");
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("dpctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'dpctl help'.\n", stderr);
	return EXIT_USAGE;
}

int parse_u32(const char *s, unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > UINT_MAX || *s == '-')
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static int level_help(FILE *out, const char *header, const struct cmd *cmds)
{
	const struct cmd *c;

	fputs(header, out);
	for (c = cmds; c->name; c++)
		if (c->help)
			fputs(c->help, out);
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
	fputs(c->help, stdout);
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

static const char main_header[] =
	"Usage: dpctl [OPTIONS] COMMAND [ARGS]\n"
	"OPTIONS := { -j[son] | -p[retty] | -t[imestamp] | -h[elp] }\n"
	"Commands and keywords may be abbreviated to a unique prefix;\n"
	"\"help\" or -h after any of them explains it.\n"
	"Exit status: 0 ok, 1 the kernel refused, 2 usage error.  See dpctl(8).\n"
	"\n";

static const struct cmd main_cmds[] = {
	{ "link", do_link, link_help },
	{ "show", do_show, show_help },
	{ "neighbour", do_neigh, neigh_help },
	{ "neighbor", do_neigh, NULL },
	{ "route", do_route, route_help },
	{ "stats", do_stats, stats_help },
	{ "set", do_set, set_help },
	{ "monitor", do_monitor, monitor_help },
	{ "plan", do_plan, plan_help },
	{ "address", do_addr, addr_help },
	{ "key", do_key, key_help },
	{ NULL, NULL, NULL },
};

/* Global options, iproute2 style: before the command (any prefix). */
static int leading_option(const char *arg)
{
	const char *opt = arg + 1;

	if (*opt == '-')
		opt++;
	if (matches(opt, "json"))
		opts.json = true;
	else if (matches(opt, "pretty"))
		opts.pretty = true;
	else if (matches(opt, "timestamp"))
		opts.timestamp = true;
	else if (matches(opt, "help"))
		return -1;
	else
		return usage_error("unknown option \"%s\"", arg);
	return 0;
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

int main(int argc, char **argv)
{
	int i, j, err;

	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-' && argv[0][1]) {
		err = leading_option(argv[0]);
		if (err < 0)
			return level_help(stdout, main_header, main_cmds);
		if (err)
			return err;
		argc--;
		argv++;
	}
	for (i = j = 0; i < argc; i++)
		if (!late_option(argv[i]))
			argv[j++] = argv[i];
	argc = j;
	return run_cmd("", main_header, main_cmds, argc, argv, NULL);
}
