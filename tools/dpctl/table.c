// SPDX-License-Identifier: GPL-2.0
/* dpctl: human tables, columns as wide as their widest cell. */
#define _GNU_SOURCE	/* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

static void table_add(struct table *t, char *line, char sep)
{
	unsigned int c = 0;
	char *cell, *save = NULL, delim[2] = { sep, 0 };

	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->cells = realloc(t->cells, sizeof(char *) * t->cap * t->ncols);
		if (!t->cells) {
			perror("dpctl");
			exit(1);
		}
	}
	for (cell = strtok_r(line, delim, &save); cell && c < t->ncols;
	     cell = strtok_r(NULL, delim, &save))
		t->cells[t->nrows * t->ncols + c++] = strdup(cell);
	while (c < t->ncols)
		t->cells[t->nrows * t->ncols + c++] = strdup("");
	t->nrows++;
	free(line);
}

void table_init(struct table *t, const char *header)
{
	const char *p;

	memset(t, 0, sizeof(*t));
	t->ncols = 1;
	for (p = header; *p; p++)
		t->ncols += *p == ' ';
	table_add(t, strdup(header), ' ');
}

void table_row(struct table *t, const char *fmt, ...)
{
	char *line;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = strdup("");
	va_end(ap);
	table_add(t, line, '\t');
}

void table_print(struct table *t, const char *indent)
{
	unsigned int r, c, w[TABLE_COLS_MAX] = { 0 };

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols && c < TABLE_COLS_MAX; c++)
			if (strlen(t->cells[r * t->ncols + c]) > w[c])
				w[c] = strlen(t->cells[r * t->ncols + c]);
	for (r = 0; r < t->nrows; r++) {
		fputs(indent, stdout);
		for (c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * t->ncols + c];

			if (c + 1 < t->ncols && c < TABLE_COLS_MAX)
				printf("%-*s  ", (int)w[c], cell);
			else
				puts(cell);
		}
	}
	for (r = 0; r < t->nrows * t->ncols; r++)
		free(t->cells[r]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
