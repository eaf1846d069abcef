// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "verbs_opt.h"

bool vo_attr_ex(struct rc_ctx *ctx, struct vl *l, struct ibv_device_attr_ex *a)
{
	int err;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_device_ex,
			  "ibv_query_device_ex"))
		return false;
	memset(a, 0, sizeof(*a));
	err = ctx->ops->ibv_query_device_ex(l->ctx, NULL, a);
	if (!err)
		return true;
	errno = err;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_query_device_ex (set-up): %m");
	return false;
}

bool vo_lacks(struct rc_ctx *ctx, bool has, const char *what)
{
	if (has)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device has %s: the row is about one without",
			     what);
	return !has;
}

bool vo_has(struct rc_ctx *ctx, bool has, const char *what)
{
	if (!has)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device has no %s", what);
	return has;
}

void vo_made(struct rc_ctx *ctx, bool made, const char *what)
{
	if (made)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device has %s: the row is about one without",
			     what);
}
