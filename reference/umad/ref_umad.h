/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reference libibumad: written from the umad_*(3) man pages, the
 * <infiniband/umad.h> declarations and the kernel's user_mad ABI
 * (Documentation/infiniband/user_mad.rst, <rdma/ib_user_mad.h>).  It never
 * calls libibumad.  Every function is the documented call with a ref_ prefix.
 */
#ifndef RDMACONF_REF_UMAD_H
#define RDMACONF_REF_UMAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <infiniband/umad.h>

#include "umad_pair.h"

/* The kernel's struct ib_user_mad_hdr (ABI version 5), byte offsets. */
enum {
	REF_UMAD_OFF_AGENT_ID = 0,
	REF_UMAD_OFF_STATUS = 4,
	REF_UMAD_OFF_TIMEOUT_MS = 8,
	REF_UMAD_OFF_RETRIES = 12,
	REF_UMAD_OFF_LENGTH = 16,
	REF_UMAD_OFF_QPN = 20,
	REF_UMAD_OFF_QKEY = 24,
	REF_UMAD_OFF_LID = 28,
	REF_UMAD_OFF_SL = 30,
	REF_UMAD_OFF_PATH_BITS = 31,
	REF_UMAD_OFF_GRH_PRESENT = 32,
	REF_UMAD_OFF_GID_INDEX = 33,
	REF_UMAD_OFF_HOP_LIMIT = 34,
	REF_UMAD_OFF_TRAFFIC_CLASS = 35,
	REF_UMAD_OFF_GID = 36,
	REF_UMAD_OFF_FLOW_LABEL = 52,
	REF_UMAD_OFF_PKEY_INDEX = 56,
	REF_UMAD_OFF_RESERVED = 58,
	REF_UMAD_HDR_SIZE = 64,
	REF_UMAD_ADDR_SIZE = REF_UMAD_HDR_SIZE - REF_UMAD_OFF_QPN,
};

/*
 * struct ib_user_mad_reg_req of <rdma/ib_user_mad.h>, which cannot be
 * included beside <infiniband/umad.h> (both define struct ib_user_mad).
 * The method mask is 128 bits of 4-byte aligned longs.
 */
struct ref_umad_reg_req {
	uint32_t id;
	uint32_t method_mask[4];
	uint8_t qpn;
	uint8_t mgmt_class;
	uint8_t mgmt_class_version;
	uint8_t oui[3];
	uint8_t rmpp_version;
} __attribute__((aligned(4)));
_Static_assert(sizeof(struct ref_umad_reg_req) == 28, "kernel ABI size");

#define REF_REGISTER_AGENT _IOWR(0x1b, 1, struct ref_umad_reg_req)
#define REF_UNREGISTER_AGENT _IOW(0x1b, 2, uint32_t)

int ref_umad_init(void);
int ref_umad_done(void);
int ref_umad_get_cas_names(char cas[][UMAD_CA_NAME_LEN], int max);
int ref_umad_get_ca(const char *ca_name, umad_ca_t *ca);
int ref_umad_release_ca(umad_ca_t *ca);
/* documented in rdma-core's source, not installed; see device.c */
struct umad_device_node *ref_umad_get_ca_device_list(void);
void ref_umad_free_ca_device_list(struct umad_device_node *head);
int ref_umad_sort_ca_device_list(struct umad_device_node **head, size_t size);
int ref_umad_get_ca_portguids(const char *ca_name, __be64 *portguids, int max);
int ref_umad_get_issm_path(const char *ca_name, int portnum, char path[],
			   int max);
int ref_umad_get_port(const char *ca_name, int portnum, umad_port_t *port);
int ref_umad_release_port(umad_port_t *port);
int ref_umad_open_port(const char *ca_name, int portnum);
/* documented by rdma-core after 44.0 (smi.c) */
int ref_umad_open_smi_port(char *ca_name, int portnum);
int ref_umad_get_smi_gsi_pairs(struct rc_umad_ca_pair cas[], size_t max);
int ref_umad_get_smi_gsi_pair_by_ca_name(const char *devname, uint8_t portnum,
					 struct rc_umad_ca_pair *ca,
					 unsigned enforce_smi);
int ref_umad_close_port(int portid);

int ref_umad_register(int portid, int mgmt_class, int mgmt_version,
		      uint8_t rmpp_version,
		      long method_mask[16 / sizeof(long)]);
int ref_umad_register_oui(int portid, int mgmt_class, uint8_t rmpp_version,
			  uint8_t oui[3], long method_mask[16 / sizeof(long)]);
int ref_umad_register2(int port_fd, struct umad_reg_attr *attr,
		       uint32_t *agent_id);
int ref_umad_unregister(int portid, int agentid);
int ref_umad_send(int portid, int agentid, void *umad, int length,
		  int timeout_ms, int retries);
int ref_umad_recv(int portid, void *umad, int *length, int timeout_ms);
int ref_umad_poll(int portid, int timeout_ms);
int ref_umad_get_fd(int portid);

void *ref_umad_get_mad(void *umad);
size_t ref_umad_size(void);
int ref_umad_status(void *umad);
ib_mad_addr_t *ref_umad_get_mad_addr(void *umad);
int ref_umad_set_grh_net(void *umad, void *mad_addr);
int ref_umad_set_grh(void *umad, void *mad_addr);
int ref_umad_set_addr_net(void *umad, __be16 dlid, __be32 dqp, int sl,
			  __be32 qkey);
int ref_umad_set_addr(void *umad, int dlid, int dqp, int sl, int qkey);
int ref_umad_set_pkey(void *umad, int pkey_index);
int ref_umad_get_pkey(void *umad);

/* umad_alloc(3) and umad_free(3) */
void *ref_umad_alloc(int num, size_t size);
void ref_umad_free(void *umad);

/* diagnostics (debug.c): umad_debug(3), umad_dump(3), umad_addr_dump(3) */
int ref_umad_debug(int level);
void ref_umad_dump(void *umad);
void ref_umad_addr_dump(ib_mad_addr_t *addr);

/* names (strings.c): umad_class_str(3) and its siblings */
const char *ref_umad_class_str(uint8_t mgmt_class);
const char *ref_umad_method_str(uint8_t mgmt_class, uint8_t method);
const char *ref_umad_attribute_str(uint8_t mgmt_class, __be16 attr_id);
const char *ref_umad_common_mad_status_str(__be16 status);
const char *ref_umad_sa_mad_status_str(__be16 status);

#endif
