# SPDX-License-Identifier: GPL-2.0
# Fig. 4 redrawn with both routing modes: average path length, n = 12.
# gnuplot -e "dat='fig4.dat'; svg='out.svg'" fig4-modes.gp
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "DPillar n = 12: failure-free path length (100,000 random pairs)"
set xlabel "server columns k"
set ylabel "hops"
set key top left
set grid
set xrange [1.5:6.5]
set xtics 1
set yrange [0:*]
plot dat using 1:2 with linespoints title "SRoute bound k + floor(k/2)", \
     dat using 1:3 with linespoints title "paper, D = +1", \
     dat using 1:5 with linespoints title "paper, shorter D", \
     dat using 1:9 with linespoints pt 7 title "shortest mode (default)", \
     dat using 1:7 with points pt 6 ps 2 title "shortest path (BFS)"
