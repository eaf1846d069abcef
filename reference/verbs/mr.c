// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_reg_mr(3), ibv_reg_mr_iova(3), ibv_rereg_mr(3), ibv_dereg_mr(3),
 * ibv_import_mr(3), ibv_unimport_mr(3), ibv_alloc_mw(3),
 * ibv_dealloc_mw(3), ibv_inc_rkey(3).
 *
 * An MR is the kernel's (REG_MR) over the caller's pages: the kernel pins
 * them and answers with the handle and both keys; the provider's part is
 * siw's STag key.  The address the MR is reached by through its keys (the
 * kernel's hca_va) is the buffer's own for ibv_reg_mr, the caller's for
 * ibv_reg_mr_iova, and 0 with IBV_ACCESS_ZERO_BASED ("Specifying 0 for
 * hca_va has the same effect as IBV_ACCESS_ZERO_BASED").  The kernel
 * wants it at the same offset in its page as the buffer.  An imported MR
 * is what the kernel says of a handle of the context's
 * (UVERBS_METHOD_QUERY_MR): its keys and length.  ibv_reg_mr_ex(3) is
 * documented since rdma-core 59 (IBVERBS_1.15), read from upstream's page.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "ref_verbs.h"
#include "objects.h"

/* the access flags go to the kernel as they are */
BUILD_ASSERT_SAME(IBV_ACCESS_LOCAL_WRITE, IB_UVERBS_ACCESS_LOCAL_WRITE);
BUILD_ASSERT_SAME(IBV_ACCESS_REMOTE_WRITE, IB_UVERBS_ACCESS_REMOTE_WRITE);
BUILD_ASSERT_SAME(IBV_ACCESS_REMOTE_READ, IB_UVERBS_ACCESS_REMOTE_READ);
BUILD_ASSERT_SAME(IBV_ACCESS_REMOTE_ATOMIC, IB_UVERBS_ACCESS_REMOTE_ATOMIC);
BUILD_ASSERT_SAME(IBV_ACCESS_MW_BIND, IB_UVERBS_ACCESS_MW_BIND);
BUILD_ASSERT_SAME(IBV_ACCESS_ZERO_BASED, IB_UVERBS_ACCESS_ZERO_BASED);
BUILD_ASSERT_SAME(IBV_ACCESS_ON_DEMAND, IB_UVERBS_ACCESS_ON_DEMAND);
BUILD_ASSERT_SAME(IBV_ACCESS_HUGETLB, IB_UVERBS_ACCESS_HUGETLB);
BUILD_ASSERT_SAME(IBV_ACCESS_RELAXED_ORDERING,
		  IB_UVERBS_ACCESS_RELAXED_ORDERING);
BUILD_ASSERT_SAME(IBV_ACCESS_OPTIONAL_RANGE, IB_UVERBS_ACCESS_OPTIONAL_RANGE);
/* and so do the rereg flags (IB_MR_REREG_TRANS, _PD, _ACCESS) */
BUILD_ASSERT(IBV_REREG_MR_CHANGE_TRANSLATION == 1 &&
	     IBV_REREG_MR_CHANGE_PD == 2 && IBV_REREG_MR_CHANGE_ACCESS == 4);

/* "If IBV_ACCESS_REMOTE_WRITE or IBV_ACCESS_REMOTE_ATOMIC is set, then
 * IBV_ACCESS_LOCAL_WRITE must be set too." */
static bool access_ok(int access)
{
	return !(access &
		 (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) ||
	       (access & IBV_ACCESS_LOCAL_WRITE);
}

static struct ibv_mr *reg(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_reg_mr body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	/* the driver's answer follows the 12 bytes of the core's */
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u32 drv[2 * REF_UDATA_WORDS];
	} resp = {};
	const struct ref_provider *prov;
	struct ref_udata u = {};
	struct ref_mr *mr;
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	if (!pd || !access_ok(access))
		return ref_fail_null(EINVAL);
	prov = ref_ctx(pd->context)->prov;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return ref_fail_null(ENOMEM);
	/* the environment's fork protection is taken before this first
	 * registration makes ibv_fork_init(3) too late */
	if (ref_fork_protecting()) {
		err = ref_dontfork_range(addr, length);
		if (err)
			goto err_free;
		mr->dontfork = true;
	}
	ref_fork_note_registration();
	if (prov->mr_in)
		prov->mr_in(&u);
	memcpy(cmd.drv, u.in, u.in_len);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.start = (uintptr_t)addr;
	cmd.body.length = length;
	cmd.body.hca_va = hca_va;
	cmd.body.pd_handle = pd->handle;
	cmd.body.access_flags = access;
	err = ref_write(pd->context->cmd_fd, IB_USER_VERBS_CMD_REG_MR, &cmd,
			sizeof(cmd.hdr) + sizeof(cmd.body) + u.in_len,
			sizeof(resp.core) + u.out_len);
	if (err)
		goto err_fork;
	mr->mr.context = pd->context;
	mr->mr.pd = pd;
	mr->mr.addr = addr;
	mr->mr.length = length;
	mr->mr.handle = resp.core.mr_handle;
	mr->mr.lkey = resp.core.lkey;
	mr->mr.rkey = resp.core.rkey;
	return &mr->mr;

err_fork:
	if (mr->dontfork)
		ref_dofork_range(addr, length);
err_free:
	free(mr);
	return ref_fail_null(err);
}

/* "returns a pointer to the registered MR, or NULL if the request fails" */
struct ibv_mr *ref_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			      int access)
{
	uint64_t hca_va = access & IBV_ACCESS_ZERO_BASED ? 0 : (uintptr_t)addr;

