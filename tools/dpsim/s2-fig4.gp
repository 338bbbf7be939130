# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 4: heavy (top 10%) and light (bottom 10%) links by the
# number of routing paths on them, against the MCD and the sum of
# circular distances of their endpoints (eval-s2load.py links --dat).
# dat: "coords seed class mcd sumcd load"; coords: which to plot.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title sprintf("S2, 250 switches of 10 ports (L = 4), %s coordinates, 2-hop (simulator)", coords)
set xlabel "MCD of the link's endpoints x N (log scale; 1 = the mean gap 1/N)"
set ylabel "sum of circular distances, 4 spaces"
set grid
set key top right
set logscale x
set xrange [1e-4:100]
set yrange [0:*]
plot dat using (strcol(1) eq coords && strcol(3) eq "heavy" ? $4 * 250 : NaN):5 \
	with points pt 7 ps 0.5 title "heavy (top 10%)", \
     dat using (strcol(1) eq coords && strcol(3) eq "light" ? $4 * 250 : NaN):5 \
	with points pt 6 ps 0.6 title "light (bottom 10%)"
