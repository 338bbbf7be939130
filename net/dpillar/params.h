/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - the parameters of a fabric, one line each (DP_PARAM_LIST),
 * and the X-macros made of the list: struct dp_topo_params' fields, the
 * DP_PARAM_* enumerators and struct dp_param (topo.h, topo.c), the
 * topologies' table entries (DP_TOPO_PARAM), and the netlink policy
 * entries of both families (rtnl.c, genl.c).  The X-macros take a line's
 * five words whether they use them or not, which checkpatch's macro checks
 * do not fit: scripts/checkpatch.sh turns those off for this file only,
 * so they live here and nowhere else.  Shared, as topo.h, by the module
 * and the tools (tools/common/dp_linkargs.c parses and prints the words
 * from dp_params[]); scripts/spec-check.py reads the list to compare the
 * genetlink policy with the spec.
 */
#ifndef _DP_PARAMS_H
#define _DP_PARAMS_H

/* u32 parameter without a bound (the tools' U32 limit, the kernel's) */
#define DP_PARAM_NOMAX		0xffffffffU

/* struct dp_topo_param.flags, the list's (DP_PARAM_LIST) */
#define DP_PARAM_ZERO	0x01	/* a value even when 0 (a seed): always shown */
#define DP_PARAM_COORDS	0x02	/* the u32 array coords[ncoords], not a u32 */

/*
 * The parameters of a fabric, one line each: the only list of them.
 * struct dp_topo_params (topo.h), both netlink policies (rtnl.c, genl.c), the parse and the
 * fills (settings.c, genl_dev.c) and the tools' one parser and printer
 * (tools/common/dp_linkargs.c) come from it; a topology's table
 * (struct dp_topo_ops.params) says which it takes.  A new parameter is its
 * line here and its attributes IFLA_DPILLAR_@ATTR and DPILLAR_A_DEV_@ATTR
 * in the UAPI (and the spec, which spec-check holds to the UAPI).
 *
 *	U(word, ATTR, min, max, flags) - a u32, field @word of
 *		struct dp_topo_params, 0 "not given" unless DP_PARAM_ZERO
 *	C(word, ATTR, min, max, flags) - the coordinates, min..max u32s
 *
 * @word is its name in dpctl, ip and dpsim; @min..@max its range, checked
 * by the policies (with DP_PARAM_NOMAX: no bound; a bound fits an s16) and
 * by the tools with the same words; the topology's init checks the rest.
 * Keep C last: struct dp_topo_params puts the u32s first.
 */
#define DP_PARAM_LIST(U, C)						\
	U(n,		N,	0, DP_PARAM_NOMAX,	0)			\
	U(k,		K,	0, DP_PARAM_NOMAX,	0)			\
	U(level,	LEVEL,	0, DP_PARAM_NOMAX,	0)			\
	U(spaces,	SPACES,	1, DP_COORDS_MAX,	DP_PARAM_ZERO)		\
	U(nodes,	NODES,	1, DP_PARAM_NOMAX,	0)			\
	U(seed,		SEED,	0, DP_PARAM_NOMAX,	DP_PARAM_ZERO)		\
	C(coords,	COORDS,	1, DP_COORDS_MAX,	DP_PARAM_COORDS)

#define DP_PARAM_FIELD_U32(w, A, lo, hi, fl)	u32 w;
#define DP_PARAM_FIELD_COORDS(w, A, lo, hi, fl)	u32 n##w; u32 w[hi];

/* enum DP_PARAM_ID_<word>, and the attributes and flags of each (topo.h). */
#define DP_PARAM_ENUM_ID(w, A, lo, hi, fl)	DP_PARAM_ID_##w,
#define DP_PARAM_ENUM_ATTR(w, A, lo, hi, fl)				\
	DP_PARAM_IFLA_##w = IFLA_DPILLAR_##A,				\
	DP_PARAM_GENL_##w = DPILLAR_A_DEV_##A, DP_PARAM_FLAGS_##w = (fl),
/*
 * An entry of a topology's table: parameter @w of DP_PARAM_LIST, with the
 * topology's @flags and @only message.
 */
#define DP_TOPO_PARAM(w, flags, only)					\
	{ #w, DP_PARAM_IFLA_##w, DP_PARAM_GENL_##w,			\
	  offsetof(struct dp_topo_params, w), (flags) | DP_PARAM_FLAGS_##w, \
	  DP_PARAM_ID_##w, only }

/* dp_params[] (topo.c) */
#define DP_PARAM_DEF(w, A, lo, hi, fl)					\
	[DP_PARAM_ID_##w] = { #w, IFLA_DPILLAR_##A, DPILLAR_A_DEV_##A,	\
			      offsetof(struct dp_topo_params, w), fl, lo, hi },

/*
 * The netlink policy of a parameter (DP_PARAM_LIST): its range, as the
 * policy's s16 bounds can hold it; DP_PARAM_NOMAX: none.  As the spec's
 * checks render: a min and a max, a max alone, a min alone, or none.
 */
#define DP_PARAM_NLA_U32(lo, hi) {					\
	.type = NLA_U32,						\
	.validation_type = (hi) != DP_PARAM_NOMAX ?			\
			   ((lo) ? NLA_VALIDATE_RANGE : NLA_VALIDATE_MAX) :	\
			   ((lo) ? NLA_VALIDATE_MIN : NLA_VALIDATE_NONE),	\
	.min = (lo) + BUILD_BUG_ON_ZERO((lo) > S16_MAX),		\
	.max = ((hi) == DP_PARAM_NOMAX ? 0 : (hi)) +			\
	       BUILD_BUG_ON_ZERO((hi) != DP_PARAM_NOMAX && (hi) > S16_MAX) }
#define DP_PARAM_NLA_COORDS(lo, hi)					\
	NLA_POLICY_RANGE(NLA_BINARY, (lo) * sizeof(u32), (hi) * sizeof(u32))

/* Policy entries of every parameter, rtnetlink's and genetlink's. */
#define DP_PARAM_POLICY_IFLA_U(w, A, lo, hi, fl)			\
	[IFLA_DPILLAR_##A] = DP_PARAM_NLA_U32(lo, hi),
#define DP_PARAM_POLICY_IFLA_C(w, A, lo, hi, fl)			\
	[IFLA_DPILLAR_##A] = DP_PARAM_NLA_COORDS(lo, hi),
#define DP_PARAM_POLICY_IFLA						\
	DP_PARAM_LIST(DP_PARAM_POLICY_IFLA_U, DP_PARAM_POLICY_IFLA_C)
#define DP_PARAM_POLICY_GENL_U(w, A, lo, hi, fl)			\
	[DPILLAR_A_DEV_##A] = DP_PARAM_NLA_U32(lo, hi),
#define DP_PARAM_POLICY_GENL_C(w, A, lo, hi, fl)			\
	[DPILLAR_A_DEV_##A] = DP_PARAM_NLA_COORDS(lo, hi),
#define DP_PARAM_POLICY_GENL						\
	DP_PARAM_LIST(DP_PARAM_POLICY_GENL_U, DP_PARAM_POLICY_GENL_C)

#endif /* _DP_PARAMS_H */
