// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The results JSON: the head (tool, host, device) and one object per row.
 * The row's "ok" is the KTAP line's verdict, which the gate compares.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "output.h"
#include "paths.h"
#include "target.h"

/* PRETTY_NAME of /etc/os-release ("Debian GNU/Linux 13 (trixie)"): the
 * distribution whose rdma-core runs, for a matrix's columns */
static const char *os_name(void)
{
	static char name[128];
	char line[256];
	FILE *f = fopen("/etc/os-release", "re");
	size_t n;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "PRETTY_NAME=", 12))
			continue;
		snprintf(name, sizeof(name), "%s",
			 line + 12 + (line[12] == '"'));
		n = strcspn(name, "\"\n");
		name[n] = 0;
	}
	if (f)
		fclose(f);
	return name[0] ? name : NULL;
}

/* @key (with what goes before it), then @value as a JSON string or null */
static void member(struct rc_str *b, const char *key, const char *value)
{
	rc_str_printf(b, "%s", key);
	rc_str_json(b, value);
}

void rc_json_head(struct rc_str *b, const struct rc_device *dev,
		  const struct rc_target *t, const struct rc_profile *p)
{
	const char *origin = rc_impl_system_origin("umad");
	struct utsname u;

	uname(&u);
	rc_str_printf(b,
		      "\"schema\": %d,\n\"tool\": {\"name\": \"rdmaconf\", "
		      "\"version\": ",
		      RC_RESULTS_SCHEMA);
	rc_str_json(b, rc_version);
	rc_str_printf(b, ", \"revision\": ");
	rc_str_json(b, rc_revision);
	rc_str_printf(b, "},\n\"host\": {\"kernel\": ");
	rc_str_json(b, u.release);
	rc_str_printf(b, ", \"machine\": ");
	rc_str_json(b, u.machine);
	member(b, ", \"os\": ", os_name());
	member(b, ", \"rdma_core\": ", rc_impl_rdma_core_version(origin));
	member(b, ", \"libibumad\": ", origin);
	member(b, ", \"libibverbs\": ", rc_impl_system_origin("verbs"));
	member(b, ", \"librdmacm\": ", rc_impl_system_origin("rdmacm"));
	member(b, ", \"ld_preload\": ", getenv("LD_PRELOAD"));
	member(b, ", \"ld_library_path\": ", getenv("LD_LIBRARY_PATH"));
	/* rdmaconf fleet (ci/fleet-node): this node, its job, its partner */
	rc_str_printf(b, ", \"fleet\": ");
	if (getenv("RDMACONF_FLEET_NODE")) {
		member(b, "{\"node\": ", getenv("RDMACONF_FLEET_NODE"));
		member(b, ", \"job\": ", getenv("RDMACONF_FLEET_JOB"));
		member(b, ", \"partner\": ", getenv("RDMACONF_FLEET_PARTNER"));
		rc_str_printf(b, "}");
	} else {
		rc_str_printf(b, "null");
	}
	rc_str_printf(b, ", \"peer_device\": ");
	rc_str_json(b, t->peer);
	rc_str_printf(b, ", \"remote_node\": ");
	if (t->remote_lid)
		rc_str_printf(b,
			      "{\"lid\": %u, \"port_guid\": "
			      "\"0x%016" PRIx64 "\"}",
			      t->remote_lid, t->remote_guid);
	else
		rc_str_printf(b, "null");
	rc_str_printf(b, ", \"slowness\": %.2f", t->slowness);
	/* where the profiles came from: the entries' "where" are relative
	 * to the data directory */
	member(b, ", \"target\": ", rc_target_name(rc_target_current()));
	member(b, ", \"profile_dir\": ", p->dir);
	member(b, ", \"profiles\": ", p->files);
	rc_str_printf(b, "},\n\"device\": ");
	rc_device_fingerprint(dev, b);
}

static void needs(struct rc_str *b, unsigned int needs)
{
	unsigned int i, n = 0;

	rc_str_printf(b, "[");
	for (i = 0; i < RC_NNEEDS; i++)
		if (needs & (1u << i))
			rc_str_printf(b, "%s\"%s\"", n++ ? ", " : "",
				      rc_need_name(i));
	rc_str_printf(b, "]");
}

/* the row's contract, with its call's convention */
static void contract(struct rc_str *b, const struct rc_group *g,
		     const struct rc_contract *e)
{
	uint8_t want[RC_OUT_MAX];
	unsigned int i;

	rc_str_printf(b, "{\"convention\": \"%s\", \"ret\": \"%s\"",
		      rc_conv_name(g->conv), rc_outcome_name(e->ret));
	if (e->ret == RC_RET_EQ || e->ret == RC_RET_IN)
		rc_str_printf(b, ", \"value\": %lld", e->value);
	if (e->ret == RC_RET_IN)
		rc_str_printf(b, ", \"alt\": [%lld, %lld]", e->alt[0],
			      e->alt[1]);
	rc_str_printf(b, ", \"errno\": [");
	for (i = 0; i < RC_MAX_ERRNOS && e->errnos[i]; i++)
		rc_str_printf(b, "%s\"%s\"", i ? ", " : "",
			      rc_errno_name(e->errnos[i]));
	rc_str_printf(b, "]");
	if (e->out) {
		rc_bytes_build(e->out, want);
		rc_str_printf(b, ", \"out\": ");
		rc_str_hex(b, want, e->out->len);
	}
	if (e->tol_ms)
		rc_str_printf(b, ", \"ms\": %u, \"tol_ms\": %u", e->ms,
			      e->tol_ms);
	rc_str_printf(b, "}");
}

