# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 21: routing success vs fraction of failed links.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "250 switches of 10 ports (8 fabric): success under link failures"
set xlabel "fraction of links failed"
set ylabel "pairs delivered (all ordered pairs, 3 seeds)"
set grid
set key bottom left
set yrange [0:1.05]
plot dat using (strcol(2) eq "1hop" ? $1 : 1/0):3 with linespoints title "S2 1-hop greedy", \
     dat using (strcol(2) eq "2hop-sim" ? $1 : 1/0):3 with linespoints title "S2 2-hop (authors' simulator)", \
     dat using (strcol(2) eq "2hop" ? $1 : 1/0):3 with linespoints title "S2 2-hop (paper wording)", \
     dat using (strcol(2) eq "2hop" ? $1 : 1/0):4 with linespoints title "S2 with shortcut discovery (of connected pairs)", \
     base using (strcol(2) eq "swdc-2hop" ? $1 : 1/0):3 with linespoints dashtype 2 title "SWDC 2D, 2-hop greedy", \
     base using (strcol(2) eq "swdc-1hop" ? $1 : 1/0):3 with linespoints dashtype 2 title "SWDC 2D, 1-hop greedy", \
     base using (strcol(2) eq "jellyfish-path" ? $1 : 1/0):3 with linespoints dashtype 2 title "Jellyfish, pre-computed shortest path", \
     "-" using 1:2 with points pointtype 7 pointsize 1.2 title "paper at 0.2: S2 0.85, SWDC 0.70, Jellyfish 0.59"
0.2 0.85
0.2 0.70
0.2 0.59
e
