# written by rs-report; run: gnuplot plot-fallback-causes.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-fallback-causes.svg'
set datafile separator '\t'
set title 'mmap_lock fallbacks after file or swap I/O (median of runs, log scale; each bar labelled, a 0 at the floor)'
set key outside right top
set grid ytics
set datafile missing 'n/a'
set ylabel 'fallbacks per run'
set logscale y
set yrange [0.5:557800]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.75
set xtics rotate by -30 left
plot 'plot-fallback-causes.dat' using 2:xtic(1) title columnheader(2), \
     'plot-fallback-causes.dat' using 3 title columnheader(3), \
     'plot-fallback-causes.dat' using 4 title columnheader(4), \
     'plot-fallback-causes.dat' skip 1 using ($0 + (0 - 1.0) / 4.0):(valid(2) && $2 > 0.7 ? $2 : 0.7):(valid(2) ? sprintf('%g', $2) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-fallback-causes.dat' skip 1 using ($0 + (1 - 1.0) / 4.0):(valid(3) && $3 > 0.7 ? $3 : 0.7):(valid(3) ? sprintf('%g', $3) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-fallback-causes.dat' skip 1 using ($0 + (2 - 1.0) / 4.0):(valid(4) && $4 > 0.7 ? $4 : 0.7):(valid(4) ? sprintf('%g', $4) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle
