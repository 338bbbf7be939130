/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpillar: the types and state of the kernel module.  A device (struct
 * dp_priv) and what it holds: its ports and their neighbour tables, its
 * prefixes, its counters (enum dp_stat), the route memo and the routing
 * view's context; what genetlink reports of a port and a neighbour; what
 * one hop's routing did with a frame (enum dp_out).  No functions: those
 * each file offers, and the inlines the layers share, are in dpillar.h,
 * which includes this file.
 */
#ifndef _DPILLAR_TYPES_H
#define _DPILLAR_TYPES_H

#include <linux/netdevice.h>
#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <linux/dpillar.h>
#include <linux/dpillar_packet.h>

#include "coords.h"
#include "hello_tlv.h"
#include "pathsel.h"
#include "probe.h"
#include "shortcut.h"
#include "topo.h"

#define DP_HDR_LEN	((unsigned int)sizeof(struct dpillar_hdr))
/* The most a fabric puts between the header and the payload (t->ext_len). */
#define DP_HDR_EXT_MAX	((unsigned int)(sizeof(struct dpillar_coords) + \
					DP_COORDS_MAX * sizeof(__be32)))

#define DP_HELLO_MS_DEFAULT	100
#define DP_DEAD_MS_DEFAULT	300	/* three Hellos missed */

/*
 * Counters, one per event or drop reason.  The order is the ethtool -S
 * order (dp_stat_names); append only.
 */
enum dp_stat {
	DP_STAT_RX_FRAMES,	/* dpillar frames received on the ports */
	DP_STAT_DELIVERED,	/* for us: handed to the stack */
	DP_STAT_FORWARDED,	/* relayed for others */
	DP_STAT_TX,		/* our own packets sent into the fabric */
	DP_STAT_HELLO_TX,
	DP_STAT_HELLO_RX,
	/* drops of frames from the wire */
	DP_STAT_DROP_SHORT,	/* shorter than the dpillar header */
	DP_STAT_DROP_VERSION,	/* unknown version */
	DP_STAT_DROP_TYPE,	/* unknown packet type */
	DP_STAT_DROP_ADDR,	/* node id outside this fabric */
	DP_STAT_DROP_TTL,	/* TTL expired: a routing bug */
	DP_STAT_DROP_PROTO,	/* payload neither IPv4 nor IPv6 */
	DP_STAT_DROP_INNER,	/* payload shorter than its IP header */
	DP_STAT_DROP_DOWN,	/* dp0 administratively down */
	DP_STAT_DROP_NOROUTE,	/* routing found no next hop (see route_*) */
	DP_STAT_DROP_NONEIGH,	/* next hop chosen but its MAC unknown */
	DP_STAT_DROP_MTU,	/* frame larger than the outgoing port's MTU */
	DP_STAT_DROP_NOMEM,
	DP_STAT_DROP_OTHERHOST,	/* unicast to another MAC (a switch flooded it) */
	DP_STAT_HELLO_MISWIRED,	/* Hello from a server not on that switch */
	DP_STAT_HELLO_BAD,	/* malformed Hello */
	/* drops of packets from the stack */
	DP_STAT_TX_NOT_FABRIC,	/* destination outside the fabric prefixes */
	DP_STAT_TX_PROTO,	/* neither IPv4 nor IPv6 */
	DP_STAT_TX_NOROUTE,	/* routing found no first hop */
	/*
	 * Detours around failures, counted where they start: the topology
	 * names its slots (struct dp_topo_ops.detours; DPillar: tunnel hops,
	 * u-turns, ring reversals).
	 */
	DP_STAT_DETOUR1,
	DP_STAT_DETOUR2,
	DP_STAT_DETOUR3,
	DP_STAT_DETOUR4,
	DP_STAT_DETOUR5,
	DP_STAT_DROP_VLAN,	/* VLAN tag, no VLAN device */
	DP_STAT_HELLO_NOT_GROUP, /* Hello not sent to the Hello group */
	DP_STAT_HELLO_MAC_CHANGE, /* live neighbour's MAC: kept (spoofing?) */
	/* S2 shortcut discovery (shortcut.c) */
	DP_STAT_SC_DISCOVER,	/* discoveries started here */
	DP_STAT_SC_LEARNED,	/* shortcuts learned from replies */
	DP_STAT_SC_BAD,		/* probe or reply from no live neighbour, or
				 * a reply for no probe passed on here
				 */
	DP_STAT_SC_LIMIT,	/* discovery or probe over the rate limit */
	/* S2 plan mode: destinations' coordinates (coords.c) */
	DP_STAT_COORDS_RESOLVE,	/* discoveries started to resolve them */
	DP_STAT_COORDS_LEARNED,	/* coordinates cached from discoveries */
	DP_STAT_TX_RESOLVING,	/* our packet dropped: its destination's
				 * coordinates are not known yet
				 */
	DP_STAT_PROBE_REPLY_BAD, /* path probe reply for us matching no
				  * outstanding probe: late, a duplicate, or
				  * forged (wrong id, seq or stamp)
				  */
	DP_STAT_TX_COMPLETE_FAIL, /* frame that could not be segmented or
				   * checksummed in software before a NIC
				   * port (gso.c): dropped
				   */
	DP_STAT_SC_NEIGH_LIMIT,	/* probe not passed on, or discovery not
				 * started, over its neighbour's budget
				 */
	DP_STAT_SC_REPLY_LIMIT,	/* probe for us not answered: over its
				 * neighbour's reply budget
				 */
	DP_STAT_COORDS_EXPIRED,	/* cached coordinates forgotten, their
				 * confirmation due and no reply in time
				 * (coords.h)
				 */
	DP_STAT_TX_PORT_DROP,	/* frame (ours or relayed) handed to a port
				 * that did not take it (gso.c)
				 */
	DP_STAT_PROBE_LIMIT,	/* path probe not answered: its kind's reply
				 * budget spent (probe.c)
				 */
	DP_STAT_SC_DATA,	/* data frames sent or relayed along a
				 * shortcut by the discovery fallback
				 */
	DP_STAT_SC_DATA_LOST,	/* SHORTCUT_DATA frame dropped: no shortcut
				 * here within its hop budget (or TTL)
				 */
	DP_STAT_HELLO_MAC_TAKEN, /* Hello refused: its MAC has another live
				  * neighbour entry on that port
				  */
	DP_STAT_PROBE_SENDER_LIMIT, /* path probe not answered: its sender's
				     * share of the reply budgets spent
				     */
	DP_STAT_TX_NIC_OFFLOAD,	/* TCP super-packet or partial checksum
				 * handed whole to a qualified NIC (send.c)
				 */
	DP_STAT_MAX
};

