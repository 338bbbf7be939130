/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp_shim.h - let the topology core build in the kernel and in userspace.
 *
 * The routing core (topo.c, topo_dpillar.c) only needs fixed-width
 * integers, bool, NULL, memset/memcpy and the errno values.
 */
#ifndef _DP_SHIM_H
#define _DP_SHIM_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
#endif

#endif /* _DP_SHIM_H */
