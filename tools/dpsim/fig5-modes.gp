# SPDX-License-Identifier: GPL-2.0
# Fig. 5 redrawn with both routing modes: (12,4), failed servers.
# gnuplot -e "dat='fig5.dat'; svg='out.svg'" fig5-modes.gp
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "(12,4) DPillar, 100,000 random live pairs per point"
set xlabel "failed servers"
set ylabel "average path length (hops)"
set y2label "connected pairs not delivered (per 100,000)"
set ytics nomirror
set y2tics
set key top left
set grid
set xrange [0:300]
set yrange [3.5:5.5]
set y2range [0:*]
plot dat using 1:(strcol(2) eq "paper" ? $6 : 1/0) with linespoints \
	title "avg hops, paper (FTRoute)", \
     dat using 1:(strcol(2) eq "shortest" ? $6 : 1/0) with linespoints \
	title "avg hops, shortest mode", \
     dat using 1:(strcol(2) eq "shortest" ? $15 : 1/0) with lines dt 2 \
	title "shortest live path (BFS)", \
     dat using 1:(strcol(2) eq "paper" ? (100 - $14) * 1000 : 1/0) \
	axes x1y2 with impulses lw 2 title "lost, paper", \
     dat using 1:(strcol(2) eq "shortest" ? (100 - $14) * 1000 : 1/0) \
	axes x1y2 with points pt 7 title "lost, shortest mode"
