# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 18: mean switch-to-switch path against the number of
# switches, 12 ports (dat: "switches 1hop 2hop-sim 2hop bfs jellyfish",
# seed means of eval-s2load.py length); the 12-port fat tree a point
# (3.8144, server pairs: eval-s2load.py fattree -k 12).
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "S2, 12-port switches (2 servers, L = 5), balanced coordinates"
set xlabel "switches"
set ylabel "switch hops (average, all pairs)"
set grid
set key bottom right
set xrange [0:850]
set yrange [0:*]
plot dat using 1:2 with linespoints title "S2 1-hop greediest", \
     dat using 1:3 with linespoints title "S2 2-hop (authors' simulator)", \
     dat using 1:4 with linespoints title "S2 2-hop (paper wording)", \
     dat using 1:5 with linespoints title "shortest on the S2 graph", \
     dat using 1:6 with linespoints title "Jellyfish (shortest)", \
     "-" using 1:2 with points pt 5 ps 1.2 title "FatTree (180 switches)"
180 3.8144
e
