// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl: control tool for dpillar fabrics.
 */
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

static void usage(FILE *out)
{
	fputs("Usage: dpctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	      "OBJECT := link\n"
	      "OPTIONS := { -j[son] | -p[retty] | -h[elp] }\n"
	      "\n"
	      "  dpctl link add DEV n N k K addr C:v.v.v port0 IF port1 IF\n"
	      "  dpctl link del DEV\n"
	      "  dpctl link show [DEV]\n"
	      "\n"
	      "Exit status: 0 ok, 1 the kernel refused, 2 usage error.\n"
	      "See dpctl(8).\n", out);
}

int main(int argc, char **argv)
{
	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-') {
		const char *opt = argv[0] + 1;

		if (*opt == '-')
			opt++;
		if (matches(opt, "json")) {
			opts.json = true;
		} else if (matches(opt, "pretty")) {
			opts.pretty = true;
		} else if (matches(opt, "help")) {
			usage(stdout);
			return EXIT_OK;
		} else {
			return usage_error("unknown option \"%s\"", argv[0]);
		}
		argc--;
		argv++;
	}
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (matches(argv[0], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (matches(argv[0], "link"))
		return do_link(argc - 1, argv + 1);
	return usage_error("unknown object \"%s\"", argv[0]);
}
