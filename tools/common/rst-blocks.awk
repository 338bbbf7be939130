# SPDX-License-Identifier: GPL-2.0
#
# rst-blocks.awk: the literal blocks a document marks for a test.
#
#   awk -v marker=NAME -v dir=DIR -f rst-blocks.awk DOC.rst
#
# Each RST comment ".. NAME: ARG" (indented or not) starts a block: ARG
# goes to DIR/NNN.arg (NNN from 001, in the document's order), and the
# first literal block after it (the paragraph ending in "::"), dedented,
# without trailing blanks or trailing blank lines, to DIR/NNN.block.  A
# marker with no literal block after it gets no .block file.  Used by
# tools/dpsim/eval-check.sh (the evaluation's tables) and
# tools/dpctl/test-offline.sh (the administrator's guide's commands).
function flush() {
	if (n && !done && nl) {
		while (nl > 0 && lines[nl] ~ /^[ \t]*$/)
			nl--
		f = sprintf("%s/%03d.block", dir, n)
		printf "" > f
		for (i = 1; i <= nl; i++)
			print substr(lines[i], ind + 1) > f
		close(f)
	}
	done = 1
}
$0 ~ "^[ \t]*\\.\\. " marker ": " {
	flush()
	n++
	arg = $0
	sub("^[ \t]*\\.\\. " marker ": ", "", arg)
	f = sprintf("%s/%03d.arg", dir, n)
	print arg > f
	close(f)
	state = 1; done = 0; nl = 0; ind = -1
	next
}
state == 1 && /::[ \t]*$/ { state = 2; next }
state == 2 {
	if ($0 ~ /^[ \t]*$/) {
		if (nl)
			lines[++nl] = ""
		next
	}
	match($0, /^ */)
	if (ind < 0) {
		if (RLENGTH == 0) { state = 0; flush(); next }
		ind = RLENGTH
	}
	if (RLENGTH < ind) { state = 0; flush(); next }
	sub(/[ \t]+$/, "")
	lines[++nl] = $0
}
END { flush() }
