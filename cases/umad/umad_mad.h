/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared by the rows that move MADs through the kernel: the MADs they send,
 * the address of the target port itself (every row talks to its own port,
 * loopback), and a peer.
 *
 * The peer is the other end of a row's traffic: an agent on a second
 * descriptor of the same port, driven by this file directly through the
 * kernel's user_mad ABI, so that it is the same for both implementations
 * and a row exercises only its own call.
 */
#ifndef RDMACONF_CASES_UMAD_MAD_H
#define RDMACONF_CASES_UMAD_MAD_H

#include <errno.h>
#include <pthread.h>

#include "umad_dev.h"

#include "../../harness/mad_wire.h"

struct mad_row;
/* A row's behaviour: what it calls and what it checks, a function of its
 * call's file; the file's run does what all its rows share. */
typedef void mad_check(const struct mad_row *row, struct rc_ctx *ctx);

/* One row of the MAD files. */
struct mad_row {
	struct rc_case c;
	mad_check *check; /* umad_set_grh_wire: unset, its run is all */
	int mgmt_class;
	int timeout_ms;
	int retries;
	int arg;
};

/* a port handle nobody opened */
#define BAD_PORTID 1000
/* the agents a port descriptor can hold (IB_UMAD_MAX_AGENTS) */
#define MAD_AGENTS_PER_PORT 32
/* how long a row waits for a MAD that must arrive, before scaling */
#define ARRIVE_MS 2000
/* how long it watches for one that must not */
#define QUIET_MS 300

struct peer {
	int fd;
	int agent;
	/* a delayed send (peer_get) */
	bool thread;
	pthread_t tid;
	int delay_ms;
	uint8_t req[MAD_BUF_LEN];
};

/*
 * Open a peer on the target port and register it for @mgmt_class
 * (@methods: METHOD_BIT set of methods it serves, 0 for a client).
 * On failure the row is marked BROKEN and false returned.
 */
bool peer_open(struct rc_ctx *ctx, struct peer *p, int mgmt_class,
	       uint32_t methods, uint8_t rmpp_version);
void peer_close(struct peer *p);
/* Send @umad (MAD_BUF_LEN bytes unless @len) through the peer. */
int peer_send(struct peer *p, uint8_t *umad, size_t len, int timeout_ms,
	      int retries);
/* Send a Get of @mgmt_class to the port through @p, now or (@delay_ms >
 * 0) from a thread after @delay_ms; peer_join waits for that thread. */
bool peer_get(struct rc_ctx *ctx, struct peer *p, int mgmt_class, int delay_ms);
void peer_join(struct peer *p);
/* peer_get on a peer @p opened as a client of CLASS_V2, the Get for an
 * agent of @portid: sent after @delay_ms, or (0) now and there to read when
 * it returns.  False, the row BROKEN, when it cannot be. */
bool peer_get_for(struct rc_ctx *ctx, struct peer *p, int portid,
		  int mgmt_class, int delay_ms);
/* Answer @req (as read) with a GetResp to where it came from. */
int peer_reply(struct peer *p, const uint8_t *req);
/* Wait up to @ms (scaled by the host's slowness) and read one message
 * from @fd into @buf: the bytes read, -ETIMEDOUT, or -errno. */
int mad_wait(struct rc_ctx *ctx, int fd, uint8_t *buf, size_t len, int ms);

/* Wait up to @ms (scaled) until @fd has a message to read; read nothing. */
bool mad_ready(struct rc_ctx *ctx, int fd, int ms);

/* A MAD of @mgmt_class, @method, transaction id @tid, after a zero header;
 * in vendor range 2, under the row's side's OUI; the payload after byte
 * MAD_OFF_V2_DATA holds bytes all distinct (mad_payload_differs). */
void mad_build(const struct rc_ctx *ctx, uint8_t *umad, int mgmt_class,
	       int method, uint32_t tid);
/*
 * The OUI a row registers and sends its vendor range 2 MADs under: its
 * RC_SHARE_VENDOR_OUI token's (rc_ctx.oui), so that no two rows running at
 * once share one.  The kernel keeps the agents of a class apart by OUI:
 * the rows never meet, and need not wait for each other.  The fabric rows
 * use test_oui, which the remote peer serves.
 */
uint8_t *mad_oui(const struct rc_ctx *ctx);
/* Address @umad to the target port itself: GRH to its IPv6 GID on RoCE
 * (the IPv4-mapped GID loses replies), its LID on InfiniBand.  Returns
 * false and marks the row BROKEN when the port has no usable address. */
bool mad_address_self(struct rc_ctx *ctx, uint8_t *umad);
/* The source GID index mad_address_self uses, and the GID. */
int mad_self_gid(struct rc_ctx *ctx, uint8_t gid[16]);

/* A port opened and an agent registered through the implementation under
 * test; marks the row BROKEN on failure. */
bool impl_open(struct rc_ctx *ctx, int *portid);
bool impl_agent(struct rc_ctx *ctx, int portid, int mgmt_class,
		uint32_t methods, int *agent);
/* A peer client of @mgmt_class sends a Get (transaction id @tid) to the
 * port, whose agent serves Gets: @violation when it cannot be sent or does
 * not reach @portid within ARRIVE_MS.  False when the peer cannot be
 * opened (the row BROKEN). */
bool expect_get_served(struct rc_ctx *ctx, int portid, int mgmt_class,
		       uint32_t tid, const char *violation);
/* Whether Linux registers a client of @mgmt_class, version 1, no RMPP,
 * with an OUI for vendor range 2 (ib_umad_reg_agent,
 * ib_register_mad_agent): class 0 (no class: a client that only sends),
 * 0x01 and 0x81 on InfiniBand only (QP0), 0x02-0x4f; from 0x50 up only
 * 0x81 is a class. */
bool mad_class_registers(const struct rc_ctx *ctx, int mgmt_class);
/* @map holds each class's outcome, @ok where it registered, @refused where
 * the call refused it as the page says, '-' where the row does not judge
 * it: a violation counting the classes not as mad_class_registers says */
void mad_check_class_map(struct rc_ctx *ctx, const char map[256], char ok,
			 char refused);
/* The first byte of the payload mad_build writes that @umad does not
 * hold, or -1: every byte arrived where it was sent */
int mad_payload_differs(const uint8_t *umad);
/* "on error, errno is set" (umad_send(3), umad_recv(3)), read as: to
 * the code the call returned, negated; a violation of the observed call
 * when it is not */
void mad_errno_is_code(struct rc_ctx *ctx);
/* method_mask argument of umad_register*(3) for a METHOD_BIT set */
void method_mask(long mask[16 / sizeof(long)], uint32_t methods);

/* the MAD header of a reply without the kernel's half of the TID */
void mad_summary(struct rc_ctx *ctx, const uint8_t *umad);
extern const struct rc_layout mad_summary_layout;

/* Every call the MAD rows use on the implementation under test. */
#define NEED_MAD_CALLS(ctx)                                                   \
	(rc_need_call(ctx, (ctx)->ops->umad_open_port, "umad_open_port") &&   \
	 rc_need_call(ctx, (ctx)->ops->umad_close_port, "umad_close_port") && \
	 rc_need_call(ctx, (ctx)->ops->umad_get_fd, "umad_get_fd"))

#endif
