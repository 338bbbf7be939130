// SPDX-License-Identifier: GPL-2.0
/*
 * insn-mark: execute insn-plugin.so's marker instruction (xchg %bx,%bx
 * with an operand-size prefix, 66 87 db) once, so that the plugin writes
 * every vCPU's instruction count.  Outside such a QEMU it does nothing.
 * A process started for it costs its start and exit on the CPU it runs
 * on; a window measured this way holds one of the two (dp_bench.py marks
 * from a running process instead).
 */
int main(void)
{
	__asm__ volatile(".byte 0x66, 0x87, 0xdb" ::: "memory");
	return 0;
}
