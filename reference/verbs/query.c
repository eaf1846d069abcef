// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_device(3), ibv_query_device_ex(3), ibv_query_port(3),
 * ibv_query_pkey(3), ibv_get_pkey_index(3), ibv_query_rt_values_ex(3).
 *
 * The device's attributes are the kernel's answer to QUERY_DEVICE (the
 * extended command for ibv_query_device_ex), field for field.  Two are
 * not the kernel's as such: fw_ver is a string, the device's fw_ver
 * attribute in sysfs when the driver gives one, else the answer's 64-bit
 * fw_ver read as three 16-bit numbers major.minor.sub_minor (bits 47..0,
 * the packing drivers that print their version use); and the extended
 * attributes of providers' own (TSO, packet pacing, PCI atomic sizes,
 * RSS hash functions) are 0, having no kernel field.  A port's attributes
 * are the kernel's answer to UVERBS_METHOD_QUERY_PORT, which adds
 * port_cap_flags2 to the QUERY_PORT command's (the command is asked when
 * the ioctl is not there).  P_Keys are in sysfs only:
 * /sys/class/infiniband/<dev>/ports/<port>/pkeys/<index>.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "ref_verbs.h"
#include "objects.h"
#include "../common/sysfs.h"

BUILD_ASSERT(sizeof(struct ib_uverbs_query_device_resp) % 8 == 0);
BUILD_ASSERT(sizeof(struct ib_uverbs_ex_query_device_resp) % 8 == 0);
BUILD_ASSERT(sizeof(struct ib_uverbs_query_port_resp_ex) == 48);

static void fw_ver(struct ibv_context *context, uint64_t raw, char *out,
		   size_t len)
{
	if (!ref_sysfs_read(out, len, REF_SYS_IB "/%s/fw_ver",
			    context->device->name) &&
	    out[0])
		return;
	snprintf(out, len, "%u.%u.%u", (unsigned int)(raw >> 32) & 0xffff,
		 (unsigned int)(raw >> 16) & 0xffff,
		 (unsigned int)raw & 0xffff);
}

static void from_resp(struct ibv_context *context,
		      const struct ib_uverbs_query_device_resp *r,
		      struct ibv_device_attr *a)
{
	memset(a, 0, sizeof(*a));
	fw_ver(context, r->fw_ver, a->fw_ver, sizeof(a->fw_ver));
	/* both GUIDs are in network byte order on either side */
	a->node_guid = r->node_guid;
	a->sys_image_guid = r->sys_image_guid;
	a->max_mr_size = r->max_mr_size;
	a->page_size_cap = r->page_size_cap;
	a->vendor_id = r->vendor_id;
	a->vendor_part_id = r->vendor_part_id;
	a->hw_ver = r->hw_ver;
	a->max_qp = r->max_qp;
	a->max_qp_wr = r->max_qp_wr;
	a->device_cap_flags = r->device_cap_flags;
	a->max_sge = r->max_sge;
	a->max_sge_rd = r->max_sge_rd;
	a->max_cq = r->max_cq;
	a->max_cqe = r->max_cqe;
	a->max_mr = r->max_mr;
	a->max_pd = r->max_pd;
	a->max_qp_rd_atom = r->max_qp_rd_atom;
	a->max_ee_rd_atom = r->max_ee_rd_atom;
	a->max_res_rd_atom = r->max_res_rd_atom;
	a->max_qp_init_rd_atom = r->max_qp_init_rd_atom;
	a->max_ee_init_rd_atom = r->max_ee_init_rd_atom;
	a->atomic_cap = r->atomic_cap;
	a->max_ee = r->max_ee;
	a->max_rdd = r->max_rdd;
	a->max_mw = r->max_mw;
	a->max_raw_ipv6_qp = r->max_raw_ipv6_qp;
	a->max_raw_ethy_qp = r->max_raw_ethy_qp;
	a->max_mcast_grp = r->max_mcast_grp;
	a->max_mcast_qp_attach = r->max_mcast_qp_attach;
	a->max_total_mcast_qp_attach = r->max_total_mcast_qp_attach;
	a->max_ah = r->max_ah;
	a->max_fmr = r->max_fmr;
	a->max_map_per_fmr = r->max_map_per_fmr;
	a->max_srq = r->max_srq;
	a->max_srq_wr = r->max_srq_wr;
	a->max_srq_sge = r->max_srq_sge;
	a->max_pkeys = r->max_pkeys;
	a->local_ca_ack_delay = r->local_ca_ack_delay;
	a->phys_port_cnt = r->phys_port_cnt;
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_query_device(struct ibv_context *context,
			 struct ibv_device_attr *device_attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_device body;
	} cmd = {};
	struct ib_uverbs_query_device_resp resp = {};
	int err;

