// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_init_ah_from_wc(3): "initializes the address handle (AH) attribute
 * structure ah_attr for the RDMA device context context using the port
 * number port_num, using attributes from the work completion wc and the
 * Global Routing Header (GRH) structure grh."  "returns 0 on success, and
 * -1 on error."  NOTES: "The filled structure ah_attr ... can be used to
 * create a new AH using ibv_create_ah()", i.e. an AH back to the sender.
 *
 * The man page names no field; what an answering AH holds is the IBA's
 * (9.6, 13.5.4): the sender's LID, SL and path bits from wc; with a GRH
 * (IBV_WC_GRH), the sender's GID as destination, sent from the local GID
 * the message was addressed to, with the GRH's traffic class, flow label
 * and hop limit.  On RoCE v2 over IPv4 the IPv4 header is in the last 20
 * bytes of the GRH and the first 20 are undefined (ibv_poll_cq(3)): IPv4
 * has no flow label, its TOS is the class and its TTL the hop limit.
 *
 * Rows build wc and grh by hand (pinning bit positions and byte order), or
 * take them from a real UD message the QP sent to itself.  Two rows change
 * the port's addresses between calls (an implementation that keeps the GID
 * table must see the change): an address added after a first call is
 * found at its new index, and one removed is no longer answered from.  The output is
 * the whole struct ibv_ah_attr; the documented fields are also checked one
 * by one against what the row sent, with the local GID index read from
 * sysfs.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../harness/device.h"

#include "verbs_res.h"

enum hdr { HDR_V6_UDP, HDR_V6_IB, HDR_V4, HDR_NONE };
enum dst { DST_OWN, DST_MCAST, DST_FOREIGN };

struct ahwc_row;
/* What a row does on its UD QP @r. */
typedef void ahwc_check(const struct ahwc_row *row, struct rc_ctx *ctx,
			struct vres *r);

struct ahwc_row {
	struct rc_case c;
	ahwc_check *check;
	enum hdr hdr;
	enum dst dst;
	uint8_t tclass;
	uint8_t hop;
	uint32_t flow;
	uint16_t slid;
	uint8_t sl;
	uint8_t path_bits;
	bool v4_lookalike; /* the sender GID puts 0x45 at GRH byte 20 */
};

static ahwc_check answers_built_grh, answers_own_message, follows_added_address,
	forgets_removed_address;

#define DOC_INIT                                                           \
	"ibv_init_ah_from_wc() initializes the address handle (AH) "       \
	"attribute structure ah_attr for the RDMA device context context " \
	"using the port number port_num, using attributes from the work "  \
	"completion wc and the Global Routing Header (GRH) structure grh."
#define DOC_ERR "ibv_init_ah_from_wc() returns 0 on success, and -1 on error."

#define AH_OK RC_RETURNS(0), .layout = &ah_attr_layout

static const struct rc_field fields[] = {
	{ "grh.dgid", 0, 16 },
	{ "grh.flow_label", 16, 4 },
	{ "grh.sgid_index", 20, 1 },
	{ "grh.hop_limit", 21, 1 },
	{ "grh.traffic_class", 22, 1 },
	{ "(padding)", 23, 1 },
	{ "dlid", 24, 2 },
	{ "sl", 26, 1 },
	{ "src_path_bits", 27, 1 },
	{ "static_rate", 28, 1 },
	{ "is_global", 29, 1 },
	{ "port_num", 30, 1 },
	{ "(padding)", 31, 1 },
};
BUILD_ASSERT(sizeof(struct ibv_ah_attr) == 32);

static const struct rc_layout ah_attr_layout = {
	.name = "struct ibv_ah_attr",
	.fields = fields,
	.nfields = ARRAY_SIZE(fields),
};

#define ID(i) .id = "verbs/init_ah_from_wc/" i