	return reg(pd, addr, length, hca_va, access);
}

struct ibv_mr *ref_ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length,
				   uint64_t hca_va, int access)
{
	return reg(pd, addr, length, hca_va, access);
}

/*
 * ibv_reg_mr_ex "enables all the variants of the other ibv_reg_mr_xxx()",
 * the fields chosen by comp_mask: "One among mr_init_attr->fd and
 * mr_init_attr->addr is required, both can't come together."  A buffer of
 * ibv_alloc_buf(3) needs its address ("IBV_REG_MR_MASK_ADDR must be set")
 * and no fd ("the caller must not set IBV_REG_MR_MASK_FD or
 * IBV_REG_MR_MASK_FD_OFFSET"), within its range and on its PD; the
 * reference's buffers are ordinary memory, where an iova is the caller's
 * as for ibv_reg_mr_iova.  A mask bit the page does not name is refused
 * (our reading: the request cannot be what the caller meant), and so is
 * a DMA handle: no device the reference drives makes one.
 */
struct ibv_mr *ref_ibv_reg_mr_ex(struct ibv_pd *pd,
				 struct rc_ibv_mr_init_attr *a)
{
	const uint64_t known = RC_IBV_REG_MR_MASK_IOVA |
			       RC_IBV_REG_MR_MASK_ADDR | RC_IBV_REG_MR_MASK_FD |
			       RC_IBV_REG_MR_MASK_FD_OFFSET |
			       RC_IBV_REG_MR_MASK_DMAH | RC_IBV_REG_MR_MASK_BUF;
	bool by_addr, by_fd;
	uint64_t m, off;
	int err;

	if (!pd || !a || (a->comp_mask & ~known))
		return ref_fail_null(EINVAL);
	m = a->comp_mask;
	by_addr = m & RC_IBV_REG_MR_MASK_ADDR;
	by_fd = m & RC_IBV_REG_MR_MASK_FD;
	if (by_addr == by_fd)
		return ref_fail_null(EINVAL);
	if (m & RC_IBV_REG_MR_MASK_DMAH)
		return ref_fail_null(a->dmah ? EOPNOTSUPP : EINVAL);
	if (m & RC_IBV_REG_MR_MASK_BUF) {
		if (!by_addr || (m & RC_IBV_REG_MR_MASK_FD_OFFSET))
			return ref_fail_null(EINVAL);
		err = ref_buf_range(pd, a->buf, a->addr, a->length);
		if (err)
			return ref_fail_null(err);
	}
	if (by_fd) {
		off = m & RC_IBV_REG_MR_MASK_FD_OFFSET ? a->fd_offset : 0;
		/* the iova must have the offset's page offset: the offset
		 * itself unless one is given */
		return ref_ibv_reg_dmabuf_mr(
			pd, off, a->length,
			m & RC_IBV_REG_MR_MASK_IOVA ? a->iova : off, a->fd,
			a->access);
	}
	if (m & RC_IBV_REG_MR_MASK_IOVA)
		return reg(pd, a->addr, a->length, a->iova, a->access);
	return ref_ibv_reg_mr(pd, a->addr, a->length, a->access);
}