/**
 * struct dp_pcpu_stats - a device's counters on one CPU
 * @cnt: one per &enum dp_stat
 * @route: routing drops by reason (the topology's drop numbers,
 *	dp_topo_ops.drop_names)
 * @rx_bytes: bytes delivered to the stack (%DP_STAT_DELIVERED)
 * @tx_bytes: bytes of our own packets sent into the fabric (%DP_STAT_TX)
 * @syncp: for 64-bit reads on 32-bit hosts (dp_stats_sum())
 *
 * Written with dp_count() from any context; summed over the CPUs by
 * ethtool -S, genetlink and ndo_get_stats64.
 */
struct dp_pcpu_stats {
	u64_stats_t cnt[DP_STAT_MAX];
	u64_stats_t route[DP_DROP_MAX];
	u64_stats_t rx_bytes;
	u64_stats_t tx_bytes;
	struct u64_stats_sync syncp;
};

/**
 * struct dp_neigh - a neighbour on a port's switch, heard through its Hellos
 * @mac: its MAC as one atomic word; 0: never heard
 * @last_heard: jiffies of its last Hello
 * @flags: %DP_NEIGH_REPORTED, set while the neighbour was last reported
 *	reachable (NEIGH_NTF), so that each transition is reported once;
 *	%DP_NEIGH_HAS_PORTS_UP, set when its last Hello carried @ports_up
 * @ports_up: the TLV DPILLAR_TLV_PORTS_UP: bit p, its port p is up
 * @neighs: the node ids it heard (its Hello's DPILLAR_TLV_NEIGHS: S2's
 *	2-hop neighbours)
 * @nneighs: how many of @neighs are meaningful
 * @peer_port: topologies that learn their peers (dp_topo.learn_peers,
 *	S2 plan mode): the port it said it sent from
 * @node: the same: the node id heard in this slot
 * @sc_budget: what its shortcut discovery frames spent this second, on a
 *	switch port (shortcut.c, dp_sc_budget_of(); under the device's
 *	sc.lock); a cable port's is the port's, in struct dp_shortcuts
 *
 * Readers on the fast path take no lock: @mac is one word and
 * @last_heard a jiffies value, so a stale read only errs by one Hello.
 * @neighs is written by the Hellos and read by routing without a lock: a
 * list torn by a concurrent Hello mixes two true lists, which routing
 * tolerates (ids are checked, the TTL bounds the path).  @peer_port and
 * @node mean something only while @mac is set; they are written under
 * the port's @learn_lock and read without it (dp_neigh_node()).
 */