static const struct ahwc_row rows[] = {
	{ .c = { ID("ipv6-fields"), .doc = DOC_INIT,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_VERBS,
		 .note = "class 0x5a, flow 0x12345, hop 33, LID 0x1234, SL 5, path "
			 "bits 3: each lands in its field, host order",
		 .contract = { AH_OK } },
	  .check = answers_built_grh,
	  .hdr = HDR_V6_UDP,
	  .tclass = 0x5a,
	  .flow = 0x12345,
	  .hop = 33,
	  .slid = 0x1234,
	  .sl = 5,
	  .path_bits = 3 },
	{ .c = { ID("ipv6-max-values"), .doc = DOC_INIT,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_VERBS,
		 .note = "class 0xff, flow 0xfffff: no bit of one spills into "
			 "the other",
		 .contract = { AH_OK } },
	  .check = answers_built_grh,
	  .hdr = HDR_V6_UDP,
	  .tclass = 0xff,
	  .flow = 0xfffff,
	  .hop = 255,
	  .slid = 0xffff,
	  .sl = 15 },
	{ .c = { ID("ipv4-fields"), .doc = DOC_INIT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RoCE v2 over IPv4: TOS 0x28, TTL 17; the 20 undefined "
			 "bytes before the IPv4 header are 0xa5 and must not become "
			 "a flow label",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE, .contract = { AH_OK } },
	  .check = answers_built_grh,
	  .hdr = HDR_V4,
	  .tclass = 0x28,
	  .hop = 17,
	  .slid = 7 },
	{ .c = { ID("ipv6-sender-looks-like-ipv4"), .doc = DOC_INIT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .needs = NEEDS_VERBS | RC_NEED_ROCE,
		 .note = "an IPv6 header whose byte 20 (inside the sender's "
			 "GID) is 0x45, as an IPv4 header would start, but "
			 "without a valid IPv4 checksum: still IPv6",
		 .contract = { AH_OK } },
	  .check = answers_built_grh,
	  .hdr = HDR_V6_UDP,
	  .tclass = 0x11,
	  .flow = 0x777,
	  .hop = 9,
	  .v4_lookalike = true },
	{ .c = { ID("no-grh-flag"), .doc = DOC_INIT,
		 .basis = RC_BASIS_INTERPRETATION, .needs = NEEDS_VERBS,
		 .note = "without IBV_WC_GRH the grh buffer (filled with 0x66) is "
			 "not a header: no GRH fields, is_global 0",
		 .contract = { AH_OK } },
	  .check = answers_built_grh,
	  .hdr = HDR_NONE,
	  .slid = 0x22,
	  .sl = 2,
	  .path_bits = 1 },
	{ .c = { ID("ipv6-multicast-destination"), .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION, .needs = NEEDS_VERBS,
		 .note = "addressed to a multicast GID, which is no local GID to "
			 "answer from: read as an error, the page names none",
		 .contract = { RC_FAILS() } },
	  .check = answers_built_grh,
	  .hdr = HDR_V6_UDP,
	  .dst = DST_MCAST,
	  .hop = 1 },
	{ .c = { ID("ipv4-multicast-destination"), .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "addressed to 239.1.2.3: no local GID to answer from, "
			 "read as an error",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = answers_built_grh,
	  .hdr = HDR_V4,
	  .dst = DST_MCAST,
	  .hop = 1 },
	{ .c = { ID("destination-not-in-gid-table"), .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION, .needs = NEEDS_VERBS,
		 .note = "addressed to 2001:db8::99, not a GID of the port: no "
			 "source GID to answer from, read as an error",
		 .contract = { RC_FAILS() } },
	  .check = answers_built_grh,
	  .hdr = HDR_V6_UDP,
	  .dst = DST_FOREIGN },
	{ .c = { ID("ib-grh"), .doc = DOC_INIT, .basis = RC_BASIS_DOCUMENTED,
		 .note = "an InfiniBand GRH (next header 0x1b) to the port's GID",
		 .needs = NEEDS_VERBS | RC_NEED_IB, .contract = { AH_OK } },
	  .check = answers_built_grh,
	  .hdr = HDR_V6_IB,
	  .tclass = 0x10,
	  .flow = 0x42,
	  .hop = 1 },
	{ .c = { ID("real-ipv6-message"), .doc = DOC_INIT,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_VERBS,
		 .note = "the completion and GRH of a UD message the QP sent "
			 "itself from its IPv6 GID: the AH points back at that GID",
		 .contract = { AH_OK } },
	  .check = answers_own_message,
	  .hdr = HDR_V6_UDP },
	{ .c = { ID("real-ipv4-message"), .doc = DOC_INIT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same from the IPv4-mapped GID",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE, .contract = { AH_OK } },
	  .check = answers_own_message,
	  .hdr = HDR_V4 },
	{ .c = { ID("address-added-after-a-call"), .doc = DOC_INIT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after a first call, 2001:db8::42 is added to the port's "
			 "netdev: a GRH addressed to it is answered from its new "
			 "GID index",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE | RC_NEED_ROOT,
		 .shares = RC_SHARE_ALONE, .contract = { AH_OK } },
	  .check = follows_added_address,
	  .hdr = HDR_V6_UDP,
	  .hop = 3 },
	{ .c = { ID("address-removed-after-a-call"), .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "2001:db8::42 answered once, then removed from the "
			 "netdev: no longer a GID of the port, an error",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE | RC_NEED_ROOT,
		 .shares = RC_SHARE_ALONE, .contract = { RC_FAILS() } },
	  .check = forgets_removed_address,
	  .hdr = HDR_V6_UDP,
	  .hop = 3 },
};

static const uint8_t remote6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x77 };
/* GRH byte 20 is byte 12 of the sender's GID */
static const uint8_t remote45[16] = { 0x20, 0x01,	 0x0d,
				      0xb8, [12] = 0x45, [15] = 0x77 };
static const uint8_t foreign6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x99 };
static const uint8_t mcast6[16] = { 0xff, 0x0e, [12] = 0x0d, 0xb8, 0, 1 };
#define REMOTE4 0xc6336407u /* 198.51.100.7 */
#define MCAST4 0xef010203u /* 239.1.2.3 */

