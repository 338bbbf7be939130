/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DP_JSON_H
#define DP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The one JSON writer of dpctl and dpsim (stdout), in the spirit of
 * iproute2's json_print: compact as "ip -j" prints, or indented
 * (pretty).  Keys are NULL inside arrays.
 */
void json_init(bool pretty);
void json_init_file(FILE *f, bool pretty);
void json_open_obj(const char *key);
void json_close_obj(void);
void json_open_arr(const char *key);
void json_close_arr(void);
void json_str(const char *key, const char *val);
void json_uint(const char *key, uint64_t val);
void json_int(const char *key, int64_t val);
/* @val with @decimals digits after the point (printf's %.*f). */
void json_double(const char *key, double val, int decimals);
void json_bool(const char *key, bool val);
void json_end(void);
/*
 * A command's answers, as "ip -j" prints them: one array of objects
 * (json_init() and the array opened; closed and the line ended), even
 * for a single answer.
 */
void json_list_begin(bool pretty);
void json_list_end(void);

#endif
