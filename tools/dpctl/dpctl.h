/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DPCTL_H
#define DPCTL_H

#include <stdbool.h>

/* Exit status, as iproute2: ok, the kernel said no, the user said nonsense. */
enum { EXIT_OK = 0, EXIT_KERNEL = 1, EXIT_USAGE = 2 };

struct dpctl_opts {
	bool json;
	bool pretty;
};

extern struct dpctl_opts opts;

/* "show" matches "sh", "s" (when unique within @cands): iproute2 habit. */
bool matches(const char *arg, const char *word);
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int do_link(int argc, char **argv);

#endif
