# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 18: mean switch-to-switch path against the number of
# switches, 12 ports (dat: "switches 1hop 2hop-sim 2hop bfs jellyfish
# swdc-1hop swdc-2hop-sim swdc-2hop swdc-bfs", seed means of
# eval-s2load.py length and swdc); the 12-port fat tree a point
# (3.8144, server pairs: eval-s2load.py fattree -k 12).
set terminal svg size 640,480 dynamic font "sans,12"
set output svg
set title "12-port switches (2 servers; S2: L = 5, balanced coordinates)"
set xlabel "switches"
set ylabel "switch hops (average, all pairs)"
set grid
set key top left font "sans,10"
set xrange [0:850]
set yrange [0:*]
plot dat using 1:2 with linespoints lc 1 title "S2 1-hop greediest", \
     dat using 1:3 with linespoints lc 2 title "S2 2-hop (authors' simulator)", \
     dat using 1:4 with linespoints lc 3 title "S2 2-hop (paper wording)", \
     dat using 1:5 with linespoints lc 4 title "shortest on the S2 graph", \
     dat using 1:6 with linespoints lc 5 title "Jellyfish (shortest)", \
     dat using 1:7 with linespoints lc 1 dt 2 title "SWDC 2D 1-hop greedy", \
     dat using 1:8 with linespoints lc 2 dt 2 title "SWDC 2D 2-hop (simulator's rule)", \
     dat using 1:9 with linespoints lc 3 dt 2 title "SWDC 2D 2-hop", \
     "-" using 1:2 with points pt 5 ps 1.2 lc 7 title "FatTree (180 switches)"
180 3.8144
e
