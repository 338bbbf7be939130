/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DPCTL_JSON_H
#define DPCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>

/* A minimal streaming JSON writer, in the spirit of iproute2's json_print. */
void json_init(bool pretty);
void json_open_obj(const char *key);
void json_close_obj(void);
void json_open_arr(const char *key);
void json_close_arr(void);
void json_str(const char *key, const char *val);
void json_uint(const char *key, uint64_t val);
void json_bool(const char *key, bool val);
void json_end(void);

#endif
