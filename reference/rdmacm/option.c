// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_set_option(3): "Sets communication options for an rdma_cm_id.
 * This call is used to override the default system settings."  NOTES:
 * "Option details may be found in the relevant header files."  The
 * levels, names and lengths are the kernel's (<rdma/rdma_user_cm.h>
 * numbers them as <rdma/rdma_cma.h> does): the command hands the caller's
 * buffer and length to the kernel, which reads the option and judges its
 * length ("The expected optlen is size of uint8_t.", "... of int.").
 */
#include "cm_priv.h"
#include "ucma.h"

int ref_rdma_set_option(struct rdma_cm_id *id, int level, int optname,
			void *optval, size_t optlen)
{
	if (!id || optlen > UINT32_MAX)
		return ref_cm_fail(EINVAL);
	return ucma_set_option(id->channel->fd, ref_of(id)->handle, level,
			       optname, optval, optlen);
}
