// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_dmah(3), ibv_dealloc_dmah(3): documented since rdma-core 59
 * (IBVERBS_1.15), written from upstream's page.  A DMA handle is the
 * kernel's (UVERBS_OBJECT_DMAH, after ASYNC_EVENT in upstream's
 * kernel-headers/rdma/ib_user_ioctl_cmds.h; its ALLOC method takes the
 * new handle and, as comp_mask selects them, the CPU id, the TPH memory
 * type and the processing hints).  A kernel without the object, or a
 * driver without DMA handles (rxe, siw), refuses it: the reference then
 * says EOPNOTSUPP, not supported.
 */
#include <errno.h>
#include <stdlib.h>
#include <rdma/ib_user_ioctl_cmds.h>

#include "ref_verbs.h"
#include "objects.h"

#define REF_OBJECT_DMAH (UVERBS_OBJECT_ASYNC_EVENT + 1)
enum { REF_METHOD_DMAH_ALLOC, REF_METHOD_DMAH_FREE };
enum {
	REF_ATTR_ALLOC_DMAH_HANDLE,
	REF_ATTR_ALLOC_DMAH_CPU_ID,
	REF_ATTR_ALLOC_DMAH_TPH_MEM_TYPE,
	REF_ATTR_ALLOC_DMAH_PH,
};
enum { REF_ATTR_FREE_DMA_HANDLE };

struct ref_dmah {
	struct rc_ibv_dmah dmah; /* first */
	uint32_t handle;
};

static int not_supported(int err)
{
	return err == ENOTTY || err == EPROTONOSUPPORT ? EOPNOTSUPP : err;
}

/* "returns a pointer to the allocated dma handle object, or NULL if the
 * request fails" */
struct ibv_dmah *ref_ibv_alloc_dmah(struct ibv_context *context,
				    struct rc_ibv_dmah_init_attr *attr)
{
	const uint32_t known = RC_IBV_DMAH_INIT_ATTR_MASK_CPU_ID |
			       RC_IBV_DMAH_INIT_ATTR_MASK_PH |
			       RC_IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE;
	struct ib_uverbs_attr a[4] = {
		REF_ATTR_IDR(REF_ATTR_ALLOC_DMAH_HANDLE, 0),
	};
	struct ref_dmah *d;
	unsigned int n = 1;
	int err;

	/* a mask bit the page does not name cannot be what the caller
	 * meant (our reading) */
	if (!context || !attr || (attr->comp_mask & ~known))
		return ref_fail_null(EINVAL);
	if (attr->comp_mask & RC_IBV_DMAH_INIT_ATTR_MASK_CPU_ID)
		a[n++] = (struct ib_uverbs_attr)REF_ATTR(
			REF_ATTR_ALLOC_DMAH_CPU_ID, sizeof(attr->cpu_id),
			attr->cpu_id);
	if (attr->comp_mask & RC_IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE)
		a[n++] = (struct ib_uverbs_attr)REF_ATTR_CONST(
			REF_ATTR_ALLOC_DMAH_TPH_MEM_TYPE, attr->tph_mem_type);
	if (attr->comp_mask & RC_IBV_DMAH_INIT_ATTR_MASK_PH)
		a[n++] = (struct ib_uverbs_attr)REF_ATTR(
			REF_ATTR_ALLOC_DMAH_PH, sizeof(attr->ph), attr->ph);
	d = calloc(1, sizeof(*d));
	if (!d)
		return ref_fail_null(ENOMEM);
	err = -ref_ioctl(context->cmd_fd, ref_ctx(context)->driver_id,
			 REF_OBJECT_DMAH, REF_METHOD_DMAH_ALLOC, a, n);
	if (err) {
		free(d);
		return ref_fail_null(not_supported(err));
	}
	d->dmah.context = context;
	d->handle = a[0].data;
	return (struct ibv_dmah *)d;
}

/* "returns 0 upon success, otherwise the errno value" */
int ref_ibv_dealloc_dmah(struct ibv_dmah *dmah)
{
	struct ref_dmah *d = (struct ref_dmah *)dmah;
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(REF_ATTR_FREE_DMA_HANDLE, 0),
	};
	int err;

	if (!d)
		return ref_fail(EINVAL);
	a[0].data = d->handle;
	err = -ref_ioctl(d->dmah.context->cmd_fd,
			 ref_ctx(d->dmah.context)->driver_id, REF_OBJECT_DMAH,
			 REF_METHOD_DMAH_FREE, a, 1);
	if (err)
		return ref_fail(not_supported(err));
	free(d);
	return 0;
}