/* RFC 1071 checksum of the 20-byte IPv4 header at @h */
static uint16_t ip_csum(const uint8_t *h)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < 20; i += 2)
		sum += h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/* The GRH as the device would have written it; false: no local address. */
static bool build_grh(const struct ahwc_row *row, const struct vres *r,
		      uint8_t *g, uint32_t *flags)
{
	uint32_t vtf =
		htobe32(6u << 28 | (uint32_t)row->tclass << 20 | row->flow);
	uint8_t *ip = g + 20;
	uint16_t csum;
	uint32_t a;

	*flags = IBV_WC_GRH;
	switch (row->hdr) {
	case HDR_NONE:
		memset(g, 0x66, VRES_GRH);
		*flags = 0;
		return true;
	case HDR_V6_UDP:
	case HDR_V6_IB:
		if (r->gid6 < 0)
			return false;
		memcpy(g, &vtf, 4);
		g[4] = 0;
		g[5] = 64; /* payload length */
		g[6] = row->hdr == HDR_V6_UDP ? 17 : 0x1b;
		g[7] = row->hop;
		memcpy(g + 8, row->v4_lookalike ? remote45 : remote6, 16);
		memcpy(g + 24,
		       row->dst == DST_OWN   ? r->g6.raw :
		       row->dst == DST_MCAST ? mcast6 :
					       foreign6,
		       16);
		return true;
	case HDR_V4:
		if (r->gid4 < 0)
			return false;
		memset(g, 0xa5, 20);
		memset(ip, 0, 20);
		ip[0] = 0x45;
		ip[1] = row->tclass;
		ip[3] = 84; /* total length */
		ip[8] = row->hop;
		ip[9] = 17; /* UDP */
		a = htobe32(REMOTE4);
		memcpy(ip + 12, &a, 4);
		if (row->dst == DST_MCAST) {
			a = htobe32(MCAST4);
			memcpy(ip + 16, &a, 4);
		} else {
			memcpy(ip + 16, r->g4.raw + 12, 4);
		}
		csum = htobe16(ip_csum(ip));
		memcpy(ip + 10, &csum, 2);
		return true;
	}
	return false;
}
/* What the documented fields of an answering AH must hold. */
struct ah_want {
	uint8_t dgid[16];
	int sgid;
	/* the flow label, hop limit and class: the device's (recorded) */
	bool device_grh;
	uint32_t flow;
	uint8_t hop, tclass;
};

