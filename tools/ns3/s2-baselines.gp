# SPDX-License-Identifier: GPL-2.0
# The S2 paper's baselines on ns-3 beside S2 (eval-baselines.sh; S2's
# own runs from eval-s2.sh in s2): Fig. 12 (fat-tree configurations),
# Fig. 13 (SWDC configuration), Fig. 14 (250 switches, 500 servers),
# Fig. 17 (per-flow completion).  Bars: the spread over seeds 1-3;
# Fig. 13's and 14's lines: k = 1, 8 the mean of seeds 1-3, k = 2, 4
# seed 1.
set terminal svg size 1200,900 dynamic font "sans,11"
set output svg
set datafile missing "?"
set multiplot layout 2,2
set grid
set title "Fig. 12: fat-tree configurations (seeds 1-3)"
set ylabel "throughput (% of line rate per host)"
set yrange [0:100]
set xrange [-0.5:3.5]
set key top left opaque box
set style fill solid 0.4
set boxwidth 0.35
plot dir."/fig12.dat" using ($0-0.18):2:xticlabels(1) with boxes \
	title "FatTree (ECMP, simulator)", \
     "" using ($0-0.18):2:3:4 with yerrorbars lc black pt 0 notitle, \
     "" using ($0+0.18):5 with boxes title "S2 (our core)", \
     "" using ($0+0.18):5:6:7 with yerrorbars lc black pt 0 notitle
unset boxwidth
set style fill empty
set xrange [0.8:10]
set key noopaque nobox
set logscale x 2
set xtics (1, 2, 4, 8)
set xlabel "paths per flow"
set title "Fig. 13: SWDC configuration (6 ports, 1 server/switch)"
set key bottom right
plot dir."/fig13.dat" using 1:2 with linespoints pt 4 lw 2 \
	title "SWDC 1D ring, 400", \
     "" using 1:3 with linespoints pt 6 lw 2 title "SWDC 2D torus, 400", \
     "" using 1:4 with linespoints pt 8 lw 2 title "SWDC 3D hex, 400", \
     "" using 1:5 with linespoints pt 7 lw 2 title "S2, 400", \
     s2."/swdc.dat" using 1:2 with linespoints pt 7 lw 1 dt 2 \
	title "S2, 250 (eval-s2.sh)"
set title "Fig. 14: 250 switches x (10 + 2), 500 servers"
plot s2."/bulk.dat" using 1:2 with linespoints pt 7 lw 2 title "S2", \
     dir."/fig14.dat" using 1:2:3:4 with yerrorbars pt 7 lc 1 \
	title "S2, seeds 1-3", \
     "" using 1:5 with linespoints pt 6 lw 2 lc 2 title "SWDC 2D", \
     "" using 1:5:6:7 with yerrorbars pt 6 lc 2 notitle, \
     "" using 1:8 with linespoints pt 8 lw 2 lc 3 title "Jellyfish", \
     "" using 1:8:9:10 with yerrorbars pt 8 lc 3 notitle
unset logscale x
set xrange [*:*]
set xtics autofreq
set title "Fig. 17: per-flow completion, 1.6 MB at 100 Mb/s"
set xlabel "completion time (s)"
set ylabel "fraction of flows"
set yrange [0:1.05]
set key bottom right
plot for [k in "1 8"] s2."/fig17-k".k.".dat" using 1:2 with steps lw 2 \
	title "S2, ".k." path".(k eq "1" ? "" : "s"), \
     for [k in "1 8"] dir."/fig17-swdc-k".k.".dat" using 1:2 with steps \
	lw 2 dt 2 title "SWDC 2D, ".k." path".(k eq "1" ? "" : "s"), \
     for [k in "1 8"] dir."/fig17-jf-k".k.".dat" using 1:2 with steps \
	lw 2 dt 3 title "Jellyfish, ".k." path".(k eq "1" ? "" : "s")
unset multiplot
