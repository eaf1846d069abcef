// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke: the device list and each device's names and GUID; a
 * context's attributes: ibv_query_device(_ex), ibv_query_port of every
 * port, the P_Key table, ibv_query_rt_values_ex, and fork support.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "smoke.h"

void walk_devices(struct side *s)
{
	const struct rc_ops *o = s->ops;
	struct ibv_device **list, **again;
	char names[512] = "";
	int n = -1, i, m = -1;

	snprintf(s->dev, sizeof(s->dev), "list");
	errno = 0;
	list = o->ibv_get_device_list(&n);
	if (!require(s, list, "ibv_get_device_list: NULL, %s", errname(errno)))
		return;
	for (i = 0; list[i]; i++) {
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", i ? " " : "", o->ibv_get_device_name(list[i]));
	}
	/* "if not NULL, it is set to the number of devices returned in the
	 * array" */
	require(s, n == i, "num_devices %d, the array holds %d", n, i);
	see(s, "count", "%d", n);
	see(s, "names", "%s", names);
	for (i = 0; list[i]; i++) {
		struct ibv_device *d = list[i];

		snprintf(s->dev, sizeof(s->dev), "%s", d->name);
		see(s, "device/name", "%s", o->ibv_get_device_name(d));
		see(s, "device/guid", "%016" PRIx64,
		    be64toh(o->ibv_get_device_guid(d)));
		see(s, "device/index", "%d", o->ibv_get_device_index(d));
		see(s, "device/node_type", "%d", d->node_type);
		/* the pages fix no wording: the unit tests judge names */
		note(s, "device/node_type_str", "%s",
		     o->ibv_node_type_str(d->node_type));
		see(s, "device/transport_type", "%d", d->transport_type);
		see(s, "device/dev_name", "%s", d->dev_name);
		see(s, "device/dev_path", "%s", d->dev_path);
		see(s, "device/ibdev_path", "%s", d->ibdev_path);
	}
	/* a second list while the first is held names the same devices */
	again = o->ibv_get_device_list(&m);
	snprintf(s->dev, sizeof(s->dev), "list");
	if (require(s, again, "second ibv_get_device_list: NULL"))
		see(s, "count-again", "%d", m);
	if (again)
		o->ibv_free_device_list(again);
	o->ibv_free_device_list(list);
}

/* The context of device @name, the list freed: "Once it frees the array
 * with ibv_free_device_list(), it will be able to use only the open
 * devices". */
struct ibv_context *open_by_name(struct side *s, const char *name)
{
	const struct rc_ops *o = s->ops;
	struct ibv_device **list = o->ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(o->ibv_get_device_name(list[i]), name)) {
			errno = 0;
			ctx = o->ibv_open_device(list[i]);
			require(s, ctx, "ibv_open_device(%s): NULL, %s", name,
				errname(errno));
		}
	if (list)
		o->ibv_free_device_list(list);
	return ctx;
}

static void see_device_attr(struct side *s, const char *p,
			    const struct ibv_device_attr *a)
{
	char k[64];

#define SEE(f, fmt) (snprintf(k, sizeof(k), "%s/" #f, p), see(s, k, fmt, a->f))
	SEE(fw_ver, "%s");
	snprintf(k, sizeof(k), "%s/node_guid", p);
	see(s, k, "%016" PRIx64, be64toh(a->node_guid));
	snprintf(k, sizeof(k), "%s/sys_image_guid", p);
	see(s, k, "%016" PRIx64, be64toh(a->sys_image_guid));
	SEE(max_mr_size, "%#" PRIx64);
	SEE(page_size_cap, "%#" PRIx64);
	SEE(vendor_id, "%#x");
	SEE(vendor_part_id, "%u");
	SEE(hw_ver, "%#x");
	SEE(max_qp, "%d");
	SEE(max_qp_wr, "%d");
	SEE(device_cap_flags, "%#x");
	SEE(max_sge, "%d");
	SEE(max_sge_rd, "%d");
	SEE(max_cq, "%d");
	SEE(max_cqe, "%d");
	SEE(max_mr, "%d");
	SEE(max_pd, "%d");
	SEE(max_qp_rd_atom, "%d");
	SEE(max_ee_rd_atom, "%d");
	SEE(max_res_rd_atom, "%d");
	SEE(max_qp_init_rd_atom, "%d");
	SEE(max_ee_init_rd_atom, "%d");
	SEE(atomic_cap, "%d");
	SEE(max_ee, "%d");
	SEE(max_rdd, "%d");
	SEE(max_mw, "%d");
	SEE(max_raw_ipv6_qp, "%d");
	SEE(max_raw_ethy_qp, "%d");
	SEE(max_mcast_grp, "%d");
	SEE(max_mcast_qp_attach, "%d");
	SEE(max_total_mcast_qp_attach, "%d");
	SEE(max_ah, "%d");
	SEE(max_fmr, "%d");
	SEE(max_map_per_fmr, "%d");
	SEE(max_srq, "%d");
	SEE(max_srq_wr, "%d");
	SEE(max_srq_sge, "%d");
	SEE(max_pkeys, "%u");
	SEE(local_ca_ack_delay, "%u");
	SEE(phys_port_cnt, "%u");
#undef SEE
}