/* "returns 0 on success, or the value of errno on failure"; "fails if any
 * memory window is still bound to this MR" (the kernel's EBUSY) */
int ref_ibv_dereg_mr(struct ibv_mr *ibmr)
{
	struct ref_mr *mr = ref_mr(ibmr);
	int err;

	if (!mr)
		return ref_fail(EINVAL);
	err = ref_destroy(ibmr->context->cmd_fd,
			  ref_ctx(ibmr->context)->driver_id,
			  IB_USER_VERBS_CMD_DEREG_MR, UVERBS_OBJECT_MR,
			  UVERBS_METHOD_MR_DESTROY, ibmr->handle);
	if (err)
		return ref_fail(err);
	if (mr->dontfork)
		ref_dofork_range(ibmr->addr, ibmr->length);
	free(mr);
	return 0;
}

static int rereg_cmd(struct ibv_mr *mr, int flags, struct ibv_pd *pd,
		     void *addr, size_t length, int access, uint32_t *lkey,
		     uint32_t *rkey)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_rereg_mr body;
	} cmd = {};
	struct ib_uverbs_rereg_mr_resp resp = {};
	int err;

	cmd.body.response = (uintptr_t)&resp;
	cmd.body.mr_handle = mr->handle;
	cmd.body.flags = flags;
	if (flags & IBV_REREG_MR_CHANGE_TRANSLATION) {
		cmd.body.start = (uintptr_t)addr;
		cmd.body.length = length;
		cmd.body.hca_va = (uintptr_t)addr;
	}
	if (flags & IBV_REREG_MR_CHANGE_PD)
		cmd.body.pd_handle = pd->handle;
	cmd.body.access_flags = access;
	err = ref_write(mr->context->cmd_fd, IB_USER_VERBS_CMD_REREG_MR, &cmd,
			sizeof(cmd), sizeof(resp));
	if (!err) {
		*lkey = resp.lkey;
		*rkey = resp.rkey;
	}
	return err;
}

/*
 * "returns 0 on success, otherwise an error has occurred, enum
 * ibv_rereg_mr_err_code represents the error", with errno set.  Input
 * errors (our reading of "an input error was detected by libibverbs"):
 * flags outside the three, no flag at all (nothing to change), a new PD
 * that is NULL, a new translation of length 0, and access flags that
 * break ibv_reg_mr(3)'s rule.
 */
int ref_ibv_rereg_mr(struct ibv_mr *ibmr, int flags, struct ibv_pd *pd,
		     void *addr, size_t length, int access)
{
	const int known = IBV_REREG_MR_CHANGE_TRANSLATION |
			  IBV_REREG_MR_CHANGE_PD | IBV_REREG_MR_CHANGE_ACCESS;
	bool trans = flags & IBV_REREG_MR_CHANGE_TRANSLATION;
	struct ref_mr *mr = ref_mr(ibmr);
	uint32_t lkey, rkey;
	bool protect;
	int err;

	if (!mr || !flags || (flags & ~known) ||
	    ((flags & IBV_REREG_MR_CHANGE_PD) && !pd) || (trans && !length) ||
	    ((flags & IBV_REREG_MR_CHANGE_ACCESS) && !access_ok(access))) {
		errno = EINVAL;
		return IBV_REREG_MR_ERR_INPUT;
	}
	protect = trans && ref_fork_protecting();
	if (protect) {
		err = ref_dontfork_range(addr, length);
		if (err) {
			errno = err;
			return IBV_REREG_MR_ERR_DONT_FORK_NEW;
		}
	}
	err = rereg_cmd(ibmr, flags, pd, addr, length, access, &lkey, &rkey);
	if (err) {
		if (protect && ref_dofork_range(addr, length)) {
			errno = err;
			return IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW;
		}
		errno = err;
		return IBV_REREG_MR_ERR_CMD;
	}
	ibmr->lkey = lkey;
	ibmr->rkey = rkey;
	if (flags & IBV_REREG_MR_CHANGE_PD)
		ibmr->pd = pd;
	if (trans) {
		void *old_addr = ibmr->addr;
		size_t old_len = ibmr->length;
		bool had = mr->dontfork;

		ibmr->addr = addr;
		ibmr->length = length;
		mr->dontfork = protect;
		if (had && ref_dofork_range(old_addr, old_len)) {
			errno = EINVAL;
			return IBV_REREG_MR_ERR_DO_FORK_OLD;
		}
	}
	return 0;
}

