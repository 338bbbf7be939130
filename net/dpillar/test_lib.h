/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixtures shared by the KUnit tests of the module (dpillar_test.ko).
 *
 * A test device is the real thing as far as the code under test can tell:
 * dp0 comes from dp_link_ops.setup and ndo_init, its ports are struct
 * dp_port on Ethernet devices whose rx_handler_data points at them.  None
 * of these devices is registered, so nothing is visible outside the test,
 * and every test path stops short of transmitting (no qdisc exists).
 */
#ifndef _DPILLAR_TEST_LIB_H
#define _DPILLAR_TEST_LIB_H

#include <kunit/test.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "dpillar.h"
#include "topo_walk.h"

struct dpt_dev {
	struct net_device *dev;		/* dp0 */
	struct dp_priv *dp;
	struct net_device *lower[DP_MAX_PORTS];
	struct dp_port *port[DP_MAX_PORTS];
};

/*
 * Create dp0 of node @self in a DPillar (n, k) fabric, up, with both
 * ports running and with carrier; freed when the test ends.
 */
struct dpt_dev *dpt_dev_create(struct kunit *test, u32 n, u32 k, u32 self);
/* The same, of node @self in the fabric @prm describes (any topology). */
struct dpt_dev *dpt_dev_create_topo(struct kunit *test,
				    const struct dp_topo_params *prm, u32 self);
/*
 * @lower transmits at once through @ops (its ndo_start_xmit keeps the
 * frames): a qdisc without enqueue, as noqueue's, and the device up.
 */
void dpt_port_capture(struct kunit *test, struct net_device *lower,
		      const struct net_device_ops *ops);
/* Lower device state as dp_port_up() sees it. */
void dpt_port_set(struct dpt_dev *d, u32 port, bool running, bool carrier);
/* Sum of one counter over the CPUs. */
u64 dpt_stat(const struct dpt_dev *d, enum dp_stat stat);
u64 dpt_route_stat(const struct dpt_dev *d, u8 reason);
/* What became of received frames: delivered, relayed, Hello or a drop. */
u64 dpt_stat_outcomes(const struct dpt_dev *d);

/* dp_topo_init() of a (@kind, @n, @k) fabric; *@why says what it refused. */
int dpt_init(struct dp_topo *t, u32 kind, u32 n, u32 k, const char **why);
/* A DPillar (@n, @k) core in @t, or the test fails. */
void dpt_mk(struct kunit *test, struct dp_topo *t, u32 n, u32 k);

/*
 * A received frame as dp_handle_frame() gets it: Ethernet header from
 * @src_mac, ethertype @proto, then @len bytes of @payload, skb->data
 * after the Ethernet header, skb->dev the lower device of @port.  With
 * @linear < @len, only that many payload bytes are in the linear area
 * and the rest in a page fragment.
 */
struct sk_buff *dpt_frame(struct kunit *test, struct dpt_dev *d, u32 port,
			  const u8 *src_mac, u16 proto, const void *payload,
			  unsigned int len, unsigned int linear);
/* A DPillar header with sane defaults (DATA, TTL DPT_TTL, IPv4). */
#define DPT_TTL	64
void dpt_hdr(struct dpillar_hdr *h, u8 type, u32 src, u32 dst);
/* Run the port rx_handler the way the stack does (BH, RCU). */
rx_handler_result_t dpt_rx(struct sk_buff **pskb);

/* An empty failure set of topo_walk.c for @t, its bitmaps freed with @test. */
void dpt_fail_init(struct kunit *test, struct dp_fail_set *f,
		   const struct dp_topo *t);

#endif /* _DPILLAR_TEST_LIB_H */
