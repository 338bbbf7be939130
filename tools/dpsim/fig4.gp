# SPDX-License-Identifier: GPL-2.0
# Fig. 4 of the DPillar paper: average SRoute path length, n = 12.
# gnuplot -e "dat='fig4.dat'; svg='out.svg'" fig4.gp
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "DPillar n = 12: SRoute path length (100,000 random pairs)"
set xlabel "server columns k"
set ylabel "hops"
set key top left
set grid
set xrange [1.5:6.5]
set xtics 1
set yrange [0:*]
plot dat using 1:2 with linespoints title "bound k + floor(k/2)", \
     dat using 1:4 with linespoints title "max, D = +1 (paper)", \
     dat using 1:3 with linespoints title "average, D = +1 (paper)", \
     dat using 1:5 with linespoints title "average, shorter D (dpillar)", \
     dat using 1:7 with linespoints title "average shortest path (BFS)"
