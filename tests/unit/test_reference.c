// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The reference libibumad's own decisions, which need no device: which
 * handles and agent ids are valid, the documented -EINVAL checks that come
 * before any system call, and how system call results map to the man
 * pages' return values.  A port handle over /dev/null stands in for a umad
 * descriptor where the kernel's answer does not matter.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "../../reference/umad/ref_umad.h"
#include "../../reference/umad/ports.h"

#define UNOPENED 1000

static int fake_port(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	cr_assert(fd >= 0);
	cr_assert_eq(ref_port_add(fd), 0);
	return fd;
}

Test(reference, unopened_handle_is_einval_everywhere)
{
	uint8_t buf[64 + 256];
	int len = 256;

	errno = 0;
	cr_assert_eq(ref_umad_send(UNOPENED, 0, buf, 256, 0, 0), -EINVAL);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(ref_umad_recv(UNOPENED, buf, &len, 0), -EINVAL);
	cr_assert_eq(len, 256, "*length untouched on error");
	cr_assert_eq(ref_umad_poll(UNOPENED, 0), -EINVAL);
	cr_assert_eq(ref_umad_get_fd(UNOPENED), -EINVAL);
	cr_assert_eq(ref_umad_unregister(UNOPENED, 0), -EINVAL);
	cr_assert_eq(ref_umad_register(UNOPENED, 0x0a, 1, 0, NULL), -EINVAL);
	cr_assert_eq(ref_umad_register_oui(UNOPENED, 0x30, 0,
					   (uint8_t[3]){ 1, 2, 3 }, NULL),
		     -EINVAL);
	cr_assert_eq(ref_umad_close_port(UNOPENED), -EINVAL);
}

Test(reference, register_oui_range_checked_before_kernel)
{
	uint8_t oui[3] = { 1, 2, 3 };
	int fd = fake_port();

	cr_assert_eq(ref_umad_register_oui(fd, 0x2f, 0, oui, NULL), -EINVAL);
	cr_assert_eq(ref_umad_register_oui(fd, 0x50, 0, oui, NULL), -EINVAL);
	/* in range: the kernel decides (/dev/null: no such ioctl) */
	errno = 0;
	cr_assert_eq(ref_umad_register_oui(fd, 0x30, 0, oui, NULL), -EPERM);
	cr_assert_eq(errno, ENOTTY, "errno keeps the kernel's cause");
	cr_assert_eq(ref_umad_close_port(fd), 0);
	cr_assert_eq(ref_umad_close_port(fd), -EINVAL, "closed twice");
}

Test(reference, agents_are_tracked_per_port)
{
	int a = fake_port(), b = fake_port();

	cr_assert_eq(ref_agent_add(a, 3), 0);
	cr_assert(ref_agent_valid(a, 3));
	cr_assert(!ref_agent_valid(b, 3), "an id belongs to its port");
	cr_assert(!ref_agent_valid(a, 4));
	cr_assert(!ref_agent_valid(a, -1));
	cr_assert_eq(ref_umad_send(a, 4, (uint8_t[320]){}, 256, 0, 0), -EINVAL);
	ref_agent_del(a, 3);
	cr_assert(!ref_agent_valid(a, 3), "unregistered");
	ref_umad_close_port(a);
	ref_umad_close_port(b);
}

Test(reference, recv_checks_arguments_first)
{
	uint8_t buf[64 + 256];
	int fd = fake_port(), len = 255;

	cr_assert_eq(ref_umad_recv(fd, NULL, &len, 0), -EINVAL);
	cr_assert_eq(ref_umad_recv(fd, buf, NULL, 0), -EINVAL);
	cr_assert_eq(ref_umad_recv(fd, buf, &len, 0), -EINVAL, "*length < 256");
	cr_assert_eq(len, 255);
	/* a read() of nothing is not a MAD: "receive operation failed" */
	len = 256;
	cr_assert_eq(ref_umad_recv(fd, buf, &len, 0), -EIO);
	/* /dev/null always polls readable */
	cr_assert_eq(ref_umad_poll(fd, 0), 0);
	cr_assert_eq(ref_umad_get_fd(fd), fd);
	ref_umad_close_port(fd);
}

