# SPDX-License-Identifier: GPL-2.0
# The S2 paper's packet-level figures on ns-3 (eval-s2.sh): Fig. 16
# (per-flow throughput by rank, k = 1, 2, 4, 8 paths), Fig. 17 (CDF of
# per-flow completion, k = 1 and 8), Fig. 22-24 (path length,
# throughput and completion under failed cables, relative to none).
set terminal svg size 1200,420 dynamic font "sans,11"
set output svg
set multiplot layout 1,3
set grid
set title "Fig. 16: per-flow throughput, 500 flows"
set xlabel "flow rank"
set ylabel "throughput (host link = 1)"
set yrange [0:1.05]
set key bottom left
plot for [k in "1 2 4 8"] dir."/fig16-k".k.".dat" using 1:2 with lines \
     lw 2 title k." path".(k eq "1" ? "" : "s")
set title "Fig. 17: per-flow completion, 1.6 MB at 100 Mb/s"
set xlabel "completion time (s)"
set ylabel "fraction of flows"
set yrange [0:1.05]
set key bottom right
plot for [k in "1 8"] dir."/fig17-k".k.".dat" using 1:2 with steps \
     lw 2 title k." path".(k eq "1" ? "" : "s")
set title "Fig. 22-24: 128 servers, failed cables"
set xlabel "failed cable ends (% of cables)"
set ylabel "relative to no failure"
set yrange [0:*]
set key bottom left
plot dir."/fig23.dat" using 1:2 with linespoints pt 4 title "path length", \
     dir."/fig23.dat" using 1:3 with linespoints pt 7 title "throughput", \
     dir."/fig23.dat" using 1:5 with linespoints pt 5 title "all-flow completion", \
     dir."/fig23.dat" using 1:6 with linespoints pt 9 title "mean completion"
unset multiplot
