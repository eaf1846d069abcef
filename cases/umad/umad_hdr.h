/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared by the case files of the umad buffer helpers: the byte layout of
 * struct ib_user_mad (the kernel's ib_user_mad_hdr) for named diffs, and
 * the pattern a buffer is filled with before a call, so that every row also
 * checks which bytes the call must leave untouched.
 */
#ifndef RDMACONF_CASES_UMAD_HDR_H
#define RDMACONF_CASES_UMAD_HDR_H

#include "../../harness/rdmaconf.h"
#include "../../reference/umad/ref_umad.h"

#define UMAD_FILL 0xa5
/* a MAD follows the header; helpers must not touch it either */
#define UMAD_BUF_LEN (REF_UMAD_HDR_SIZE + 16)

extern const struct rc_layout umad_hdr_layout;

/* Fill a buffer with UMAD_FILL; the row's call then writes into it. */
void umad_buf_init(uint8_t *buf);

#define OFF(f) REF_UMAD_OFF_##f

#define UMAD_OUT(...)                                   \
	(&(const struct rc_bytes){ .len = UMAD_BUF_LEN, \
				   .fill = UMAD_FILL,   \
				   .patch = { __VA_ARGS__ } })

/* umad_set_grh(3) and umad_set_grh_net(3) take the same row. */
struct grh_row {
	struct rc_case c;
	bool null_addr; /* pass mad_addr == NULL */
	bool grh_clear; /* buffer starts with grh_present = 0 */
	const uint8_t *gid; /* NULL: all zero */
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint32_t flow_label; /* stored in mad_addr in the call's order */
};

/* Perform a grh_row through @call; @host_order: the call takes host order. */
void grh_row_run(const struct grh_row *row, struct rc_ctx *ctx,
		 int (*call)(void *, void *), const char *name,
		 bool host_order);

/* GIDs the GRH rows use */
extern const uint8_t gid_a[16], gid_v4[16], gid_ones[16], gid_zero[16];

#define GRH(gid, hop, tc, flow)                                               \
	RC_PATCH_BE(OFF(GRH_PRESENT), 1, 1), RC_PATCH_RAW(OFF(GID), 16, gid), \
		RC_PATCH_BE(OFF(HOP_LIMIT), 1, hop),                          \
		RC_PATCH_BE(OFF(TRAFFIC_CLASS), 1, tc),                       \
		RC_PATCH_BE(OFF(FLOW_LABEL), 4, flow)

#define ADDR(lid, qpn, sl, qkey)                                        \
	RC_PATCH_BE(OFF(QPN), 4, qpn), RC_PATCH_BE(OFF(QKEY), 4, qkey), \
		RC_PATCH_BE(OFF(LID), 2, lid), RC_PATCH_BE(OFF(SL), 1, sl)

#define HDR_OK RC_RETURNS(0), .layout = &umad_hdr_layout

/*
 * Accessor rows (umad_get_pkey, umad_status, umad_get_mad, ...): the buffer
 * is UMAD_FILL with @preset written over it, the call reads it, and the row
 * checks the return value and that the buffer did not change.
 */
struct accessor_row {
	struct rc_case c;
	struct rc_bytes preset;
	int arg; /* the int argument, for setters */
};

/* The call of an accessor row on @buf (with the row's arg, for setters):
 * what it returns, a pointer into @buf as its offset from the start. */
typedef long long accessor_call(const struct rc_ops *ops,
				const struct accessor_row *row, uint8_t *buf);
/* The row through @call, once the implementation has @fn (@name). */
void accessor_row_run(const struct accessor_row *row, struct rc_ctx *ctx,
		      const void *fn, const char *name, accessor_call *call);
/* The same with the target's port open first: libibumad's helpers follow
 * whether a port was opened (cases/expect/rdma-core.expect). */
void accessor_row_run_open(const struct accessor_row *row, struct rc_ctx *ctx,
			   const void *fn, const char *name,
			   accessor_call *call);

/* a mad_addr's fields that are not GRH fields: must not reach the umad */
#define GRH_NOISE_QPN 0x11223344u

/* A port handle no open gives: what a caller that does not check
 * umad_open_port passes on (and a table's usual "free" marker) */
#define NEG_PORTID (-1)
#define NOTE_NEG_PORTID \
	"handle -1: no open gives it (umad_open_port fails with a negative value)"

#endif
