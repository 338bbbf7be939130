// SPDX-License-Identifier: GPL-2.0
/*
 * A fabric's parameter words from text (dp_params.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dp_params.h"

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

/* One coordinate: a decimal u32 or 0x hex (never octal: "010" is 10). */
static int coord_parse(const char *s, const char *end, unsigned int *out)
{
	unsigned long long v = 0;
	unsigned int base = 10, d;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		v = v * base + d;
		if (v > UINT_MAX)
			return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

unsigned int coords_parse(const char *s, unsigned int *x)
{
	unsigned int n = 0;
	const char *end;

	for (;;) {
		end = s + strcspn(s, ",");
		if (n == DP_COORDS_MAX || coord_parse(s, end, &x[n]))
			return 0;
		n++;
		if (!*end)
			return n;
		s = end + 1;
	}
}

int dp_param_set(const struct dp_param *d, const char *val,
		 struct dp_topo_params *p)
{
	u32 v, *at = (u32 *)((char *)p + d->off);

	if (d->flags & DP_PARAM_COORDS) {
		v = coords_parse(val, at);
		if (v < d->min || v > d->max)
			return -1;
		at[-1] = v;	/* the count before the array */
		return 0;
	}
	if (parse_u32(val, &v) || v < d->min || v > d->max)
		return -1;
	*at = v;
	return 0;
}

const char *dp_params_foreign(const struct dp_topo_ops *ops, u32 gave)
{
	const struct dp_topo_param *prm;
	u32 kind = 0, i = 0;

	while ((prm = dp_topo_param_next(&kind, &i)))
		if (prm->only && !dp_topo_param_at(ops, prm->off) &&
		    (gave & (1U << prm->id)))
			return prm->only;
	return NULL;
}