/* "returns a pointer to the allocated MR, or NULL if the request fails";
 * "The addr field in the imported MR is not applicable, NULL value is
 * expected." */
struct ibv_mr *ref_ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	uint32_t lkey = 0, rkey = 0;
	uint64_t length = 0;
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_QUERY_MR_HANDLE, mr_handle),
		REF_ATTR(UVERBS_ATTR_QUERY_MR_RESP_LKEY, sizeof(lkey), &lkey),
		REF_ATTR(UVERBS_ATTR_QUERY_MR_RESP_RKEY, sizeof(rkey), &rkey),
		REF_ATTR(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, sizeof(length),
			 &length),
	};
	struct ref_mr *mr;
	int err;

	if (!pd)
		return ref_fail_null(EINVAL);
	err = -ref_ioctl(pd->context->cmd_fd, ref_ctx(pd->context)->driver_id,
			 UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, a, 4);
	if (err)
		return ref_fail_null(err);
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return ref_fail_null(ENOMEM);
	mr->mr.context = pd->context;
	mr->mr.pd = pd;
	mr->mr.addr = NULL;
	mr->mr.length = length;
	mr->mr.handle = mr_handle;
	mr->mr.lkey = lkey;
	mr->mr.rkey = rkey;
	return &mr->mr;
}

void ref_ibv_unimport_mr(struct ibv_mr *mr)
{
	free(ref_mr(mr));
}

/* "returns a pointer to the allocated MW, or NULL if the request fails";
 * "The MW's type (1 or 2A/2B) is type." */
struct ibv_mw *ref_ibv_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_alloc_mw body;
	} cmd = {};
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ibv_mw *mw;
	int err;

	if (!pd || (type != IBV_MW_TYPE_1 && type != IBV_MW_TYPE_2))
		return ref_fail_null(EINVAL);
	mw = calloc(1, sizeof(*mw));
	if (!mw)
		return ref_fail_null(ENOMEM);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.pd_handle = pd->handle;
	cmd.body.mw_type = type;
	err = ref_write(pd->context->cmd_fd, IB_USER_VERBS_CMD_ALLOC_MW, &cmd,
			sizeof(cmd), sizeof(resp));
	if (err) {
		free(mw);
		return ref_fail_null(err);
	}
	mw->context = pd->context;
	mw->pd = pd;
	mw->rkey = resp.rkey;
	mw->handle = resp.mw_handle;
	mw->type = type;
	return mw;
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_dealloc_mw(struct ibv_mw *mw)
{
	int err;

	if (!mw)
		return ref_fail(EINVAL);
	err = ref_destroy(mw->context->cmd_fd, ref_ctx(mw->context)->driver_id,
			  IB_USER_VERBS_CMD_DEALLOC_MW, UVERBS_OBJECT_MW,
			  UVERBS_METHOD_MW_DESTROY, mw->handle);
	if (err)
		return ref_fail(err);
	free(mw);
	return 0;
}

/* "Increases the 8 LSB of rkey and returns the new value", "the same
 * index (bits 0xffffff00)": the tag wraps within its byte. */
uint32_t ref_ibv_inc_rkey(uint32_t rkey)
{
	return (rkey & 0xffffff00) | ((rkey + 1) & 0xff);
}
