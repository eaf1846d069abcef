/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmaconf: the case model shared by the harness, the case tables and the
 * unit tests.
 *
 * A case is one row of a static const table in cases/<lib>/<call>.c.  Every
 * row starts with a struct rc_case (what it checks, what it needs, what the
 * documentation promises); the rest of the row is the call's own inputs.  A
 * struct rc_group ties a table to the function that performs one row on one
 * implementation and records what it observed.
 */
#ifndef RDMACONF_H
#define RDMACONF_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "impl.h"
#include "need.h"
#include "vocab.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BUILD_ASSERT(cond) _Static_assert(cond, #cond)

/*
 * State outside the row's own process that a row changes or depends on.
 * Rows run in parallel (harness/schedule.c) unless they share one of
 * these: jobs that name the same resource -- the two implementations of
 * one row included -- never run at the same time.
 *
 * What a row can have for itself needs no entry: multicast groups are the
 * row's pool slot's (rc_ctx.slot), and so are vendor range 2 OUIs, of
 * which there are only a few (RC_SHARE_VENDOR_OUI).
 */
enum rc_share {
	/* the port's MAD agents and traffic of a class without an OUI
	 * (vendor range 1): receivers registered for it, requests to the
	 * own port that they or the kernel answer */
	RC_SHARE_MAD = 1 << 0,
	/* the row changes what every other row reads (the port's
	 * addresses and GID table): it runs alone */
	RC_SHARE_ALONE = 1 << 1,
	/* not a lock but one of RC_VENDOR_OUIS tokens (rc_ctx.oui): the row
	 * registers vendor range 2 agents under an OUI of its own, and the
	 * kernel keeps at most 8 OUIs per class and port (MAX_MGMT_OUI) */
	RC_SHARE_VENDOR_OUI = 1 << 2,
	/* the port's issm device, which one process holds at a time, and
	 * the IsSM bit of the port's capability mask that holding it sets */
	RC_SHARE_ISSM = 1 << 3,
};
#define RC_VENDOR_OUIS 8

/* One field of an expected output buffer, in the order the ABI defines. */
enum rc_order {
	RC_RAW, /* bytes as given */
	RC_BE, /* value stored big endian (network order) */
	RC_HOST, /* value stored in host order */
};

struct rc_patch {
	uint16_t off;
	uint8_t len;
	uint8_t order;
	uint64_t value;
	const uint8_t *raw;
};

#define RC_PATCH_BE(o, l, v)                                         \
	{                                                            \
		.off = (o), .len = (l), .order = RC_BE, .value = (v) \
	}
#define RC_PATCH_HOST(o, l, v)                                         \
	{                                                              \
		.off = (o), .len = (l), .order = RC_HOST, .value = (v) \
	}
#define RC_PATCH_RAW(o, l, p)                                       \
	{                                                           \
		.off = (o), .len = (l), .order = RC_RAW, .raw = (p) \
	}

#define RC_MAX_PATCH 8
/* The whole expected buffer: @fill everywhere a patch does not write. */
struct rc_bytes {
	uint16_t len;
	uint8_t fill;
	struct rc_patch patch[RC_MAX_PATCH];
};

/* Names for the bytes of a buffer, so that a diff can say which field differs. */
struct rc_field {
	const char *name;
	uint16_t off;
	uint16_t len;
};

struct rc_layout {
	const char *name;
	const struct rc_field *fields;
	size_t nfields;
};

#define RC_MAX_ERRNOS 4
/*
 * What the page promises of one call with a row's inputs: its outcome
 * within the call's convention (rc_group.conv), the output, the wait.
 */
struct rc_contract {
	enum rc_ret ret;
	long long value;
	long long alt[2]; /* RC_RET_IN: the other allowed values */
	int errnos[RC_MAX_ERRNOS]; /* allowed on failure; 0 ends the list */
	const struct rc_bytes *out; /* NULL: output not checked */
	const struct rc_layout *layout;
	unsigned int ms; /* expected duration of a timed call */
	/* +/- tolerance, scaled by the host's slowness up to a ceiling
	 * (rc_tolerance_ms) */
	unsigned int tol_ms;
};

