/* SPDX-License-Identifier: GPL-2.0 */
/* dpctl: human tables, columns as wide as their widest cell. */
#ifndef DPCTL_TABLE_H
#define DPCTL_TABLE_H

#define TABLE_COLS_MAX 10

struct table {
	unsigned int ncols, nrows, cap;
	char **cells;		/* nrows * ncols, row 0 the header */
};

/* @header: the column titles, space separated ("PORT STATE ..."). */
void table_init(struct table *t, const char *header);
/* One row: ncols printf-formatted cells, separated by '\t' in @fmt. */
void table_row(struct table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print (each line after @indent) and free. */
void table_print(struct table *t, const char *indent);

#endif
