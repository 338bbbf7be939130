/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DPCTL_H
#define DPCTL_H

#include <stdbool.h>
#include <stdio.h>

#include "dp_linkargs.h"

struct dpctl_opts {
	bool json;
	bool pretty;
	bool timestamp;		/* monitor: when each event came */
};

extern struct dpctl_opts opts;

/*
 * A command or subcommand.  @fn gets the arguments after its name; @help is
 * its usage text (also printed by "dpctl help" for top-level commands).
 */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

/* -h, --help, -help or help. */
bool is_help(const char *arg);

/*
 * Run the command of @cmds that argv[0] names: its exact name, else a
 * unique prefix (ambiguous and unknown names are usage errors).  @what
 * names the level in messages ("link"); with no argument, @dflt runs if
 * not NULL.  "help", -h or --help prints @header and the help of every
 * command when it comes first, else the help of the command it follows.
 */
int run_cmd(const char *what, const char *header, const struct cmd *cmds,
	    int argc, char **argv, int (*dflt)(int argc, char **argv));

/* Commands (their help texts are in the same files). */
int do_link(int argc, char **argv);
int do_show(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_set(int argc, char **argv);
int do_neigh(int argc, char **argv);
int do_shortcut(int argc, char **argv);
int do_route(int argc, char **argv);
int do_fabric(int argc, char **argv);
int do_monitor(int argc, char **argv);
int do_plan(int argc, char **argv);
int do_addr(int argc, char **argv);
int do_key(int argc, char **argv);
int do_up(int argc, char **argv);
int do_down(int argc, char **argv);
int do_check(int argc, char **argv);
int do_showconf(int argc, char **argv);
/* "link add ARGS" and "link del DEV", for up and down. */
int link_add(int argc, char **argv);
int link_del(int argc, char **argv);
/* NIC @ifindex to port @port of @dev (changelink); EXIT_OK or EXIT_KERNEL. */
int link_attach(const char *dev, unsigned int port, unsigned int ifindex,
		const char *what);

extern const char link_help[], show_help[], stats_help[], set_help[],
	neigh_help[], shortcut_help[], route_help[], monitor_help[],
	plan_help[], addr_help[], key_help[], up_help[], down_help[],
	showconf_help[], check_help[], fabric_help[];

#endif
