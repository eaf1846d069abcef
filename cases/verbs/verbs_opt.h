/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the rows of the verbs a device may not have share (thread and
 * parent domains, device memory, counters, flows, WQs, XRC, ECE, CQ
 * moderation, null MRs, MR advice, dma-buf MRs, rate limits, SRQ
 * operations): whether the device has the feature, read from the
 * implementation under test, and the row's answer when it is not the one
 * the row is about.  A "not supported" row is about a device without the
 * feature: on one with it, the row is UNSUPPORTED with that cause; a row
 * of what the feature does is UNSUPPORTED on a device without it.
 */
#ifndef RDMACONF_CASES_VERBS_OPT_H
#define RDMACONF_CASES_VERBS_OPT_H

#include "verbs_ctl.h"

/* ibv_query_device_ex through the implementation under test (BROKEN when
 * it fails) */
bool vo_attr_ex(struct rc_ctx *ctx, struct vl *l, struct ibv_device_attr_ex *a);
/* @has: the device has @what, so a "not supported" row does not apply
 * (UNSUPPORTED); true when it lacks it */
bool vo_lacks(struct rc_ctx *ctx, bool has, const char *what);
/* !@has: UNSUPPORTED, the device has no @what; true when it has */
bool vo_has(struct rc_ctx *ctx, bool has, const char *what);
/* After the call of a "not supported" row whose device shows no
 * capability for it: @made, it has @what after all (UNSUPPORTED). */
void vo_made(struct rc_ctx *ctx, bool made, const char *what);

#endif
