// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_dump(3): "dumps the given umad buffer to stderr."
 * umad_addr_dump(3): "dumps the given addr to stderr."
 *
 * The pages fix no format.  What a row can hold them to:
 * - the dump goes to stderr, and nothing to stdout (documented)
 * - the address's network-order fields (qpn, qkey, lid, flow_label) are
 *   shown as their values, in decimal or as 0x-prefixed hex: a dump that
 *   prints a big-endian field as if it were host order shows a number the
 *   caller never set (interpretation)
 * - the GID's 16 bytes, all different, are shown whole and in order: one
 *   run of 32 hex digits and no more, in groups split by white space or
 *   colons at most (interpretation)
 * - the dump ends its last line, so what comes next to stderr starts a
 *   line of its own (interpretation)
 * - umad_dump shows the MAD in the buffer: its 24 header bytes (IBA
 *   13.4.3), all different, whole and in order (interpretation: the umad
 *   buffer is the umad header and the MAD after it, umad_size(3) bytes
 *   in)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "umad_hdr.h"

#define DOC_DUMP "umad_dump() dumps the given umad buffer to stderr."
#define DOC_ADDR "umad_addr_dump() dumps the given addr to stderr."
#define NOTE_GID                                                              \
	"the GID f0e1d2c3b4a5968778695a4b3c2d1e0f (16 different "             \
	"bytes) as one run of 32 hex digits and no more, in groups split by " \
	"white space or colons at most, an 0x before it allowed"
#define NOTE_LINE                                                 \
	"the last byte on stderr is a newline: what the program " \
	"writes next to stderr starts a line of its own"
#define NOTE_VALUES                                                      \
	"the network-order fields are shown as the values they "         \
	"hold (decimal or 0x hex): qpn 42, qkey 0x80010000, lid 17767, " \
	"flow_label 74565"

struct dump_row;
/* What the captured @out (stdout) and @err (stderr) of the call must show. */
typedef void dump_check(const struct dump_row *row, struct rc_ctx *ctx,
			const char *out, const char *err);

struct dump_row {
	struct rc_case c;
	dump_check *check;
	bool addr_only; /* umad_addr_dump of the header's address */
};

static dump_check goes_to_stderr_only, shows_address_values;
static dump_check shows_gid_bytes, ends_line, shows_mad_header;

static const struct dump_row rows[] = {
	{ .c = { .id = "umad/dump/to-stderr",
		 .doc = DOC_DUMP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "something on stderr, nothing on stdout",
		 .contract = { RC_RETURNS(0) } },
	  .check = goes_to_stderr_only },
	{ .c = { .id = "umad/dump/address-values",
		 .doc = DOC_DUMP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_VALUES,
		 .contract = { RC_RETURNS(0) } },
	  .check = shows_address_values },
	{ .c = { .id = "umad/dump/gid-bytes",
		 .doc = DOC_DUMP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_GID,
		 .contract = { RC_RETURNS(0) } },
	  .check = shows_gid_bytes },
	{ .c = { .id = "umad/dump/ends-line",
		 .doc = DOC_DUMP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_LINE,
		 .contract = { RC_RETURNS(0) } },
	  .check = ends_line },
	{ .c = { .id = "umad/dump/mad-header",
		 .doc = DOC_DUMP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the buffer holds the MAD after the umad header, "
			 "umad_size() bytes in: its 24 header bytes a0 a1 ... b7 (all "
			 "different) as one run of 48 hex digits and no more, in "
			 "groups split by white space or colons at most",
		 .contract = { RC_RETURNS(0) } },
	  .check = shows_mad_header },
};

