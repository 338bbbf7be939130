/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpillar: private definitions of the kernel module.
 */
#ifndef _DPILLAR_H
#define _DPILLAR_H

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/ethtool.h>
#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <linux/dpillar.h>
#include <linux/dpillar_packet.h>

#include "coords.h"
#include "hello_tlv.h"
#include "probe.h"
#include "psel.h"
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
	DP_STAT_COORDS_EXPIRED,	/* cached coordinates forgotten for their
				 * age (DP_COORDS_LIFE_MS after learning)
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
 * Coordinates-carrying topologies (S2 plan mode, dp_topo_ops.hello_coords):
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
 * @whole: dp_port_whole()'s answer, cached (frame.c)
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
	 */
	u8 lookups;
	u8 asked;
	bool reach, up_known, other, mixed;
	u32 up;
};

#define DP_ASKED_REACH	BIT(0)
#define DP_ASKED_UP	BIT(1)

/*
 * The route memo: per CPU, the last hop decided for each of
 * 1 << DP_RMEMO_BITS classes of routing state, with what the decision
 * asked of the one neighbour it asked about (the hop) and the answers.
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
 */
#define DP_RMEMO_BITS	6

struct dp_rmemo {
	u32 gen;
	u32 self, dst, waypoint;
	u16 word;
	u8 flags;
	u8 port;
	u32 next;
	u16 slot;
	u8 phase;
	u8 asked;
	bool reach, up_known;
	u32 up;
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
 * @gen: bumped when a port comes or goes and when a neighbour changes
 *	state: flags NEIGH_GET dumps that straddle a change
 * @hello_ms: Hello interval
 * @dead_ms: a neighbour unheard this long is dead
 * @mode: the routing mode of what we send (dp_topo_ops.route_init's @sel)
 * @fallback: the discovery fallback may run (dp_sc_fallback(), which also
 *	wants the default mode and a topology without a discovery of its own)
 * @dead_jiffies: @dead_ms in jiffies
 * @prefix: the fabric's IP prefixes
 * @hello_work: sends the Hellos and ages the neighbours
 * @probes: path probes (probe.c)
 * @psel: path selection (psel.c)
 * @sc: shortcut discovery (shortcut.c)
 * @coords: learnt coordinates of other nodes (coords.c; topologies whose
 *	nodes carry coordinates, S2 plan mode)
 *
 * @topo, @self and @nports change only under RTNL, while the device is
 * down (dp_topo_change()); genetlink readers that run without RTNL hold
 * them with dp_topo_hold().  @hello_ms, @dead_ms, @mode, @fallback,
 * @dead_jiffies and @prefix may change while the device runs: read them
 * with READ_ONCE (@prefix with dp_prefix()).
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
	atomic_t gen;
	u32 hello_ms;
	u32 dead_ms;
	u32 mode;
	bool fallback;
	unsigned long dead_jiffies;
	struct dp_prefix __rcu *prefix;
	struct delayed_work hello_work;
	struct dp_probes probes;
	struct dp_psel psel;
	struct dp_shortcuts sc;
	struct dp_coords_cache coords;
};

/*
 * A genetlink request that reads the topology without RTNL (DEV_GET,
 * NEIGH_GET, ROUTE_*; a route trace sleeps) holds it: a topology change
 * refuses while anyone does, and a request that comes during one gets
 * false (try again).  Dekker's pattern with dp_topo_change(): each side
 * writes its flag, then reads the other's, with a full barrier between.
 */
static inline bool dp_topo_hold(struct dp_priv *dp)
{
	atomic_inc(&dp->topo_users);
	/* Our count before their flag: pairs with smp_mb() in the change. */
	smp_mb__after_atomic();
	/* Acquire: a change that finished is seen whole. */
	if (!smp_load_acquire(&dp->topo_changing))
		return true;
	atomic_dec(&dp->topo_users);
	return false;
}

static inline void dp_topo_put(struct dp_priv *dp)
{
	/* Our reads of the topology before the count drops. */
	smp_mb__before_atomic();
	atomic_dec(&dp->topo_users);
}

static inline bool dp_configured(const struct dp_priv *dp)
{
	return dp_topo_configured(&dp->topo);
}

/* Readers: the transmit path (BH), genetlink (RCU) and rtnetlink (RTNL). */
static inline const struct dp_prefix *dp_prefix(const struct dp_priv *dp)
{
	return rcu_dereference_check(dp->prefix, rcu_read_lock_bh_held() ||
				     lockdep_rtnl_is_held());
}

extern struct rtnl_link_ops dp_link_ops;
extern const char dp_stat_names[DP_STAT_MAX][ETH_GSTRING_LEN];
extern const u8 dp_hello_mac[ETH_ALEN];
/* Counter names of @dp in ethtool -S order: dp_stat_names, then route_*. */
int dp_stat_count(const struct dp_priv *dp);
void dp_stat_name(const struct dp_priv *dp, int i, char *buf);

/*
 * NL_SET_ERR_MSG() only takes literals; the topology core hands back its
 * reasons as pointers to static strings, which outlive the request too.
 */
static inline void dp_extack(struct netlink_ext_ack *extack,
			     const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

static inline void dp_count(struct dp_priv *dp, enum dp_stat stat)
{
	struct dp_pcpu_stats *s = get_cpu_ptr(dp->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->cnt[stat]);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(dp->stats);
}

/* netdev.c */
void dp_setup(struct net_device *dev);
void dp_stats_sum(const struct dp_priv *dp, u64 *cnt, u64 *route,
		  u64 *rx_bytes, u64 *tx_bytes);

/**
 * struct dp_port_snap - one port of a device as genetlink reports it
 *	(dp_port_snapshot())
 * @lower: the bound device; %NULL: none
 * @state: its state
 * @reachable: how many of its neighbours are reachable now
 */
struct dp_port_snap {
	const struct net_device *lower;
	enum dpillar_port_state state;
	u32 reachable;
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

/*
 * The two port lookups of the data path, inline: every layer uses them
 * (routing, sending, Hellos, probes, discovery), and a call into port.c
 * for each would tie those files to the one that binds and releases
 * ports (scripts/callgraph.py).
 */

/* Whether @port's lower device is running with a carrier. */
static inline bool dp_port_up(const struct dp_port *port)
{
	return netif_running(port->dev) && netif_carrier_ok(port->dev);
}

/* Port @index of @dp, NULL when none is bound.  Under rcu_read_lock. */
static inline struct dp_port *dp_port_rcu(const struct dp_priv *dp, u32 index)
{
	return rcu_dereference(dp->ports[index]);
}

/* port.c */
int dp_port_add(struct dp_priv *dp, struct net_device *lower, u32 index,
		struct netlink_ext_ack *extack);
int dp_add_slave(struct net_device *dev, struct net_device *lower,
		 struct netlink_ext_ack *extack);
int dp_del_slave(struct net_device *dev, struct net_device *lower);
int dp_ports_check(struct dp_priv *dp, struct net_device **lower,
		   struct nlattr **attr, struct netlink_ext_ack *extack);
int dp_ports_attach(struct dp_priv *dp, struct net_device **lower,
		    struct netlink_ext_ack *extack);
void dp_port_del(struct dp_port *port);
struct dp_port *dp_port_get_rtnl(const struct net_device *dev);
enum dpillar_port_state dp_port_state(const struct dp_port *port);
void dp_port_snapshot(const struct dp_priv *dp, u32 index,
		      struct dp_port_snap *snap);
void dp_port_ntf(struct dp_priv *dp, u32 index,
		 const struct net_device *lower, enum dpillar_port_state state);
void dp_update_carrier(struct dp_priv *dp);
void dp_update_mtu(struct dp_priv *dp);
int dp_netdev_event(struct notifier_block *nb, unsigned long event,
		    void *ptr);

/* neigh.c */
/* A sender last heard at @heard, if ever (@mac != 0), is still alive. */
static inline bool dp_heard_alive(const struct dp_priv *dp, u64 mac,
				  unsigned long heard, unsigned long now)
{
	return mac && time_before(now, heard + READ_ONCE(dp->dead_jiffies));
}

static inline bool dp_neigh_alive(const struct dp_priv *dp,
				  const struct dp_neigh *nb)
{
	return dp_heard_alive(dp, atomic64_read(&nb->mac),
			      READ_ONCE(nb->last_heard), jiffies);
}

/*
 * The node id of neighbour slot @idx of @port: the topology's, or where
 * the peers are learned (t->learn_peers) the one its Hellos named;
 * DP_NODE_NONE when none was ever heard there.  Lock-free: a slot taken
 * over by a new node sets @mac to 0 first (dp_neigh_claim()).
 */
static inline u32 dp_neigh_node(const struct dp_priv *dp,
				const struct dp_port *port, u32 idx)
{
	const struct dp_neigh *nb = &port->neigh[idx];

	if (!dp->topo.learn_peers)
		return dp_port_neigh(&dp->topo, dp->self, port->index, idx);
	return atomic64_read(&nb->mac) ? READ_ONCE(nb->node) : DP_NODE_NONE;
}

/*
 * The entry of @peer in the table of @self's port @port_idx, NULL when no
 * such port is bound or @peer is not on it (where the peers are learned:
 * not the node its slot last heard); *@port gets the port (or NULL).
 * Under rcu_read_lock.  Plain inline: forcing it (__always_inline, until
 * 2026-11-29) changed a relay hop by less than the instrument's spread
 * between boots (dpillar-evaluation.rst, "What the route memo and
 * __always_inline pay").
 */
static inline struct dp_neigh *
dp_neigh_find(const struct dp_priv *dp, u32 self, u32 port_idx, u32 peer,
	      struct dp_port **port)
{
	int idx;

	*port = port_idx < dp->nports ?
		rcu_dereference(dp->ports[port_idx]) : NULL;
	if (!*port)
		return NULL;
	idx = dp_port_neigh_index(&dp->topo, self, port_idx, peer);
	if (idx < 0 || (u32)idx >= (*port)->nneigh)
		return NULL;
	if (dp->topo.learn_peers && dp_neigh_node(dp, *port, idx) != peer)
		return NULL;
	return &(*port)->neigh[idx];
}

/*
 * The view's two answers about a neighbour slot (@nb on @port, NULL for
 * none): reachable (dp_reachable()), and the ports_up it reported
 * (dp_view_ports_up(): known or not, *@up 0 when not).  One place for
 * both because the route memo (dp_rmemo_take()) reads them again and
 * compares: it is exact only while it reads what the decision read.
 */
static inline bool dp_neigh_reach(const struct dp_priv *dp,
				  const struct dp_port *port,
				  const struct dp_neigh *nb)
{
	return nb && dp_port_up(port) && dp_neigh_alive(dp, nb);
}

static inline bool dp_neigh_up(const struct dp_neigh *nb, u32 *up)
{
	bool known = nb && test_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);

	*up = known ? READ_ONCE(nb->ports_up) : 0;
	return known;
}

/* Remember in @m the slot found for (@self, @port_idx, @peer). */
static inline void dp_view_memo_slot(struct dp_view_memo *m, u32 self,
				     u32 port_idx, u32 peer,
				     struct dp_port *port, struct dp_neigh *nb)
{
	m->self = self;
	m->port = port_idx;
	m->peer = peer;
	m->p = port;
	m->nb = nb;
	m->valid = true;
}

/* The device a view callback's @ctx (a struct dp_vctx) stands for. */
static inline struct dp_priv *dp_vctx_dev(const void *ctx)
{
	return ((const struct dp_vctx *)ctx)->dp;
}

/*
 * dp_neigh_find() through a view's context: the memo's slot when it is
 * the one asked for, else looked up (and remembered, on a packet's view).
 */
static inline struct dp_neigh *dp_vctx_find(const struct dp_vctx *c,
					    u32 self, u32 port_idx, u32 peer,
					    struct dp_port **port)
{
	struct dp_view_memo *m = c->memo;
	struct dp_neigh *nb;

	if (m && m->valid && m->self == self && m->port == port_idx &&
	    m->peer == peer) {
		*port = m->p;
		return m->nb;
	}
	nb = dp_neigh_find(c->dp, self, port_idx, peer, port);
	if (m) {
		/* Saturates: a DPillar (256, k) walks up to 258 candidates. */
		if (m->lookups < U8_MAX)
			m->lookups++;
		dp_view_memo_slot(m, self, port_idx, peer, *port, nb);
	}
	return nb;
}

/*
 * The answers the view gives (view.c), noted on a packet's view for the
 * route memo; dp_vctx_other() for any question but these two.
 */
static inline void dp_vctx_note_reach(const struct dp_vctx *c, bool reach)
{
	struct dp_view_memo *m = c->memo;

	if (!m)
		return;
	if ((m->asked & DP_ASKED_REACH) && m->reach != reach)
		m->mixed = true;
	m->asked |= DP_ASKED_REACH;
	m->reach = reach;
}

static inline void dp_vctx_note_up(const struct dp_vctx *c, bool known,
				   u32 up)
{
	struct dp_view_memo *m = c->memo;

	if (!m)
		return;
	if ((m->asked & DP_ASKED_UP) &&
	    (m->up_known != known || m->up != up))
		m->mixed = true;
	m->asked |= DP_ASKED_UP;
	m->up_known = known;
	m->up = up;
}

static inline void dp_vctx_other(const void *ctx)
{
	const struct dp_vctx *c = ctx;

	if (c->memo)
		c->memo->other = true;
}

/*
 * The MAC address @peer was last heard from on our port @port_idx, 0 when
 * never (or no such port); *@port gets the port.  Under rcu_read_lock.
 */
static inline u64 dp_neigh_mac(const struct dp_priv *dp, u32 port_idx,
			       u32 peer, struct dp_port **port)
{
	const struct dp_neigh *nb = dp_neigh_find(dp, dp->self, port_idx,
						  peer, port);

	return nb ? atomic64_read(&nb->mac) : 0;
}

u32 dp_port_reachable(const struct dp_priv *dp, const struct dp_port *port);
void dp_port_miswired_init(struct dp_port *port);
bool dp_port_miswired_get(const struct dp_priv *dp, struct dp_port *port,
			  struct dp_miswired *mis);
int dp_neigh_snapshot(const struct dp_priv *dp, struct dp_port *port,
		      u32 idx, struct dp_neigh_snap *snap);
void dp_neigh_snapshot_miswired(const struct dp_port *port,
				const struct dp_miswired *mis,
				struct dp_neigh_snap *snap);
bool dp_peer_on_switch(const struct dp_priv *dp, u32 port, u32 peer,
		       u32 peer_port);
void dp_neigh_scan(struct dp_priv *dp, struct dp_port *port);
bool dp_neigh_claim(struct dp_priv *dp, struct dp_port *port, u32 idx,
		    u32 src, u64 mac);
void dp_neigh_miswired(struct dp_priv *dp, struct dp_port *port, u32 src,
		       u8 sport, u64 mac);
struct dp_hello_info;
void dp_neigh_heard(struct dp_priv *dp, struct dp_port *port, u32 idx,
		    u32 src, u64 mac, u8 sport, const struct dp_hello_info *hi);

/* view.c */
/* The view's reachable (@ctx: a struct dp_vctx, never the device). */
bool dp_reachable(const void *ctx, u32 self, u32 port, u32 peer);

/* dp_reachable() for the module's own callers, which hold the device. */
static inline bool dp_neigh_reachable(const struct dp_priv *dp, u32 self,
				      u32 port, u32 peer)
{
	return dp_reachable(&dp->vctx, self, port, peer);
}

void dp_view_init(struct dp_priv *dp);

/* hello.c */
void dp_hello_work(struct work_struct *work);
void dp_hello_rcv(struct dp_priv *dp, struct dp_port *port,
		  struct sk_buff *skb);
#if IS_ENABLED(CONFIG_KUNIT)
/*
 * The coordinate TLVs (struct dp_topo_ops.hello_coords) appended to @skb,
 * for the KUnit tests.
 */
u32 dp_hello_put_coords(struct dp_priv *dp, struct sk_buff *skb);
#endif

/* frame.c */
int __dp_coords_rx(const struct dp_topo *t, struct sk_buff *skb,
		   struct dp_route_state *st);
bool dp_coords_push(struct sk_buff *skb, const struct dp_route_state *st);
void dp_drop(struct dp_priv *dp, struct sk_buff *skb, enum dp_stat stat);
void dp_port_xmit_incomplete(struct dp_port *port, struct sk_buff *skb);
extern atomic_t dp_stack_gen;
bool dp_gso_fits_mtu(const struct sk_buff *skb, unsigned int mtu);

/*
 * What every relayed frame passes through, inline (dpillar-evaluation.rst,
 * "The relay data path by the wall clock": under TCG each call and return
 * is a translation-block lookup, and these were a tenth of a relay hop's
 * own samples in the profiles of DPILLAR_ICOUNT=off make bench).
 */

/*
 * __dp_coords_rx(), with its test of the header's flag inline: a frame
 * without coordinates (every topology but S2 in plan mode) makes no call.
 */
static inline int dp_coords_rx(const struct dp_topo *t, struct sk_buff *skb,
			       struct dp_route_state *st)
{
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;

	if (likely(!t->ops || !(h->flags & t->ops->coords_flag))) {
		st->ncoords = 0;
		return 0;
	}
	return __dp_coords_rx(t, skb, st);
}

/**
 * dp_hdr_state - the routing state a received frame's header carries
 * @t: the fabric
 * @skb: the frame, its dpillar header at skb->data (pulled)
 * @st: filled: the destination, waypoint, flags, routing word and the
 *      coordinates behind the header (dp_coords_rx())
 *
 * The one reading of a header into a struct dp_route_state, for every
 * frame a node routes on (a relayed data frame, a probe); the reverse is
 * dp_hdr_set_state().  skb->data may move (the coordinates are pulled).
 *
 * Return: as dp_coords_rx(): the bytes of the coordinates, 0, or -1 for
 * a malformed frame.
 */
static inline int dp_hdr_state(const struct dp_topo *t, struct sk_buff *skb,
			       struct dp_route_state *st)
{
	int ext = dp_coords_rx(t, skb, st);
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;

	st->dst = ntohl(h->dst);
	st->waypoint = ntohl(h->waypoint);
	st->flags = h->flags;
	st->word = ntohs(h->rword);
	return ext;
}

/*
 * Write @st's routing fields (what a hop may change) into the header at
 * skb->data, which the caller made private (skb_cow_head()).
 */
static inline void dp_hdr_set_state(struct sk_buff *skb,
				    const struct dp_route_state *st)
{
	struct dpillar_hdr *h = (struct dpillar_hdr *)skb->data;

	h->flags = st->flags;
	h->rword = htons(st->word);
	h->waypoint = htonl(st->waypoint);
}

/* A packet sent (DP_STAT_TX) or delivered (DP_STAT_DELIVERED), with bytes. */
static inline void dp_count_bytes(struct dp_priv *dp, enum dp_stat stat,
				  unsigned int len)
{
	struct dp_pcpu_stats *s = get_cpu_ptr(dp->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->cnt[stat]);
	u64_stats_add(stat == DP_STAT_TX ? &s->tx_bytes : &s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(dp->stats);
}

/*
 * dev_queue_xmit() toward @port, counting what the port did not take.
 * The frame was already counted sent (tx_packets) or forwarded, so a
 * full queue or a port going down would otherwise lose it silently.
 * NET_XMIT_CN counts too: noop_qdisc (a port going down) and the AQM
 * qdiscs say it when they dropped a frame.
 */
static inline void dp_port_queue(const struct dp_port *port,
				 struct sk_buff *skb)
{
	if (unlikely(dev_queue_xmit(skb) != NET_XMIT_SUCCESS))
		dp_count(port->dp, DP_STAT_TX_PORT_DROP);
}

/*
 * Whether the frame at skb->data (the dpillar header, its Ethernet
 * header not pushed yet) fits a port of MTU @mtu: every segment of a
 * GSO skb.  The network header is the inner IP header on the way out of
 * dp0 and the dpillar header on a relay; both count.
 */
static inline bool dp_fits_mtu(const struct sk_buff *skb, unsigned int mtu)
{
	if (likely(!skb_is_gso(skb)))
		return skb->len <= mtu;
	return dp_gso_fits_mtu(skb, mtu);
}

/*
 * dev_queue_xmit() of a frame whose Ethernet header is in place, toward
 * @port, whose device skb->dev is; consumes the skb.  A complete frame
 * (no GSO, no partial checksum: every relayed frame off a NIC) goes
 * straight to the port, the others through dp_port_xmit_incomplete().
 */
static inline void dp_port_xmit(struct dp_port *port, struct sk_buff *skb)
{
	if (unlikely(skb_is_gso(skb) || skb->ip_summed == CHECKSUM_PARTIAL))
		dp_port_xmit_incomplete(port, skb);
	else
		dp_port_queue(port, skb);
}

/*
 * Put the Ethernet header toward @mac in front of the dpillar header at
 * skb->data and send the frame out of @port.  Consumes the skb.
 */
static inline void dp_send_on(struct dp_port *port, struct sk_buff *skb,
			      u64 mac)
{
	struct ethhdr *eth;

	/*
	 * Every sender made the room (skb_cow_head(), its allocation):
	 * __skb_push() spares skb_push()'s call, which stays for a sender
	 * that did not (its skb_under_panic(), as before).
	 */
	if (likely(skb_headroom(skb) >= ETH_HLEN))
		eth = __skb_push(skb, ETH_HLEN);
	else
		eth = skb_push(skb, ETH_HLEN);
	u64_to_ether_addr(mac, eth->h_dest);
	ether_addr_copy(eth->h_source, port->dev->dev_addr);
	eth->h_proto = htons(DPILLAR_ETHERTYPE);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->dev = port->dev;
	skb->protocol = htons(DPILLAR_ETHERTYPE);
	dp_port_xmit(port, skb);
}

/**
 * enum dp_out - what dp_route_out() did with a frame
 * @DP_OUT_SENT: routed and sent; the skb is gone
 * @DP_OUT_HOME: a data frame to a key (dp_dst_is_key()) whose home is this
 *	node: the caller delivers it
 * @DP_OUT_NOROUTE: the topology gave up (its reason counted)
 * @DP_OUT_NONEIGH: the next hop's MAC address is not known
 * @DP_OUT_MTU: too big for the next hop's port
 *
 * Every value but DP_OUT_SENT leaves the skb with the caller.
 */
enum dp_out {
	DP_OUT_SENT,
	DP_OUT_HOME,
	DP_OUT_NOROUTE,
	DP_OUT_NONEIGH,
	DP_OUT_MTU,
};

/* shortcut.c: the discovery fallback's first hop (shortcut.h) */
enum dp_out dp_sc_data_out(struct dp_priv *dp, struct sk_buff *skb, u32 dst);

/*
 * The drop counter of a frame dp_route_out() did not send: @noroute is the
 * caller's for a frame routing gave up on (tx_noroute for dp0's packets,
 * drop_noroute for relayed frames).
 */
static inline enum dp_stat dp_out_stat(enum dp_out out, enum dp_stat noroute)
{
	switch (out) {
	case DP_OUT_NONEIGH:
		return DP_STAT_DROP_NONEIGH;
	case DP_OUT_MTU:
		return DP_STAT_DROP_MTU;
	default:
		return noroute;
	}
}

/* route.c */
enum dp_out dp_route_out(struct dp_priv *dp, struct sk_buff *skb,
			 struct dp_route_state *st);
int dp_route_hop(struct dp_priv *dp, struct dp_route_state *st,
		 struct dp_vctx *c, struct dp_hop *hop);
void dp_rmemo_flush(struct dp_priv *dp);

/*
 * A relay: what every frame from a port for another server goes through,
 * whatever its type (DATA, PROBE and PROBE_REPLY, SHORTCUT_DATA), in one
 * place: the type's checks and its routing state (@rx), a private header
 * (skb_cow_head()), the TTL (dp_ttl_relay(), renewal included), nothing
 * of its way in (dp_relay_scrub()), the type's next hop (@hop) and the
 * counters (forwarded, or the drop with its reason).  A frame type
 * differs only in its struct dp_relay_ops, a constant that dp_relay(),
 * always inline, is compiled with where the type is received (fwd.c for
 * DATA and SHORTCUT_DATA, probe.c for probes): its callbacks are direct
 * calls or inline, no frame pays for another type's (make bench), and a
 * probe goes from fwd.c to probe.c to route.c, as it did before the
 * relay was one.
 */
struct dp_relay_ops {
	/*
	 * Before anything is written: the type's checks, and the frame's
	 * routing state into @st.  False: the frame is consumed (dropped
	 * with its reason, or answered here).
	 */
	bool (*rx)(struct dp_priv *dp, struct sk_buff *skb,
		   struct dp_route_state *st, void *ctx);
	/*
	 * Optional: the TTL ran out.  True: consumed (a probe is answered);
	 * false, or none: dropped, drop_ttl.
	 */
	bool (*ttl_out)(struct dp_priv *dp, struct sk_buff *skb, void *ctx);
	/*
	 * The next hop, sent: DP_OUT_SENT (the skb is gone), DP_OUT_HOME (a
	 * key frame whose home is here: delivered), else why not (the skb
	 * is still the relay's, dropped with dp_out_stat(out, @noroute)).
	 */
	enum dp_out (*hop)(struct dp_priv *dp, struct sk_buff *skb,
			   struct dp_route_state *st, void *ctx);
	/* Optional: after such a drop (a probe is answered). */
	void (*lost)(struct dp_priv *dp, enum dp_out out, void *ctx);
	/* Optional: DP_OUT_HOME's delivery (without it: a drop, @noroute). */
	rx_handler_result_t (*home)(struct dp_priv *dp, struct sk_buff **pskb);
	/* The drop counter of a frame routing gave up on. */
	enum dp_stat noroute;
};

/*
 * A relayed frame leaves with nothing of its way in, as IP forwarding and
 * the bridge do: no receive timestamp (with any socket asking for
 * timestamps, e.g. chrony's, every received skb has one; an fq qdisc on
 * the way out reads it as a departure time, a realtime stamp far past its
 * horizon, and drops the frame), no mark and no priority of the receiving
 * host's, and no CHECKSUM_COMPLETE of a frame whose header the hop
 * rewrites (skb_forward_csum()).  dp_relay() only; this node's own frames
 * keep their socket's.
 */
static __always_inline void dp_relay_scrub(struct sk_buff *skb)
{
	skb_forward_csum(skb);
	skb_set_delivery_time(skb, 0, 0);
	skb->mark = 0;
	skb->priority = 0;
}

/* The one relay of every frame type: struct dp_relay_ops (softirq, RCU). */
static __always_inline rx_handler_result_t
dp_relay(struct dp_priv *dp, struct sk_buff **pskb,
	 const struct dp_relay_ops *ops, void *ctx)
{
	struct sk_buff *skb = *pskb;
	struct dp_route_state st;
	struct dpillar_hdr *h;
	enum dp_stat why;
	enum dp_out out;

	if (!ops->rx(dp, skb, &st, ctx))
		return RX_HANDLER_CONSUMED;
	/* Our copy of the header is about to change: make it private. */
	if (skb_cow_head(skb, ETH_HLEN)) {
		why = DP_STAT_DROP_NOMEM;
		goto drop;
	}
	h = (struct dpillar_hdr *)skb->data;
	/*
	 * TTL 1 or 0 is dropped, unless the topology renews it from a
	 * budget in its own header bits (S2 above 255 nodes: topo_s2.c);
	 * the renewed state goes out with the hop (dp_route_out()).
	 * Counted, not logged: any neighbour can send TTL 1, and a message
	 * per frame says nothing drop_ttl does not.
	 */
	if (!dp_ttl_relay(&dp->topo, &st, &h->ttl)) {
		if (ops->ttl_out && ops->ttl_out(dp, skb, ctx))
			return RX_HANDLER_CONSUMED;
		why = DP_STAT_DROP_TTL;
		goto drop;
	}
	dp_relay_scrub(skb);
	out = ops->hop(dp, skb, &st, ctx);
	if (likely(out == DP_OUT_SENT)) {
		dp_count(dp, DP_STAT_FORWARDED);
		return RX_HANDLER_CONSUMED;
	}
	if (ops->home && out == DP_OUT_HOME)
		return ops->home(dp, pskb);
	dp_drop(dp, skb, dp_out_stat(out, ops->noroute));
	if (ops->lost)
		ops->lost(dp, out, ctx);
	return RX_HANDLER_CONSUMED;

drop:
	dp_drop(dp, skb, why);
	return RX_HANDLER_CONSUMED;
}

/* fwd.c */
bool dp_ip4_to_node(const struct dp_priv *dp, __be32 daddr, u32 *node);
bool dp_ip6_to_node(const struct dp_priv *dp, const struct in6_addr *daddr,
		    u32 *node);
rx_handler_result_t dp_handle_frame(struct sk_buff **pskb);
netdev_tx_t dp_xmit(struct sk_buff *skb, struct net_device *dev);

/* gso.c */
void dp_gso_register(void);
void dp_gso_unregister(void);
#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_RPS)
/*
 * The receive hash GRO gives a data frame for RPS, from its inner flow
 * (@proto at @nhoff from skb->data), for the KUnit tests.
 */
void dp_gro_hash(struct sk_buff *skb, __be16 proto, int nhoff);
#endif

/* genl.c */
int dp_genl_register(void);
void dp_genl_unregister(void);
/* notify.c */
bool dp_notify_listened(const struct dp_priv *dp);
void dp_notify_neigh(struct dp_priv *dp, const struct dp_neigh_snap *n,
		     gfp_t gfp);
void dp_notify_port(struct dp_priv *dp, u32 index,
		    const struct dp_port_snap *snap);

#endif /* _DPILLAR_H */
