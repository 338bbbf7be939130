# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 21: routing success vs fraction of failed links.
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "S2, 250 switches of 10 ports: success under link failures"
set xlabel "fraction of links failed"
set ylabel "pairs delivered (all ordered pairs, 3 seeds)"
set grid
set key bottom left
set yrange [0:1.05]
plot dat using (strcol(2) eq "1hop" ? $1 : 1/0):3 with linespoints title "1-hop greedy", \
     dat using (strcol(2) eq "2hop-sim" ? $1 : 1/0):3 with linespoints title "2-hop (authors' simulator)", \
     dat using (strcol(2) eq "2hop" ? $1 : 1/0):3 with linespoints title "2-hop (paper wording)", \
     dat using (strcol(2) eq "2hop" ? $1 : 1/0):4 with linespoints title "with shortcut discovery (of connected pairs)"
