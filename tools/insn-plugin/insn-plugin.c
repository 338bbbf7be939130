// SPDX-License-Identifier: GPL-2.0
/*
 * insn-plugin.so: a QEMU TCG plugin (API version 1, QEMU 7.2) that counts
 * the guest instructions each vCPU executes, and writes every vCPU's
 * count whenever any vCPU executes the marker instruction, so that a
 * guest can read its own cost per vCPU over a window of its choosing.
 *
 *   qemu-system-x86_64 ... -plugin file=insn-plugin.so,out=FILE
 *   (selftests/vm/run-vm.sh --insn-plugin FILE.so: FILE is the run's
 *   insns.txt, the guest's $DPILLAR_OUT/insns.txt)
 *
 * The marker: xchg %bx,%bx with an operand-size prefix (66 87 db), which
 * swaps a register with itself and which no compiler emits; insn-mark.c
 * executes it, as can any process that maps the three bytes (dp_bench.py).
 *
 * FILE: a line "vcpus N" at start, then per marker, as it executes,
 *
 *   mark SEQ VCPU C0 C1 ... C(N-1) k K0 K1 ... K(N-1)
 *
 * SEQ counting from 1, VCPU the vCPU that executed it, Ci vCPU i's
 * instructions so far, Ki those of them in the kernel (a block whose
 * address has the top bit set: the upper half, where x86-64's kernel
 * lives with 4- or 5-level paging); at exit "exit C0 ... k K0 ...".  Each line is
 * flushed as it is written, so the guest reads it back (over 9p) at once.
 *
 * How it counts: when QEMU translates a block of guest code (a TB), the
 * plugin registers a callback on the block's execution that adds the
 * block's instruction count to the executing vCPU's counter; a vCPU's
 * thread writes only its own counter, so multi-threaded TCG needs no
 * lock for counting.  A block counts whole when it starts: one that an
 * interrupt or a fault leaves early counts the instructions it did not
 * execute (a few per interrupt).  Another vCPU's count read at a marker
 * under multi-threaded TCG is that vCPU's at about that instant (it
 * keeps running); with one TCG thread it is exact.
 *
 * prof=PFILE (optional): where the instructions went, per vCPU and per
 * block.  Each translated block gets a record of its address and its
 * instructions per vCPU; every marker zeroes them, and every second one
 * (SEQ even: a window's end, as the guest places them in pairs) first
 * writes the window's blocks to PFILE,
 *
 *   prof SEQ
 *   VCPU VADDR INSNS          (hex VADDR; a block translated twice may
 *                              appear twice: sum them)
 *
 * for the guest's /proc/kallsyms to name (dp_bench.py splitprof).  It
 * costs the host time at each marker (a walk of every block so far),
 * not the guest's instructions.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-min.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64

/* One cache line a vCPU: the vCPUs' threads do not share lines. */
struct slot {
	uint64_t n;
	uint64_t k;
} __attribute__((aligned(64)));

static struct slot count[MAX_VCPUS];
static unsigned int nvcpus = 1;
static unsigned long seq;
static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static const unsigned char marker[] = { 0x66, 0x87, 0xdb };

/* prof=: a record per translated block, its instructions per vCPU. */
struct prof_tb {
	uint64_t vaddr;
	uint64_t insns[];	/* nvcpus of them */
};
static FILE *prof;
static struct prof_tb **prof_tbs;
static size_t prof_n, prof_cap;

/* udata: the block's instruction count << 1, | 1 for a kernel block. */
static void tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t u = (uintptr_t)udata;

	if (vcpu >= MAX_VCPUS)
		return;
	__atomic_store_n(&count[vcpu].n, count[vcpu].n + (u >> 1),
			 __ATOMIC_RELAXED);
	if (u & 1)
		__atomic_store_n(&count[vcpu].k, count[vcpu].k + (u >> 1),
				 __ATOMIC_RELAXED);
}

/* prof=: a block's udata, its record and tb_exec's udata. */
struct prof_udata {
	struct prof_tb *tb;
	uintptr_t u;
};

