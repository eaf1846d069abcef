// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke: PDs, MRs (ibv_reg_mr, ibv_reg_mr_iova, ibv_rereg_mr,
 * ibv_dereg_mr), MWs and ibv_inc_rkey on a context.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smoke.h"

#define BUF_LEN (64 * 1024)

/* An MR's fields as ibv_reg_mr(3) leaves them, the keys each side's own. */
static void see_mr(struct side *s, const char *what, struct ibv_mr *mr,
		   struct ibv_pd *pd, void *addr, size_t len)
{
	char k[64];

	snprintf(k, sizeof(k), "%s/result", what);
	see(s, k, "%s", mr ? "MR" : errname(errno));
	if (!mr)
		return;
	require(s, mr->pd == pd && mr->context == pd->context,
		"%s: mr->pd, mr->context", what);
	require(s, mr->addr == addr && mr->length == len,
		"%s: mr->addr %p (%p), mr->length %zu (%zu)", what, mr->addr,
		addr, mr->length, len);
	snprintf(k, sizeof(k), "%s/lkey", what);
	note(s, k, "%#x", mr->lkey);
	snprintf(k, sizeof(k), "%s/rkey", what);
	note(s, k, "%#x", mr->rkey);
	snprintf(k, sizeof(k), "%s/lkey_is_rkey", what);
	see(s, k, "%d", mr->lkey == mr->rkey);
}

static void walk_mr(struct side *s, struct ibv_pd *pd, uint8_t *buf)
{
	const struct rc_ops *o = s->ops;
	const int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
		       IBV_ACCESS_REMOTE_WRITE;
	struct ibv_pd *pd2;
	struct ibv_mr *mr;
	int r;

	errno = 0;
	mr = (o->ibv_reg_mr)(pd, buf, BUF_LEN, rw);
	see_mr(s, "reg_mr", mr, pd, buf, BUF_LEN);
	if (mr) {
		/* "IBV_REREG_MR_ERR_INPUT - Old MR is valid, an input error
		 * was detected by libibverbs." */
		see(s, "rereg_mr/bad_flags", "%d",
		    o->ibv_rereg_mr(mr, 1 << 7, NULL, NULL, 0, 0));
		errno = 0;
		r = o->ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL,
				    0, IBV_ACCESS_LOCAL_WRITE);
		see(s, "rereg_mr/access", "%d %s", r, r ? errname(errno) : "");
		pd2 = o->ibv_alloc_pd(pd->context);
		errno = 0;
		r = pd2 ? o->ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, pd2, NULL,
					  0, 0) :
			  -100;
		see(s, "rereg_mr/pd", "%d %s", r, r ? errname(errno) : "");
		if (!r)
			require(s, mr->pd == pd2, "rereg: mr->pd is new");
		errno = 0;
		r = o->ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL,
				    buf, BUF_LEN / 2, 0);
		see(s, "rereg_mr/translation", "%d %s", r,
		    r ? errname(errno) : "");
		/* "Even on a failure, the user still needs to call ibv_dereg_mr
		 * on this MR." */
		see(s, "dereg_mr", "%s", errname(o->ibv_dereg_mr(mr)));
		if (pd2)
			see(s, "dealloc_pd/second", "%s",
			    errname(o->ibv_dealloc_pd(pd2)));
	}
	errno = 0;
	mr = (o->ibv_reg_mr_iova)(pd, buf + 100, 4000, 0x10000064, rw);
	see_mr(s, "reg_mr_iova", mr, pd, buf + 100, 4000);
	if (mr)
		see(s, "dereg_mr_iova", "%s", errname(o->ibv_dereg_mr(mr)));
	errno = 0;
	mr = (o->ibv_reg_mr)(pd, buf, BUF_LEN,
			     IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE);
	see_mr(s, "reg_mr_zero_based", mr, pd, buf, BUF_LEN);
	if (mr)
		o->ibv_dereg_mr(mr);
	/* "If IBV_ACCESS_REMOTE_WRITE or IBV_ACCESS_REMOTE_ATOMIC is set,
	 * then IBV_ACCESS_LOCAL_WRITE must be set too." */
	errno = 0;
	mr = (o->ibv_reg_mr)(pd, buf, BUF_LEN, IBV_ACCESS_REMOTE_WRITE);
	see(s, "reg_mr/remote_write_alone", "%s", mr ? "MR" : errname(errno));
	if (mr)
		o->ibv_dereg_mr(mr);
}

static void walk_mw(struct side *s, struct ibv_pd *pd)
{
	const struct rc_ops *o = s->ops;
	static const enum ibv_mw_type types[] = { IBV_MW_TYPE_1, IBV_MW_TYPE_2,
						  3 };
	struct ibv_mw *mw;
	char k[32];
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		errno = 0;
		mw = o->ibv_alloc_mw(pd, types[i]);
		snprintf(k, sizeof(k), "alloc_mw/type%d", types[i]);
		see(s, k, "%s", mw ? "MW" : errname(errno));
		if (!mw)
			continue;
		require(s, mw->pd == pd && mw->type == types[i],
			"alloc_mw: mw->pd, mw->type");
		snprintf(k, sizeof(k), "alloc_mw/type%d/rkey", types[i]);
		note(s, k, "%#x", mw->rkey);
		/* "the same index (bits 0xffffff00)" */
		require(s,
			(o->ibv_inc_rkey(mw->rkey) & 0xffffff00) ==
				(mw->rkey & 0xffffff00),
			"ibv_inc_rkey: same index");
		snprintf(k, sizeof(k), "dealloc_mw/type%d", types[i]);
		see(s, k, "%s", errname(o->ibv_dealloc_mw(mw)));
	}
}

void walk_memory(struct side *s, struct ibv_context *ctx)
{
	const struct rc_ops *o = s->ops;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	uint8_t *buf;
	int err;

	errno = 0;
	pd = o->ibv_alloc_pd(ctx);
	if (!require(s, pd, "ibv_alloc_pd: NULL, %s", errname(errno)))
		return;
	require(s, pd->context == ctx, "pd->context");
	note(s, "pd/handle", "%u", pd->handle);
	buf = aligned_alloc(sysconf(_SC_PAGESIZE), BUF_LEN);
	if (buf) {
		memset(buf, 0, BUF_LEN);
		walk_mr(s, pd, buf);
	}
	walk_mw(s, pd);
	/* "ibv_dealloc_pd() may fail if any other resource is still
	 * associated with the PD being freed." */
	mr = buf ? (o->ibv_reg_mr)(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE) :
		   NULL;
	if (mr) {
		err = o->ibv_dealloc_pd(pd);
		see(s, "dealloc_pd/with_mr", "%s", errname(err));
		if (err)
			o->ibv_dereg_mr(mr);
		else
			pd = NULL;
	}
	if (pd)
		see(s, "dealloc_pd", "%s", errname(o->ibv_dealloc_pd(pd)));
	free(buf);
}
