# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 9: minimum bisection bandwidth (switch-level halvings,
# 20 per network) vs switches; isolated markers: the fat trees and
# Jellyfish with the paper's 24/48-port switches (eval-throughput.sh).
set terminal svg size 720,460 dynamic font "sans,12"
set output svg
set title "Bisection bandwidth (min of 20 random halvings, links)"
set xlabel "switches"
set ylabel "max-flow between the halves (unit links)"
set grid
set key bottom right font ",10"
set xrange [50:5000]
set logscale xy
sel(r, f, c) = (strcol(1) eq r && strcol(2) eq f) ? column(c) : 1/0
plot dat using (sel("4.8","s2",3)):9 with points pt 6 lc 1 title "S2, 4.8:1, 16 fabric ports", \
     dat using (sel("4.8","jellyfish",3)):9 with points pt 1 lc 2 title "Jellyfish, 4.8:1, 16", \
     dat using (sel("12.8","s2",3)):9 with points pt 4 lc 3 title "S2, 12.8:1, 16 fabric ports", \
     dat using (sel("12.8","jellyfish",3)):9 with points pt 2 lc 4 title "Jellyfish, 12.8:1, 16", \
     dat using (sel("4.8","jellyfish-paper",3)):9 with points pt 9 ps 1.5 lc 2 title "Jellyfish, 24-port (19.2)", \
     dat using (sel("12.8","jellyfish-paper",3)):9 with points pt 11 ps 1.5 lc 4 title "Jellyfish, 48-port (35.2)", \
     dat using (sel("4.8","fattree",3)):9 with points pt 13 ps 1.8 lc 7 title "FatTree k=24", \
     dat using (sel("12.8","fattree",3)):9 with points pt 5 ps 1.8 lc 7 title "FatTree k=48"
