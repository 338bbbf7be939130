# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 11: forwarding entries per switch vs switches, 10
# inter-switch ports.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "Forwarding state, 10 inter-switch ports"
set xlabel "switches"
set ylabel "entries per switch"
set grid
set key top left
set logscale y
plot dat using 1:2 with linespoints pt 6 title "S2 mean (coordinates of 1- and 2-hop neighbours)", \
     dat using 1:3 with linespoints pt 7 title "S2 max", \
     dat using 1:4 with linespoints pt 4 title "shortest-path table (one entry per switch)", \
     dat using 1:5 with linespoints pt 2 title "Jellyfish 8-shortest paths, MPLS (mean, sampled)"
