// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_ah(3): "creates an address handle (AH) associated with the
 * protection domain pd."  "returns a pointer to the created AH, or NULL if
 * the request fails, and errno is set to indicate the reason."  NOTES: "If
 * port flag IBV_QPF_GRH_REQUIRED is set then ibv_create_ah() must be created
 * with definition of 'struct ibv_ah_attr { .is_global = 1; .grh = {...}; }'."
 * "ibv_destroy_ah() returns 0 on success, or the value of errno on failure".
 *
 * ibv_create_ah_from_wc(3): "creates an AH associated with the protection
 * domain pd using the port number port_num, using attributes from the work
 * completion wc and the Global Routing Header (GRH) structure grh."
 *
 * An AH "works" when a UD message sent through it reaches the QP it
 * addresses.  Here that is tried with the system's AHs only: these rows'
 * QP (verbs_res.h) is rdma-core's, whose ibv_post_send reads the
 * provider's own AH object.  For the reference, a successful
 * ibv_destroy_ah of the AH shows the kernel object exists; the rows of
 * ibv_create_ah_grh.c send through either implementation's AH, on its own
 * QPs, and look at the GRH the receiver gets.
 */
#include <string.h>

#include "verbs_res.h"

#define DOC_CREATE                                        \
	"ibv_create_ah() creates an address handle (AH) " \
	"associated with the protection domain pd."
#define DOC_NULL                                                   \
	"ibv_create_ah() returns a pointer to the created AH, or " \
	"NULL if the request fails."
#define DOC_GRH                                                       \
	"If port flag IBV_QPF_GRH_REQUIRED is set then "              \
	"ibv_create_ah() must be created with definition of 'struct " \
	"ibv_ah_attr { .is_global = 1; .grh = {...}; }'."
#define DOC_DESTROY                                            \
	"ibv_destroy_ah() returns 0 on success, or the value " \
	"of errno on failure (which indicates the failure reason)."
#define DOC_FROM_WC_RET                                     \
	"ibv_create_ah_from_wc() returns a pointer to the " \
	"created AH, or NULL if the request fails."
#define DOC_FROM_WC                                                       \
	"ibv_create_ah_from_wc() creates an AH associated with "          \
	"the protection domain pd using the port number port_num, using " \
	"attributes from the work completion wc and the Global Routing "  \
	"Header (GRH) structure grh."

struct ah_row;
/* What a row does on its UD QP @r; @a: an AH's attributes from the port's
 * IPv6 GID to itself (.ipv4: its IPv4-mapped GID), on its port. */
typedef void ah_check(const struct ah_row *row, struct rc_ctx *ctx,
		      struct vres *r, struct ibv_ah_attr *a);

struct ah_row {
	struct rc_case c;
	ah_check *check;
	bool ipv4;
	int arg;
};

static ah_check create_reaches_qp, create_not_global, create_on_port,
	create_from_sgid, create_null_attr, destroy_created,
	destroy_kernel_object_gone, from_wc_reply_reaches_sender,
	from_wc_foreign_destination;

