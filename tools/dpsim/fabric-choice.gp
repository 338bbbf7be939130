# SPDX-License-Identifier: GPL-2.0
# "Choosing a fabric": mean path of the default routing (solid) and of
# BFS (dashed) vs servers, the four server-centric fabrics (hops as
# dpsim counts them; eval-throughput.sh fabric).
set terminal svg size 680,440 dynamic font "sans,12"
set output svg
set title "Mean path, default routing (solid) and shortest (dashed)"
set xlabel "servers"
set ylabel "server-to-server hops"
set grid
set key top left
set logscale x
set xrange [500:200000]
sel(f, c) = (strcol(1) eq f) ? column(c) : 1/0
plot dat using (sel("dpillar",3)):5 with linespoints pt 7 lc 1 title "DPillar", \
     dat using (sel("dpillar",3)):7 with linespoints pt 6 lc 1 dt 2 notitle, \
     dat using (sel("dcell",3)):5 with linespoints pt 5 lc 2 title "DCell", \
     dat using (sel("dcell",3)):7 with linespoints pt 4 lc 2 dt 2 notitle, \
     dat using (sel("bcube",3)):5 with linespoints pt 9 lc 3 title "BCube", \
     dat using (sel("bcube",3)):7 with linespoints pt 8 lc 3 dt 2 notitle, \
     dat using (sel("xdcent",3)):5 with linespoints pt 11 lc 4 title "XDCent", \
     dat using (sel("xdcent",3)):7 with linespoints pt 10 lc 4 dt 2 notitle
