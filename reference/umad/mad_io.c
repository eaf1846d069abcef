// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Agents and MAD traffic: umad_register(3), umad_register_oui(3),
 * umad_register2(3), umad_unregister(3), umad_send(3), umad_recv(3), umad_poll(3),
 * umad_get_fd(3), on the kernel's user_mad interface
 * (Documentation/infiniband/user_mad.rst): the REGISTER_AGENT and
 * UNREGISTER_AGENT ioctls, write() of one struct ib_user_mad to send, read()
 * of one to receive, poll() for POLLIN.
 *
 * Return values are the man pages' lists.  Where a man page names one code
 * for a class of failure ("-EPERM registration failed", "-EIO send
 * operation failed") that code is returned and errno keeps the kernel's
 * reason, which umad_send(3) and umad_recv(3) say is set; a failure those
 * two decide themselves sets errno to its code.  The other pages name a
 * return value only, and their own refusals leave errno alone.
 */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ref_umad.h"
#include "ports.h"

#define MGMT_CLASS_SMI 0x01
#define MGMT_CLASS_SMI_DR 0x81
#define VENDOR_RANGE2_FIRST 0x30
#define VENDOR_RANGE2_LAST 0x4f
/* umad_recv(3): "*length must be >= 256 bytes" */
#define MIN_RECV_DATA 256

/* fail with @ret, errno @err: the documented value and its cause */
static int fail(int ret, int err)
{
	errno = err;
	return ret;
}

static int reg_agent(int portid, int mgmt_class, int mgmt_version,
		     uint8_t rmpp_version, const uint8_t oui[3],
		     const long *method_mask)
{
	struct ref_umad_reg_req req;

	if (!ref_port_valid(portid))
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	/* the subnet management classes live on QP0, all others on QP1 */
	req.qpn = (mgmt_class == MGMT_CLASS_SMI ||
		   mgmt_class == MGMT_CLASS_SMI_DR) ?
			  0 :
			  1;
	req.mgmt_class = mgmt_class;
	req.mgmt_class_version = mgmt_version;
	req.rmpp_version = rmpp_version;
	memcpy(req.oui, oui, sizeof(req.oui));
	/* NULL: a client, "it can only receive replies on MADs that it sent" */
	if (method_mask)
		memcpy(req.method_mask, method_mask, sizeof(req.method_mask));
	if (ioctl(portid, REF_REGISTER_AGENT, &req))
		return -EPERM;
	if (ref_agent_add(portid, req.id)) {
		/* an id we cannot track is an id we could not validate later */
		ioctl(portid, REF_UNREGISTER_AGENT, &req.id);
		return -EPERM;
	}
	return req.id;
}

/*
 * umad_register(3) "registers the specified management class" and names
 * no OUI, while the kernel registers a class of vendor range 2 only with
 * one (ib_register_mad_agent): the OUI of the OpenFabrics Alliance, whose
 * software this is (IEEE 00-14-05); the kernel ignores it for any other
 * class.
 */
static const uint8_t openib_oui[3] = { 0x00, 0x14, 0x05 };

int ref_umad_register(int portid, int mgmt_class, int mgmt_version,
		      uint8_t rmpp_version, long method_mask[16 / sizeof(long)])
{
	return reg_agent(portid, mgmt_class, mgmt_version, rmpp_version,
			 openib_oui, method_mask);
}

int ref_umad_register_oui(int portid, int mgmt_class, uint8_t rmpp_version,
			  uint8_t oui[3], long method_mask[16 / sizeof(long)])
{
	if (!ref_port_valid(portid))
		return -EINVAL;
	if (mgmt_class < VENDOR_RANGE2_FIRST || mgmt_class > VENDOR_RANGE2_LAST)
		return -EINVAL;
	if (!oui)
		return -EINVAL;
	/* vendor range 2 MADs carry class version 1 (IBA 13.4.5) */
	return reg_agent(portid, mgmt_class, 1, rmpp_version, oui, method_mask);
}

int ref_umad_unregister(int portid, int agentid)
{
	uint32_t id = agentid;

	if (!ref_port_valid(portid) || !ref_agent_valid(portid, agentid))
		return -EINVAL;
	if (ioctl(portid, REF_UNREGISTER_AGENT, &id))
		return -errno; /* "(kernel error codes)" */
	ref_agent_del(portid, id);
	return 0;
}

int ref_umad_send(int portid, int agentid, void *umad, int length,
		  int timeout_ms, int retries)
{
	struct ib_user_mad *mad = umad;
	size_t total;
	ssize_t n;

	if (!ref_port_valid(portid) || !ref_agent_valid(portid, agentid))
		return fail(-EINVAL, EINVAL);
	if (!umad || length < 0)
		return fail(-EIO, EINVAL);
	mad->agent_id = agentid;
	/* negative: "makes kernel wait forever"; the kernel's field is u32 */
	mad->timeout_ms = timeout_ms;
	mad->retries = retries;
	total = REF_UMAD_HDR_SIZE + (size_t)length;
	n = write(portid, mad, total);
	if (n == (ssize_t)total)
		return 0;
	return fail(-EIO, n < 0 ? errno : EIO);
}

/* poll() for POLLIN: 0 ready, -ETIMEDOUT, or -EIO */
static int wait_in(int fd, int timeout_ms)
{
	/* poll() is given the first entry; the second, fd -1, is one it
	 * ignores: a count one too many reads that, not stack bytes */
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = -1 } };
	int n;

	do {
		n = poll(p, 1, timeout_ms < 0 ? -1 : timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		return fail(-ETIMEDOUT, ETIMEDOUT);
	if (n < 0)
		return -EIO; /* errno: poll()'s reason */
	if (!(p->revents & POLLIN))
		return fail(-EIO, EIO);
	return 0;
}

int ref_umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	struct ib_user_mad *mad = umad;
	ssize_t n;
	int ret;

	if (!umad || !length || !ref_port_valid(portid) ||
	    *length < MIN_RECV_DATA)
		return fail(-EINVAL, EINVAL);
	if (timeout_ms) {
		ret = wait_in(portid, timeout_ms);
		if (ret)
			return ret;
	}
	n = read(portid, mad, REF_UMAD_HDR_SIZE + (size_t)*length);
	if (n >= REF_UMAD_HDR_SIZE) {
		*length = n - REF_UMAD_HDR_SIZE;
		return mad->agent_id;
	}
	if (n >= 0)
		return fail(-EIO, EIO);
	if (errno == EAGAIN)
		return fail(-EWOULDBLOCK, EWOULDBLOCK);
	if (errno == ENOSPC) {
		/* the kernel copied the header; its length is the whole
		 * message: "the size of the umad buffer needed is returned" */
		*length = mad->length - REF_UMAD_HDR_SIZE;
		return fail(-ENOSPC, ENOSPC);
	}
	return -EIO; /* errno: read()'s reason */
}