static void tb_exec_prof(unsigned int vcpu, void *udata)
{
	struct prof_udata *p = udata;

	if (vcpu >= nvcpus)
		return;
	tb_exec(vcpu, (void *)p->u);
	p->tb->insns[vcpu] += p->u >> 1;
}

/* Under out_lock: the window's blocks (SEQ even), then all zeroed. */
static void prof_mark(void)
{
	size_t i;
	unsigned int v;

	if (!prof)
		return;
	if (!(seq & 1))
		fprintf(prof, "prof %lu\n", seq);
	for (i = 0; i < prof_n; i++) {
		struct prof_tb *t = prof_tbs[i];

		for (v = 0; v < nvcpus; v++) {
			if (!t->insns[v])
				continue;
			if (!(seq & 1))
				fprintf(prof, "%u %llx %llu\n", v,
					(unsigned long long)t->vaddr,
					(unsigned long long)t->insns[v]);
			t->insns[v] = 0;
		}
	}
	fflush(prof);
}

static void counts(void)
{
	unsigned int i;

	for (i = 0; i < nvcpus; i++)
		fprintf(out, " %llu", (unsigned long long)
			__atomic_load_n(&count[i].n, __ATOMIC_RELAXED));
	fputs(" k", out);
	for (i = 0; i < nvcpus; i++)
		fprintf(out, " %llu", (unsigned long long)
			__atomic_load_n(&count[i].k, __ATOMIC_RELAXED));
	fputc('\n', out);
	fflush(out);
}

static void mark_exec(unsigned int vcpu, void *udata)
{
	pthread_mutex_lock(&out_lock);
	if (out) {
		fprintf(out, "mark %lu %u", ++seq, vcpu);
		counts();
		prof_mark();
	}
	pthread_mutex_unlock(&out_lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uintptr_t kernel = qemu_plugin_tb_vaddr(tb) >> 63;

	if (prof) {
		struct prof_udata *p = calloc(1, sizeof(*p));

		if (p)
			p->tb = calloc(1, sizeof(*p->tb) +
				       nvcpus * sizeof(p->tb->insns[0]));
		pthread_mutex_lock(&out_lock);
		if (p && p->tb && prof_n == prof_cap) {
			size_t cap = prof_cap ? 2 * prof_cap : 65536;
			struct prof_tb **a = realloc(prof_tbs, cap * sizeof(*a));

			if (a) {
				prof_tbs = a;
				prof_cap = cap;
			}
		}
		if (p && p->tb && prof_n < prof_cap) {
			p->tb->vaddr = qemu_plugin_tb_vaddr(tb);
			p->u = (n << 1) | kernel;
			prof_tbs[prof_n++] = p->tb;
			pthread_mutex_unlock(&out_lock);
			qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_prof,
							     QEMU_PLUGIN_CB_NO_REGS, p);
		} else {
			/* Out of memory: counted, not profiled. */
			pthread_mutex_unlock(&out_lock);
			qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
							     (void *)((n << 1) | kernel));
		}
	} else {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)((n << 1) | kernel));
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
		    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	pthread_mutex_lock(&out_lock);
	if (out) {
		fputs("exit", out);
		counts();
		if (out != stderr)
			fclose(out);
		out = NULL;
	}
	if (prof) {
		fclose(prof);
		prof = NULL;
	}
	pthread_mutex_unlock(&out_lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *ppath = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "prof=", 5)) {
			ppath = argv[i] + 5;
		} else {
			fprintf(stderr, "insn-plugin: unknown argument %s\n",
				argv[i]);
			return -1;
		}
	}
	if (info->system_emulation && info->system.max_vcpus > 0)
		nvcpus = info->system.max_vcpus;
	if (nvcpus > MAX_VCPUS) {
		fprintf(stderr, "insn-plugin: %u vCPUs, at most %d\n", nvcpus,
			MAX_VCPUS);
		return -1;
	}
	out = path ? fopen(path, "w") : stderr;
	if (!out) {
		perror(path);
		return -1;
	}
	if (ppath) {
		prof = fopen(ppath, "w");
		if (!prof) {
			perror(ppath);
			return -1;
		}
	}
	fprintf(out, "vcpus %u\n", nvcpus);
	fflush(out);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
