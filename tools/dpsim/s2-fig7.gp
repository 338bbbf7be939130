# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 7: paths per link, links ranked by load (eval-s2load.py
# dist --dat: "coords seed rank load", a block per network).
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "S2, 250 switches of 10 ports (L = 4), seed 1, 2-hop (simulator)"
set xlabel "link rank (increasing load)"
set ylabel "routing paths on the link"
set grid
set key top left
set xrange [0:1000]
plot dat index 0 using 3:4 with lines lw 2 title "random coordinates", \
     dat index 1 using 3:4 with lines lw 2 title "balanced random"