/* For a completion and GRH the row built: what the row sent. */
static void want_sent(const struct ahwc_row *row, const struct vres *r,
		      struct ah_want *w)
{
	memset(w, 0, sizeof(*w));
	if (row->hdr == HDR_V4) {
		memcpy(w->dgid + 10, "\xff\xff\xc6\x33\x64\x07", 6);
		w->sgid = r->gid4;
		w->hop = row->hop;
		w->tclass = row->tclass;
	} else if (row->hdr != HDR_NONE) {
		memcpy(w->dgid, row->v4_lookalike ? remote45 : remote6, 16);
		w->sgid = r->gid6;
		w->hop = row->hop;
		w->tclass = row->tclass;
		w->flow = row->flow;
	}
}

/* For the QP's message to itself: back to the GID it came from. */
static void want_own(const struct ahwc_row *row, const struct vres *r,
		     struct ah_want *w)
{
	memset(w, 0, sizeof(*w));
	memcpy(w->dgid, row->hdr == HDR_V4 ? r->g4.raw : r->g6.raw, 16);
	w->sgid = row->hdr == HDR_V4 ? r->gid4 : r->gid6;
	w->device_grh = true;
}

/* Each documented field against @w, in one message. */
static void check_fields(struct rc_ctx *ctx, const struct ahwc_row *row,
			 const struct vres *r, const struct ibv_wc *wc,
			 const struct ibv_ah_attr *a, const struct ah_want *w)
{
	uint32_t flow = w->device_grh ? a->grh.flow_label : w->flow;
	uint8_t hop = w->device_grh ? a->grh.hop_limit : w->hop;
	uint8_t tclass = w->device_grh ? a->grh.traffic_class : w->tclass;
	char msg[RC_REASON_MAX];
	int len = 0;
	bool global = row->hdr != HDR_NONE;

#define MISMATCH(cond, ...)                                           \
	do {                                                          \
		if ((cond) && len < (int)sizeof(msg))                 \
			len += snprintf(msg + len, sizeof(msg) - len, \
					"; " __VA_ARGS__);            \
	} while (0)
	MISMATCH(a->dlid != wc->slid, "dlid 0x%x, wc slid 0x%x", a->dlid,
		 wc->slid);
	MISMATCH(a->sl != wc->sl, "sl %u, wc sl %u", a->sl, wc->sl);
	MISMATCH(a->src_path_bits != wc->dlid_path_bits,
		 "src_path_bits %u, "
		 "wc dlid_path_bits %u",
		 a->src_path_bits, wc->dlid_path_bits);
	MISMATCH(a->port_num != r->port, "port_num %u", a->port_num);
	MISMATCH(a->is_global != global, "is_global %u", a->is_global);
	MISMATCH(memcmp(a->grh.dgid.raw, w->dgid, 16), "grh.dgid is not the "
						       "sender's GID");
	MISMATCH(a->grh.sgid_index != w->sgid,
		 "grh.sgid_index %u, the "
		 "addressed GID is %d",
		 a->grh.sgid_index, w->sgid);
	MISMATCH(a->grh.flow_label != flow, "grh.flow_label 0x%x, sent 0x%x",
		 a->grh.flow_label, flow);
	MISMATCH(a->grh.hop_limit != hop, "grh.hop_limit %u, sent %u",
		 a->grh.hop_limit, hop);
	MISMATCH(a->grh.traffic_class != tclass,
		 "grh.traffic_class 0x%x, "
		 "sent 0x%x",
		 a->grh.traffic_class, tclass);
#undef MISMATCH
	if (len)
		rc_obs_violation(ctx->obs, "%s", msg + 2);
}

