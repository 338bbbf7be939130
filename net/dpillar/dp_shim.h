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

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
#endif

#endif /* _DP_SHIM_H */