Test(reference, send_failure_is_eio_with_errno)
{
	uint8_t buf[64 + 256] = {};
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	cr_assert_eq(ref_port_add(fd), 0);
	cr_assert_eq(ref_agent_add(fd, 0), 0);
	errno = 0;
	cr_assert_eq(ref_umad_send(fd, 0, buf, 256, 100, 2), -EIO);
	cr_assert_eq(errno, EBADF, "write to a read-only fd: %d", errno);
	/* the header carries what umad_send(3) was given */
	cr_assert_eq(((struct ib_user_mad *)buf)->timeout_ms, 100);
	cr_assert_eq(((struct ib_user_mad *)buf)->retries, 2);
	cr_assert_eq(ref_umad_send(fd, 0, buf, -1, 0, 0), -EIO);
	ref_umad_close_port(fd);
}

/* The reference libibverbs: the checks made before the kernel or sysfs. */
#include "../../reference/verbs/ref_verbs.h"

Test(reference_verbs, init_ah_without_grh_is_wc_only)
{
	struct ibv_context ctx = {};
	struct ibv_wc wc = { .slid = 0x1234, .sl = 5, .dlid_path_bits = 3 };
	struct ibv_ah_attr a;
	uint8_t grh[40];

	memset(grh, 0x66, sizeof(grh));
	memset(&a, 0xc3, sizeof(a));
	cr_assert_eq(ref_ibv_init_ah_from_wc(&ctx, 1, &wc,
					     (struct ibv_grh *)grh, &a),
		     0);
	cr_assert_eq(a.dlid, 0x1234);
	cr_assert_eq(a.sl, 5);
	cr_assert_eq(a.src_path_bits, 3);
	cr_assert_eq(a.port_num, 1);
	cr_assert_eq(a.is_global, 0);
	cr_assert_eq(a.grh.flow_label, 0, "no GRH, no flow label");
	cr_assert_eq(a.static_rate, 0);
	/* no GRH flag: grh may be NULL */
	cr_assert_eq(ref_ibv_init_ah_from_wc(&ctx, 1, &wc, NULL, &a), 0);
}

Test(reference_verbs, null_arguments_fail_cleanly)
{
	struct ibv_context ctx = {};
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH };
	struct ibv_ah_attr a;
	struct ibv_qp qp = { .qp_type = IBV_QPT_RC };
	union ibv_gid mgid = { .raw = { 0xff } };

	errno = 0;
	cr_assert_eq(ref_ibv_init_ah_from_wc(NULL, 1, &wc, NULL, &a), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(ref_ibv_init_ah_from_wc(&ctx, 1, &wc, NULL, &a), -1,
		     "IBV_WC_GRH without a grh");
	cr_assert_null(ref_ibv_create_ah(NULL, NULL));
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(ref_ibv_create_ah_from_wc(NULL, &wc, NULL, 1));
	cr_assert_eq(ref_ibv_destroy_ah(NULL), EINVAL);
	cr_assert_eq(ref_ibv_attach_mcast(NULL, &mgid, 0), EINVAL);
	/* only UD QPs, decided before any command is sent */
	cr_assert_eq(ref_ibv_attach_mcast(&qp, &mgid, 0), EINVAL);
	cr_assert_eq(ref_ibv_detach_mcast(&qp, &mgid, 0), EINVAL);
}

/* The reference librdmacm: argument checks made before any command. */
#include "../../reference/rdmacm/ref_rdmacm.h"

Test(reference_rdmacm, bad_arguments)
{
	struct sockaddr unix_addr = { .sa_family = AF_UNIX };

	errno = 0;
	/* rdma_create_id(3): the channel "may be NULL" (a synchronous id);
	 * no place for the id is what it cannot take */
	cr_assert_eq(ref_rdma_create_id(NULL, NULL, NULL, RDMA_PS_UDP), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(ref_rdma_destroy_id(NULL), -1);
	cr_assert_eq(ref_rdma_get_cm_event(NULL, NULL), -1);
	cr_assert_eq(ref_rdma_ack_cm_event(NULL), -1);
	cr_assert_eq(ref_rdma_leave_multicast(NULL, &unix_addr), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(ref_rdma_create_qp(NULL, NULL, NULL), -1);
	ref_rdma_destroy_qp(NULL);
	ref_rdma_destroy_event_channel(NULL);
}
