// SPDX-License-Identifier: GPL-2.0
/* Streaming JSON output: keys are passed as NULL inside arrays. */
#include <stdio.h>

#include "dp_json.h"

#define JSON_MAX_DEPTH 16

static FILE *out;
static bool json_pretty;
static int depth;
static bool first[JSON_MAX_DEPTH];

void json_init(bool pretty)
{
	json_init_file(stdout, pretty);
}

void json_init_file(FILE *f, bool pretty)
{
	out = f;
	json_pretty = pretty;
	depth = 0;
	first[0] = true;
}

static void json_indent(void)
{
	int i;

	if (!json_pretty)
		return;
	fputc('\n', out);
	for (i = 0; i < depth; i++)
		fputs("    ", out);
}

static void json_escape(const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_key(const char *key)
{
	if (!first[depth])
		fputc(',', out);
	first[depth] = false;
	if (depth)
		json_indent();
	if (key) {
		json_escape(key);
		fputc(':', out);
		if (json_pretty)
			fputc(' ', out);
	}
}

static void json_open(const char *key, char c)
{
	json_key(key);
	fputc(c, out);
	if (depth < JSON_MAX_DEPTH - 1)
		depth++;
	first[depth] = true;
}

static void json_close(char c)
{
	bool empty = first[depth];

	depth--;
	if (!empty)
		json_indent();
	fputc(c, out);
}

void json_open_obj(const char *key)
{
	json_open(key, '{');
}

void json_close_obj(void)
{
	json_close('}');
}

void json_open_arr(const char *key)
{
	json_open(key, '[');
}

void json_close_arr(void)
{
	json_close(']');
}

void json_str(const char *key, const char *val)
{
	json_key(key);
	json_escape(val);
}

void json_uint(const char *key, uint64_t val)
{
	json_key(key);
	fprintf(out, "%llu", (unsigned long long)val);
}

void json_int(const char *key, int64_t val)
{
	json_key(key);
	fprintf(out, "%lld", (long long)val);
}

void json_double(const char *key, double val, int decimals)
{
	json_key(key);
	fprintf(out, "%.*f", decimals, val);
}

void json_bool(const char *key, bool val)
{
	json_key(key);
	fputs(val ? "true" : "false", out);
}

void json_end(void)
{
	fputc('\n', out);
}

void json_list_begin(bool pretty)
{
	json_init(pretty);
	json_open_arr(NULL);
}

void json_list_end(void)
{
	json_close_arr();
	json_end();
}