/* A UD message from the QP to itself, from the GID of the row's family. */
static bool receive_own(struct rc_ctx *ctx, const struct ahwc_row *row,
			struct vres *r, struct ibv_wc *wc, uint8_t *grh)
{
	int idx = row->hdr == HDR_V4 ? r->gid4 : r->gid6;
	struct ibv_ah *ah;
	bool ok;

	ah = idx < 0 ? NULL :
		       vres_ah(r, idx, row->hdr == HDR_V4 ? &r->g4 : &r->g6);
	if (!ah) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no AH to the port's "
			     "own %s GID",
			     row->hdr == HDR_V4 ? "IPv4" : "IPv6");
		return false;
	}
	ok = vres_post_recv(ctx, r, 1) &&
	     vres_send(ctx, r, ah, r->qp->qp_num, 1) &&
	     vres_recv(ctx, r, VRES_WAIT_MS, wc, (struct ibv_grh *)grh, NULL) ==
		     1;
	ibv_destroy_ah(ah);
	if (!ok && ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the message to the "
			     "QP itself did not arrive");
	return ok && (wc->wc_flags & IBV_WC_GRH);
}

/*
 * Before the port's addresses change, a first call with the row's
 * completion and GRH: whatever is kept is kept now.  Then 2001:db8::42 is
 * added to the netdev (named in @dev) and the GRH addressed to it.  Its GID
 * index, or -1 with the row BROKEN.
 */
static int add_between_calls(struct rc_ctx *ctx, struct vres *r,
			     struct ibv_wc *wc, uint8_t *grh, char *dev,
			     size_t devlen)
{
	struct ibv_ah_attr warm;
	int idx, err;

	if (rc_sysfs_read(dev, devlen,
			  RC_SYSFS_IB "/%s/ports/%d/gid_attrs/"
				      "ndevs/%d",
			  ctx->target->ca, r->port, r->gid6)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no netdev for GID %d",
			     r->gid6);
		return -1;
	}
	ctx->ops->ibv_init_ah_from_wc(r->ctx, r->port, wc,
				      (struct ibv_grh *)grh, &warm);
	err = vres_change_address(ctx, dev, true);
	idx = err ? -2 : vres_wait_added_gid(ctx, r->port, true);
	if (idx < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "adding 2001:db8::42 "
			     "to %s: %s",
			     dev, err ? strerror(-err) : "no GID within 3 s");
		return -1;
	}
	memcpy(grh + 24, vres_added6, 16);
	return idx;
}

/* After add_between_calls, a call that answers from the added address,
 * which is then removed again; false (BROKEN) when its GID stays. */
static bool remove_between_calls(struct rc_ctx *ctx, struct vres *r,
				 struct ibv_wc *wc, uint8_t *grh,
				 const char *dev)
{
	struct ibv_ah_attr warm;
	int err;

	ctx->ops->ibv_init_ah_from_wc(r->ctx, r->port, wc,
				      (struct ibv_grh *)grh, &warm);
	err = vres_change_address(ctx, dev, false);
	if (err || vres_wait_added_gid(ctx, r->port, false) != -1) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "removing "
			     "2001:db8::42 from %s: %s",
			     dev, err ? strerror(-err) : "its GID stays");
		return false;
	}
	return true;
}

/* The completion and GRH the row describes, built by hand; false (BROKEN)
 * when the port has no GID of the row's family. */
static bool built(const struct ahwc_row *row, struct rc_ctx *ctx,
		  struct vres *r, struct ibv_wc *wc, uint8_t *grh)
{
	wc->slid = row->slid;
	wc->sl = row->sl;
	wc->dlid_path_bits = row->path_bits;
	wc->qp_num = r->qp->qp_num;
	wc->src_qp = 0x42;
	wc->opcode = IBV_WC_RECV;
	if (build_grh(row, r, grh, &wc->wc_flags))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "the port has no GID of the "
		     "row's family");
	return false;
}

/* The call under test into a filled @attr, recorded; true when it
 * returned 0. */
