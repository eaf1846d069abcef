/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reference libibverbs calls: address handles and multicast, written
 * from ibv_create_ah(3), ibv_create_ah_from_wc(3), ibv_attach_mcast(3),
 * the kernel's uverbs command ABI (<rdma/ib_user_verbs.h>) and the GID
 * table in sysfs (Documentation/ABI/stable/sysfs-class-infiniband).  The
 * context, PD and QP they are given may come from rdma-core: only their
 * public fields are read (the command fd, the device name, the kernel
 * handles); no rdma-core function is called.
 */
#ifndef RDMACONF_REF_VERBS_H
#define RDMACONF_REF_VERBS_H

#include <stdbool.h>
#include <infiniband/verbs.h>

int ref_ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			    struct ibv_wc *wc, struct ibv_grh *grh,
			    struct ibv_ah_attr *ah_attr);
struct ibv_ah *ref_ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc,
					 struct ibv_grh *grh, uint8_t port_num);
struct ibv_ah *ref_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int ref_ibv_destroy_ah(struct ibv_ah *ah);
int ref_ibv_query_gid(struct ibv_context *context, uint8_t port_num,
		      int index, union ibv_gid *gid);
int ref_ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
			 uint32_t gid_index, struct ibv_gid_entry *entry,
			 uint32_t flags);
ssize_t ref_ibv_query_gid_table(struct ibv_context *context,
				struct ibv_gid_entry *entries,
				size_t max_entries, uint32_t flags);
int ref_ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);
int ref_ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);

struct ib_uverbs_ah_attr;	/* <rdma/ib_user_verbs.h> */
void ref_ah_attr_to_uverbs(const struct ibv_ah_attr *attr,
			   struct ib_uverbs_ah_attr *a);
void ref_ah_attr_from_uverbs(const struct ib_uverbs_ah_attr *a,
			     struct ibv_ah_attr *attr);

/* The port's GID table, from the uverbs ioctls on @cmd_fd, else sysfs
 * (gid_table.c). */
enum ref_gid_type { REF_GID_IB_ROCE_V1, REF_GID_ROCE_V2 };
/* Index of @gid of @type on @dev port @port, or -ENOENT. */
int ref_gid_find(int cmd_fd, const char *dev, int port, const uint8_t gid[16],
		 enum ref_gid_type type);
/* Entries in the table (used or not), or -errno. */
int ref_gid_table_size(const char *dev, int port);
/* One used entry as the kernel has it now. */
struct ref_gid {
	uint8_t gid[16];
	uint32_t index, port;
	uint32_t type;		/* enum ib_uverbs_gid_type */
	uint32_t ifindex;
};
/* Entry @index of @dev port @port: 0, -ENODATA unused, -EINVAL beyond
 * the table (or no such port). */
int ref_gid_entry(int cmd_fd, const char *dev, int port, int index,
		  struct ref_gid *out);
/* The port's used entries, up to @max into @out: how many there are, or
 * -EINVAL. */
ssize_t ref_gid_entries(int cmd_fd, const char *dev, int port,
			struct ref_gid *out, size_t max);
/* true: the port's link layer is Ethernet (RoCE) */
bool ref_port_is_roce(const char *dev, int port);

#endif
