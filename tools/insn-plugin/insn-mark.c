// SPDX-License-Identifier: GPL-2.0
/*
 * insn-mark [N]: execute insn-plugin.so's marker instruction (xchg
 * %bx,%bx with an operand-size prefix, 66 87 db) once, so that the plugin
 * writes every vCPU's instruction count.  Outside such a QEMU it does
 * nothing.  A process started for it costs its start and exit on the CPU
 * it runs on; a window measured this way holds one of the two (dp_bench.py
 * marks from a running process instead).
 *
 * With N > 0, the plugin's check: a marker, a loop of exactly 2 N
 * instructions (dec, jnz), a marker.  The vCPU's count between the two
 * is 2 N plus what interrupts that land in the loop execute, and the few
 * instructions of the first marker's block after it.
 */
#include <stdlib.h>

#define MARK ".byte 0x66, 0x87, 0xdb\n\t"

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;

	if (!n) {
		__asm__ volatile(MARK ::: "memory");
		return 0;
	}
	__asm__ volatile(MARK
			 "1: dec %0\n\t"
			 "jnz 1b\n\t"
			 MARK
			 : "+r"(n) : : "cc", "memory");
	return 0;
}
