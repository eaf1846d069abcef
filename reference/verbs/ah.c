// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_init_ah_from_wc(3), ibv_create_ah_from_wc(3), ibv_create_ah(3),
 * ibv_destroy_ah(3).
 *
 * An AH for answering a received message: the sender's LID and SL from the
 * completion and, when the completion says a GRH was received
 * (IBV_WC_GRH), the sender's GID and the GRH's class, flow label and hop
 * limit, sent from the local GID the message was addressed to.  On RoCE v2
 * the 40 bytes of "GRH" hold an IPv6 header, or an IPv4 header in their
 * last 20 bytes; which one is decided as the kernel does it
 * (ib_get_rdma_header_version): an IPv4 header with a valid checksum wins,
 * since the first 20 bytes are not written for IPv4.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <rdma/ib_user_verbs.h>

#include "ref_verbs.h"
#include "objects.h"

#define NEXT_HDR_IB 0x1b /* IBA 8.3.1: the next header after a GRH */
#define GRH_IPV4_OFF 20 /* where an IPv4 header sits in the GRH */

/* the IPv4 header (RFC 791) as it sits in the receive buffer */
struct ipv4_hdr {
	uint8_t ver_ihl;
	uint8_t tos;
	uint16_t tot_len;
	uint16_t id;
	uint16_t frag;
	uint8_t ttl;
	uint8_t proto;
	uint16_t check;
	uint32_t saddr;
	uint32_t daddr;
};

static int fail(int err)
{
	errno = err;
	return -1;
}

/* RFC 1071: the ones' complement sum of a header with a valid checksum
 * is 0xffff */
static bool ipv4_checksum_ok(const struct ipv4_hdr *h)
{
	const uint8_t *p = (const uint8_t *)h;
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < sizeof(*h); i += 2)
		sum += p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

static int header_version(const struct ibv_grh *grh, const struct ipv4_hdr *ip4)
{
	bool v6 = (be32toh(grh->version_tclass_flow) >> 28) == 6;

	if (!v6)
		return (ip4->ver_ihl >> 4) == 4 ? 4 : -1;
	if ((ip4->ver_ihl >> 4) == 4 && (ip4->ver_ihl & 0xf) == 5 &&
	    ipv4_checksum_ok(ip4))
		return 4;
	return 6;
}

static void v4_mapped(uint32_t addr_be, uint8_t gid[16])
{
	memset(gid, 0, 10);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, &addr_be, 4);
}

int ref_ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			    struct ibv_wc *wc, struct ibv_grh *grh,
			    struct ibv_ah_attr *ah_attr)
{
	const char *dev;
	struct ipv4_hdr ip4;
	uint8_t local[16];
	uint32_t vtf;
	int idx;

	if (!context || !wc || !ah_attr)
		return fail(EINVAL);
	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->dlid = wc->slid;
	ah_attr->sl = wc->sl;
	ah_attr->src_path_bits = wc->dlid_path_bits;
	ah_attr->port_num = port_num;
	/* without a GRH there is nothing else to answer with */
	if (!(wc->wc_flags & IBV_WC_GRH))
		return 0;
	if (!grh)
		return fail(EINVAL);
	dev = context->device->name;
	ah_attr->is_global = 1;
	memcpy(&ip4, (const uint8_t *)grh + GRH_IPV4_OFF, sizeof(ip4));
	vtf = be32toh(grh->version_tclass_flow);
	switch (ref_port_is_roce(dev, port_num) ? header_version(grh, &ip4) :
						  6) {
	case 4:
		/* a multicast destination is no GID of ours to answer from */
		if ((be32toh(ip4.daddr) >> 28) == 0xe)
			return fail(EINVAL);
		v4_mapped(ip4.daddr, local);
		idx = ref_gid_find(context->cmd_fd, dev, port_num, local,
				   REF_GID_ROCE_V2);
		if (idx < 0)
			return fail(-idx);
		v4_mapped(ip4.saddr, ah_attr->grh.dgid.raw);
		ah_attr->grh.sgid_index = idx;
		ah_attr->grh.hop_limit = ip4.ttl;
		ah_attr->grh.traffic_class = ip4.tos;
		return 0;
	case 6:
		if (grh->dgid.raw[0] == 0xff)
			return fail(EINVAL);
		if (grh->next_hdr != IPPROTO_UDP &&
		    grh->next_hdr != NEXT_HDR_IB)
			return fail(EPROTONOSUPPORT);
		idx = ref_gid_find(context->cmd_fd, dev, port_num,
				   grh->dgid.raw,
				   grh->next_hdr == IPPROTO_UDP ?
					   REF_GID_ROCE_V2 :
					   REF_GID_IB_ROCE_V1);
		if (idx < 0)
			return fail(-idx);
		ah_attr->grh.dgid = grh->sgid;
		ah_attr->grh.sgid_index = idx;
		ah_attr->grh.flow_label = vtf & 0xfffff;
		ah_attr->grh.traffic_class = (vtf >> 20) & 0xff;
		ah_attr->grh.hop_limit = grh->hop_limit;
		return 0;
	}
	return fail(EPROTONOSUPPORT);
}

struct ibv_ah *ref_ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc,
					 struct ibv_grh *grh, uint8_t port_num)
{
	struct ibv_ah_attr attr;

	if (!pd)
		return errno = EINVAL, NULL;
	if (ref_ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr))
		return NULL;
	return ref_ibv_create_ah(pd, &attr);
}

