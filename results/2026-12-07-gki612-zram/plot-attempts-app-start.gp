# written by rs-report; run: gnuplot plot-attempts-app-start.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-attempts-app-start.svg'
set datafile separator '\t'
set title 'app-start: faults by attempts (median of runs, log scale)'
set key outside right top
set grid ytics
set datafile missing 'n/a'
set ylabel 'faults'
set logscale y
set yrange [0.5:1.50876e+06]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.75
set xtics rotate by -30 left
plot 'plot-attempts-app-start.dat' using 2:xtic(1) title columnheader(2), \
     'plot-attempts-app-start.dat' using 3 title columnheader(3), \
     'plot-attempts-app-start.dat' using 4 title columnheader(4), \
     'plot-attempts-app-start.dat' skip 1 using ($0 + (0 - 1.0) / 4.0):(valid(2) && $2 > 0.7 ? $2 : 0.7):(valid(2) ? sprintf('%g', $2) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-app-start.dat' skip 1 using ($0 + (1 - 1.0) / 4.0):(valid(3) && $3 > 0.7 ? $3 : 0.7):(valid(3) ? sprintf('%g', $3) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-app-start.dat' skip 1 using ($0 + (2 - 1.0) / 4.0):(valid(4) && $4 > 0.7 ? $4 : 0.7):(valid(4) ? sprintf('%g', $4) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle
