// SPDX-License-Identifier: GPL-2.0
/* dpctl: IP prefixes, destinations and settings of a fabric. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dpillar.h>

#include "dpctl.h"
#include "fabric.h"
#include "topo_dpillar.h"

void fabric_pfx_default(struct fabric_pfx *p)
{
	static const u8 ip6[16] = { 0xfd, 0x64, 0x70, 0x69, 0x6c, 0x6c,
				    0x61, 0x72 };	/* fd64:"pillar" */

	p->ip4.s_addr = htonl(0x0a000000);
	p->ip4_len = 8;
	memcpy(&p->ip6, ip6, sizeof(ip6));
}

void fabric_pfx_text(const struct fabric_pfx *p, char *ip4, char *ip6)
{
	char a4[INET_ADDRSTRLEN], a6[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET, &p->ip4, a4, sizeof(a4));
	snprintf(ip4, FABRIC_IP4_TEXT, "%s/%u", a4, p->ip4_len & 63);
	inet_ntop(AF_INET6, &p->ip6, a6, sizeof(a6));
	snprintf(ip6, FABRIC_IP6_TEXT, "%s/96", a6);
}

static u32 ip4_host_mask(const struct fabric_pfx *p)
{
	return p->ip4_len ? 0xffffffffu >> p->ip4_len : 0xffffffffu;
}

bool fabric_ip4(const struct fabric_pfx *p, u32 id, char *buf)
{
	struct in_addr a;

	if (id > ip4_host_mask(p))
		return false;
	a.s_addr = htonl((ntohl(p->ip4.s_addr) & ~ip4_host_mask(p)) | id);
	inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN);
	return true;
}

void fabric_key6_text(const struct fabric_pfx *p, char *buf)
{
	char a6[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, &p->key6, a6, sizeof(a6));
	snprintf(buf, FABRIC_IP6_TEXT, "%s/96", a6);
}

void fabric_key6(const struct fabric_pfx *p, u32 kid, char *buf)
{
	struct in6_addr a = p->key6;

	a.s6_addr32[3] = htonl(kid);
	inet_ntop(AF_INET6, &a, buf, INET6_ADDRSTRLEN);
}

void fabric_ip6(const struct fabric_pfx *p, u32 id, char *buf)
{
	struct in6_addr a = p->ip6;
	u32 be = htonl(id);

	memcpy(&a.s6_addr[12], &be, 4);
	inet_ntop(AF_INET6, &a, buf, INET6_ADDRSTRLEN);
}

int dest_parse(const char *text, struct dest *d)
{
	const char *why, *p;
	u8 sym[DPP_MAX_K];
	u32 v, nsym;

	memset(d, 0, sizeof(*d));
	if (inet_pton(AF_INET6, text, &d->ip6) == 1) {
		d->kind = DEST_IP6;
	} else if (inet_pton(AF_INET, text, &d->ip4) == 1) {
		d->kind = DEST_IP4;
	} else if (!parse_u32(text, &d->id)) {
		d->kind = DEST_ID;
	} else if (*text == '#') {
		/* "#<node id>", any topology: checked by dp_addr_parse() */
		p = text + 1;
		if (dp_parse_dec(&p, 0xffffffffU, &v) || *p)
			return usage_error("invalid address \"%s\": #<node id> "
					   "wants a decimal node id", text);
		d->text = text;
		d->kind = DEST_ADDR;
	} else if (strchr(text, ':')) {
		/*
		 * The C:v.v.v form (DPillar's): its syntax now, so that a
		 * typo fails before the kernel is asked; the values once
		 * the fabric is known.
		 */
		if (dpp_addr_parse_raw(text, &v, sym, &nsym, &why))
			return usage_error("invalid address \"%s\": %s", text,
					   why);
		d->text = text;
		d->kind = DEST_ADDR;
	} else if (strchr(text, '.') &&
		   strspn(text, "0123456789.") == strlen(text)) {
		/*
		 * Dotted digits that are no IPv4 address: DCell's
		 * a_k.....a_0, checked once the fabric is known.  (With
		 * k = 3 it has four parts and reads as IPv4: use #ID.)
		 */
		d->text = text;
		d->kind = DEST_ADDR;
	} else {
		return usage_error("\"%s\" is neither a fabric address (C:v.v, "
				   "a.b.c or #ID), a node id nor an IP address",
				   text);
	}
	return 0;
}

int dest_node(const struct dest *d, const struct dp_topo *t,
	      const struct fabric_pfx *p, const char *text, u32 *id)
{
	const char *why = "not in the fabric's prefix";
	char name[64];
	u32 host;

	switch (d->kind) {
	case DEST_ADDR:
		if (dp_addr_parse(t, d->text, id, &why))
			goto bad;
		return 0;
	case DEST_ID:
		*id = d->id;
		why = "no such node id";
		break;
	case DEST_IP4:
		host = ntohl(d->ip4.s_addr);
		if ((host & ~ip4_host_mask(p)) !=
		    (ntohl(p->ip4.s_addr) & ~ip4_host_mask(p)))
			goto bad;
		*id = host & ip4_host_mask(p);
		break;
	case DEST_IP6:
		if (memcmp(&d->ip6, &p->ip6, 12))
			goto bad;
		memcpy(&host, &d->ip6.s6_addr[12], 4);
		*id = ntohl(host);
		break;
	}
	if (dp_addr_valid(t, *id))
		return 0;
	why = "no such node in the fabric";
bad:
	dp_topo_describe(t, name, sizeof(name));
	return usage_error("%s: %s (%s)", text, why, name);
}