struct dp_neigh {
	atomic64_t mac;
	unsigned long last_heard;
	unsigned long flags;
	u32 ports_up;
	u32 neighs[DPILLAR_TLV_NEIGHS_MAX];
	u8 nneighs;
	u8 peer_port;
	u32 node;
	struct dp_sc_budget sc_budget;
};

#define DP_NEIGH_REPORTED	0
#define DP_NEIGH_HAS_PORTS_UP	1

/**
 * struct dp_neigh_coords - coordinates a port's cable neighbour gave
 * @ncoords: how many of @x; 0: none
 * @nneighs: how many rows of @neighs
 * @x: its own coordinates (DPILLAR_TLV_COORDS)
 * @neighs: for the first @nneighs ids of its DPILLAR_TLV_NEIGHS list,
 *	theirs (DPILLAR_TLV_NEIGH_COORDS)
 *
 * Coordinates-carrying topologies (S2 plan mode, dp_topo_coords_ext.hello):
 * what the port's one cable neighbour (its neigh[0]) gave in its last
 * Hello, which no node can derive from an id.  Per port and not per
 * neighbour slot: such a port has one slot, while DCell's and DPillar's
 * ports have up to 1023 slots that would each carry these 544 bytes for
 * nothing.  Written by the Hellos without a lock, counts shrunk first as
 * for &struct dp_neigh.neighs; a read torn by a concurrent Hello mixes two
 * true lists of the same neighbour, which routing tolerates (a candidate
 * is checked for progress, and the TTL bounds any path).
 */
struct dp_neigh_coords {
	u8 ncoords;
	u8 nneighs;
	u32 x[DP_COORDS_MAX];
	u32 neighs[DPILLAR_TLV_NEIGHS_MAX][DP_COORDS_MAX];
};

/**
 * struct dp_miswired - a server heard on a port's switch though not cabled
 *	to it: the most recent such Hello
 * @mac: its sender's MAC; 0: none yet
 * @heard: jiffies of that Hello
 * @ntf: jiffies of the last event raised (at most one per dead interval
 *	and port)
 * @count: how many came since the port last had none for the dead
 *	interval
 * @node: the sender's node id
 * @sport: the sender's port
 * @ntf_valid: @ntf was ever set
 *
 * Under &struct dp_port.miswired_lock: written in the receive softirq,
 * read by dumps.
 */
struct dp_miswired {
	u64 mac;
	unsigned long heard;
	unsigned long ntf;
	u32 count;
	u32 node;
	u8 sport;
	bool ntf_valid;
};

struct dp_priv;

/**
 * struct dp_port - one lower device bound to the fabric
 * @dev: the lower device (its rx_handler_data is this port)
 * @dp: the device it is a port of
 * @dev_tracker: our reference on @dev
 * @index: its port number in the topology
 * @ntf_state: the &enum dpillar_port_state last notified (under RTNL)
 * @miswired_lock: guards @miswired
 * @miswired: the last server heard on this port though not cabled to it
 * @mac_change_warned: jiffies when a Hello refused for its MAC (a live
 *	neighbour's changed, or one another live neighbour has) was last
 *	reported
 * @learn_lock: serialises a neighbour slot's coming alive (one MAC, one
 *	live slot: dp_neigh_take()) and, in topologies that learn their
 *	peers (dp_topo.learn_peers), its claim by a new node id
 * @whole: dp_port_whole()'s answer, cached (send.c)
 * @nic_ok: its NIC's driver is qualified for our TCP frames' offloads
 *	(dp_nic_offload_qualified(), send.c), worked out when it became a
 *	port: a netdev's driver does not change while it exists
 * @coords: coordinates-carrying topologies: those of neigh[0]
 * @rcu: freed after a grace period (readers find ports under RCU)
 * @nneigh: how many neighbour slots (dp_topo_ops.port_info)
 * @neigh: the neighbour table, in dp_topo_ops.port_neigh's order
 *
 * Published in &struct dp_priv.ports under RTNL, read under RCU by the
 * data path and genetlink.
 */
