# written by rs-report; run: gnuplot plot-latency-fork-during-io.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-latency-fork-during-io.svg'
set datafile separator '\t'
set title 'fork-during-io: io-class fault latency CDF (runs pooled)'
set key outside right top
set grid ytics
set logscale x
set xlabel 'fault latency (µs)'
set ylabel 'fraction of faults <= x'
set yrange [0:1.02]
plot 'plot-latency-fork-during-io.dat' index 0 using 1:2 with linespoints lw 2 title 'stock', \
     'plot-latency-fork-during-io.dat' index 1 using 1:2 with linespoints lw 2 title 'rfc', \
     'plot-latency-fork-during-io.dat' index 2 using 1:2 with linespoints lw 2 title 'v2', \
     'plot-latency-fork-during-io.dat' index 3 using 1:2 with linespoints lw 2 title 'anon-only'
