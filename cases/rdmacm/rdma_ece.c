// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_set_local_ece(3): "Set local ECE paraemters to be used for REQ/REP
 * communication."  rdma_get_remote_ece(3): "Get remote ECE paraemters as
 * received from the peer."  Both: "This function is suppose to be used by
 * the users of external QPs." and "returns 0 on success, or -1 on error."
 *
 * The pair's ids have no QP (external QPs: the caller's own); the REQ and
 * REP are the IB CM's (RC_NEED_CA: iWARP's connections need a QP, which
 * rules the calls out).  The client's ECE: vendor_id 0x5a6b7c (the REQ's
 * VendorID has 24 bits), options 0x1d2e3f4a; the server's reply the same
 * vendor with options 0x2c3b4a59.
 * rdma_set_local_ece:
 * - on the client before rdma_connect: 0, and the server's
 *   rdma_get_remote_ece on the request's id reads what was set
 * - on the server's new id before rdma_accept: 0, and the client's
 *   rdma_get_remote_ece after CONNECT_RESPONSE reads it
 * - NULL ece: -1 EINVAL
 * - an id with a QP rdma_cm made (not an external QP): -1 EINVAL
 * rdma_get_remote_ece:
 * - the server's, on the request's id: the client's vendor and options
 * - the client's, after CONNECT_RESPONSE: the server's
 * - the client set none: vendor_id 0, options 0
 * - the client's vendor_id 0x8a5a6b7c: the server reads its low 24 bits
 * - NULL ece: -1 EINVAL
 * - an id with a QP rdma_cm made: -1 EINVAL
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_SET "Set local ECE paraemters to be used for REQ/REP communication."
#define DOC_GET                                                           \
	"rdma_get_remote_ece() get ECE parameters as were received from " \
	"the communication peer."
#define DOC_EXTERNAL \
	"This function is suppose to be used by the users of external QPs."
#define DOC_SET_RETURN \
	"rdma_set_local_ece() returns 0 on success, or -1 on error."
#define DOC_GET_RETURN \
	"rdma_get_remote_ece() returns 0 on success, or -1 on error."

#define VENDOR 0x5a6b7c
#define CLI_OPTIONS 0x1d2e3f4a
#define SRV_OPTIONS 0x2c3b4a59

enum ece_kind {
	ECE_REQUEST, /* the client's ECE, read on the server */
	ECE_REPLY, /* the server's, read on the client */
	ECE_NONE, /* the client sets none */
	ECE_WIDE, /* the client's vendor_id has a fourth byte */
	ECE_NULL, /* ece NULL */
	ECE_QP, /* the client's id has a QP of rdma_cm's */
};

struct ece_row {
	struct rc_case c;
	enum ece_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_CA)