static const struct ah_row rows[] = {
	{ .c = { .id = "verbs/create_ah/global-ipv6-reaches-qp",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from the IPv6 GID to itself: a UD "
			 "message through it reaches the own QP (system's AH)",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_reaches_qp },
	{ .c = { .id = "verbs/create_ah/global-ipv4-reaches-qp",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same from the IPv4-mapped GID",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_reaches_qp,
	  .ipv4 = true },
	{ .c = { .id = "verbs/create_ah/not-global-on-roce",
		 .doc = DOC_GRH,
		 .basis = RC_BASIS_LINUX,
		 .note = "RoCE ports require a GRH: is_global 0 fails; EINVAL is "
			 "the kernel's (rdma_check_ah_attr, drivers/infiniband/core/"
			 "verbs.c), the page names no errno",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = create_not_global },
	{ .c = { .id = "verbs/create_ah/port-0",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_LINUX,
		 .note = "ports are numbered from 1; EINVAL is the kernel's "
			 "(rdma_is_port_valid in uverbs CREATE_AH), the page names "
			 "no errno",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = create_on_port,
	  .arg = 0 },
	{ .c = { .id = "verbs/create_ah/port-beyond-device",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_LINUX,
		 .note = "port 2 of a one-port device; EINVAL is the kernel's "
			 "(rdma_is_port_valid in uverbs CREATE_AH)",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = create_on_port,
	  .arg = 2 },
	{ .c = { .id = "verbs/create_ah/sgid-index-unused",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_LINUX,
		 .note = "sgid_index 255 names no GID of the port: the page "
			 "does not say it must, the kernel refuses it (its GID "
			 "table lookup); which errno is not fixed",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = create_from_sgid,
	  .arg = 255 },
	{ .c = { .id = "verbs/create_ah/null-attr",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no attributes: the request fails (NULL); the man "
			 "page does not say NULL is allowed, so no errno is required, "
			 "but a crash of the caller is no failure report",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = create_null_attr },
};

static const struct ah_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_ah/created",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an AH just created",
		 .needs = NEEDS_VERBS,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = destroy_created },
	{ .c = { .id = "verbs/destroy_ah/kernel-object-gone",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_LINUX,
		 .note = "the AH's kernel object was destroyed behind the "
			 "library's back (uverbs DESTROY_AH of its handle): the "
			 "kernel refuses a second destroy of the handle, and the "
			 "call must report it as an errno value, without freed "
			 "memory ever being used",
		 .needs = NEEDS_VERBS,
		 .contract = { .ret = RC_RET_ERR } },
	  .check = destroy_kernel_object_gone },
};

static const struct ah_row from_wc_rows[] = {
	{ .c = { .id = "verbs/create_ah_from_wc/ipv6-reply-reaches-sender",
		 .doc = DOC_FROM_WC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from a message the QP sent itself "
			 "from its IPv6 GID; a reply through it arrives (system's AH)",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_SUCCEEDS } },
	  .check = from_wc_reply_reaches_sender },
	{ .c = { .id = "verbs/create_ah_from_wc/ipv4-reply-reaches-sender",
		 .doc = DOC_FROM_WC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same from the IPv4-mapped GID",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE,
		 .contract = { RC_SUCCEEDS } },
	  .check = from_wc_reply_reaches_sender,
	  .ipv4 = true },
	{ .c = { .id = "verbs/create_ah_from_wc/destination-not-in-gid-table",
		 .doc = DOC_FROM_WC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a real completion whose GRH is rewritten to be "
			 "addressed to 2001:db8::99, no GID of the port: no source "
			 "GID to answer from, read as a failed request",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = from_wc_foreign_destination },
};

/* 2001:db8::99, documentation space: no GID of any port here */
static const uint8_t foreign_gid[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x99 };

/* Through @ah to the own QP: does the message arrive? */
static void check_reaches(struct rc_ctx *ctx, struct vres *r, struct ibv_ah *ah)
{
	struct ibv_wc wc;
	uint32_t tag = 0;

	if (!ctx->ops->provider_objects)
		return;
	if (!vres_post_recv(ctx, r, 1))
		return;
	if (!vres_send(ctx, r, ah, r->qp->qp_num, 0xa4) ||
	    vres_recv(ctx, r, VRES_WAIT_MS, &wc, NULL, &tag) != 1 ||
	    tag != 0xa4)
		rc_obs_violation(ctx->obs, "a UD message through the AH did "
					   "not arrive");
}

/* Destroy through the implementation; the reference's proof of life. */
static void destroy(struct rc_ctx *ctx, struct ibv_ah *ah)
{
	int err;

	if (!ah || !ctx->ops->ibv_destroy_ah)
		return;
	err = ctx->ops->ibv_destroy_ah(ah);
	if (err)
		rc_obs_violation(ctx->obs, "ibv_destroy_ah of it: %d", err);
}

/* A message from the QP to itself; its completion and GRH. */
static bool received(struct rc_ctx *ctx, struct vres *r, int idx,
		     const union ibv_gid *gid, struct ibv_wc *wc, uint8_t *grh)
{
	struct ibv_ah *ah = idx < 0 ? NULL : vres_ah(r, idx, gid);
	bool ok = ah && vres_post_recv(ctx, r, 1) &&
		  vres_send(ctx, r, ah, r->qp->qp_num, 1) &&
		  vres_recv(ctx, r, VRES_WAIT_MS, wc, (struct ibv_grh *)grh,
			    NULL) == 1;

	if (ah)
		ibv_destroy_ah(ah);
	if (!ok && ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no message from the "
			     "QP to itself");
	return ok;
}

/* The call under test with @a: the AH it gives must work; destroyed. */
static void create_and_try(struct rc_ctx *ctx, struct vres *r,
			   struct ibv_ah_attr *a)
{
	struct ibv_ah *ah;

	RC_OBSERVE(ctx, ah = ctx->ops->ibv_create_ah(r->pd, a));
	if (ah)
		check_reaches(ctx, r, ah);
	destroy(ctx, ah);
}

static void create_reaches_qp(const struct ah_row *row, struct rc_ctx *ctx,
			      struct vres *r, struct ibv_ah_attr *a)
{
	create_and_try(ctx, r, a);
}

static void create_not_global(const struct ah_row *row, struct rc_ctx *ctx,
			      struct vres *r, struct ibv_ah_attr *a)
{
	a->is_global = 0;
	create_and_try(ctx, r, a);
}

static void create_on_port(const struct ah_row *row, struct rc_ctx *ctx,
			   struct vres *r, struct ibv_ah_attr *a)
{
	a->port_num = row->arg;
	create_and_try(ctx, r, a);
}

static void create_from_sgid(const struct ah_row *row, struct rc_ctx *ctx,
			     struct vres *r, struct ibv_ah_attr *a)
{
	a->grh.sgid_index = row->arg;
	create_and_try(ctx, r, a);
}

static void create_null_attr(const struct ah_row *row, struct rc_ctx *ctx,
			     struct vres *r, struct ibv_ah_attr *a)
{
	struct ibv_ah *ah;

	RC_OBSERVE(ctx, ah = ctx->ops->ibv_create_ah(r->pd, NULL));
	destroy(ctx, ah);
}

static void destroy_created(const struct ah_row *row, struct rc_ctx *ctx,
			    struct vres *r, struct ibv_ah_attr *a)
{
	struct ibv_ah *ah = ctx->ops->ibv_create_ah(r->pd, a);

	if (!ah) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "ibv_create_ah: %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_destroy_ah(ah));
}

static void destroy_kernel_object_gone(const struct ah_row *row,
				       struct rc_ctx *ctx, struct vres *r,
				       struct ibv_ah_attr *a)
{
	struct ibv_ah *ah = ctx->ops->ibv_create_ah(r->pd, a);

	if (!ah || vres_kernel_destroy_ah(ah)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "could not create an "
			     "AH and destroy its kernel object");
		return;
	}
	/* what the call did with it is its own: never touched after */
	RC_OBSERVE(ctx, ctx->ops->ibv_destroy_ah(ah));
}

/*
 * ibv_create_ah_from_wc, the call under test, with the completion and GRH
 * of a message the QP sent itself from GID @idx (@gid); @foreign: with the
 * GRH's destination rewritten to foreign_gid.  The AH, or NULL.
 */
static struct ibv_ah *from_wc(struct rc_ctx *ctx, struct vres *r, int idx,
			      const union ibv_gid *gid, bool foreign)
{
	uint8_t grh[VRES_GRH];
	struct ibv_ah *ah;
	struct ibv_wc wc;

	if (!rc_need_call(ctx, ctx->ops->ibv_create_ah_from_wc,
			  "ibv_create_ah_from_wc") ||
	    !received(ctx, r, idx, gid, &wc, grh))
		return NULL;
	/* the GRH's destination, bytes 24..39 of the IPv6 header */
	if (foreign)
		memcpy(grh + 24, foreign_gid, sizeof(foreign_gid));
	RC_OBSERVE(ctx, ah = ctx->ops->ibv_create_ah_from_wc(
				r->pd, &wc, (struct ibv_grh *)grh, r->port));
	return ah;
}

static void from_wc_reply_reaches_sender(const struct ah_row *row,
					 struct rc_ctx *ctx, struct vres *r,
					 struct ibv_ah_attr *a)
{
	struct ibv_ah *ah =
		from_wc(ctx, r, a->grh.sgid_index, &a->grh.dgid, false);

	if (ah)
		check_reaches(ctx, r, ah);
	destroy(ctx, ah);
}

static void from_wc_foreign_destination(const struct ah_row *row,
					struct rc_ctx *ctx, struct vres *r,
					struct ibv_ah_attr *a)
{
	destroy(ctx, from_wc(ctx, r, r->gid6, &r->g6, true));
}

static void run(const void *rw, struct rc_ctx *ctx)
{
	const struct ah_row *row = rw;
	const struct rc_ops *ops = ctx->ops;
	struct ibv_ah_attr a = { .is_global = 1, .grh.hop_limit = 64 };
	struct vres r;

	if (!rc_need_call(ctx, ops->ibv_create_ah, "ibv_create_ah") ||
	    !rc_need_call(ctx, ops->ibv_destroy_ah, "ibv_destroy_ah") ||
	    !vres_open(ctx, &r, IBV_QPT_UD))
		return;
	a.port_num = r.port;
	a.grh.sgid_index = row->ipv4 ? r.gid4 : r.gid6;
	a.grh.dgid = row->ipv4 ? r.g4 : r.g6;
	row->check(row, ctx, &r, &a);
	vres_close(&r);
}

RC_TABLE_GROUP(group, "ibv_create_ah", RC_CONV_NULL_ERRNO, "verbs", rows, run);

RC_TABLE_GROUP(destroy_group, "ibv_destroy_ah", RC_CONV_ERRNO_RET, "verbs",
	       destroy_rows, run);

RC_TABLE_GROUP(from_wc_group, "ibv_create_ah_from_wc", RC_CONV_NULL_ERRNO,
	       "verbs", from_wc_rows, run);
