# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 3: path length vs the number of spaces d in the MCD.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "S2, 250 switches of 12 ports (L = 5): path length vs spaces"
set xlabel "spaces d used by greediest routing"
set ylabel "switch hops (average, all pairs)"
set grid
set xtics 1
set yrange [0:*]
plot dat using 1:3 with linespoints title "1-hop greediest", \
     dat using 1:4 with linespoints title "2-hop (authors' simulator)", \
     dat using 1:5 with linespoints title "2-hop (paper wording, default)", \
     dat using 1:2 with linespoints title "shortest (BFS)"
