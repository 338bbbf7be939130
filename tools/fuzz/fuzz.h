/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the libFuzzer targets of tools/fuzz share: reading the
 * input as a stream of integers (zeros past its end), a hash for views
 * derived from it, and the check that aborts on a violated invariant.
 */
#ifndef _DP_FUZZ_H
#define _DP_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "topo.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

struct fz_in {
	const u8 *p;
	size_t left;
};

static inline u8 fz_u8(struct fz_in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static inline u16 fz_u16(struct fz_in *in)
{
	return (u16)(fz_u8(in) | fz_u8(in) << 8);
}

static inline u32 fz_u32(struct fz_in *in)
{
	u32 v = fz_u16(in);

	return v | (u32)fz_u16(in) << 16;
}

static inline size_t fz_in_left(const struct fz_in *in)
{
	return in->left;
}

/* A well-mixed 32-bit hash of four words (murmur3's finaliser). */
static inline u32 fz_mix(u32 a, u32 b, u32 c, u32 d)
{
	return dp_fmix32(a ^ (b * 0x9e3779b1U) ^ (c * 0x85ebca77U) ^
			 (d * 0xc2b2ae3dU));
}

#define FZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

#endif /* _DP_FUZZ_H */