struct dp_port {
	struct net_device *dev;
	struct dp_priv *dp;
	netdevice_tracker dev_tracker;
	u32 index;
	u8 ntf_state;
	spinlock_t miswired_lock;	/* guards @miswired */
	struct dp_miswired miswired;
	unsigned long mac_change_warned;
	spinlock_t learn_lock;		/* a slot coming alive, or claimed */
	/* dp_stack_gen when worked out, shifted left by one; bit 0 */
	unsigned int whole;
	bool nic_ok;
	struct dp_neigh_coords coords;
	struct rcu_head rcu;
	u32 nneigh;
	struct dp_neigh neigh[] __counted_by(nneigh);
};

/**
 * struct dp_prefix - the fabric's IP prefixes
 * @ip4: IPv4 prefix: node i is @ip4 + i
 * @ip4_plen: its length
 * @ip6: IPv6 /96: the low 32 bits are the node id
 * @key6: IPv6 /96 of key addresses: the low 32 bits are a key id; ::
 *	for none
 * @rcu: freed after a grace period
 *
 * Replaced whole under RTNL and read under RCU (dp_prefix()), so that the
 * transmit path never matches a destination against half of an old and
 * half of a new prefix.
 */
struct dp_prefix {
	__be32 ip4;
	u8 ip4_plen;
	struct in6_addr ip6;
	struct in6_addr key6;
	struct rcu_head rcu;
};

/*
 * The neighbour slot a packet's decision looked up last (struct dp_vctx):
 * the hop it takes is the neighbour it asked about last, so the MAC is
 * read from the same slot instead of a third lookup (reachable, ports_up,
 * then the MAC: each a topology's port_neigh_index()).
 */
struct dp_view_memo {
	u32 self, port, peer;
	bool valid;
	struct dp_port *p;
	struct dp_neigh *nb;
	/*
	 * What the decision asked, for the route memo (struct dp_rmemo):
	 * @lookups: neighbours looked up (each change of the slot above);
	 * @asked: DP_ASKED_REACH, DP_ASKED_UP: the questions asked of the
	 * slot, @reach, @up_known and @up their answers; @other: any other
	 * question (peer_neighs, cable_peer, coords, a shortcut): every view
	 * callback but reachable and ports_up calls dp_vctx_other(); @mixed:
	 * one question, two answers (the neighbour changed meanwhile).
	 *
	 * And for a decision that asked about several neighbours (a
	 * struct dp_rmemo of kind multi): @ports, the ports whose neighbours
	 * it asked whether they are reachable (dp_vctx_reach()), @ports_up
	 * which of them were up; @port_mixed, one port seen up and down;
	 * @expires (with @has_exp), the first jiffy at which an answer it had
	 * about a neighbour's life may change by time alone (struct
	 * dp_rmemo); @uncached, a question no entry can check again (a
	 * shortcut: dp_vctx_uncached()).
	 */
	u8 lookups;
	u8 asked;
	bool reach, up_known, other, mixed;
	bool port_mixed, has_exp, uncached;
	u16 ports, ports_up;
	u32 up;
	unsigned long expires;
};

#define DP_ASKED_REACH	BIT(0)
#define DP_ASKED_UP	BIT(1)

