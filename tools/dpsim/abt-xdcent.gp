# SPDX-License-Identifier: GPL-2.0
# ABT under server failures (the XDCent paper's Fig. 11, whose curve is not
# legible): "tests/test_xdcent abt" output, two data blocks.
# gnuplot -e "dat='abt.dat'; svg='out.svg'" abt-xdcent.gp
set terminal svg size 640,420 dynamic font "sans,12"
set output svg
set title "ABT per live server, all-to-all, mode hash (5 failure sets per point)"
set xlabel "failed servers (%)"
set ylabel "ABT / live servers (link units)"
set key top right
set grid
set yrange [0:*]
plot dat index 0 using 1:2 with linespoints title "XDCent (4,2,3), 256 servers", \
     dat index 1 using 1:2 with linespoints title "BCube (4,2), 64 servers"