/* The field-by-field copies between libibverbs' struct and the kernel's
 * (create AH, and the AH attributes of an rdma_cm UD event). */
void ref_ah_attr_to_uverbs(const struct ibv_ah_attr *attr,
			   struct ib_uverbs_ah_attr *a)
{
	memcpy(a->grh.dgid, attr->grh.dgid.raw, 16);
	a->grh.flow_label = attr->grh.flow_label;
	a->grh.sgid_index = attr->grh.sgid_index;
	a->grh.hop_limit = attr->grh.hop_limit;
	a->grh.traffic_class = attr->grh.traffic_class;
	a->dlid = attr->dlid;
	a->sl = attr->sl;
	a->src_path_bits = attr->src_path_bits;
	a->static_rate = attr->static_rate;
	a->is_global = attr->is_global;
	a->port_num = attr->port_num;
}

void ref_ah_attr_from_uverbs(const struct ib_uverbs_ah_attr *a,
			     struct ibv_ah_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	memcpy(attr->grh.dgid.raw, a->grh.dgid, 16);
	attr->grh.flow_label = a->grh.flow_label;
	attr->grh.sgid_index = a->grh.sgid_index;
	attr->grh.hop_limit = a->grh.hop_limit;
	attr->grh.traffic_class = a->grh.traffic_class;
	attr->dlid = a->dlid;
	attr->sl = a->sl;
	attr->src_path_bits = a->src_path_bits;
	attr->static_rate = a->static_rate;
	attr->is_global = a->is_global;
	attr->port_num = a->port_num;
}

/*
 * On the reference's own context, the provider's part of the command too
 * (rxe answers with its ah_num, which its UD send WQEs name): the AH is a
 * struct ref_ah.  A context of libibverbs' gets the core command only.
 */
struct ibv_ah *ref_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_ah body;
	} cmd = {};
	struct {
		struct ib_uverbs_create_ah_resp core;
		/* right after the core's 4 bytes */
		uint32_t drv[2 * REF_UDATA_WORDS];
	} resp = {};
	const struct ref_provider *prov = NULL;
	struct ref_context *own;
	struct ref_udata u = {};
	struct ref_ah *ah;
	const char *dev;
	int err;

	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	if (!pd || !attr)
		return errno = EINVAL, NULL;
	dev = pd->context->device->name;
	/* a port the device has: one with a GID table */
	if (!attr->port_num || ref_gid_table_size(dev, attr->port_num) <= 0)
		return errno = EINVAL, NULL;
	/* ibv_create_ah(3), NOTES: a port that requires a GRH (RoCE) */
	if (!attr->is_global && ref_port_is_roce(dev, attr->port_num))
		return errno = EINVAL, NULL;
	if (attr->is_global &&
	    attr->grh.sgid_index >= ref_gid_table_size(dev, attr->port_num))
		return errno = EINVAL, NULL;
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;
	own = ref_ctx_own(pd->context);
	if (own)
		prov = own->prov;
	if (prov && prov->ah_in)
		prov->ah_in(&u);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.user_handle = (uintptr_t)ah;
	cmd.body.pd_handle = pd->handle;
	ref_ah_attr_to_uverbs(attr, &cmd.body.attr);
	err = ref_write(pd->context->cmd_fd, IB_USER_VERBS_CMD_CREATE_AH, &cmd,
			sizeof(cmd), sizeof(resp.core) + u.out_len);
	if (err) {
		free(ah);
		return errno = err, NULL;
	}
	ah->ah.context = pd->context;
	ah->ah.pd = pd;
	ah->ah.handle = resp.core.ah_handle;
	memcpy(u.out, resp.drv, u.out_len);
	if (prov && prov->ah_done) {
		err = prov->ah_done(ah, &u);
		if (err) {
			ref_ibv_destroy_ah(&ah->ah);
			return errno = err, NULL;
		}
	}
	return &ah->ah;
}

int ref_ibv_destroy_ah(struct ibv_ah *ah)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_ah body;
	} cmd = {};
	int err;

	if (!ah)
		return EINVAL;
	cmd.body.ah_handle = ah->handle;
	/* "returns 0 on success, or the value of errno on failure" */
	err = ref_write(ah->context->cmd_fd, IB_USER_VERBS_CMD_DESTROY_AH, &cmd,
			sizeof(cmd), 0);
	if (err)
		return errno = err;
	free(ah);
	return 0;
}

static int mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid,
		 uint32_t command)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_attach_mcast body;
	} cmd = {};
	int err;

	_Static_assert(sizeof(struct ib_uverbs_attach_mcast) ==
			       sizeof(struct ib_uverbs_detach_mcast),
		       "same layout");
	if (!qp || !gid)
		return errno = EINVAL;
	/* "Only QPs of Transport Service Type IBV_QPT_UD may be attached" */
	if (qp->qp_type != IBV_QPT_UD)
		return errno = EINVAL;
	memcpy(cmd.body.gid, gid->raw, 16);
	cmd.body.qp_handle = qp->handle;
	cmd.body.mlid = lid;
	err = ref_write(qp->context->cmd_fd, command, &cmd, sizeof(cmd), 0);
	return err ? (errno = err) : 0;
}

int ref_ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid)
{
	return mcast(qp, gid, lid, IB_USER_VERBS_CMD_ATTACH_MCAST);
}

int ref_ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid)
{
	return mcast(qp, gid, lid, IB_USER_VERBS_CMD_DETACH_MCAST);
}