static const struct dump_row addr_rows[] = {
	{ .c = { .id = "umad/addr_dump/to-stderr",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "something on stderr, nothing on stdout",
		 .contract = { RC_RETURNS(0) } },
	  .check = goes_to_stderr_only,
	  .addr_only = true },
	{ .c = { .id = "umad/addr_dump/address-values",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_VALUES,
		 .contract = { RC_RETURNS(0) } },
	  .check = shows_address_values,
	  .addr_only = true },
	{ .c = { .id = "umad/addr_dump/gid-bytes",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_GID,
		 .contract = { RC_RETURNS(0) } },
	  .check = shows_gid_bytes,
	  .addr_only = true },
	{ .c = { .id = "umad/addr_dump/ends-line",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_LINE,
		 .contract = { RC_RETURNS(0) } },
	  .check = ends_line,
	  .addr_only = true },
};

static const uint8_t gid[16] = {
	0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
	0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f
};
#define MAD_HDR 24

/*
 * A header whose fields are all distinct and far from each other, and a
 * MAD header (at @mad) of 24 different bytes.
 */
static void fill(ib_user_mad_t *u, uint8_t *mad)
{
	int i;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < MAD_HDR; i++)
		mad[i] = 0xa0 + i;
	u->agent_id = 0x1234;
	u->status = 0x23;
	u->timeout_ms = 77;
	u->retries = 5;
	u->length = 320;
	u->addr.qpn = htobe32(42);
	u->addr.qkey = htobe32(0x80010000);
	u->addr.lid = htobe16(17767);
	u->addr.sl = 3;
	u->addr.grh_present = 1;
	u->addr.hop_limit = 9;
	u->addr.traffic_class = 0x11;
	u->addr.flow_label = htobe32(74565);
	memcpy(u->addr.gid, gid, sizeof(gid));
}

/* Is @v in @text, as a whole decimal number or 0x hex? */
static bool shows(const char *text, uint64_t v)
{
	char dec[32], hex[32];
	const char *p;

	snprintf(dec, sizeof(dec), "%" PRIu64, v);
	snprintf(hex, sizeof(hex), "0x%" PRIx64, v);
	for (p = text; (p = strstr(p, dec)); p++)
		if ((p == text || (p[-1] < '0' || p[-1] > '9')) &&
		    (p[strlen(dec)] < '0' || p[strlen(dec)] > '9'))
			return true;
	return strcasestr(text, hex) != NULL;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dump_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t buf[REF_UMAD_HDR_SIZE + 256];
	ib_user_mad_t *u = (ib_user_mad_t *)buf;
	char out[512] = "", err[4096] = "";
	int ofd = memfd_create("stdout", 0), efd = memfd_create("stderr", 0);
	int keep_out = dup(STDOUT_FILENO), keep_err = dup(STDERR_FILENO);
	bool whole = !row->addr_only;
	ssize_t n;

	if (!rc_need_call(ctx,
			  whole ? (void *)ops->umad_dump :
				  (void *)ops->umad_addr_dump,
			  whole ? "umad_dump" : "umad_addr_dump") ||
	    !rc_need_call(ctx, ops->umad_size, "umad_size"))
		return;
	if (ofd < 0 || efd < 0 || keep_out < 0 || keep_err < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "memfd/dup: %m");
		return;
	}
	memset(buf, 0, sizeof(buf));
	fill(u, buf + ops->umad_size()); /* umad_get_mad(3)'s MAD */
	fflush(NULL);
	dup2(ofd, STDOUT_FILENO);
	dup2(efd, STDERR_FILENO);
	if (whole)
		RC_OBSERVE(ctx, (ops->umad_dump(buf), 0));
	else
		RC_OBSERVE(ctx, (ops->umad_addr_dump(&u->addr), 0));
	fflush(NULL);
	dup2(keep_out, STDOUT_FILENO);
	dup2(keep_err, STDERR_FILENO);
	n = pread(ofd, out, sizeof(out) - 1, 0);
	out[n > 0 ? n : 0] = 0;
	n = pread(efd, err, sizeof(err) - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(ofd);
	close(efd);
	close(keep_out);
	close(keep_err);
	row->check(row, ctx, out, err);
}