static void see_device_attr_ex(struct side *s,
			       const struct ibv_device_attr_ex *a)
{
#define SEE(f, fmt) see(s, "query_device_ex/" #f, fmt, a->f)
	SEE(comp_mask, "%#x");
	SEE(odp_caps.general_caps, "%#" PRIx64);
	SEE(odp_caps.per_transport_caps.rc_odp_caps, "%#x");
	SEE(odp_caps.per_transport_caps.uc_odp_caps, "%#x");
	SEE(odp_caps.per_transport_caps.ud_odp_caps, "%#x");
	SEE(completion_timestamp_mask, "%#" PRIx64);
	SEE(hca_core_clock, "%" PRIu64);
	SEE(device_cap_flags_ex, "%#" PRIx64);
	SEE(tso_caps.max_tso, "%u");
	SEE(tso_caps.supported_qpts, "%#x");
	SEE(rss_caps.supported_qpts, "%#x");
	SEE(rss_caps.max_rwq_indirection_tables, "%u");
	SEE(rss_caps.max_rwq_indirection_table_size, "%u");
	SEE(rss_caps.rx_hash_fields_mask, "%#" PRIx64);
	SEE(rss_caps.rx_hash_function, "%#x");
	SEE(max_wq_type_rq, "%u");
	SEE(packet_pacing_caps.qp_rate_limit_min, "%u");
	SEE(packet_pacing_caps.qp_rate_limit_max, "%u");
	SEE(packet_pacing_caps.supported_qpts, "%#x");
	SEE(raw_packet_caps, "%#x");
	SEE(tm_caps.max_rndv_hdr_size, "%u");
	SEE(tm_caps.max_num_tags, "%u");
	SEE(tm_caps.flags, "%#x");
	SEE(tm_caps.max_ops, "%u");
	SEE(tm_caps.max_sge, "%u");
	SEE(cq_mod_caps.max_cq_count, "%u");
	SEE(cq_mod_caps.max_cq_period, "%u");
	SEE(max_dm_size, "%" PRIu64);
	SEE(pci_atomic_caps.fetch_add, "%#x");
	SEE(pci_atomic_caps.swap, "%#x");
	SEE(pci_atomic_caps.compare_swap, "%#x");
	SEE(xrc_odp_caps, "%#x");
	SEE(phys_port_cnt_ex, "%u");
#undef SEE
}