static void observed(struct rc_str *b, const struct rc_outcome *oc)
{
	const struct rc_obs *o = &oc->obs;

	if (!oc->selected || o->state != RC_STATE_RAN) {
		rc_str_printf(b, "null");
		return;
	}
	rc_str_printf(b, "{\"ret\": %lld, \"errno\": ", o->ret);
	rc_str_json(b, o->err ? rc_errno_name(o->err) : NULL);
	rc_str_printf(b, ", \"out\": ");
	rc_str_hex(b, o->out, o->out_len);
	rc_str_printf(b,
		      ", \"elapsed_ms\": %.3f, \"setup_ms\": %.3f, "
		      "\"teardown_ms\": %.3f",
		      o->elapsed_ms, o->setup_ms, rc_obs_teardown_ms(o));
	/* it failed on timing beside other rows, then ran alone */
	if (oc->first_ms)
		rc_str_printf(b, ", \"first_ms\": %.3f", oc->first_ms);
	rc_str_printf(b, "}");
}

static void bool_field(struct rc_str *b, const char *name, bool v)
{
	rc_str_printf(b, ", \"%s\": %s", name, v ? "true" : "false");
}

/* what the row's table says of it, in both the results and the listing */
static void case_fields(struct rc_str *b, const struct rc_group *g,
			const struct rc_case *c)
{
	rc_str_printf(b, ", \"call\": ");
	rc_str_json(b, g->call);
	rc_str_printf(b, ", \"doc\": ");
	rc_str_json(b, c->doc);
	rc_str_printf(b, ", \"basis\": ");
	rc_str_json(b, rc_basis_name(c->basis));
	rc_str_printf(b, ", \"needs\": ");
	needs(b, c->needs);
}

static void entry(struct rc_str *b, const struct rc_profile_entry *x)
{
	if (!x) {
		rc_str_printf(b, "null");
		return;
	}
	rc_str_printf(b, "{\"kind\": \"%s\", \"reason\": ",
		      rc_entry_kind_name(x->kind));
	rc_str_json(b, x->reason);
	rc_str_printf(b, ", \"where\": ");
	rc_str_json(b, x->where);
	rc_str_printf(b, "}");
}

void rc_json_row(struct rc_str *b, const struct rc_group *g,
		 const struct rc_case *c, const struct rc_row_result *r)
{
	const struct rc_outcome *oc = r->oc;
	int i;

	rc_str_printf(b, "{\"id\": ");
	rc_str_json(b, c->id);
	bool_field(b, "ok", !r->bad);
	bool_field(b, "conforms_now", r->conforms_now);
	bool_field(b, "not_run_by_profile", r->by_profile);
	case_fields(b, g, c);
	rc_str_printf(b, ", \"verdict\": {");
	for (i = 0; i < RC_NIMPLS; i++) {
		rc_str_printf(b, "%s\"%s\": ", i ? ", " : "", rc_impl_name(i));
		rc_str_json(b, oc[i].selected ?
				       rc_verdict_name(oc[i].j.verdict) :
				       NULL);
	}
	rc_str_printf(b, "}, \"agree\": %s",
		      r->agree < 0 ? "null" :
		      r->agree	   ? "true" :
				     "false");
	for (i = 0; i < RC_NIMPLS; i++) {
		rc_str_printf(b, ", \"%s\": ", rc_impl_name(i));
		observed(b, &oc[i]);
		rc_str_printf(b, ", \"%s_detail\": ", rc_impl_name(i));
		rc_str_json(b, oc[i].selected ? oc[i].j.msg : NULL);
	}
	rc_str_printf(b, ", \"contract\": ");
	contract(b, g, &c->contract);
	rc_str_printf(b, ", \"divergence\": ");
	rc_str_json(b, r->why[0] ? r->why : NULL);
	rc_str_printf(b, ", \"note\": ");
	rc_str_json(b, c->note);
	rc_str_printf(b, ", \"profile_entry\": ");
	entry(b, r->x);
	/* the reference's own entry (a kernel's deviation beside the
	 * library's), only where it has one */
	if (r->x_ref) {
		rc_str_printf(b, ", \"reference_profile_entry\": ");
		entry(b, r->x_ref);
	}
	rc_str_printf(b, ", \"stale\": ");
	rc_str_json(b, r->stale[0] ? r->stale : NULL);
	rc_str_printf(b, "}");
}

void rc_json_case(struct rc_str *b, const struct rc_group *g,
		  const struct rc_case *c)
{
	rc_str_printf(b, "{\"id\": ");
	rc_str_json(b, c->id);
	rc_str_printf(b, ", \"lib\": ");
	rc_str_json(b, g->lib);
	case_fields(b, g, c);
	rc_str_printf(b, ", \"note\": ");
	rc_str_json(b, c->note);
	rc_str_printf(b, ", \"contract\": ");
	contract(b, g, &c->contract);
	rc_str_printf(b, "}");
}