int ref_umad_poll(int portid, int timeout_ms)
{
	if (!ref_port_valid(portid))
		return -EINVAL;
	return wait_in(portid, timeout_ms);
}

int ref_umad_get_fd(int portid)
{
	if (!ref_port_valid(portid))
		return -EINVAL;
	return portid;
}

/*
 * struct ib_user_mad_reg_req2 of <rdma/ib_user_mad.h> and its ioctl
 * (<rdma/rdma_user_ioctl.h>), neither of which can be included beside
 * <infiniband/umad.h>.
 */
struct ref_umad_reg_req2 {
	uint32_t id;
	uint32_t qpn;
	uint8_t mgmt_class;
	uint8_t mgmt_class_version;
	uint16_t res;
	uint32_t flags;
	uint64_t method_mask[2];
	uint32_t oui;
	uint8_t rmpp_version;
	uint8_t reserved[3];
};
_Static_assert(sizeof(struct ref_umad_reg_req2) == 40, "kernel ABI size");
#define REF_REGISTER_AGENT2 _IOWR(0x1b, 4, struct ref_umad_reg_req2)

/*
 * umad_register2(3): "returns 0 on success and +ERRNO on failure"; "If a
 * flag specified is not supported by the kernel, an error is returned,
 * and the supported flags are returned in this field."  The kernel does
 * both (IB_USER_MAD_REG_FLAGS_CAP written back with EINVAL).
 */
int ref_umad_register2(int port_fd, struct umad_reg_attr *attr,
		       uint32_t *agent_id)
{
	struct ref_umad_reg_req2 req = {};

	if (!ref_port_valid(port_fd) || !attr || !agent_id)
		return EINVAL;
	req.qpn = (attr->mgmt_class == MGMT_CLASS_SMI ||
		   attr->mgmt_class == MGMT_CLASS_SMI_DR) ?
			  0 :
			  1;
	req.mgmt_class = attr->mgmt_class;
	req.mgmt_class_version = attr->mgmt_class_version;
	req.flags = attr->flags;
	memcpy(req.method_mask, attr->method_mask, sizeof(req.method_mask));
	/* "The oui (in host order) to use for vendor classes 0x30 - 0x4f" */
	req.oui = attr->oui;
	req.rmpp_version = attr->rmpp_version;
	if (ioctl(port_fd, REF_REGISTER_AGENT2, &req)) {
		int err = errno;

		if (err == EINVAL && req.flags != attr->flags)
			attr->flags = req.flags;
		return err;
	}
	if (ref_agent_add(port_fd, req.id)) {
		ioctl(port_fd, REF_UNREGISTER_AGENT, &req.id);
		return ENOSPC;
	}
	*agent_id = req.id;
	return 0;
}
