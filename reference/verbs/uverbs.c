// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The uverbs command transport (uverbs.h).  A write() of a command
 * returns the number of bytes written or fails with errno; the kernel
 * checks in_words against the count (legacy: 4-byte words, header
 * included; extended: 8-byte words after both headers), so the lengths
 * here must be exact.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "uverbs.h"

int ref_write(int fd, uint32_t command, void *cmd, size_t in_len,
	      size_t out_len)
{
	struct ib_uverbs_cmd_hdr *hdr = cmd;

	if (in_len % 4 || out_len % 4)
		return EINVAL;
	hdr->command = command;
	hdr->in_words = in_len / 4;
	hdr->out_words = out_len / 4;
	errno = 0;
	if (write(fd, cmd, in_len) == (ssize_t)in_len)
		return 0;
	return errno ? errno : EIO;
}

int ref_write_ex(int fd, uint32_t command, void *cmd, size_t core_in,
		 size_t drv_in, void *resp, size_t core_out, size_t drv_out)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
	} *h = cmd;
	size_t len = sizeof(*h) + core_in + drv_in;

	BUILD_ASSERT(sizeof(*h) == 24);
	if ((core_in | drv_in | core_out | drv_out) % 8)
		return EINVAL;
	h->hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | command;
	h->hdr.in_words = core_in / 8;
	h->hdr.out_words = core_out / 8;
	h->ex.response = (uintptr_t)resp;
	h->ex.provider_in_words = drv_in / 8;
	h->ex.provider_out_words = drv_out / 8;
	h->ex.cmd_hdr_reserved = 0;
	errno = 0;
	if (write(fd, cmd, len) == (ssize_t)len)
		return 0;
	return errno ? errno : EIO;
}

#define ATTRS_ROOM (REF_IOCTL_MAX_ATTRS * sizeof(struct ib_uverbs_attr))

int ref_ioctl(int fd, uint32_t driver_id, uint16_t object, uint16_t method,
	      struct ib_uverbs_attr *attrs, unsigned int n)
{
	union {
		struct ib_uverbs_ioctl_hdr hdr;
		uint8_t raw[sizeof(struct ib_uverbs_ioctl_hdr) + ATTRS_ROOM];
	} cmd = { .hdr = {
			  .length = sizeof(struct ib_uverbs_ioctl_hdr) +
				    n * sizeof(struct ib_uverbs_attr),
			  .object_id = object,
			  .method_id = method,
			  .num_attrs = n,
			  .driver_id = driver_id,
		  } };
	int ret;

	if (fd < 0)
		return -EBADF;
	if (n > REF_IOCTL_MAX_ATTRS)
		return -EINVAL;
	memcpy(cmd.hdr.attrs, attrs, n * sizeof(*attrs));
	ret = ioctl(fd, RDMA_VERBS_IOCTL, &cmd) ? -errno : 0;
	memcpy(attrs, cmd.hdr.attrs, n * sizeof(*attrs));
	return ret;
}

/*
 * The commands that destroy an object by its handle alone (DEALLOC_PD,
 * DEREG_MR, DEALLOC_MW) share one layout, as do their ioctl methods (the
 * handle is attribute 0).  A process other than the one that opened @fd
 * has other credentials, and the kernel refuses its write()s (EACCES,
 * ib_safe_file_access) but not its ioctls: there, the method.
 */
int ref_destroy(int fd, uint32_t driver_id, uint32_t command, uint16_t object,
		uint16_t method, uint32_t handle)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_dealloc_pd body;
	} cmd = { .body.pd_handle = handle };
	struct ib_uverbs_attr a[] = { REF_ATTR_IDR(0, handle) };
	int err;

	BUILD_ASSERT(sizeof(struct ib_uverbs_dealloc_pd) ==
		     sizeof(struct ib_uverbs_dereg_mr));
	BUILD_ASSERT(sizeof(struct ib_uverbs_dealloc_pd) ==
		     sizeof(struct ib_uverbs_dealloc_mw));
	err = ref_write(fd, command, &cmd, sizeof(cmd), 0);
	if (err == EACCES)
		err = -ref_ioctl(fd, driver_id, object, method, a, 1);
	return err;
}