/*
 * The route memo: per CPU, the last hop decided for each of
 * 1 << DP_RMEMO_BITS classes of routing state (the frame's coordinates
 * included, S2 plan mode), of one of two kinds.  A single entry holds
 * what the decision asked of the one neighbour it asked about (the hop)
 * and the answers.
 * The routing core is a function of the topology, our id, the routing
 * state and the view's answers, and of nothing else: the same state and
 * the same answers now give the same hop.  So a frame whose state is the
 * entry's (dp_route_out()) takes the entry's hop when that neighbour's
 * answers, read again from its slot, are still the same; any other
 * answer, a decision that asked about a second neighbour or anything but
 * reachable and ports_up, or changed the state, is decided again.  No
 * path changes: it saves the decision and the slot's lookup (the
 * topology's port_neigh_index()).  @gen: dp_priv.rmemo_gen at the
 * decision, never 0 (an entry never written).  A hostile sender can
 * only make it miss.
 *
 * A multi entry (@multi) holds a decision that asked about several
 * neighbours (S2's greedy step compares every live neighbour's and its
 * neighbours' coordinates), or asked what their Hellos listed
 * (peer_neighs, coords, cable_peer): every answer the view gives but a
 * neighbour's life and its port's state changes only by an event, and
 * every such event bumps dp_priv.rmemo_ngen (dp_rmemo_neigh_changed():
 * a slot claimed or coming alive, a Hello that says something new, a
 * port bound or released, the dead interval set).  Life also ends by
 * time: @expires (with @has_exp) is the first jiffy at which any of the
 * decision's answers about a neighbour's life may change without an
 * event (dp_vctx_reach()), and the ports it asked about are read again
 * (@ports, @ports_up: the lower device's carrier changes without
 * telling us).  So the entry's hop is taken while @ngen is the device's,
 * the time is before @expires and those ports are as they were: then
 * every answer is the one the decision had.  A shortcut's (the view's
 * shortcut) is never kept.  @st: the frame's routing state, its
 * coordinates (plan mode) included, compared whole.
 */
#define DP_RMEMO_BITS	6

struct dp_rmemo {
	u32 gen;
	u32 self;
	struct dp_route_state st;	/* the key: the frame's routing state */
	u8 port;
	u32 next;
	u16 slot;
	u8 phase;
	u8 asked;
	bool reach, up_known;
	bool multi, has_exp;
	u32 up;
	u32 ngen;
	u16 ports, ports_up;
	unsigned long expires;
};

struct dp_rmemo_tab {
	u32 hits;	/* for the tests: frames that took an entry's hop */
	struct dp_rmemo e[1 << DP_RMEMO_BITS];
};

/*
 * The context of the view's callbacks (struct dp_view.ctx): the device,
 * and on a packet's route (dp_route_out()) a memo on its stack.  The
 * device's own view (dp->view, ctx &dp->vctx) has none: it is shared by
 * every CPU.
 */
struct dp_vctx {
	struct dp_priv *dp;
	struct dp_view_memo *memo;
	/*
	 * The frame being routed (dp_route_out()): a shortcut it takes is
	 * in use, on its sender's account (shortcut.c).  NULL on the
	 * device's view: those lookups route no frame and change nothing.
	 */
	const struct sk_buff *skb;
};

/**
 * struct dp_priv - a dpillar device (dp0): one node of a fabric
 * @dev: its net_device
 * @topo: the topology and its parameters
 * @view: routing's view of this node: the neighbour tables
 * @vctx: @view's context (struct dp_vctx, no memo)
 * @self: our node id; %DP_NODE_NONE: unconfigured
 * @nports: the topology's number of ports per node
 * @topo_changing: a topology change is under way (dp_topo_hold())
 * @topo_users: genetlink readers holding the topology (dp_topo_hold())
 * @ports: the bound ports by number, %NULL where none
 * @stats: per-CPU counters
 * @rmemo: the route memo, per CPU (struct dp_rmemo)
 * @rmemo_gen: its entries' generation: a new one with each topology or
 *	id (dp_rmemo_flush())
 * @rmemo_ngen: bumped by every event that changes an answer of the view
 *	but by time or a port's carrier (dp_rmemo_neigh_changed()): a
 *	multi entry of the memo is valid only in its generation
 * @gen: bumped when a port comes or goes and when a neighbour changes
 *	state: flags NEIGH_GET dumps that straddle a change
 * @hello_ms: Hello interval
 * @dead_ms: a neighbour unheard this long is dead
 * @mode: the routing mode of what we send (dp_topo_ops.route_init's @sel)
 * @fallback: the discovery fallback may run (dp_sc_fallback(), which also
 *	wants the default mode and a topology without a discovery of its own)
 * @nic_offload: TCP super-packets and partial checksums go whole to the
 *	ports whose NIC is qualified (@nic_ok; send.c)
 * @dead_jiffies: @dead_ms in jiffies
 * @prefix: the fabric's IP prefixes
 * @hello_work: sends the Hellos and ages the neighbours
 * @probes: path probes (probe.c)
 * @pathsel: path selection (pathsel.c)
 * @sc: shortcut discovery (shortcut.c)
 * @route_fail: what dp_route_out() makes of a frame the topology did not
 *	route (@reason, the frame's state @st): true when it carried the
 *	frame on (sent, the skb gone); NULL: nothing.  Set at setup by
 *	shortcut.c (dp_sc_init(): a discovery, the fallback's way on), so
 *	that routing calls up into the discovery without naming it
 * @coords: learnt coordinates of other nodes (coords.c; topologies whose
 *	nodes carry coordinates, S2 plan mode)
 *
 * @topo, @self and @nports change only under RTNL, while the device is
 * down (dp_topo_change()); genetlink readers that run without RTNL hold
 * them with dp_topo_hold().  @hello_ms, @dead_ms, @mode, @fallback,
 * @nic_offload, @dead_jiffies and @prefix may change while the device
 * runs: read them with READ_ONCE (@prefix with dp_prefix()).
 */
