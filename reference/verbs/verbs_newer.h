/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The libibverbs types that calls documented after rdma-core 44.0 take,
 * which 44.0's <infiniband/verbs.h> does not declare: the buffer handle of
 * ibv_alloc_buf(3) (IBVERBS_1.17), the input of ibv_reg_mr_ex(3) and the
 * DMA handle of ibv_alloc_dmah(3) and its input (IBVERBS_1.15).  The harness calls either implementation through one
 * ops table, so these must be what a caller of the newer library passes.
 *
 * struct ibv_buf is opaque ("it must not be interpreted by
 * applications"): a declaration without a body, which any header agrees
 * with, and each implementation gives its own handles.  The input of
 * ibv_reg_mr_ex has the fields ibv_reg_mr(3) names (mr_init_attr->
 * comp_mask, ->addr, ->length, ->fd, ->fd_offset, ->iova, ->dmah, ->buf,
 * and access as for the other verbs); their order, types and the mask's
 * bit values are the ABI of upstream's installed <infiniband/verbs.h>
 * (libibverbs 1.18.65), under names of the suite's own, so that the suite
 * builds against a header that declares them or not.
 */
#ifndef RDMACONF_REF_VERBS_NEWER_H
#define RDMACONF_REF_VERBS_NEWER_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

struct ibv_buf;
struct ibv_dmah;

/* struct ibv_dmah: the DMA handle's public part, "associated with the
 * given context" */
struct rc_ibv_dmah {
	struct ibv_context *context;
};

/* enum ibv_dmah_init_attr_mask, enum ibv_tph_mem_type and struct
 * ibv_dmah_init_attr, as ibv_alloc_dmah(3) shows them */
enum {
	RC_IBV_DMAH_INIT_ATTR_MASK_CPU_ID = 1 << 0,
	RC_IBV_DMAH_INIT_ATTR_MASK_PH = 1 << 1,
	RC_IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE = 1 << 2,
};

enum {
	RC_IBV_TPH_MEM_TYPE_VM, /* volatile memory */
	RC_IBV_TPH_MEM_TYPE_PM, /* persistent memory */
};

struct rc_ibv_dmah_init_attr {
	uint32_t comp_mask; /* RC_IBV_DMAH_INIT_ATTR_MASK_* */
	uint32_t cpu_id;
	uint8_t ph;
	uint8_t tph_mem_type; /* RC_IBV_TPH_MEM_TYPE_* */
};

/* enum ibv_mr_init_attr_mask: which fields of the input count */
enum {
	RC_IBV_REG_MR_MASK_IOVA = 1 << 0,
	RC_IBV_REG_MR_MASK_ADDR = 1 << 1,
	RC_IBV_REG_MR_MASK_FD = 1 << 2,
	RC_IBV_REG_MR_MASK_FD_OFFSET = 1 << 3,
	RC_IBV_REG_MR_MASK_DMAH = 1 << 4,
	RC_IBV_REG_MR_MASK_BUF = 1 << 5,
};

/* struct ibv_mr_init_attr */
struct rc_ibv_mr_init_attr {
	size_t length;
	int access;
	uint64_t comp_mask; /* RC_IBV_REG_MR_MASK_* */
	uint64_t iova;
	void *addr;
	int fd;
	uint64_t fd_offset;
	struct ibv_dmah *dmah;
	struct ibv_buf *buf;
};

/* the layout on LP64, as the upstream header's compiler lays it out */
#if __SIZEOF_POINTER__ == 8
_Static_assert(sizeof(struct rc_ibv_mr_init_attr) == 72 &&
		       offsetof(struct rc_ibv_mr_init_attr, comp_mask) == 16 &&
		       offsetof(struct rc_ibv_mr_init_attr, addr) == 32 &&
		       offsetof(struct rc_ibv_mr_init_attr, fd_offset) == 48 &&
		       offsetof(struct rc_ibv_mr_init_attr, buf) == 64,
	       "struct ibv_mr_init_attr's layout");
#endif

#endif