static void goes_to_stderr_only(const struct dump_row *row, struct rc_ctx *ctx,
				const char *out, const char *err)
{
	if (out[0])
		rc_obs_violation(ctx->obs, "stdout \"%.60s\"", out);
	else if (!err[0])
		rc_obs_violation(ctx->obs, "stderr empty");
}

/* "field: value not shown" for each, so a pin names the fields */
static void shows_address_values(const struct dump_row *row, struct rc_ctx *ctx,
				 const char *out, const char *err)
{
	char msg[RC_REASON_MAX];
	int len = 0;

#define SHOWN(name, v)                                                      \
	do {                                                                \
		if (!shows(err, v) && len < (int)sizeof(msg))               \
			len += snprintf(msg + len, sizeof(msg) - len,       \
					"; " name " %" PRIu64 " not shown", \
					(uint64_t)(v));                     \
	} while (0)
	SHOWN("qpn", 42);
	SHOWN("qkey", 0x80010000);
	SHOWN("lid", 17767);
	SHOWN("flow_label", 74565);
#undef SHOWN
	if (len)
		rc_obs_violation(ctx->obs, "%s", msg + 2);
}

/*
 * Does @text show the @n bytes of @want whole and in order: one run of
 * hex tokens (split by white space, colons or commas, an 0x before each
 * allowed, each of whole bytes) that is exactly those bytes, no more?
 */
static bool shows_bytes(const char *text, const uint8_t *want, size_t n)
{
	static const char sep[] = " \t\n:,=()[]";
	size_t len = 0, w, hw, i;
	const char *t, *h;
	char run[256];

	for (t = text;; t += w) {
		t += strspn(t, sep);
		w = strcspn(t, sep);
		h = t;
		hw = w;
		if (hw > 2 && h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) {
			h += 2;
			hw -= 2;
		}
		for (i = 0; i < hw && isxdigit((unsigned char)h[i]); i++)
			;
		if (hw && i == hw && !(hw % 2) && len + hw < sizeof(run)) {
			memcpy(run + len, h, hw);
			len += hw;
			continue; /* the run goes on, lines too */
		}
		if (len == 2 * n) {
			for (i = 0; i < n; i++) {
				char b[3];

				snprintf(b, sizeof(b), "%02x", want[i]);
				if (strncasecmp(run + 2 * i, b, 2))
					break;
			}
			if (i == n)
				return true;
		}
		len = 0;
		if (!w && !t[0])
			return false;
	}
}

static void shows_gid_bytes(const struct dump_row *row, struct rc_ctx *ctx,
			    const char *out, const char *err)
{
	if (!shows_bytes(err, gid, sizeof(gid)))
		rc_obs_violation(ctx->obs,
				 "gid not shown as its 16 bytes in "
				 "order: \"%.200s\"",
				 err);
}

static void ends_line(const struct dump_row *row, struct rc_ctx *ctx,
		      const char *out, const char *err)
{
	size_t n = strlen(err);

	if (!n || err[n - 1] != '\n')
		rc_obs_violation(ctx->obs, "end not a newline: \"...%s\"",
				 err + (n > 40 ? n - 40 : 0));
}

static void shows_mad_header(const struct dump_row *row, struct rc_ctx *ctx,
			     const char *out, const char *err)
{
	uint8_t want[MAD_HDR];
	int i;

	for (i = 0; i < MAD_HDR; i++)
		want[i] = 0xa0 + i;
	if (!shows_bytes(err, want, sizeof(want)))
		rc_obs_violation(ctx->obs,
				 "mad header not shown as its 24 "
				 "bytes in order: \"%.200s\"",
				 err);
}

RC_TABLE_GROUP(group, "umad_dump", RC_CONV_VALUE, "umad", rows, run);

RC_TABLE_GROUP(addr_group, "umad_addr_dump", RC_CONV_VALUE, "umad", addr_rows,
	       run);
