// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_open_device(3), ibv_close_device(3), ibv_import_device(3).
 *
 * A context is the device's uverbs node opened (its command fd) and the
 * kernel's user context made on it (IB_USER_VERBS_CMD_GET_CONTEXT, with
 * the provider's driver data), which also gives the async event fd and
 * the number of completion vectors.  Closing the command fd releases
 * every kernel object made on it.
 *
 * An imported context is another context's command fd: its user context
 * exists, so only what it says of itself is asked (UVERBS_METHOD_QUERY_
 * CONTEXT) and an async event fd of its own is made (UVERBS_METHOD_ASYNC_
 * EVENT_ALLOC).  A driver opts in to this by answering QUERY_CONTEXT
 * (ops.query_ucontext); neither rxe nor siw does in Linux 6.1, where the
 * kernel answers EOPNOTSUPP, and so does the reference.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "ref_verbs.h"
#include "objects.h"

/* enum rdma_driver_id has fewer; later kernels may add some */
#define MAX_DRIVER_ID 64

/*
 * The driver id the kernel takes on @fd, which has a user context.  Any
 * method would do, since the id is checked before the method runs (EINVAL
 * for a wrong one); QUERY_CONTEXT never answers EINVAL on a context.
 * -1 if no id works (a kernel without the ioctl interface).
 */
static int probe_driver_id(int fd)
{
	struct ib_uverbs_attr a[1];
	uint32_t n;
	int id, err;

	for (id = 0; id < MAX_DRIVER_ID; id++) {
		a[0] = (struct ib_uverbs_attr)REF_ATTR_OPT(
			UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, sizeof(n),
			&n);
		err = ref_ioctl(fd, id, UVERBS_OBJECT_DEVICE,
				UVERBS_METHOD_QUERY_CONTEXT, a, 1);
		if (err != -EINVAL)
			return err == -ENOTTY ? -1 : id;
	}
	return -1;
}

static void set_driver(struct ref_context *ctx, struct ref_device *dev)
{
	int id = dev->driver_id;

	if (id < 0)
		id = probe_driver_id(ctx->ctx.cmd_fd);
	ctx->driver_id = id < 0 ? RDMA_DRIVER_UNKNOWN : id;
	ctx->prov = ref_provider_for(ctx->driver_id);
}

static struct ref_context *new_context(struct ref_device *dev, int cmd_fd)
{
	struct ref_context *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->dev = dev;
	ctx->ctx.device = &dev->dev;
	ctx->ctx.cmd_fd = cmd_fd;
	ctx->ctx.async_fd = -1;
	/* not libibverbs' extended context: its inline verbs given this one
	 * find no ops (verbs_get_ctx() is NULL) rather than foreign memory */
	ctx->ctx.abi_compat = NULL;
	/* what <infiniband/verbs.h>'s inline data-path verbs call */
	ctx->ctx.ops.post_send = ref_ibv_post_send;
	ctx->ctx.ops.post_recv = ref_ibv_post_recv;
	ctx->ctx.ops.post_srq_recv = ref_ibv_post_srq_recv;
	ctx->ctx.ops.poll_cq = ref_ibv_poll_cq;
	ctx->ctx.ops.req_notify_cq = ref_ibv_req_notify_cq;
	pthread_mutex_init(&ctx->ctx.mutex, NULL);
	return ctx;
}

static void free_context(struct ref_context *ctx)
{
	pthread_mutex_destroy(&ctx->ctx.mutex);
	free(ctx);
}

/* The user context, with the provider's part: 0 or an errno value. */
static int get_context(struct ref_context *ctx)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct {
		struct ib_uverbs_get_context_resp core;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} resp = {};
	struct ref_udata u = {};
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	set_driver(ctx, ctx->dev);
	if (ctx->prov->ctx_in)
		ctx->prov->ctx_in(&u);
	memcpy(cmd.drv, u.in, u.in_len);
	cmd.body.response = (uintptr_t)&resp;
	err = ref_write(ctx->ctx.cmd_fd, IB_USER_VERBS_CMD_GET_CONTEXT, &cmd,
			sizeof(cmd.hdr) + sizeof(cmd.body) + u.in_len,
			sizeof(resp.core) + u.out_len);
	if (err)
		return err;
	ctx->ctx.async_fd = resp.core.async_fd;
	ctx->ctx.num_comp_vectors = resp.core.num_comp_vectors;
	memcpy(u.out, resp.drv, u.out_len);
	if (ctx->prov->ctx_done)
		err = ctx->prov->ctx_done(ctx, &u);
	/* a driver's context that was made and not taken is undone with
	 * the command fd, by the caller */
	return err;
}

