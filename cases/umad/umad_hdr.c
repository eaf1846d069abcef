// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <endian.h>
#include <string.h>

#include "umad_hdr.h"
#include "umad_dev.h"
#include "../../harness/device.h"

static const struct rc_field fields[] = {
	{ "agent_id", OFF(AGENT_ID), 4 },
	{ "status", OFF(STATUS), 4 },
	{ "timeout_ms", OFF(TIMEOUT_MS), 4 },
	{ "retries", OFF(RETRIES), 4 },
	{ "length", OFF(LENGTH), 4 },
	{ "addr.qpn", OFF(QPN), 4 },
	{ "addr.qkey", OFF(QKEY), 4 },
	{ "addr.lid", OFF(LID), 2 },
	{ "addr.sl", OFF(SL), 1 },
	{ "addr.path_bits", OFF(PATH_BITS), 1 },
	{ "addr.grh_present", OFF(GRH_PRESENT), 1 },
	{ "addr.gid_index", OFF(GID_INDEX), 1 },
	{ "addr.hop_limit", OFF(HOP_LIMIT), 1 },
	{ "addr.traffic_class", OFF(TRAFFIC_CLASS), 1 },
	{ "addr.gid", OFF(GID), 16 },
	{ "addr.flow_label", OFF(FLOW_LABEL), 4 },
	{ "addr.pkey_index", OFF(PKEY_INDEX), 2 },
	{ "addr.reserved", OFF(RESERVED), 6 },
	{ "data (the MAD)", REF_UMAD_HDR_SIZE,
	  UMAD_BUF_LEN - REF_UMAD_HDR_SIZE },
};

const struct rc_layout umad_hdr_layout = {
	.name = "struct ib_user_mad",
	.fields = fields,
	.nfields = ARRAY_SIZE(fields),
};

const uint8_t gid_a[16] = { 0xfe, 0x80, 0,    0,    0,	  0,	0,    0,
			    0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
const uint8_t gid_v4[16] = { 0, 0, 0,	 0,    0,  0, 0, 0,
			     0, 0, 0xff, 0xff, 10, 0, 0, 1 };
const uint8_t gid_ones[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
const uint8_t gid_zero[16];

void umad_buf_init(uint8_t *buf)
{
	memset(buf, UMAD_FILL, UMAD_BUF_LEN);
}

void grh_row_run(const struct grh_row *row, struct rc_ctx *ctx,
		 int (*call)(void *, void *), const char *name, bool host_order)
{
	uint8_t buf[UMAD_BUF_LEN];
	ib_mad_addr_t addr;

	if (!rc_need_call(ctx, call, name))
		return;
	umad_buf_init(buf);
	if (row->grh_clear)
		buf[OFF(GRH_PRESENT)] = 0;
	/* Every non-GRH field of mad_addr is noise that must not be copied. */
	memset(&addr, 0x5a, sizeof(addr));
	addr.qpn = htobe32(GRH_NOISE_QPN);
	memcpy(addr.gid, row->gid ? row->gid : gid_zero, sizeof(addr.gid));
	addr.hop_limit = row->hop_limit;
	addr.traffic_class = row->traffic_class;
	addr.flow_label = host_order ? (__be32)row->flow_label :
				       htobe32(row->flow_label);
	RC_OBSERVE(ctx, call(buf, row->null_addr ? NULL : &addr));
	rc_obs_out(ctx->obs, buf, sizeof(buf));
}

void accessor_row_run(const struct accessor_row *row, struct rc_ctx *ctx,
		      const void *fn, const char *name, accessor_call *call)
{
	uint8_t buf[UMAD_BUF_LEN];
	struct rc_bytes preset = row->preset;

	if (!rc_need_call(ctx, fn, name))
		return;
	preset.len = UMAD_BUF_LEN;
	preset.fill = UMAD_FILL;
	rc_bytes_build(&preset, buf);
	RC_OBSERVE(ctx, call(ctx->ops, row, buf));
	rc_obs_out(ctx->obs, buf, sizeof(buf));
}

void accessor_row_run_open(const struct accessor_row *row, struct rc_ctx *ctx,
			   const void *fn, const char *name,
			   accessor_call *call)
{
	int fd;

	if (!rc_need_call(ctx, ctx->ops->umad_open_port, "umad_open_port"))
		return;
	fd = ctx->ops->umad_open_port(ctx->target->ca, ctx->target->port);
	if (fd < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_open_port: %d",
			     fd);
		return;
	}
	accessor_row_run(row, ctx, fn, name, call);
}

/* deeper than any frame of libibumad's device calls */
#define DIRTY_STACK_BYTES (64 * 1024)

__attribute__((noinline)) void dev_dirty_stack(void)
{
	volatile unsigned char junk[DIRTY_STACK_BYTES];
	size_t i;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = OUT_PARAM_FILL;
}

const char *dev_row_ca(const struct dev_row *row, struct rc_ctx *ctx)
{
	switch (row->ca) {
	case CA_TARGET:
		return ctx->target->ca;
	case CA_NULL:
		return NULL;
	case CA_BOGUS:
		break;
	}
	return BOGUS_CA;
}

int dev_row_port(const struct dev_row *row, struct rc_ctx *ctx)
{
	if (row->port == PORT_ADDED)
		return dev_attrs_added_port();
	return row->port == PORT_TARGET ? ctx->target->port : row->port;
}

int dev_port_sysfs(struct rc_ctx *ctx, int port, const char *attr, char *buf,
		   size_t len)
{
	return rc_sysfs_read(buf, len, RC_SYSFS_IB "/%s/ports/%d/%s",
			     ctx->target->ca, port, attr);
}

int dev_sysfs(struct rc_ctx *ctx, int port, const char *attr, char *buf,
	      size_t len)
{
	if (port)
		return dev_port_sysfs(ctx, port, attr, buf, len);
	return rc_sysfs_read(buf, len, RC_SYSFS_IB "/%s/%s", ctx->target->ca,
			     attr);
}
