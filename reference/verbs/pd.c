// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_pd(3), ibv_dealloc_pd(3), ibv_import_pd(3), ibv_unimport_pd(3).
 *
 * A PD is the kernel's (ALLOC_PD); struct ibv_pd holds its handle.  An
 * imported PD is a handle of the context's that this process did not
 * make: "The input pd_handle value must be a valid kernel handle for a PD
 * object in the given context".  The kernel has no PD query for every
 * driver (mlx5 has its own), so the handle is checked against the
 * context's PD handles (UVERBS_METHOD_INFO_HANDLES), which any driver
 * answers, also from another process than the one that made it.
 */
#include <errno.h>
#include <stdlib.h>
#include <rdma/ib_user_ioctl_cmds.h>

#include "ref_verbs.h"
#include "objects.h"

/* "returns a pointer to the allocated PD, or NULL if the request fails" */
struct ibv_pd *ref_ibv_alloc_pd(struct ibv_context *context)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_alloc_pd body;
	} cmd = {};
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ibv_pd *pd;
	int err;

	if (!context)
		return ref_fail_null(EINVAL);
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return ref_fail_null(ENOMEM);
	cmd.body.response = (uintptr_t)&resp;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_ALLOC_PD, &cmd,
			sizeof(cmd), sizeof(resp));
	if (err) {
		free(pd);
		return ref_fail_null(err);
	}
	pd->context = context;
	pd->handle = resp.pd_handle;
	return pd;
}

/* "returns 0 on success, or the value of errno on failure"; "may fail if
 * any other resource is still associated with the PD" (the kernel's
 * EBUSY) */
int ref_ibv_dealloc_pd(struct ibv_pd *pd)
{
	int err;

	if (!pd)
		return ref_fail(EINVAL);
	err = ref_destroy(pd->context->cmd_fd, ref_ctx(pd->context)->driver_id,
			  IB_USER_VERBS_CMD_DEALLOC_PD, UVERBS_OBJECT_PD,
			  UVERBS_METHOD_PD_DESTROY, pd->handle);
	if (err)
		return ref_fail(err);
	free(pd);
	return 0;
}

#define HANDLES_MAX 4096

/* true: @handle is one of the context's objects of type @object */
static int has_handle(struct ibv_context *context, uint16_t object,
		      uint32_t handle, bool *found)
{
	uint32_t *h, total = 0, i, room = 64;
	int err;

	*found = false;
	for (;;) {
		struct ib_uverbs_attr a[] = {
			REF_ATTR_CONST(UVERBS_ATTR_INFO_OBJECT_ID, object),
			REF_ATTR(UVERBS_ATTR_INFO_TOTAL_HANDLES, sizeof(total),
				 &total),
			REF_ATTR(UVERBS_ATTR_INFO_HANDLES_LIST,
				 room * sizeof(*h), 0),
		};

		h = calloc(room, sizeof(*h));
		if (!h)
			return ENOMEM;
		a[2].data = (uintptr_t)h;
		err = -ref_ioctl(context->cmd_fd, ref_ctx(context)->driver_id,
				 UVERBS_OBJECT_DEVICE,
				 UVERBS_METHOD_INFO_HANDLES, a, 3);
		/* the kernel stops at the room given, silently: a full
		 * list may have been cut short */
		if (!err && total >= room && room < HANDLES_MAX) {
			free(h);
			room *= 4;
			continue;
		}
		break;
	}
	for (i = 0; !err && i < total && i < room; i++)
		if (h[i] == handle)
			*found = true;
	free(h);
	return err;
}

/* "returns a pointer to the allocated PD, or NULL if the request fails";
 * a handle that is no PD of the context is ENOENT, the kernel's answer
 * for a handle it does not know (as ibv_import_mr(3) gets it) */
struct ibv_pd *ref_ibv_import_pd(struct ibv_context *context,
				 uint32_t pd_handle)
{
	struct ibv_pd *pd;
	bool found;
	int err;

	if (!context)
		return ref_fail_null(EINVAL);
	err = has_handle(context, UVERBS_OBJECT_PD, pd_handle, &found);
	if (err)
		return ref_fail_null(err);
	if (!found)
		return ref_fail_null(ENOENT);
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return ref_fail_null(ENOMEM);
	pd->context = context;
	pd->handle = pd_handle;
	return pd;
}

/* "cleanup what ever is needed/opposite of the import without calling
 * the kernel" */
void ref_ibv_unimport_pd(struct ibv_pd *pd)
{
	free(pd);
}
