# SPDX-License-Identifier: GPL-2.0
# S2 paper Fig. 5: a switch's number of routing paths against the sum
# over spaces of the log of its control-area size (eval-s2load.py
# switches --dat: "coords seed switch sumlog load", a block per network).
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "S2, 250 switches of 10 ports (L = 4), seed 1, 2-hop (simulator)"
set xlabel "sum over spaces of log(control area size)"
set ylabel "routing paths through the switch"
set grid
set key top right
plot dat index 0 using 4:5 with points pt 7 ps 0.5 title "random coordinates", \
     dat index 1 using 4:5 with points pt 6 ps 0.6 title "balanced random"