	if (!context || !device_attr)
		return ref_fail(EINVAL);
	cmd.body.response = (uintptr_t)&resp;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &cmd,
			sizeof(cmd), sizeof(resp));
	if (err)
		return ref_fail(err);
	from_resp(context, &resp, device_attr);
	return 0;
}

static void from_resp_ex(const struct ib_uverbs_ex_query_device_resp *r,
			 struct ibv_device_attr_ex *a)
{
	/* the answer's comp_mask names no field of struct ibv_device_attr_ex,
	 * and none of its bits is defined: 0 */
	a->comp_mask = 0;
	a->odp_caps.general_caps = r->odp_caps.general_caps;
	a->odp_caps.per_transport_caps.rc_odp_caps =
		r->odp_caps.per_transport_caps.rc_odp_caps;
	a->odp_caps.per_transport_caps.uc_odp_caps =
		r->odp_caps.per_transport_caps.uc_odp_caps;
	a->odp_caps.per_transport_caps.ud_odp_caps =
		r->odp_caps.per_transport_caps.ud_odp_caps;
	a->completion_timestamp_mask = r->timestamp_mask;
	a->hca_core_clock = r->hca_core_clock;
	a->device_cap_flags_ex = r->device_cap_flags_ex;
	a->rss_caps.supported_qpts = r->rss_caps.supported_qpts;
	a->rss_caps.max_rwq_indirection_tables =
		r->rss_caps.max_rwq_indirection_tables;
	a->rss_caps.max_rwq_indirection_table_size =
		r->rss_caps.max_rwq_indirection_table_size;
	a->max_wq_type_rq = r->max_wq_type_rq;
	a->raw_packet_caps = r->raw_packet_caps;
	a->tm_caps.max_rndv_hdr_size = r->tm_caps.max_rndv_hdr_size;
	a->tm_caps.max_num_tags = r->tm_caps.max_num_tags;
	a->tm_caps.flags = r->tm_caps.flags;
	a->tm_caps.max_ops = r->tm_caps.max_ops;
	a->tm_caps.max_sge = r->tm_caps.max_sge;
	a->cq_mod_caps.max_cq_count =
		r->cq_moderation_caps.max_cq_moderation_count;
	a->cq_mod_caps.max_cq_period =
		r->cq_moderation_caps.max_cq_moderation_period;
	a->max_dm_size = r->max_dm_size;
	a->xrc_odp_caps = r->xrc_odp_caps;
	/* the kernel counts ports in 8 bits: the extended count is that */
	a->phys_port_cnt_ex = a->orig_attr.phys_port_cnt;
}

/*
 * "returns 0 on success, or the value of errno on failure"; the input is
 * "used for future extensions": none is defined yet, so a comp_mask in it
 * asks for what does not exist (EINVAL).  A kernel without the extended
 * command gives the attributes of ibv_query_device(3) and zeros.
 */
int ref_ibv_query_device_ex(struct ibv_context *context,
			    const struct ibv_query_device_ex_input *input,
			    struct ibv_device_attr_ex *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_query_device body;
	} cmd = {};
	struct ib_uverbs_ex_query_device_resp resp = {};
	int err;

	if (!context || !attr || (input && input->comp_mask))
		return ref_fail(EINVAL);
	memset(attr, 0, sizeof(*attr));
	err = ref_write_ex(context->cmd_fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			   &cmd, sizeof(cmd.body), 0, &resp, sizeof(resp), 0);
	if (err == EOPNOTSUPP || err == ENOSYS)
		return ref_ibv_query_device(context, &attr->orig_attr);
	if (err)
		return ref_fail(err);
	from_resp(context, &resp.base, &attr->orig_attr);
	from_resp_ex(&resp, attr);
	return 0;
}

