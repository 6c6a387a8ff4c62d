# written by rs-report; run: gnuplot plot-latency-app-start.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-latency-app-start.svg'
set datafile separator '\t'
set title 'app-start: op latency of the hi class, fraction above x (runs pooled)'
set key outside right top
set grid ytics
set logscale xy
set format y '%g'
set xlabel 'latency (µs)'
set ylabel 'fraction above x (log)'
set yrange [*:1.5]
set grid xtics ytics
plot 'plot-latency-app-start.dat' index 0 using 1:2 with lines lw 2 title 'stock', \
     'plot-latency-app-start.dat' index 1 using 1:2 with lines lw 2 title 'rfc', \
     'plot-latency-app-start.dat' index 2 using 1:2 with lines lw 2 title 'stock-aa'
