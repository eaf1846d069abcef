// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The version, the revision and the install prefix, in one object: only
 * it is rebuilt when they change (Makefile). */
#include "paths.h"

#ifndef RDMACONF_VERSION
#define RDMACONF_VERSION "0.1"
#endif
#ifndef RDMACONF_REVISION
#define RDMACONF_REVISION "unknown"
#endif
#ifndef RDMACONF_PREFIX
#define RDMACONF_PREFIX "/usr/local"
#endif

const char rc_version[] = RDMACONF_VERSION;
const char rc_revision[] = RDMACONF_REVISION;
const char rc_prefix[] = RDMACONF_PREFIX;