static void from_port_resp(const struct ib_uverbs_query_port_resp *r,
			   struct ibv_port_attr *a)
{
	a->state = r->state;
	a->max_mtu = r->max_mtu;
	a->active_mtu = r->active_mtu;
	a->gid_tbl_len = r->gid_tbl_len;
	a->port_cap_flags = r->port_cap_flags;
	a->max_msg_sz = r->max_msg_sz;
	a->bad_pkey_cntr = r->bad_pkey_cntr;
	a->qkey_viol_cntr = r->qkey_viol_cntr;
	a->pkey_tbl_len = r->pkey_tbl_len;
	a->lid = r->lid;
	a->sm_lid = r->sm_lid;
	a->lmc = r->lmc;
	a->max_vl_num = r->max_vl_num;
	a->sm_sl = r->sm_sl;
	a->subnet_timeout = r->subnet_timeout;
	a->init_type_reply = r->init_type_reply;
	a->active_width = r->active_width;
	a->active_speed = r->active_speed;
	a->phys_state = r->phys_state;
	/* IB_LINK_LAYER_* and IBV_LINK_LAYER_* share their values, as do
	 * IB_UVERBS_QPF_GRH_REQUIRED and IBV_QPF_GRH_REQUIRED */
	a->link_layer = r->link_layer;
	a->flags = r->flags;
}

static int query_port_cmd(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *a)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_port body;
	} cmd = {};
	struct ib_uverbs_query_port_resp resp = {};
	int err;

	cmd.body.response = (uintptr_t)&resp;
	cmd.body.port_num = port_num;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_QUERY_PORT, &cmd,
			sizeof(cmd), sizeof(resp));
	if (!err)
		from_port_resp(&resp, a);
	return err;
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr)
{
	struct ib_uverbs_query_port_resp_ex resp = {};
	struct ib_uverbs_attr a[] = {
		REF_ATTR_CONST(UVERBS_ATTR_QUERY_PORT_PORT_NUM, port_num),
		REF_ATTR(UVERBS_ATTR_QUERY_PORT_RESP, sizeof(resp), &resp),
	};
	int err;

	if (!context || !port_attr)
		return ref_fail(EINVAL);
	memset(port_attr, 0, sizeof(*port_attr));
	err = -ref_ioctl(context->cmd_fd, ref_ctx(context)->driver_id,
			 UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, a, 2);
	/* no ioctl interface, or no such method: the write command */
	if (err == ENOTTY || err == EPROTONOSUPPORT || err == EOPNOTSUPP)
		err = query_port_cmd(context, port_num, port_attr);
	else if (!err) {
		from_port_resp(&resp.legacy_resp, port_attr);
		port_attr->port_cap_flags2 = resp.port_cap_flags2;
	}
	return err ? ref_fail(err) : 0;
}

/*
 * "returns 0 on success, and -1 on error"; the page names no errno: it is
 * sysfs', ENOENT for an index or port that names no entry.
 */
int ref_ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index,
		       uint16_t *pkey)
{
	char buf[32];
	unsigned long v;
	char *end;
	int err;

	if (!context || !pkey || index < 0) {
		errno = EINVAL;
		return -1;
	}
	err = ref_sysfs_read(buf, sizeof(buf),
			     REF_SYS_IB "/%s/ports/%u/pkeys/%d",
			     context->device->name, port_num, index);
	if (err) {
		errno = -err;
		return -1;
	}
	v = strtoul(buf, &end, 0);
	if (end == buf || v > UINT16_MAX) {
		errno = EINVAL;
		return -1;
	}
	/* "returns the P_Key value (in network byte order)" */
	*pkey = htobe16(v);
	return 0;
}

/* "returns the P_Key index on success, and -1 on error"; a P_Key in no
 * entry leaves errno ENOENT, as the entry past the table does. */
