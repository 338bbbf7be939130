/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tresult.h - the check lines of the C test programs: "PASS: ..." or
 * "FAIL: ...", counted for the final "N passed, N failed" line that
 * tests/run.sh reads.  One test program includes it once.
 */
#ifndef _DPSIM_TRESULT_H
#define _DPSIM_TRESULT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned int npass, nfailed;

static void __attribute__((format(printf, 2, 3)))
result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		npass++;
	else
		nfailed++;
}

#endif
