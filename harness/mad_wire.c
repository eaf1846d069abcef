// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mad_wire.h"

/* "RC" and 1: no registered OUI collides with a test of ours here */
uint8_t test_oui[3] = { 0x52, 0x43, 0x01 };
