// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_addr: the address parsers and formatters of every topology
 * (net/dpillar/topo.c and the topologies' addr_*), which take what dpctl,
 * rtnetlink (IFLA_DPILLAR_COLUMN/LABEL) and genetlink hand them.
 *
 * The input picks a fabric, then is used three ways: as text for
 * dp_addr_parse() (any bytes, NUL-terminated), as a column and symbols
 * for dp_addr_from_label(), and as an id and a buffer length for
 * dp_addr_format().  Whatever parses must be a node of the fabric and
 * round-trip: its text and its label parse back to the same id.  Buffers
 * are exactly the size given, so that ASan sees any overflow.
 */
#include "fuzz.h"
#include "topo.h"

#define FZ_LABEL_MAX	32	/* DPILLAR_LABEL_MAX */

static void fz_text(const struct dp_topo *t, const u8 *data, size_t size)
{
	char *text = malloc(size + 1), back[DP_ADDR_TEXT_MAX];
	const char *why = NULL;
	u32 id = DP_NODE_NONE, id2 = DP_NODE_NONE;
	int len;

	FZ_CHECK(text);
	memcpy(text, data, size);
	text[size] = 0;
	if (!dp_addr_parse(t, text, &id, &why)) {
		FZ_CHECK(dp_addr_valid(t, id));
		len = dp_addr_format(t, id, back, sizeof(back));
		FZ_CHECK(len > 0 && len < (int)sizeof(back));
		FZ_CHECK(!dp_addr_parse(t, back, &id2, &why));
		FZ_CHECK(id2 == id);
	} else {
		FZ_CHECK(why && *why);
	}
	free(text);
}

static void fz_label(const struct dp_topo *t, struct fz_in *in)
{
	u32 column = fz_u8(in) % 40, nsym = fz_u8(in) % 40, i, id, col2;
	u32 nsym2 = FZ_LABEL_MAX;
	u8 sym[40], sym2[FZ_LABEL_MAX];
	const char *why = NULL;

	for (i = 0; i < nsym; i++)
		sym[i] = fz_u8(in) & 0x1f;
	if (dp_addr_from_label(t, column, sym, nsym, &id, &why))
		return;
	FZ_CHECK(dp_addr_valid(t, id));
	FZ_CHECK(!dp_addr_to_label(t, id, &col2, sym2, &nsym2));
	FZ_CHECK(col2 == column && nsym2 == nsym);
	FZ_CHECK(!memcmp(sym, sym2, nsym));
}

static void fz_format(const struct dp_topo *t, struct fz_in *in)
{
	u32 id = fz_u32(in), blen = fz_u8(in);
	char *buf = malloc(blen ? blen : 1);
	int len;

	FZ_CHECK(buf);
	if (fz_u8(in) & 1)
		id %= t->nodes;
	len = dp_addr_format(t, id, buf, blen);
	if (!dp_addr_valid(t, id)) {
		FZ_CHECK(len == -EINVAL);
	} else {
		FZ_CHECK(len > 0 && len < DP_ADDR_TEXT_MAX);
		if (blen)
			FZ_CHECK(strlen(buf) ==
				 (size_t)(len < (int)blen ? len : (int)blen - 1));
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fz_in in = { data, size };
	struct dp_topo_params p = { 0 };
	const char *why = NULL;
	struct dp_topo t;

	p.kind = 1 + fz_u8(&in) % DP_TOPO_KIND_MAX;
	p.n = fz_u8(&in) % 33;
	p.k = fz_u8(&in) % 33;
	if (p.kind == DP_TOPO_XDCENT)
		p.level = fz_u8(&in) % 33;	/* XDCent's i */
	if (dp_topo_init(&t, &p, &why))
		return 0;
	fz_text(&t, in.p, in.left);
	fz_label(&t, &in);
	fz_format(&t, &in);
	return 0;
}
