# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 10: ideal throughput (max multi-commodity flow of a
# random permutation, over the 8 shortest paths per pair) vs servers,
# 125 switches of 10 ports, seeds 1 and 2.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "Ideal throughput (LP, 8 shortest paths), 125 switches of 10 ports"
set xlabel "servers"
set ylabel "total throughput (server link = 1)"
set grid
set key top right
set yrange [0:360]
sel(f, c) = (strcol(1) eq f) ? column(c) : 1/0
plot dat using (sel("s2",4)):5 with linespoints pt 6 title "S2 (dpsim's generator)", \
     dat using (sel("jellyfish",4)):5 with linespoints pt 2 title "Jellyfish", \
     x with lines dt 2 lc 0 title "every server at line rate"