static const struct ece_row set_rows[] = {
	{ .c = { .id = "rdmacm/set_local_ece/sent-with-request",
		 .doc = DOC_SET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client's id sets vendor_id 0x5a6b7c, options "
			 "0x1d2e3f4a before rdma_connect: 0, and the server's "
			 "rdma_get_remote_ece on the request's id reads them",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = ECE_REQUEST },
	{ .c = { .id = "rdmacm/set_local_ece/sent-with-reply",
		 .doc = DOC_SET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "both set the vendor 0x5a6b7c, the server's new id "
			 "options 0x2c3b4a59 before rdma_accept: 0, and the "
			 "client's rdma_get_remote_ece after CONNECT_RESPONSE "
			 "reads the server's",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = ECE_REPLY },
	{ .c = { .id = "rdmacm/set_local_ece/null-ece",
		 .doc = DOC_SET_RETURN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ece NULL, no parameters to set: -1 and EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = ECE_NULL },
	{ .c = { .id = "rdmacm/set_local_ece/id-with-qp",
		 .doc = DOC_EXTERNAL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the client's id with a QP rdma_create_qp made, which "
			 "rdma_cm moves (no external QP; rxe and siw have no "
			 "ECE of their QPs either): read as refused, -1 and "
			 "EINVAL",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = ECE_QP },
};

static const struct ece_row get_rows[] = {
	{ .c = { .id = "rdmacm/get_remote_ece/from-request",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client set vendor_id 0x5a6b7c, options "
			 "0x1d2e3f4a: the server's call on the request's id "
			 "returns 0 with those, comp_mask 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = ECE_REQUEST },
	{ .c = { .id = "rdmacm/get_remote_ece/from-reply",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's new id set vendor_id 0x5a6b7c, options "
			 "0x2c3b4a59 before rdma_accept: the client's call "
			 "after CONNECT_RESPONSE returns 0 with those",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = ECE_REPLY },
	{ .c = { .id = "rdmacm/get_remote_ece/none-sent",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the client set no ECE: the server's call on the "
			 "request's id returns 0 with vendor_id 0 and options "
			 "0 (nothing received; the kernel's event carries "
			 "zeroes)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = ECE_NONE },
	{ .c = { .id = "rdmacm/get_remote_ece/vendor-id-24-bits",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_LINUX,
		 .note = "the client set vendor_id 0x8a5a6b7c: the server's "
			 "call reads 0x5a6b7c, options 0x1d2e3f4a; the REQ's "
			 "VendorID has 24 bits (the kernel's cm_format_req, "
			 "IBA_SET(CM_REQ_VENDOR_ID))",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = ECE_WIDE },
	{ .c = { .id = "rdmacm/get_remote_ece/null-ece",
		 .doc = DOC_GET_RETURN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ece NULL, nothing to fill: -1 and EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = ECE_NULL },
	{ .c = { .id = "rdmacm/get_remote_ece/id-with-qp",
		 .doc = DOC_EXTERNAL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the client's id with a QP rdma_create_qp made (no "
			 "external QP): read as refused, -1 and EINVAL",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = ECE_QP },
};

/* @got is vendor_id @vendor with @options, else a violation */
static void want_ece(struct rc_ctx *ctx, const char *who,
		     const struct ibv_ece *got, uint32_t vendor,
		     uint32_t options)
{
	rc_obs_out(ctx->obs, got, sizeof(*got));
	if (got->vendor_id != vendor || got->options != options ||
	    got->comp_mask)
		rc_obs_violation(ctx->obs,
				 "%s vendor_id 0x%x options 0x%x comp_mask "
				 "0x%x, not 0x%x 0x%x 0",
				 who, got->vendor_id, got->options,
				 got->comp_mask, vendor, options);
}

/* The rows that need no connection: NULL, and an id with a QP */
static void refused(const struct ece_row *row, struct rc_ctx *ctx, bool set)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_ece ece = { .vendor_id = VENDOR, .options = CLI_OPTIONS };
	struct rdma_event_channel *ch = NULL;
	struct rdma_cm_id *id = NULL;
	struct cm_pair p;
	int ret;

	if (row->kind == ECE_NULL) {
		ch = ops->rdma_create_event_channel();
		if (!ch || ops->rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
			id = NULL;
			cm_broken(ctx, "a channel and an id");
			goto out;
		}
		RC_OBSERVE(ctx, ret = set ? ops->rdma_set_local_ece(id, NULL) :
					    ops->rdma_get_remote_ece(id, NULL));
		goto out;
	}
	if (cm_pair_open(ctx, &p, AF_INET, true, ops, ops) &&
	    cm_listen(ctx, &p) && cm_resolve(ctx, &p))
		RC_OBSERVE(ctx,
			   ret = set ? ops->rdma_set_local_ece(p.cli.id, &ece) :
				       ops->rdma_get_remote_ece(p.cli.id,
								&ece));
	cm_pair_close(ctx, &p);
out:
	(void)ret;
	if (id)
		ops->rdma_destroy_id(id);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
}

/* The connection's steps, the call under test (@set or not) at its
 * place: the client's ECE set, the request, the server's read of it;
 * for ECE_REPLY the server's ECE set, the accept, and the client's
 * read after CONNECT_RESPONSE. */
static void exchange(const struct ece_row *row, struct rc_ctx *ctx, bool set)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_ece cli = { .vendor_id = VENDOR, .options = CLI_OPTIONS };
	struct ibv_ece srv = { .vendor_id = VENDOR, .options = SRV_OPTIONS };
	struct rdma_conn_param c, s = { .qp_num = CM_SERVER_QPN,
					.responder_resources = 2,
					.initiator_depth = 3,
					.rnr_retry_count = 7 };
	struct ibv_ece got;
	struct cm_pair p;
	int ret = -1;

	if (row->kind == ECE_WIDE)
		cli.vendor_id |= 0x8a000000;
	memset(&got, 0xa5, sizeof(got));
	cm_client_param(&c, NULL, 0);
	if (!cm_pair_open(ctx, &p, AF_INET, false, ops, ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve_route(ctx, &p))
		goto out;
	if (row->kind != ECE_NONE) {
		if (set && row->kind == ECE_REQUEST)
			RC_OBSERVE(ctx, ret = ops->rdma_set_local_ece(p.cli.id,
								      &cli));
		else
			ret = ops->rdma_set_local_ece(p.cli.id, &cli);
		if (ret) {
			if (ctx->obs->state != RC_STATE_RAN)
				cm_broken(ctx,
					  "the client's rdma_set_local_ece");
			goto out;
		}
	}
	if (!cm_request(ctx, &p, &c, NULL))
		goto out;
	if (row->kind != ECE_REPLY) {
		if (!set)
			RC_OBSERVE(ctx, ret = ops->rdma_get_remote_ece(
						p.srv.conn, &got));
		else
			ret = ops->rdma_get_remote_ece(p.srv.conn, &got);
		if (ret)
			rc_obs_violation(
				ctx->obs,
				"server rdma_get_remote_ece fails (%m)");
		else if (row->kind == ECE_NONE)
			want_ece(ctx, "server", &got, 0, 0);
		else
			want_ece(ctx, "server", &got, VENDOR, CLI_OPTIONS);
		goto out;
	}
	if (set)
		RC_OBSERVE(ctx,
			   ret = ops->rdma_set_local_ece(p.srv.conn, &srv));
	else
		ret = ops->rdma_set_local_ece(p.srv.conn, &srv);
	if (ret) {
		if (ctx->obs->state != RC_STATE_RAN)
			cm_broken(ctx, "the server's rdma_set_local_ece");
		goto out;
	}
	if (ops->rdma_accept(p.srv.conn, &s)) {
		cm_broken(ctx, "rdma_accept");
		goto out;
	}
	if (!cm_expect(ctx, &p.cli, RDMA_CM_EVENT_CONNECT_RESPONSE, NULL))
		goto out;
	if (!set)
		RC_OBSERVE(ctx, ret = ops->rdma_get_remote_ece(p.cli.id, &got));
	else
		ret = ops->rdma_get_remote_ece(p.cli.id, &got);
	if (ret)
		rc_obs_violation(ctx->obs,
				 "client rdma_get_remote_ece fails (%m)");
	else
		want_ece(ctx, "client", &got, VENDOR, SRV_OPTIONS);
out:
	cm_pair_close(ctx, &p);
}

/* @set: the row is set_local_ece's (else get_remote_ece's); both need
 * both calls */
static void run_ece(const struct ece_row *row, struct rc_ctx *ctx, bool set)
{
	if (!rc_need_call(ctx, ctx->ops->rdma_set_local_ece,
			  "rdma_set_local_ece") ||
	    !rc_need_call(ctx, ctx->ops->rdma_get_remote_ece,
			  "rdma_get_remote_ece"))
		return;
	if (row->kind == ECE_NULL || row->kind == ECE_QP)
		refused(row, ctx, set);
	else
		exchange(row, ctx, set);
}

static void run_set(const void *r, struct rc_ctx *ctx)
{
	run_ece(r, ctx, true);
}

static void run_get(const void *r, struct rc_ctx *ctx)
{
	run_ece(r, ctx, false);
}

#define GROUP(var, name, table, fn) \
	RC_TABLE_GROUP(var, name, RC_CONV_M1_ERRNO, "rdmacm", table, fn)

GROUP(set_group, "rdma_set_local_ece", set_rows, run_set);
GROUP(get_group, "rdma_get_remote_ece", get_rows, run_get);
