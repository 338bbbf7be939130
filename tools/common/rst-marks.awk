# SPDX-License-Identifier: GPL-2.0
#
# rst-marks.awk: which test runs each literal block of a document.
#
#   awk -v markers="offline-test guest-test not-run" -f rst-marks.awk DOC.rst
#
# Every literal block (a paragraph ending in "::", or "::" alone) must
# come after an RST comment ".. MARKER: ARG" (MARKER one of the
# space-separated list), with no other literal block between the two:
# rst-blocks.awk's rule for the block a marker marks.  Prints a line per
# block, "LINE MARKER ARG" ("LINE - -" for one no marker marks), where
# LINE is the number of the line that ends in "::".  Comments ending in
# "::" are not blocks.
BEGIN { n = split(markers, m, " ") }
{
	for (i = 1; i <= n; i++) {
		re = "^[ \t]*\\.\\. " m[i] ": "
		if ($0 ~ re) {
			pend = $0
			sub(re, "", pend)
			pend = m[i] " " pend
			next
		}
	}
}
/^[ \t]*\.\. / { next }
/::[ \t]*$/ {
	print NR, (pend == "" ? "- -" : pend)
	pend = ""
}
