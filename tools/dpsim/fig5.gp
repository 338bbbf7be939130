# SPDX-License-Identifier: GPL-2.0
# Fig. 5 of the DPillar paper: FTRoute in a (12,4) DPillar.
# gnuplot -e "dat='fig5.dat'; svg='out.svg'" fig5.gp
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "(12,4) DPillar, FTRoute, 100,000 random live pairs per point"
set xlabel "failed servers"
set ylabel "average path length (hops)"
set y2label "dropped packets (per 100,000)"
set ytics nomirror
set y2tics
set key top left
set grid
set xrange [0:300]
set yrange [3.5:5.5]
set y2range [0:*]
plot dat using 1:(strcol(2) eq "cw" ? $6 : 1/0) with linespoints \
	title "avg hops, D = +1 (paper)", \
     dat using 1:(strcol(2) eq "paper" ? $6 : 1/0) with linespoints \
	title "avg hops, shorter D", \
     dat using 1:(strcol(2) eq "cw" ? $4 : 1/0) axes x1y2 with impulses \
	lw 2 title "dropped, D = +1", \
     dat using 1:(strcol(2) eq "paper" ? $4 : 1/0) axes x1y2 with points \
	pt 7 title "dropped, shorter D"
