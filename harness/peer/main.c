// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf-peer: the far end of the fabric rows.  Run on another node of an
 * InfiniBand fabric (ci/ibsim-run starts one on Hca3 of the simulated
 * fabric), it answers every Get of the vendor classes the rows use with a
 * GetResp that carries its port GUID, so that a row can tell that its MAD
 * reached that node by LID.
 *
 *   rdmaconf-peer [--umad N] [--issm] [--ready FILE] [--verbose]
 *
 * It prints (and writes to FILE) "LID:PORT_GUID" once it serves: the value of
 * RDMACONF_REMOTE for the run.  It speaks the kernel's user_mad ABI
 * directly, not through either implementation under test.  --issm holds
 * the port's issmN open: ibsim forwards requests only to a client marked as
 * SM; a kernel delivers them to any registered agent and needs no such
 * thing.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../device.h"
#include "../mad_wire.h"

static volatile sig_atomic_t stop;
static bool verbose;

static void on_signal(int sig)
{
	stop = 1;
}

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "rdmaconf-peer: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* @server: for Get; else a client.  @oui: for vendor range 2. */
static int register_class(int fd, int mgmt_class, const uint8_t *oui,
			  bool server)
{
	struct ref_umad_reg_req req = {
		.qpn = mgmt_class == MAD_CLASS_SMI ||
				       mgmt_class == MAD_CLASS_SMI_DR ?
			       0 :
			       1,
		.mgmt_class = mgmt_class,
		.mgmt_class_version = 1,
	};

	if (oui)
		memcpy(req.oui, oui, 3);
	if (server)
		req.method_mask[0] = 1u << METHOD_GET;
	return ioctl(fd, REF_REGISTER_AGENT, &req) ? -errno : 0;
}

/* Answer a Get of a served class where it came from, with our GUID. */
static void answer(int fd, uint8_t *umad, uint64_t guid_be)
{
	uint8_t *mad = umad + REF_UMAD_HDR_SIZE;
	uint32_t qkey = htobe32(QP1_QKEY);
	uint16_t lid;

	memcpy(&lid, umad + REF_UMAD_OFF_LID, 2);
	if (verbose)
		fprintf(stderr,
			"rdmaconf-peer: class 0x%02x method 0x%02x "
			"from LID %u\n",
			mad[MAD_OFF_CLASS], mad[MAD_OFF_METHOD], be16toh(lid));
	if (mad[MAD_OFF_METHOD] != METHOD_GET ||
	    (mad[MAD_OFF_CLASS] != CLASS_V1 && mad[MAD_OFF_CLASS] != CLASS_V2))
		return; /* the SM's SMInfo (we are marked SM), ... */
	mad[MAD_OFF_METHOD] = METHOD_GET_RESP;
	memcpy(mad + MAD_OFF_PEER_GUID, &guid_be, 8);
	/* through the agent that got it, to the address it came from
	 * (user_mad.rst); no timeout, no retries */
	memset(umad + REF_UMAD_OFF_STATUS, 0,
	       REF_UMAD_OFF_QPN - REF_UMAD_OFF_STATUS);
	memcpy(umad + REF_UMAD_OFF_QKEY, &qkey, 4);
	if (write(fd, umad, MAD_BUF_LEN) < 0)
		perror("rdmaconf-peer: answering");
}

/* The LID of the port of umad@n, and its port GUID (GID 0's interface id). */
static unsigned int port_identity(int n, uint64_t *guid_be)
{
	char ibdev[64], buf[64];
	uint64_t guid;
	unsigned int lid;
	int port;

	if (rc_sysfs_read(ibdev, sizeof(ibdev), RC_SYSFS_MAD "/umad%d/ibdev",
			  n) ||
	    rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_MAD "/umad%d/port", n))
		die("umad%d: not in sysfs", n);
	port = atoi(buf);
	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/lid",
			  ibdev, port) ||
	    !(lid = strtoul(buf, NULL, 0)))
		die("%s port %d has no LID (is there a subnet manager?)", ibdev,
		    port);
	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/gids/0",
			  ibdev, port) ||
	    rc_guid_parse(buf, &guid))
		die("%s port %d: no GID 0", ibdev, port);
	*guid_be = htobe64(guid);
	return lid;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "umad", required_argument, NULL, 'u' },
		{ "issm", no_argument, NULL, 's' },
		{ "ready", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{}
	};
	const char *ready = NULL;
	char buf[64], path[64];
	uint8_t umad[MAD_BUF_LEN];
	int n = 0, fd, issm = -1, opt, err;
	bool want_issm = false;
	struct pollfd pfd;
	uint64_t guid_be;
	unsigned int lid;
	FILE *f;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'u')
			n = atoi(optarg);
		else if (opt == 's')
			want_issm = true;
		else if (opt == 'r')
			ready = optarg;
		else if (opt == 'v')
			verbose = true;
		else
			die("usage: rdmaconf-peer [--umad N] [--issm] "
			    "[--ready FILE] [--verbose]");
	}
	lid = port_identity(n, &guid_be);
	snprintf(path, sizeof(path), "/dev/infiniband/umad%d", n);
	fd = open(path, O_RDWR);
	if (fd < 0)
		die("%s: cannot open: %m", path);
	/* the 64-byte header with pkey_index, as the rows use */
	if (ioctl(fd, IB_USER_MAD_ENABLE_PKEY, NULL))
		die("%s: IB_USER_MAD_ENABLE_PKEY: %m", path);
	/* the two vendor classes it serves, and as a client the SMI ones:
	 * under umad2sim a MAD of a class the process did not register (the
	 * SM's SMInfo to a port marked SM) crashes it */
	err = register_class(fd, CLASS_V1, NULL, true)		     ?:
		      register_class(fd, CLASS_V2, test_oui, true)   ?:
		      register_class(fd, MAD_CLASS_SMI, NULL, false) ?:
		      register_class(fd, MAD_CLASS_SMI_DR, NULL, false);
	if (err)
		die("registering its classes: %s", strerror(-err));
	if (want_issm) {
		snprintf(path, sizeof(path), "/dev/infiniband/issm%d", n);
		issm = open(path, O_RDWR);
		if (issm < 0)
			die("%s: cannot open: %m", path);
	}

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	snprintf(buf, sizeof(buf), "%u:0x%016" PRIx64 "\n", lid,
		 be64toh(guid_be));
	fputs(buf, stdout);
	fflush(stdout);
	if (ready) {
		f = fopen(ready, "w");
		if (!f || fputs(buf, f) < 0 || fclose(f))
			die("%s: cannot write", ready);
	}

	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!stop) {
		if (poll(&pfd, 1, 500) <= 0)
			continue;
		n = read(fd, umad, sizeof(umad));
		if (n >= REF_UMAD_HDR_SIZE + 24)
			answer(fd, umad, guid_be);
		else if (verbose)
			fprintf(stderr, "rdmaconf-peer: read %d: %m\n", n);
	}
	if (issm >= 0)
		close(issm);
	close(fd);
	return 0;
}