/* "returns a pointer to the allocated device context, or NULL if the
 * request fails" (errno says why) */
struct ibv_context *ref_ibv_open_device(struct ibv_device *device)
{
	struct ref_device *dev = (struct ref_device *)device;
	struct ref_context *ctx;
	char path[64 + IBV_SYSFS_NAME_MAX];
	int fd, err;

	if (!dev)
		return ref_fail_null(EINVAL);
	snprintf(path, sizeof(path), "/dev/infiniband/%s", device->dev_name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ctx = new_context(dev, fd);
	if (!ctx) {
		close(fd);
		return ref_fail_null(ENOMEM);
	}
	err = get_context(ctx);
	if (err) {
		if (ctx->ctx.async_fd >= 0)
			close(ctx->ctx.async_fd);
		close(fd);
		free_context(ctx);
		return ref_fail_null(err);
	}
	ref_device_get(dev);
	return &ctx->ctx;
}

/* "returns 0 on success, -1 on failure" */
int ref_ibv_close_device(struct ibv_context *context)
{
	struct ref_context *ctx = ref_ctx(context);

	if (!ctx) {
		errno = EINVAL;
		return -1;
	}
	if (context->async_fd >= 0)
		close(context->async_fd);
	/* for an imported context too: "This call may cleanup whatever is
	 * needed/opposite of the import including closing the command FD." */
	close(context->cmd_fd);
	ref_device_put(ctx->dev);
	free_context(ctx);
	return 0;
}

/* What the user context on @ctx's fd says of itself: 0 or -errno. */
static int query_context(struct ref_context *ctx)
{
	struct ib_uverbs_attr a[] = {
		REF_ATTR(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			 sizeof(uint32_t), &ctx->ctx.num_comp_vectors),
	};

	BUILD_ASSERT(sizeof(ctx->ctx.num_comp_vectors) == sizeof(uint32_t));
	return ref_ioctl(ctx->ctx.cmd_fd, ctx->driver_id, UVERBS_OBJECT_DEVICE,
			 UVERBS_METHOD_QUERY_CONTEXT, a, 1);
}

/* An async event fd of the context's own: 0 or -errno. */
static int alloc_async_fd(struct ref_context *ctx)
{
	struct ib_uverbs_attr a[] = {
		REF_ATTR(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0),
	};
	int err = ref_ioctl(ctx->ctx.cmd_fd, ctx->driver_id,
			    UVERBS_OBJECT_ASYNC_EVENT,
			    UVERBS_METHOD_ASYNC_EVENT_ALLOC, a, 1);

	if (!err)
		ctx->ctx.async_fd = a[0].data;
	return err;
}

/* "returns a pointer to the allocated RDMA context, or NULL if the
 * request fails"; @cmd_fd is the caller's dup and becomes the context's */
struct ibv_context *ref_ibv_import_device(int cmd_fd)
{
	struct ref_device *dev;
	struct ref_context *ctx;
	struct stat st;
	int err;

	if (fstat(cmd_fd, &st))
		return NULL;
	if (!S_ISCHR(st.st_mode))
		return ref_fail_null(EINVAL);
	dev = ref_device_by_devt(st.st_rdev);
	if (!dev)
		return NULL;
	ctx = new_context(dev, cmd_fd);
	if (!ctx) {
		ref_device_put(dev);
		return ref_fail_null(ENOMEM);
	}
	ctx->imported = true;
	set_driver(ctx, dev);
	err = query_context(ctx);
	if (!err)
		err = alloc_async_fd(ctx);
	if (err) {
		/* the fd stays the caller's when the import fails */
		ref_device_put(dev);
		free_context(ctx);
		return ref_fail_null(-err);
	}
	return &ctx->ctx;
}