static void see_port(struct side *s, int port, const struct ibv_port_attr *a)
{
	char k[64];

#define SEE(f, fmt) \
	(snprintf(k, sizeof(k), "port%d/" #f, port), see(s, k, fmt, a->f))
	SEE(state, "%d");
	SEE(max_mtu, "%d");
	SEE(active_mtu, "%d");
	SEE(gid_tbl_len, "%d");
	SEE(port_cap_flags, "%#x");
	SEE(max_msg_sz, "%#x");
	SEE(bad_pkey_cntr, "%u");
	SEE(qkey_viol_cntr, "%u");
	SEE(pkey_tbl_len, "%u");
	SEE(lid, "%u");
	SEE(sm_lid, "%u");
	SEE(lmc, "%u");
	SEE(max_vl_num, "%u");
	SEE(sm_sl, "%u");
	SEE(subnet_timeout, "%u");
	SEE(init_type_reply, "%u");
	SEE(active_width, "%u");
	SEE(active_speed, "%u");
	SEE(phys_state, "%u");
	SEE(link_layer, "%u");
	SEE(flags, "%#x");
	SEE(port_cap_flags2, "%#x");
#undef SEE
	snprintf(k, sizeof(k), "port%d/state_str", port);
	note(s, k, "%s", s->ops->ibv_port_state_str(a->state));
}

/* Every entry of the port's P_Key table, one past it, and the index of
 * the entries' values. */
static void walk_pkeys(struct side *s, struct ibv_context *ctx, int port,
		       int len)
{
	const struct rc_ops *o = s->ops;
	uint16_t pkey, first = 0;
	char k[64];
	int i, r;

	for (i = 0; i <= len; i++) {
		pkey = 0;
		errno = 0;
		r = o->ibv_query_pkey(ctx, port, i, &pkey);
		snprintf(k, sizeof(k), "port%d/pkey%d", port, i);
		/* "returns 0 on success, and -1 on error" */
		require(s, r == 0 || r == -1, "ibv_query_pkey returned %d", r);
		if (r)
			see(s, k, "-1 %s", errname(errno));
		else
			see(s, k, "%#06x", be16toh(pkey));
		if (!r && !i)
			first = pkey;
	}
	snprintf(k, sizeof(k), "port%d/pkey_index_of_first", port);
	see(s, k, "%d", o->ibv_get_pkey_index(ctx, port, first));
	snprintf(k, sizeof(k), "port%d/pkey_index_of_absent", port);
	see(s, k, "%d", o->ibv_get_pkey_index(ctx, port, htobe16(0x1234)));
}

void walk_context(struct side *s, struct ibv_context *ctx)
{
	const struct rc_ops *o = s->ops;
	struct ibv_query_device_ex_input in = {};
	struct ibv_device_attr_ex ax;
	struct ibv_port_attr pa;
	struct ibv_device_attr a;
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	int port, err;

	require(s, ctx->device && !strcmp(ctx->device->name, s->dev),
		"context->device is the device opened");
	require(s, ctx->cmd_fd >= 0 && ctx->async_fd >= 0, "context fds %d, %d",
		ctx->cmd_fd, ctx->async_fd);
	see(s, "context/num_comp_vectors", "%d", ctx->num_comp_vectors);
	memset(&a, 0xa5, sizeof(a));
	err = o->ibv_query_device(ctx, &a);
	if (!require(s, !err, "ibv_query_device: %s", errname(err)))
		return;
	see_device_attr(s, "query_device", &a);
	memset(&ax, 0xa5, sizeof(ax));
	err = o->ibv_query_device_ex(ctx, NULL, &ax);
	see(s, "query_device_ex", "%s", errname(err));
	if (!err) {
		see_device_attr(s, "query_device_ex/orig_attr", &ax.orig_attr);
		see_device_attr_ex(s, &ax);
	}
	/* "used for future extensions": no comp_mask bit is defined */
	in.comp_mask = 1;
	see(s, "query_device_ex/unknown_input", "%s",
	    errname(o->ibv_query_device_ex(ctx, &in, &ax)));
	for (port = 1; port <= a.phys_port_cnt; port++) {
		memset(&pa, 0xa5, sizeof(pa));
		err = (o->ibv_query_port)(ctx, port, &pa);
		see(s, "query_port", "%s", errname(err));
		if (err)
			continue;
		see_port(s, port, &pa);
		walk_pkeys(s, ctx, port, pa.pkey_tbl_len);
	}
	see(s, "query_port/past_last", "%s",
	    errname((o->ibv_query_port)(ctx, a.phys_port_cnt + 1, &pa)));
	see(s, "query_rt_values_ex", "%s",
	    errname(o->ibv_query_rt_values_ex(ctx, &v)));
	see(s, "is_fork_initialized", "%d", o->ibv_is_fork_initialized());
	see(s, "fork_init", "%s", errname(o->ibv_fork_init()));
	see(s, "is_fork_initialized_after", "%d", o->ibv_is_fork_initialized());
}
