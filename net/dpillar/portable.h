/* SPDX-License-Identifier: GPL-2.0 */
/*
 * portable.h - let the topology core build in the kernel and in userspace.
 *
 * The routing core (topo*.c) only needs fixed-width
 * integers, bool, NULL, memset/memcpy, the errno values and, at init time
 * only, dp_alloc()/dp_free() for the tables a topology may keep outside
 * struct dp_topo (dp_topo_alloc(), topo.h).  In the
 * kernel, the KUnit tests (topo*_test.c, a separate module) reach its
 * functions through EXPORT_SYMBOL_IF_KUNIT(), which is empty without
 * CONFIG_KUNIT and here in userspace.
 */
#ifndef _DP_PORTABLE_H
#define _DP_PORTABLE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <kunit/visibility.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/mm.h>

/*
 * A topology's tables (dp_topo_alloc()): up to a MiB, allocated under
 * RTNL when a device gets its topology, never on the packet path, so
 * vmalloc may back them.
 */
#define dp_alloc(size) kvmalloc(size, GFP_KERNEL)
#define dp_free(ptr) kvfree(ptr)

/*
 * The kernel's routing view (neigh.c): the per-hop reachability test
 * INDIRECT_CALL() compares against, so that the data path calls it
 * directly.
 */
bool dp_reachable(const void *ctx, u32 self, u32 port, u32 peer);
#define DP_VIEW_REACHABLE dp_reachable
/* The other questions a decision asks per packet (DPillar, S2): view.c. */
bool dp_view_ports_up(const void *ctx, u32 self, u32 port, u32 peer,
		      u32 *mask);
#define DP_VIEW_PORTS_UP dp_view_ports_up
u32 dp_view_peer_neighs(const void *ctx, u32 self, u32 port, u32 peer,
			u32 *ids, u32 max);
#define DP_VIEW_PEER_NEIGHS dp_view_peer_neighs
u32 dp_view_cable_peer(const void *ctx, u32 self, u32 port);
#define DP_VIEW_CABLE_PEER dp_view_cable_peer

/* A compile-time check inside a function. */
#define DP_BUILD_CHECK(cond) BUILD_BUG_ON(!(cond))
/* Index of the lowest set bit of a non-zero u32. */
#define dp_ctz(x) ((u32)__ffs(x))
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;

/*
 * KUnit hooks of the kernel build (<kunit/visibility.h>): none here.  The
 * export becomes a harmless declaration that swallows its semicolon.
 */
#define VISIBLE_IF_KUNIT static
#define DP_NO_EXPORT(sym) struct dp_no_export_##sym
#define EXPORT_SYMBOL_IF_KUNIT DP_NO_EXPORT

/* No retpolines to avoid here: a plain indirect call. */
#define INDIRECT_CALL_1(f, f1, ...) ((void)(f1), f(__VA_ARGS__))
#define DP_VIEW_REACHABLE NULL
#define DP_VIEW_PORTS_UP NULL
#define DP_VIEW_PEER_NEIGHS NULL
#define DP_VIEW_CABLE_PEER NULL

#define DP_BUILD_CHECK(cond) ((void)sizeof(char[(cond) ? 1 : -1]))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define dp_ctz(x) ((u32)__builtin_ctz(x))
#define noinline __attribute__((__noinline__))
/* __always_inline: glibc's <sys/cdefs.h>, which <string.h> includes */
#ifndef __always_inline
#error "the routing core wants __always_inline (glibc's <sys/cdefs.h>)"
#endif
#define dp_alloc(size) malloc(size)
#define dp_free(ptr) free(ptr)
#define likely(x) __builtin_expect(!!(x), 1)
#endif

#endif /* _DP_PORTABLE_H */