struct rc_case {
	const char *id; /* stable: lib/call/behaviour */
	/* the man page's sentence, verbatim; for a "linux" row, the
	 * kernel's header, document or errno(3) text it rests on */
	const char *doc;
	const char *note; /* how the sentence is read where it is vague */
	enum rc_basis basis;
	unsigned int needs; /* enum rc_need (need.h) */
	/* the oldest Linux that has what the row checks ("6.11"), or NULL */
	const char *kernel;
	unsigned int watchdog_ms; /* 0: the default */
	/* how many calls of its function the observation times: a row over
	 * a whole domain calls it in a loop (0: one) */
	unsigned int calls;
	unsigned int shares; /* enum rc_share, beyond its group's */
	struct rc_contract contract;
};

/* A row's outcome, within its call's convention */
#define RC_RETURNS(v) .ret = RC_RET_EQ, .value = (v)
#define RC_SUCCEEDS .ret = RC_RET_OK
#define RC_FAILS(...) .ret = RC_RET_ERR, .errnos = { __VA_ARGS__ }
#define RC_ANY_RETURN .ret = RC_RET_ANY

/* What one run of one row on one implementation saw; lives in shared memory. */
enum rc_state {
	RC_STATE_NONE, /* child never got to the row */
	RC_STATE_STARTED, /* inside the code under test */
	RC_STATE_RAN,
	RC_STATE_ABSENT, /* the implementation lacks the call */
	RC_STATE_UNSUPPORTED, /* the device or kernel cannot do it */
	RC_STATE_SKIP, /* a requirement of the row is not met */
	RC_STATE_BROKEN, /* setup around the call failed */
};

#define RC_OUT_MAX 1024
#define RC_REASON_MAX 256
struct rc_obs {
	volatile int state;
	long long ret;
	int err;
	uint32_t out_len;
	double elapsed_ms; /* the call under test */
	/* where the rest of the row's time goes: the runner sets t_start
	 * (CLOCK_MONOTONIC ms, before fork) and total_ms (after the child
	 * ended); the call's start sets setup_ms */
	double t_start, setup_ms, total_ms;
	char reason[RC_REASON_MAX];
	char violation[RC_REASON_MAX]; /* a documented property not met */
	uint8_t out[RC_OUT_MAX];
};

/* How a row's process ended, as the runner saw it: facts, no verdict
 * (verdict.c decides what they mean). */
enum rc_end_how {
	RC_END_NONE, /* no process: the row was settled before it
				 * started (a need not met, a profile's SKIP) */
	RC_END_EXITED, /* .status is its exit status */
	RC_END_SIGNALED, /* .status is the signal that killed it */
	RC_END_HUNG, /* it outlived its watchdog and was killed */
	RC_END_NO_START, /* fork failed (the observation says why) */
};

struct rc_end {
	enum rc_end_how how;
	int status;
	unsigned int watchdog_ms; /* what it was given */
	/* RC_END_HUNG: where in the kernel a process that SIGKILL did not
	 * end waits (/proc/PID/wchan), "" when it ended */
	char stuck[40];
};

/* The device a run targets, as the run probed it: what a row's needs
 * are decided on (need.c) and its setup uses. */
struct rc_target {
	const char *ca; /* NULL: no device */
	int port;
	const char *link_layer; /* "InfiniBand", "Ethernet" (sysfs) */
	enum rc_link link; /* InfiniBand, RoCE or iWARP */
	bool umad; /* the port has its umad device */
	bool sysfs; /* the kernel's sysfs, not a simulator's (RDMACONF_TARGET) */
	const char *kernel; /* the running kernel's release */
	const char *peer; /* another device with an active port, or NULL */
	int peer_port;
	/* another node of the fabric running rdmaconf-peer (RDMACONF_REMOTE=
	 * LID:PORT_GUID): its LID, 0 when there is none, and port GUID */
	uint16_t remote_lid;
	uint64_t remote_guid;
	/* a file that exists while that node is there, renewed as it
	 * answers (RDMACONF_REMOTE_ALIVE, rdmaconf fleet's): a remote row
	 * that did not pass once it is gone did not run (run.c) */
	const char *remote_alive;
	bool root;
	double slowness; /* >= 1: how much slower than a native host */
};

/* How such a row's reason begins, for the fleet's report */
#define RC_PARTNER_GONE "partner gone"

struct rc_ctx {
	const struct rc_ops *ops;
	const struct rc_target *target;
	struct rc_obs *obs;
	unsigned int shares; /* enum rc_share the row declared, its group's
				 * included: what it may touch */
	unsigned int needs; /* enum rc_need the row declared: what its
				 * set-up may assume of the target */
	unsigned int slot; /* the run's pool slot it runs in: no two rows
				 * running at once have the same */
	unsigned int oui; /* its RC_SHARE_VENDOR_OUI token, likewise */
};