int ref_ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num,
			   __be16 pkey)
{
	uint16_t entry;
	int i;

	for (i = 0; !ref_ibv_query_pkey(context, port_num, i, &entry); i++)
		if (entry == pkey)
			return i;
	return -1;
}

/*
 * "This extension verb only calls the provider, the provider has to query
 * this value somehow": no uverbs command or method reads a device's
 * clock, and neither rxe nor siw exposes one, so no provider of the
 * reference can.  "returns 0 on success, or the value of errno on
 * failure": EOPNOTSUPP.
 */
int ref_ibv_query_rt_values_ex(struct ibv_context *context,
			       struct ibv_values_ex *values)
{
	if (!context || !values)
		return ref_fail(EINVAL);
	return ref_fail(EOPNOTSUPP);
}

/*
 * ibv_query_port_speed(3), documented since rdma-core 62 (IBVERBS_1.16):
 * "the effective bandwidth of the port in 100Mb/s granularity".  Newer
 * kernels answer it themselves (UVERBS_METHOD_QUERY_PORT_SPEED of
 * UVERBS_OBJECT_DEVICE, after QUERY_GID_ENTRY in upstream's
 * kernel-headers/rdma/ib_user_ioctl_cmds.h; its attributes the port
 * number and a u64 answer).  Older ones give the port's link as the IBA
 * names it (ib_uverbs_query_port_resp: active_width, active_speed): our
 * reading of the effective bandwidth is then its lanes times the rate the
 * lane's speed is named by (SDR 2.5 Gb/s ... NDR 100 Gb/s; a faster
 * link shows NDR there, "if speed<XDR,NDR otherwise"), as enum
 * ibv_rate names a link's rate.
 */
#define REF_METHOD_QUERY_PORT_SPEED (UVERBS_METHOD_QUERY_GID_ENTRY + 1)
enum { REF_ATTR_PORT_SPEED_PORT_NUM, REF_ATTR_PORT_SPEED_RESP };

/* lanes of an active_width (IB_WIDTH_1X, 4X, 8X, 12X, 2X), 0: unknown */
static unsigned int lanes(uint8_t width)
{
	switch (width) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	}
	return 0;
}

/* a lane's rate of an active_speed (IB_SPEED_SDR ... NDR) in 100 Mb/s */
static unsigned int lane_rate(uint8_t speed)
{
	switch (speed) {
	case 1: /* SDR */
		return 25;
	case 2: /* DDR */
		return 50;
	case 4: /* QDR */
	case 8: /* FDR10 */
		return 100;
	case 16: /* FDR */
		return 140;
	case 32: /* EDR */
		return 250;
	case 64: /* HDR */
		return 500;
	case 128: /* NDR */
		return 1000;
	}
	return 0;
}

/* "Returns 0 on success, or the value of errno on failure" */
int ref_ibv_query_port_speed(struct ibv_context *context, uint32_t port_num,
			     uint64_t *port_speed)
{
	uint64_t speed = 0;
	struct ib_uverbs_attr a[] = {
		REF_ATTR_CONST(REF_ATTR_PORT_SPEED_PORT_NUM, port_num),
		REF_ATTR(REF_ATTR_PORT_SPEED_RESP, sizeof(speed), &speed),
	};
	struct ibv_port_attr pa;
	int err;

	if (!context || !port_speed || port_num > UINT8_MAX)
		return ref_fail(EINVAL);
	err = -ref_ioctl(context->cmd_fd, ref_ctx(context)->driver_id,
			 UVERBS_OBJECT_DEVICE, REF_METHOD_QUERY_PORT_SPEED, a,
			 2);
	if (!err) {
		*port_speed = speed;
		return 0;
	}
	if (err != ENOTTY && err != EPROTONOSUPPORT && err != EOPNOTSUPP)
		return ref_fail(err);
	err = ref_ibv_query_port(context, port_num, &pa);
	if (err)
		return ref_fail(err);
	*port_speed =
		(uint64_t)lanes(pa.active_width) * lane_rate(pa.active_speed);
	return 0;
}
