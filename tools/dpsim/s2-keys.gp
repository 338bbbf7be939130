# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 19/20: key-based routing path length and load, S2 (dat:
# s2-keys.dat) and SWDC 2D (swdc: s2-keys-swdc.dat, its 2hop rows, the
# third of each size's three (1hop, 2hop-sim, 2hop): the rule of S2's
# curves).
set terminal svg size 640,480 dynamic font "sans,12"
set output svg
set title "Key-based routing, 100,000 keys, 3 replicas (rule 2hop)"
set xlabel "switches (10 ports, 2 servers; S2: L = 4)"
set ylabel "switch hops (average)"
set y2label "most keys on one switch / mean"
set ytics nomirror
set y2tics
set grid
set key top left font "sans,10"
plot dat using 1:2 with linespoints lc 1 title "S2 store (greedy in one space)", \
     dat using 1:3 with linespoints lc 2 title "S2 retrieve (greediest over 3 spaces)", \
     swdc every 3::2 using 1:5 with linespoints lc 1 dt 2 title "SWDC to one replica (store)", \
     swdc every 3::2 using 1:6 with linespoints lc 2 dt 2 title "SWDC to the nearest of 3", \
     dat using 1:($6/$5) axes x1y2 with linespoints lc 3 title "S2 max load, 1 space", \
     dat using 1:($7/$5) axes x1y2 with linespoints lc 4 title "S2 max load per replica, 3 spaces", \
     swdc every 3::2 using 1:($10/$8) axes x1y2 with linespoints lc 4 dt 2 title "SWDC max load per replica, 3"
