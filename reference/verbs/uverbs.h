/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How the reference talks to the kernel's uverbs device: the write()
 * commands of <rdma/ib_user_verbs.h> (legacy and extended) and the
 * RDMA_VERBS_IOCTL methods of <rdma/ib_user_ioctl_cmds.h>.  Nothing here
 * knows a verb; the callers build the command structures.
 */
#ifndef RDMACONF_REF_UVERBS_H
#define RDMACONF_REF_UVERBS_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#define BUILD_ASSERT(cond) _Static_assert(cond, #cond)
/* two enums' constants with one value (the kernel's and libibverbs') */
#define BUILD_ASSERT_SAME(a, b) BUILD_ASSERT((long)(a) == (long)(b))

/*
 * The most driver data a command carries in either direction, in 64-bit
 * words.  rxe's and siw's largest (struct rxe_create_qp_resp, struct
 * siw_uresp_create_qp) take 4.
 */
#define REF_UDATA_WORDS 8

/*
 * A legacy write command: @cmd is @in_len bytes, a struct
 * ib_uverbs_cmd_hdr, the command's own structure and the driver's data
 * after it; its response field (if it has one) points at @out_len bytes,
 * the core response and the driver's after it.  0 or an errno value.
 */
int ref_write(int fd, uint32_t command, void *cmd, size_t in_len,
	      size_t out_len);

/*
 * An extended write command (IB_USER_VERBS_CMD_FLAG_EXTENDED): @cmd holds
 * a struct ib_uverbs_cmd_hdr, a struct ib_uverbs_ex_cmd_hdr, @core_in
 * bytes of the command and @drv_in of driver data; @resp receives
 * @core_out bytes of response and @drv_out of the driver's.  All four
 * lengths are multiples of 8.  0 or an errno value.
 */
int ref_write_ex(int fd, uint32_t command, void *cmd, size_t core_in,
		 size_t drv_in, void *resp, size_t core_out, size_t drv_out);

/*
 * One method through RDMA_VERBS_IOCTL with @n attributes.  The kernel
 * writes some answers into the attributes themselves (a new object's
 * handle or fd lands in .data), so @attrs is updated.  @driver_id must be
 * the device's (enum rdma_driver_id), or the kernel refuses with EINVAL.
 * 0 or -errno.
 */
int ref_ioctl(int fd, uint32_t driver_id, uint16_t object, uint16_t method,
	      struct ib_uverbs_attr *attrs, unsigned int n);

#define REF_IOCTL_MAX_ATTRS 10

/* Destroy the object @handle by @command (a write of just the handle),
 * or by the ioctl @object, @method where this process may not write:
 * 0 or an errno value. */
int ref_destroy(int fd, uint32_t driver_id, uint32_t command, uint16_t object,
		uint16_t method, uint32_t handle);

/* A mandatory attribute: a pointer (data is its address) or, for 8 bytes
 * or less going in, the value itself. */
#define REF_ATTR(id, len_, val)                                            \
	{                                                                  \
		.attr_id = (id), .len = (len_),                            \
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)(val) \
	}
/* A constant going in (UVERBS_ATTR_CONST_IN): always 64 bits inline,
 * whatever its type. */
#define REF_ATTR_CONST(id, val) REF_ATTR(id, sizeof(uint64_t), val)
/* An object's handle: the id in .data, no length. */
#define REF_ATTR_IDR(id, handle) REF_ATTR(id, 0, handle)
/* An answer the kernel may leave out (optional output). */
#define REF_ATTR_OPT(id, len_, val)                                      \
	{                                                                \
		.attr_id = (id), .len = (len_), .data = (uintptr_t)(val) \
	}

#endif
