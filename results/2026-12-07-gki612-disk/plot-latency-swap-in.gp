# written by rs-report; run: gnuplot plot-latency-swap-in.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-latency-swap-in.svg'
set datafile separator '\t'
set title 'swap-in: op latency of the swap class, fraction above x (runs pooled)'
set key outside right top
set grid ytics
set logscale xy
set format y '%g'
set xlabel 'latency (µs)'
set ylabel 'fraction above x (log)'
set yrange [*:1.5]
set grid xtics ytics
plot 'plot-latency-swap-in.dat' index 0 using 1:2 with lines lw 2 title 'stock', \
     'plot-latency-swap-in.dat' index 1 using 1:2 with lines lw 2 title 'rfc', \
     'plot-latency-swap-in.dat' index 2 using 1:2 with lines lw 2 title 'stock-aa'
