/* SPDX-License-Identifier: GPL-2.0 */
/* s2sim.h - dpsim's Space Shuffle commands (s2sim.c). */
#ifndef _DPSIM_S2SIM_H
#define _DPSIM_S2SIM_H

/* COMMAND --topo s2 [options]: argv as main's, minus the command. */
int s2_main(const char *cmd, int argc, char **argv);

#endif