struct dp_priv {
	struct net_device *dev;
	struct dp_topo topo;
	struct dp_view view;
	struct dp_vctx vctx;
	u32 self;
	u32 nports;
	bool topo_changing;
	atomic_t topo_users;
	struct dp_port __rcu *ports[DPILLAR_PORTS_MAX];
	struct dp_pcpu_stats __percpu *stats;
	struct dp_rmemo_tab __percpu *rmemo;
	u32 rmemo_gen;
	atomic_t rmemo_ngen;
	atomic_t gen;
	u32 hello_ms;
	u32 dead_ms;
	u32 mode;
	bool fallback;
	bool nic_offload;
	unsigned long dead_jiffies;
	struct dp_prefix __rcu *prefix;
	struct delayed_work hello_work;
	struct dp_probes probes;
	struct dp_pathsel pathsel;
	struct dp_shortcuts sc;
	bool (*route_fail)(struct dp_priv *dp, struct sk_buff *skb,
			   const struct dp_route_state *st, u8 reason);
	struct dp_coords_cache coords;
};

/**
 * struct dp_port_snap - one port of a device as genetlink reports it
 *	(dp_port_snapshot())
 * @lower: the bound device; %NULL: none
 * @state: its state
 * @reachable: how many of its neighbours are reachable now
 * @nic_offload: its NIC takes our TCP frames' offloads now
 */
struct dp_port_snap {
	const struct net_device *lower;
	enum dpillar_port_state state;
	u32 reachable;
	bool nic_offload;
};

/**
 * struct dp_neigh_snap - one entry of a port's neighbour table as
 *	genetlink reports it (dp_neigh_snapshot())
 * @port: the port
 * @node: the neighbour's node id
 * @state: its state
 * @mac: its MAC; 0: never heard
 * @heard: jiffies of its last Hello, when @mac
 * @peer_port: the port it sent from; < 0: not known
 * @miswired_count: %DPILLAR_NEIGH_STATE_MISWIRED only: Hellos counted
 * @rejected_mac: 0, or a MAC a Hello was ignored from
 */
struct dp_neigh_snap {
	u32 port;
	u32 node;
	enum dpillar_neigh_state state;
	u64 mac;
	unsigned long heard;
	int peer_port;
	u32 miswired_count;
	u64 rejected_mac;
};

/**
 * enum dp_out - what dp_route_out() did with a frame
 * @DP_OUT_SENT: routed and sent; the skb is gone
 * @DP_OUT_HOME: a data frame to a key (dp_dst_is_key()) whose home is this
 *	node: the caller delivers it
 * @DP_OUT_NOROUTE: the topology gave up (its reason counted)
 * @DP_OUT_NONEIGH: the next hop's MAC address is not known
 * @DP_OUT_MTU: too big for the next hop's port
 * @DP_OUT_ROUTE: never dp_route_out()'s: a relay's type hook (struct
 *	dp_relay_ops.hop) leaves the hop to it, dp_relay() calls it next
 *
 * Every value but DP_OUT_SENT leaves the skb with the caller.
 */
enum dp_out {
	DP_OUT_SENT,
	DP_OUT_HOME,
	DP_OUT_NOROUTE,
	DP_OUT_NONEIGH,
	DP_OUT_MTU,
	DP_OUT_ROUTE,
};

#endif /* _DPILLAR_TYPES_H */