static bool observe_init(struct rc_ctx *ctx, struct vres *r, struct ibv_wc *wc,
			 uint8_t *grh, struct ibv_ah_attr *attr)
{
	/* a field the call leaves alone shows */
	memset(attr, 0xc3, sizeof(*attr));
	RC_OBSERVE(ctx,
		   ctx->ops->ibv_init_ah_from_wc(r->ctx, r->port, wc,
						 (struct ibv_grh *)grh, attr));
	if (ctx->obs->ret)
		return false;
	/* padding is not a field: both sides' bytes there are noise */
	((uint8_t *)attr)[23] = ((uint8_t *)attr)[31] = 0;
	rc_obs_out(ctx->obs, attr, sizeof(*attr));
	return true;
}

/* The call under test on @wc and @grh: each documented field of the AH
 * attributes it fills holds what @w says. */
static void answered(const struct ahwc_row *row, struct rc_ctx *ctx,
		     struct vres *r, struct ibv_wc *wc, uint8_t *grh,
		     const struct ah_want *w)
{
	struct ibv_ah_attr attr;

	if (observe_init(ctx, r, wc, grh, &attr))
		check_fields(ctx, row, r, wc, &attr, w);
}

static void answers_built_grh(const struct ahwc_row *row, struct rc_ctx *ctx,
			      struct vres *r)
{
	uint8_t grh[VRES_GRH];
	struct ibv_wc wc = {};
	struct ah_want w;

	want_sent(row, r, &w);
	if (built(row, ctx, r, &wc, grh))
		answered(row, ctx, r, &wc, grh, &w);
}

static void answers_own_message(const struct ahwc_row *row, struct rc_ctx *ctx,
				struct vres *r)
{
	uint8_t grh[VRES_GRH];
	struct ibv_wc wc = {};
	struct ah_want w;

	want_own(row, r, &w);
	if (receive_own(ctx, row, r, &wc, grh))
		answered(row, ctx, r, &wc, grh, &w);
}

static void follows_added_address(const struct ahwc_row *row,
				  struct rc_ctx *ctx, struct vres *r)
{
	char dev[IF_NAMESIZE + 1] = "";
	uint8_t grh[VRES_GRH];
	struct ibv_ah_attr attr;
	struct ibv_wc wc = {};
	int added;

	if (!built(row, ctx, r, &wc, grh))
		goto out;
	added = add_between_calls(ctx, r, &wc, grh, dev, sizeof(dev));
	if (added >= 0 && observe_init(ctx, r, &wc, grh, &attr) &&
	    attr.grh.sgid_index != added)
		rc_obs_violation(ctx->obs,
				 "grh.sgid_index %u, the added "
				 "address's GID is %d",
				 attr.grh.sgid_index, added);
out:
	if (dev[0])
		vres_change_address(ctx, dev, false);
}

static void forgets_removed_address(const struct ahwc_row *row,
				    struct rc_ctx *ctx, struct vres *r)
{
	char dev[IF_NAMESIZE + 1] = "";
	uint8_t grh[VRES_GRH];
	struct ibv_wc wc = {};
	struct ah_want w;

	want_sent(row, r, &w);
	if (built(row, ctx, r, &wc, grh) &&
	    add_between_calls(ctx, r, &wc, grh, dev, sizeof(dev)) >= 0 &&
	    remove_between_calls(ctx, r, &wc, grh, dev))
		answered(row, ctx, r, &wc, grh, &w);
	if (dev[0])
		vres_change_address(ctx, dev, false);
}

static void run(const void *rw, struct rc_ctx *ctx)
{
	const struct ahwc_row *row = rw;
	struct vres r;

	if (!rc_need_call(ctx, ctx->ops->ibv_init_ah_from_wc,
			  "ibv_init_ah_from_wc") ||
	    !vres_open(ctx, &r, IBV_QPT_UD))
		return;
	row->check(row, ctx, &r);
	vres_close(&r);
}

RC_TABLE_GROUP(group, "ibv_init_ah_from_wc", RC_CONV_M1_ERRNO, "verbs", rows,
	       run);