struct rc_group {
	const char *call; /* documented name, e.g. "umad_set_grh" */
	enum rc_conv conv; /* how it reports success and failure */
	const char *lib; /* "umad", "verbs", "rdmacm" */
	const void *rows;
	size_t row_size;
	size_t nrows;
	unsigned int shares; /* enum rc_share, of every row */
	/* Perform @row in a forked child; record into ctx->obs. */
	void (*run)(const void *row, struct rc_ctx *ctx);
};

#define RC_ROW(g, i)                                        \
	((const struct rc_case *)((const char *)(g)->rows + \
				  (i) * (g)->row_size))

/* Every group registers itself in this section; the harness walks it. */
#define RC_GROUP(name)                                          \
	static const struct rc_group *const rc_group_ptr_##name \
		__attribute__((section("rc_groups"), used,      \
			       aligned(sizeof(void *)))) = &name

/* A group @var of call @call (a string) over the row table @table, whose
 * rows @run performs, registered (RC_GROUP) */
#define RC_TABLE_GROUP(var, call_name, conv_kind, lib_name, table, run_fn) \
	static const struct rc_group var = {                               \
		.call = call_name,                                         \
		.conv = conv_kind,                                         \
		.lib = lib_name,                                           \
		.rows = table,                                             \
		.row_size = sizeof(table[0]),                              \
		.nrows = ARRAY_SIZE(table),                                \
		.run = run_fn,                                             \
	};                                                                 \
	RC_GROUP(var)

extern const struct rc_group *const __start_rc_groups[];
extern const struct rc_group *const __stop_rc_groups[];

/* helpers for the run functions of case files (harness/observe.c) */
void rc_obs_begin(struct rc_obs *obs);
void rc_obs_end(struct rc_obs *obs, long long ret);
void rc_obs_out(struct rc_obs *obs, const void *buf, size_t len);
void rc_obs_state(struct rc_obs *obs, enum rc_state state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool rc_need_call(struct rc_ctx *ctx, const void *fn, const char *name);
/* Record that the output breaks a documented property (device rows, whose
 * exact bytes depend on the device and are compared across the two
 * implementations instead).  Each mismatch starts with the name of its
 * field, and several are separated by "; ": the names are what a
 * profile's XFAIL:output=FIELD,... pins. */
void rc_obs_violation(struct rc_obs *obs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rc_bytes_build(const struct rc_bytes *b, uint8_t *buf);
/* what a row spent after the call under test: its checks, its clean-up,
 * the process's exit (0 when it did not get that far) */
double rc_obs_teardown_ms(const struct rc_obs *o);
/*
 * @fn(@ctx, @arg) in a child of the row's process (guard.c), for a row
 * that must put machine state back after its calls under test whatever
 * they do: the child's wait status (0: it returned), or -1 (the row
 * BROKEN: no child).  The row puts its state back, then ends with
 * rc_end_by(that status), so that its verdict is the crash or the exit
 * it was.
 */
int rc_guarded(struct rc_ctx *ctx, void (*fn)(struct rc_ctx *, void *),
	       void *arg);
/* End the row's process as its child ended (@status from rc_guarded);
 * nothing when the child returned (0) or never was (-1) */
void rc_end_by(int status);
/* CLOCK_MONOTONIC in ms: every deadline and duration of the harness */
double rc_now_ms(void);
/* @ms scaled by the host's measured slowness (never below 1), for the
 * deadlines of rows that wait for something to arrive */
int rc_scaled_ms(const struct rc_ctx *ctx, int ms);
/* Whether the @len bytes at @got, which the device writes (a message on
 * its way, an RDMA Write whose completion came before its bytes), come to
 * be @want's within @ms (scaled); no violation either way */
bool rc_wait_same(const struct rc_ctx *ctx, const void *got, const void *want,
		  size_t len, int ms);

/* Call @expr with errno cleared and timed; record ret and errno. */
#define RC_OBSERVE(ctx, expr)                      \
	do {                                       \
		rc_obs_begin((ctx)->obs);          \
		long long __r = (long long)(expr); \
		rc_obs_end((ctx)->obs, __r);       \
	} while (0)

/* "EINVAL" for EINVAL (verdict messages, results) */
const char *rc_errno_name(int err);

#endif
