# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 19/20: key-based routing path length and load.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "S2 key-based routing, 100,000 keys, 3 replicas"
set xlabel "switches (10 ports, L = 4)"
set ylabel "switch hops (average)"
set y2label "most keys on one switch / mean"
set ytics nomirror
set y2tics
set grid
set key top left
plot dat using 1:2 with linespoints title "store (greedy in one space)", \
     dat using 1:3 with linespoints title "retrieve (greediest over 3 spaces)", \
     dat using 1:($6/$5) axes x1y2 with linespoints title "max load, 1 space", \
     dat using 1:($7/$5) axes x1y2 with linespoints title "max load per replica, 3 spaces"
