// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_open_port(3): "opens the port portnum of the IB device ca_name for
 * umad access.  The port is selected by the library if not all parameters
 * are provided."  "returns 0 or an unique positive value of umad device
 * descriptor on success, and a negative value on error as follows:
 * -ENODEV IB device can't be resolved, -EINVAL port is not valid (bad
 * portnum or no umad device), -EIO umad device for this port can't be
 * opened."
 *
 * - the target port opens; the descriptor is an open /dev/infiniband/umadN
 * - NULL ca_name and port 0 select a port; with every port of the device
 *   down, an ACTIVE port of another device, and the device named with
 *   port 0, its ACTIVE port after the port that is down (interpretation)
 * - a port whose rate cannot be read (umad_attrs.c) opens, named or
 *   selected (interpretation)
 * - an unknown device: -ENODEV; a port the device lacks, or out of range:
 *   -EINVAL; so is a port without a umad device, and a second port whose
 *   umad device sysfs names opens that device (umad_attrs.c moves the
 *   target port's to an InfiniBand port it adds)
 * - two opens of the same port give two different descriptors ("unique");
 *   so do 100 opens of it at once, each a descriptor of the port's umad
 *   device that umad_close_port then closes
 * - every port that has a umad device, by its device's name and port
 *   number: a descriptor of exactly that /dev/infiniband/umadN, open for
 *   reading and writing, as MADs are received and sent (linux)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC_OPEN                                                    \
	"umad_open_port() opens the port portnum of the IB device " \
	"ca_name for umad access."
#define DOC_RET                                                      \
	"umad_open_port() returns 0 or an unique positive value of " \
	"umad device descriptor on success"
#define DOC_SELECTS                                                      \
	"The port is selected by the library if not all parameters are " \
	"provided (see umad_get_port() for details)."
#define DOC_ENODEV "-ENODEV IB device can't be resolved"
#define DOC_EINVAL "-EINVAL port is not valid (bad portnum or no umad device)"

static dev_check opens_umad_device, opens_hundred_at_once,
	opens_another_descriptor, reopen_keeps_other_handles;
static dev_check opens_each_ports_device, opens_ports_own_device,
	opens_active_port;

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/open_port/target-port",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_umad_device },
	{ .c = { .id = "umad/open_port/library-selects-port",
		 .doc = DOC_SELECTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_NULL,
	  .port = 0,
	  .check = opens_umad_device },
	{ .c = { .id = "umad/open_port/rate-unreadable",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the port's rate cannot be read (as umad_get_port's "
			 "rate-unreadable row; in the row's own mount "
			 "namespace), named with its number: the port opens",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_umad_device,
	  .attrs = ATTRS_RATE_UNREADABLE },
	{ .c = { .id = "umad/open_port/rate-unreadable-library-selects",
		 .doc = DOC_SELECTS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the port's rate cannot be read, and the device is "
			 "named with port 0: the library selects its port, "
			 "which opens (a port whose rate the kernel cannot tell "
			 "is still a port)",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .check = opens_umad_device,
	  .attrs = ATTRS_RATE_UNREADABLE },
	{ .c = { .id = "umad/open_port/unknown-device",
		 .doc = DOC_ENODEV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ENODEV) } },
	  .ca = CA_BOGUS,
	  .port = 1,
	  .check = opens_umad_device },
	{ .c = { .id = "umad/open_port/port-out-of-range",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = 99,
	  .check = opens_umad_device },
	{ .c = { .id = "umad/open_port/negative-port",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = -1,
	  .check = opens_umad_device },
	{ .c = { .id = "umad/open_port/unique-descriptors",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second open of the same port must give another "
			 "descriptor",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_another_descriptor },
	{ .c = { .id = "umad/open_port/hundred-at-once",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target port opened 100 times without a close: "
			 "100 different descriptors, each of the port's umad "
			 "device, each closed by umad_close_port (0)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_hundred_at_once },
	{ .c = { .id = "umad/open_port/reopen-keeps-other-handles",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "three opens, the first closed, then the open "
			 "observed, which reuses its descriptor: a descriptor of "
			 "the port's umad device, and the other two handles still "
			 "close with 0",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = reopen_keeps_other_handles },
	{ .c = { .id = "umad/open_port/port-without-umad-device",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target port, named, with no umad device (its "
			 "umadN serves an InfiniBand port added after it, in "
			 "the row's own mount namespace; as an iWARP port, "
			 "which ib_umad gives none)",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_umad_device,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_port/added-infiniband-port",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second port, of InfiniBand, whose umad device is "
			 "the one sysfs names for it (the target port's umadN, "
			 "in the row's own mount namespace): its descriptor is "
			 "of that /dev/infiniband/umadN, open O_RDWR",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .check = opens_ports_own_device,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_port/library-selects-an-active-port-of-another-device",
		 .doc = DOC_SELECTS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "every port of the device under test down (in the "
			 "row's own mount namespace), a second device ACTIVE, "
			 "and NULL and 0: as umad_get_port's default, a port "
			 "that can be used, the umad device of an ACTIVE port "
			 "of the other device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS | RC_NEED_PEER,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_NULL,
	  .port = 0,
	  .check = opens_active_port,
	  .attrs = ATTRS_PORTS_DOWN },
	{ .c = { .id = "umad/open_port/device-named-selects-its-active-port",
		 .doc = DOC_SELECTS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the device's port 1 down, with no umad device, and "
			 "an InfiniBand port 2 ACTIVE with port 1's (in the "
			 "row's own mount namespace), named with port 0: the "
			 "port selected is one that can be used, port 2, and "
			 "the descriptor its umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .check = opens_active_port,
	  .attrs = ATTRS_PORTS_DOWN | ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_port/every-port-its-device",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_LINUX,
		 .note = "each /sys/class/infiniband_mad/umadN names its port by "
			 "ibdev and port (Documentation/infiniband/user_mad.rst): "
			 "umad_open_port(ibdev, port) gives a descriptor of "
			 "/dev/infiniband/umadN, that N, open O_RDWR (MADs are sent "
			 "with write() and received with read())",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = opens_each_ports_device },
};

/* The descriptor must be an open umad character device. */
static void check_umad_fd(struct rc_ctx *ctx, int fd)
{
	char link[64], target[256];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		rc_obs_violation(ctx->obs, "descriptor %d is not open", fd);
		return;
	}
	target[n] = 0;
	if (strncmp(target, "/dev/infiniband/umad", 20))
		rc_obs_violation(ctx->obs,
				 "descriptor %d is %s, not a umad "
				 "device",
				 fd, target);
}

/* The call under test on the row's CA and port; the descriptor, checked,
 * or the failure. */
static int observe_open(const struct dev_row *row, struct rc_ctx *ctx)
{
	int fd;

	RC_OBSERVE(ctx, fd = ctx->ops->umad_open_port(dev_row_ca(row, ctx),
						      dev_row_port(row, ctx)));
	if (fd >= 0)
		check_umad_fd(ctx, fd);
	return fd;
}

static void close_observed(struct rc_ctx *ctx, int fd)
{
	/* descriptor numbers differ between runs: record success only */
	ctx->obs->ret = 0;
	ctx->ops->umad_close_port(fd);
}

static void opens_umad_device(const struct dev_row *row, struct rc_ctx *ctx)
{
	int fd = observe_open(row, ctx);

	if (fd >= 0)
		close_observed(ctx, fd);
}

static void opens_ports_own_device(const struct dev_row *row,
				   struct rc_ctx *ctx)
{
	int fd = observe_open(row, ctx);

	if (fd < 0)
		return;
	dev_check_umad_fd(ctx, fd, ctx->target->ca, dev_row_port(row, ctx));
	close_observed(ctx, fd);
}

/*
 * The port selected with the device under test's own ports down: an
 * ACTIVE one, as sysfs has it; of another device when the row named none,
 * the port the row added when it named the device.
 */
static void opens_active_port(const struct dev_row *row, struct rc_ctx *ctx)
{
	char link[64], name[256], ca[UMAD_CA_NAME_LEN];
	int fd = observe_open(row, ctx), port;
	ssize_t n;

	if (fd < 0)
		return;
	if (row->ca == CA_TARGET) {
		dev_check_umad_fd(ctx, fd, ctx->target->ca,
				  dev_attrs_added_port());
		close_observed(ctx, fd);
		return;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, sizeof(name) - 1);
	name[n > 0 ? n : 0] = 0;
	if (strncmp(name, "/dev/infiniband/", 16) ||
	    (port = dev_mad_entry(name + 16, ca, sizeof(ca))) < 0)
		rc_obs_violation(ctx->obs,
				 "descriptor %d is '%s', no umad "
				 "device of a port",
				 fd, name);
	else if (!strcmp(ca, ctx->target->ca) || !dev_port_active(ca, port))
		rc_obs_violation(ctx->obs,
				 "descriptor %d is '%s', of %s port "
				 "%d, not an ACTIVE port of another device",
				 fd, name, ca, port);
	close_observed(ctx, fd);
}

static void opens_another_descriptor(const struct dev_row *row,
				     struct rc_ctx *ctx)
{
	int fd = observe_open(row, ctx), fd2;

	if (fd < 0)
		return;
	fd2 = ctx->ops->umad_open_port(dev_row_ca(row, ctx),
				       dev_row_port(row, ctx));
	if (fd2 < 0 || fd2 == fd)
		rc_obs_violation(ctx->obs, "second open gave %d after %d", fd2,
				 fd);
	else
		ctx->ops->umad_close_port(fd2);
	close_observed(ctx, fd);
}

#define AT_ONCE 100

/* the first open is the call observed */
static void opens_hundred_at_once(const struct dev_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	int fd[AT_ONCE], n, i;

	fd[0] = observe_open(row, ctx);
	for (n = 1; fd[0] >= 0 && n < AT_ONCE; n++) {
		fd[n] = ops->umad_open_port(dev_row_ca(row, ctx),
					    dev_row_port(row, ctx));
		for (i = 0; fd[n] >= 0 && i < n && fd[i] != fd[n]; i++)
			;
		if (fd[n] < 0 || i < n) {
			rc_obs_violation(ctx->obs, "open %d of %d gave %d",
					 n + 1, AT_ONCE, fd[n]);
			break;
		}
		dev_check_umad_fd(ctx, fd[n], ctx->target->ca,
				  dev_row_port(row, ctx));
	}
	dev_close_each(ctx, fd + 1, n - 1);
	if (fd[0] >= 0)
		close_observed(ctx, fd[0]);
}

static void reopen_keeps_other_handles(const struct dev_row *row,
				       struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	int fd[3], i;

	for (i = 0; i < 3; i++) {
		fd[i] = ops->umad_open_port(dev_row_ca(row, ctx),
					    dev_row_port(row, ctx));
		if (fd[i] < 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "open %d of 3: %d", i + 1, fd[i]);
			return;
		}
	}
	ops->umad_close_port(fd[0]);
	fd[0] = observe_open(row, ctx);
	if (fd[0] < 0)
		return;
	dev_close_each(ctx, fd + 1, 2);
	close_observed(ctx, fd[0]);
}

static void opens_each_ports_device(const struct dev_row *row,
				    struct rc_ctx *ctx)
{
	DIR *dir = opendir("/sys/class/infiniband_mad");
	char ca[UMAD_CA_NAME_LEN];
	struct dirent *d;
	int port, fd, seen = 0;

	if (!dir) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no /sys/class/infiniband_mad");
		return;
	}
	rc_obs_begin(ctx->obs);
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "umad", 4) ||
		    (port = dev_mad_entry(d->d_name, ca, sizeof(ca))) < 0)
			continue;
		fd = ctx->ops->umad_open_port(ca, port);
		if (fd < 0) {
			rc_obs_violation(ctx->obs,
					 "open of %s port %d (%s) "
					 "failed: %d",
					 ca, port, d->d_name, fd);
			break;
		}
		dev_check_umad_fd(ctx, fd, ca, port);
		ctx->ops->umad_close_port(fd);
		seen++;
	}
	closedir(dir);
	rc_obs_end(ctx->obs, seen ? 0 : -ENODEV);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!rc_need_call(ctx, ops->umad_open_port, "umad_open_port") ||
	    !rc_need_call(ctx, ops->umad_close_port, "umad_close_port"))
		return;
	if (!dev_attrs_overlay(ctx, row->attrs))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "umad_open_port", RC_CONV_NEG_ERRNO, "umad", rows, run);
