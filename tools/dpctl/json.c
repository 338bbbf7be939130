// SPDX-License-Identifier: GPL-2.0
/* Streaming JSON output: keys are passed as NULL inside arrays. */
#include <stdio.h>

#include "json.h"

#define JSON_MAX_DEPTH 16

static bool json_pretty;
static int depth;
static bool first[JSON_MAX_DEPTH];

void json_init(bool pretty)
{
	json_pretty = pretty;
	depth = 0;
	first[0] = true;
}

static void json_indent(void)
{
	int i;

	if (!json_pretty)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

static void json_escape(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_key(const char *key)
{
	if (!first[depth])
		putchar(',');
	first[depth] = false;
	if (depth)
		json_indent();
	if (key) {
		json_escape(key);
		putchar(':');
		if (json_pretty)
			putchar(' ');
	}
}

static void json_open(const char *key, char c)
{
	json_key(key);
	putchar(c);
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
	putchar(c);
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
	printf("%llu", (unsigned long long)val);
}

void json_bool(const char *key, bool val)
{
	json_key(key);
	fputs(val ? "true" : "false", stdout);
}

void json_end(void)
{
	putchar('\n');
}
